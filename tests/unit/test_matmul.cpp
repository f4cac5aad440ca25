// Matrix products: shapes (1-d, batched, broadcast), transposed operands, all
// float dtypes and int64, empty k, and PyTorch's error texts; cpu and cuda:1.
#include <doctest/doctest.h>
#include <cmath>
#include "unit_util.h"

using namespace gl;
using ut::error_of;
using ut::vals;

namespace {
std::vector<double> seq(int64_t n, double scale = 0.25, double shift = -1) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = double((i * 5) % 7) * scale + shift;
  return v;
}
// Reference row-major product of a [b,m,k] and [b,k,n], given flat host values.
std::vector<double> ref_bmm(const std::vector<double>& a, const std::vector<double>& b, int64_t B, int64_t m, int64_t k,
                            int64_t n) {
  std::vector<double> c(size_t(B * m * n), 0.0);
  for (int64_t z = 0; z < B; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += a[size_t(z * m * k + i * k + p)] * b[size_t(z * k * n + p * n + j)];
        c[size_t(z * m * n + i * n + j)] = s;
      }
  return c;
}
double tol_for(DType d) {
  return d == DType::Float64    ? 1e-12
         : d == DType::Float32  ? 1e-5
         : d == DType::Float16  ? 5e-3
         : d == DType::BFloat16 ? 3e-2
                                : 0;
}
void expect_close(const Tensor& t, const std::vector<double>& ref, double tol) {
  auto v = vals(t);
  REQUIRE(v.size() == ref.size());
  for (size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(v[i] - ref[i]) <= tol * (1 + std::fabs(ref[i])));
  }
}
}  // namespace

TEST_CASE("matmul: mm, addmm, bmm, dot on every float dtype and int64") {
  for (Device d : ut::test_devices())
    for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64}) {
      CAPTURE(d.str());
      CAPTURE(std::string(dtype_name(dt)));
      const double sc = dt == DType::Int64 ? 1 : 0.25, sh = dt == DType::Int64 ? -3 : -1;
      auto av = seq(15, sc, sh), bv = seq(20, sc, sh + 1);
      Tensor a = ut::tens(av, {3, 5}, dt, d), b = ut::tens(bv, {5, 4}, dt, d);
      Tensor c = mm(a, b);
      CHECK(c.sizes() == Shape{3, 4});
      CHECK(c.dtype() == dt);
      CHECK(c.device() == d);
      auto ref = ref_bmm(av, bv, 1, 3, 5, 4);
      expect_close(c, ref, tol_for(dt));
      // Transposed operands: a^T stored as [5,3] then t(), same for b.
      Tensor at = t(contiguous(t(a))), bt = t(contiguous(t(b)));
      CHECK_FALSE(at.is_contiguous());
      expect_close(mm(at, bt), ref, tol_for(dt));
      expect_close(mm(a, bt), ref, tol_for(dt));
      // addmm: beta * bias + alpha * a @ b, bias broadcast over rows.
      Tensor bias = ut::tens({1, 2, 3, 4}, {4}, dt, d);
      std::vector<double> r2(ref.size());
      for (size_t i = 0; i < ref.size(); ++i) r2[i] = 2 * double(1 + i % 4) + (dt == DType::Int64 ? 1 : 0.5) * ref[i];
      if (dt == DType::Int64)
        expect_close(
            addmm(bias, a, b, 2, 1),
            [&] {
              auto r = ref;
              for (size_t i = 0; i < r.size(); ++i) r[i] += 2 * double(1 + i % 4);
              return r;
            }(),
            0);
      else expect_close(addmm(bias, a, b, 2, 0.5), r2, tol_for(dt));
      // bmm over 2 batches with a transposed second operand.
      auto xv = seq(2 * 3 * 5, sc, sh), yv = seq(2 * 5 * 2, sc, sh + 1);
      Tensor x = ut::tens(xv, {2, 3, 5}, dt, d), y = ut::tens(yv, {2, 5, 2}, dt, d);
      Tensor z = bmm(x, y);
      CHECK(z.sizes() == Shape{2, 3, 2});
      expect_close(z, ref_bmm(xv, yv, 2, 3, 5, 2), tol_for(dt));
      Tensor yt = transpose(contiguous(transpose(y, 1, 2)), 1, 2);
      expect_close(bmm(x, yt), ref_bmm(xv, yv, 2, 3, 5, 2), tol_for(dt));
      // dot
      Tensor u = ut::tens({1, 2, 3}, {}, dt, d), w = ut::tens({4, -5, 6}, {}, dt, d);
      Tensor dd = dot(u, w);
      CHECK(dd.dim() == 0);
      CHECK(vals(dd)[0] == 12);
    }
}

TEST_CASE("matmul: matmul shapes, 1-d and batched broadcasting") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    auto o = [&](Shape s) { return ut::tens(seq(numel_of(s)), s, DType::Float64, d); };
    CHECK(matmul(o({3}), o({3})).dim() == 0);
    CHECK(matmul(o({2, 3}), o({3})).sizes() == Shape{2});
    CHECK(matmul(o({3}), o({3, 4})).sizes() == Shape{4});
    CHECK(matmul(o({2, 3}), o({3, 4})).sizes() == Shape{2, 4});
    CHECK(matmul(o({5, 2, 3}), o({3, 4})).sizes() == Shape{5, 2, 4});
    CHECK(matmul(o({2, 3}), o({5, 3, 4})).sizes() == Shape{5, 2, 4});
    CHECK(matmul(o({6, 1, 2, 3}), o({5, 3, 4})).sizes() == Shape{6, 5, 2, 4});
    CHECK(matmul(o({5, 2, 3}), o({3})).sizes() == Shape{5, 2});
    CHECK(matmul(o({3}), o({5, 3, 4})).sizes() == Shape{5, 4});
    // Values: batch-broadcast matmul equals the per-batch products.
    Tensor a = o({2, 1, 2, 3}), b = o({4, 3, 2});
    Tensor c = matmul(a, b);
    REQUIRE(c.sizes() == Shape{2, 4, 2, 2});
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j) {
        Tensor want = mm(select(select(a, 0, i), 0, 0), select(b, 0, j));
        CHECK(vals(select(select(c, 0, i), 0, j)) == vals(want));
      }
    // matrix @ vector equals mm with a column.
    Tensor m = o({4, 3}), v = o({3});
    CHECK(vals(matmul(m, v)) == vals(mm(m, view(v, {3, 1}))));
    CHECK(vals(matmul(v, t(m))) == vals(mm(view(v, {1, 3}), t(m))));
    CHECK(error_of([&] { matmul(o({2, 3}), o({4})); }) == "size mismatch, got input (2), mat (2x3), vec (4)");
    CHECK(error_of([&] { matmul(scalar_tensor(ut::sf(1), DType::Float64, d), o({2})); }) ==
          "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  }
}

TEST_CASE("matmul: empty k gives zeros, empty m/n give empty results") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor a = empty({3, 0}, ut::opts(DType::Float32, d)), b = empty({0, 2}, ut::opts(DType::Float32, d));
    Tensor c = mm(a, b);
    CHECK(c.sizes() == Shape{3, 2});
    CHECK(vals(c) == std::vector<double>(6, 0.0));
    Tensor bias = ones({2}, ut::opts(DType::Float32, d));
    CHECK(vals(addmm(bias, a, b, 1, 1)) == std::vector<double>(6, 1.0));
    CHECK(mm(empty({0, 4}, ut::opts(DType::Float32, d)), ones({4, 2}, ut::opts(DType::Float32, d))).sizes() ==
          Shape{0, 2});
    CHECK(vals(dot(empty({0}, ut::opts(DType::Float32, d)), empty({0}, ut::opts(DType::Float32, d)))) ==
          std::vector<double>{0});
    CHECK(vals(bmm(empty({2, 1, 0}, ut::opts(DType::Float64, d)), empty({2, 0, 3}, ut::opts(DType::Float64, d)))) ==
          std::vector<double>(6, 0.0));
  }
}

TEST_CASE("matmul: error texts") {
  auto f = [](Shape s, DType dt = DType::Float32) { return ones(s, ut::opts(dt)); };
  CHECK(error_of([&] { mm(f({2, 3}), f({4, 1})); }) == "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)");
  CHECK(error_of([&] {
          matmul(f({2, 3}), f({4, 1}));
        }) == "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)");
  CHECK(error_of([&] {
          addmm(f({1}), f({2, 3}), f({4, 1}));
        }) == "addmm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)");
  // Mismatched dtypes: each op's own text, as PyTorch 2.15 prints it.
  CHECK(error_of([&] {
          mm(f({2, 3}), f({3, 1}, DType::Float64));
        }) == "expected m1 and m2 to have the same dtype, but got: float != double");
  CHECK(error_of([&] {
          mm(f({2, 2}, DType::Int64), f({2, 2}));
        }) == "expected m1 and m2 to have the same dtype, but got: long int != float");
  CHECK(error_of([&] {
          mm(f({2, 2}, DType::Float16), f({2, 2}, DType::Int8));
        }) == "expected m1 and m2 to have the same dtype, but got: c10::Half != signed char");
  CHECK(error_of([&] {
          matmul(f({2, 2}, DType::Int64), f({2, 2}));
        }) == "expected m1 and m2 to have the same dtype, but got: long int != float");
  CHECK(error_of([&] {
          matmul(f({3, 2, 2}), f({2, 2}, DType::Float64));
        }) == "expected m1 and m2 to have the same dtype, but got: float != double");
  CHECK(error_of([&] {
          matmul(f({2, 2}, DType::Int64), f({2}));
        }) == "addmv input tensors must have the same dtype, but got Float, Long, and Float");
  CHECK(error_of([&] {
          matmul(f({3, 2, 2}), f({3, 2, 2}, DType::Float64));
        }) == "expected scalar type Float but found Double");
  CHECK(error_of([&] {
          bmm(f({1, 2, 2}), f({1, 2, 2}, DType::Int64));
        }) == "expected scalar type Float but found Long");
  CHECK(error_of([&] {
          mm(f({2, 3}, DType::Int64), f({4, 1}));
        }) == "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)");
  CHECK(error_of([&] {
          bmm(f({3, 2, 3}), f({3, 4, 1}, DType::Float64));
        }) == "Expected size for first two dimensions of batch2 tensor to be: [3, 3] but got: [3, 4].");
  CHECK(error_of([&] {
          addmm(f({2, 2}), f({2, 2}, DType::Int64), f({2, 2}));
        }) == "mat1 and mat2 must have the same dtype, but got Long and Float");
  CHECK(error_of([&] { mm(f({3}), f({3, 1})); }) == "mm: self must be a matrix, got 1-D tensor");
  CHECK(error_of([&] {
          bmm(f({2, 2, 3}), f({3, 3, 1}));
        }) == "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].");
  CHECK(error_of([&] { bmm(f({2, 3}), f({2, 3, 1})); }) == "batch1 must be a 3D tensor");
  CHECK(
      error_of([&] { dot(f({3}), f({4})); }) ==
      "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively");
  CHECK(error_of([&] { dot(f({3}), f({3}, DType::Float64)); }) ==
        "dot : expected both vectors to have same dtype, but found Float and Double");
  CHECK(error_of([&] { dot(f({3, 1}), f({3})); }) == "1D tensors expected, but got 2D and 1D tensors");
  // The same-device rule with PyTorch's generated wording.
  ut::devices();
  Tensor g = ones({2, 3}, ut::opts(DType::Float32, ut::cuda(0)));
  CHECK(error_of([&] {
          mm(g, f({3, 1}));
        }) ==
        "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 "
        "(when checking argument in method wrapper_CUDA_mm)");
  Tensor g1 = ones({3, 1}, ut::opts(DType::Float32, ut::cuda(1)));
  CHECK(error_of([&] { mm(g, g1); }) ==
        "Expected all tensors to be on the same device, but got mat2 is on cuda:1, different from other tensors on "
        "cuda:0 (when checking argument in method wrapper_CUDA_mm)");
}

TEST_CASE("matmul: float32 agrees between cpu and cuda:1 bit for bit") {
  auto av = seq(64 * 48), bv = seq(48 * 32, 0.125, 0.5);
  Tensor c0 = mm(ut::tens(av, {64, 48}), ut::tens(bv, {48, 32}));
  Tensor c1 =
      mm(ut::tens(av, {64, 48}, DType::Float32, ut::cuda(1)), ut::tens(bv, {48, 32}, DType::Float32, ut::cuda(1)));
  CHECK(vals(c0) == vals(c1));
  expect_close(c0, ref_bmm(av, bv, 1, 64, 48, 32), 1e-5);
}
