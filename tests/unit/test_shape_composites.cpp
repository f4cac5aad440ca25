// Composites of tensor/ops/shape_ops.h, sort_ops.h, index_ops.h and
// linalg_extra.h that the Lua tests reach only through the bindings: each
// checked here as a C++ function, on the CPU and a virtual CUDA device.
// Expected values are PyTorch 2.15's (printed by the snippet in each case's comment).
#include <doctest/doctest.h>
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_ops.h"
#include "tensor/ops/sort_ops.h"
#include "unit_util.h"
using namespace gl;
using ut::error_of;
using ut::ivals;
using ut::tens;
using ut::vals;

namespace {
using V = std::vector<double>;
using I = std::vector<int64_t>;
Tensor i64(const V& v, Shape s, Device d) { return tens(v, s, DType::Int64, d); }
Tensor x34(Device d) {  // torch.arange(1., 13.).reshape(3, 4)
  V v(12);
  for (int i = 0; i < 12; ++i) v[size_t(i)] = i + 1;
  return tens(v, {3, 4}, DType::Float32, d);
}
}  // namespace

TEST_CASE("shape composites: triu and tril with positive, zero and negative diagonals") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = x34(d);
    CHECK(vals(triu(x, 1)) == V{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12});
    CHECK(vals(triu(x, -1)) == V{1, 2, 3, 4, 5, 6, 7, 8, 0, 10, 11, 12});
    CHECK(vals(tril(x, 0)) == V{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0});
    CHECK(triu(x, 1).device() == d);
  }
}

TEST_CASE("shape composites: repeat_interleave by a count, by a tensor, and of counts") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    CHECK(vals(repeat_interleave(tens({1, 2, 3}, {3}, DType::Float32, d), 2, std::nullopt)) == V{1, 1, 2, 2, 3, 3});
    Tensor m = i64({1, 2, 3, 4}, {2, 2}, d);
    Tensor r = repeat_interleave(m, i64({1, 2}, {2}, d), int64_t(0));
    CHECK(r.sizes() == Shape{3, 2});
    CHECK(ivals(r) == I{1, 2, 3, 4, 3, 4});
    CHECK(ivals(repeat_interleave(i64({2, 0, 3}, {3}, d))) == I{0, 0, 2, 2, 2});
    CHECK(error_of([&] { repeat_interleave(m, -1, std::nullopt); }) == "Repeats must be non-negative");
  }
}

TEST_CASE("shape composites: meshgrid with ij and xy indexing") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor a = i64({1, 2, 3}, {3}, d), b = i64({4, 5}, {2}, d);
    auto ij = meshgrid({a, b}, "ij");
    CHECK(ij[0].sizes() == Shape{3, 2});
    CHECK(ivals(ij[0]) == I{1, 1, 2, 2, 3, 3});
    CHECK(ivals(ij[1]) == I{4, 5, 4, 5, 4, 5});
    auto xy = meshgrid({a, b}, "xy");
    CHECK(xy[0].sizes() == Shape{2, 3});
    CHECK(ivals(xy[0]) == I{1, 2, 3, 1, 2, 3});
    CHECK(ivals(xy[1]) == I{4, 4, 4, 5, 5, 5});
  }
}

TEST_CASE("shape composites: unflatten, squeeze over several dims, amin over several dims") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    CHECK(unflatten(zeros({2, 12}, ut::opts(DType::Float32, d)), 1, {3, -1}).sizes() == Shape{2, 3, 4});
    CHECK(squeeze_dims(zeros({1, 3, 1, 2}, ut::opts(DType::Float32, d)), {0, 2}).sizes() == Shape{3, 2});
    CHECK(squeeze_dims(zeros({1, 3, 1}, ut::opts(DType::Float32, d)), {0, 1}).sizes() == Shape{3, 1});
    Tensor x = x34(d);
    CHECK(vals(amin_dims(x, {0, 1}, false)) == V{1});
    Tensor k = amin_dims(x, {1}, true);
    CHECK(k.sizes() == Shape{3, 1});
    CHECK(vals(k) == V{1, 5, 9});
  }
}

TEST_CASE("shape composites: linspace and logspace") {
  CHECK(vals(linspace(0, 1, 5, ut::opts(DType::Float32))) == V{0, 0.25, 0.5, 0.75, 1});
  CHECK(vals(logspace(0, 2, 3, 10, ut::opts(DType::Float32))) == V{1, 10, 100});
  CHECK(vals(logspace(0, 3, 4, 2, ut::opts(DType::Float32))) == V{1, 2, 4, 8});
}

TEST_CASE("sort composites: argsort (stable, descending), median, mode") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor y = tens({3, 1, 2, 1}, {4}, DType::Float32, d);
    CHECK(ivals(argsort(y, 0, false, true)) == I{1, 3, 2, 0});
    CHECK(ivals(argsort(y, 0, true, true)) == I{0, 2, 1, 3});
    CHECK(vals(median(tens({3, 1, 2, 4}, {4}, DType::Float32, d))) == V{2});  // the lower median
    auto [v, i] = mode(i64({1, 2, 2, 3, 4, 4, 5, 5}, {2, 4}, d), 1, false);
    CHECK(ivals(v) == I{2, 4});
    CHECK(ivals(i) == I{2, 1});
  }
}

TEST_CASE("index composites: nonzero_tuple, index_put with accumulate, scatter with a reduction") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    auto nz = nonzero_tuple(i64({0, 1, 2, 0}, {2, 2}, d));
    REQUIRE(nz.size() == 2);
    CHECK(ivals(nz[0]) == I{0, 1});
    CHECK(ivals(nz[1]) == I{1, 0});
    Tensor z = zeros({3}, ut::opts(DType::Float32, d));
    CHECK(vals(index_put(z, {i64({0, 2, 0}, {3}, d)}, tens({1, 2, 3}, {3}, DType::Float32, d), true)) == V{4, 0, 2});
    CHECK(vals(z) == V{0, 0, 0});  // index_put is out of place
    Tensor s = scatter(zeros({2, 3}, ut::opts(DType::Float32, d)), 1, i64({2, 0}, {2, 1}, d),
                       tens({5, 6}, {2, 1}, DType::Float32, d));
    CHECK(vals(s) == V{0, 0, 5, 6, 0, 0});
    Tensor sa = scatter(zeros({3}, ut::opts(DType::Float32, d)), 0, i64({0, 0, 2}, {3}, d),
                        tens({1, 2, 3}, {3}, DType::Float32, d), "add");
    CHECK(vals(sa) == V{3, 0, 3});
  }
}

TEST_CASE("linalg composites: one_hot, vector and matrix norms") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor oh = one_hot(i64({0, 2, 1}, {3}, d), 4);
    CHECK(oh.sizes() == Shape{3, 4});
    CHECK(ivals(oh) == I{1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0});
    CHECK(one_hot(i64({0, 2, 1}, {3}, d), -1).sizes() == Shape{3, 3});  // classes from the largest entry
    CHECK(vals(linalg_norm(tens({3, 4}, {2}, DType::Float32, d), std::nullopt, std::nullopt, {}, false)) == V{5});
    Tensor x = x34(d);
    CHECK(vals(matrix_norm(x, "fro", std::nullopt, {-2, -1}, false))[0] == doctest::Approx(25.495098114013672));
    CHECK(vals(matrix_norm(x, "", 1.0, {-2, -1}, false)) == V{24});  // the largest column sum
  }
}

TEST_CASE("composites: eye, cumsum's integer promotion, cumprod, round with decimals, min_all") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    CHECK(vals(eye(2, 3, ut::opts(DType::Float32, d))) == V{1, 0, 0, 0, 1, 0});
    Tensor c = cumsum(tens({1, 2, 3}, {3}, DType::Int32, d), 0, std::nullopt);
    CHECK(c.dtype() == DType::Int64);  // integer cumsums accumulate in int64, as PyTorch's
    CHECK(ivals(c) == I{1, 3, 6});
    CHECK(vals(cumsum(x34(d), 1, std::nullopt)) == V{1, 3, 6, 10, 5, 11, 18, 26, 9, 19, 30, 42});
    CHECK(vals(cumprod(tens({1, 2, 3, 4}, {4}, DType::Float32, d), 0, std::nullopt)) == V{1, 2, 6, 24});
    CHECK(vals(gl::round(tens({1.2345, -2.5, 0.5, 1.5}, {4}, DType::Float32, d), 2)) ==
          V{double(1.23f), -2.5, 0.5, 1.5});
    CHECK(vals(gl::round(tens({-2.5, 0.5, 1.5}, {3}, DType::Float32, d), 0)) == V{-2, 0, 2});  // half to even
    CHECK(vals(min_all(x34(d))) == V{1});
  }
}

TEST_CASE("pooling composites: max and average pooling, indices, padding counted or not") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    V v(16);
    for (int i = 0; i < 16; ++i) v[size_t(i)] = i;
    Tensor x = tens(v, {1, 1, 4, 4}, DType::Float32, d);
    Pool2dOptions two;
    two.kernel = {2, 2};
    CHECK(vals(max_pool2d(x, two)) == V{5, 7, 13, 15});
    CHECK(vals(avg_pool2d(x, two)) == V{2.5, 4.5, 10.5, 12.5});
    CHECK(ivals(max_pool2d_with_indices(x, two).second) == I{5, 7, 13, 15});
    Pool2dOptions pad;
    pad.kernel = {3, 3};
    pad.stride = {1, 1};
    pad.padding = {1, 1};
    V first4 = vals(avg_pool2d(x, pad));
    CHECK(first4[0] == doctest::Approx(1.1111111640930176));
    CHECK(first4[1] == 2.0);
    pad.count_include_pad = false;
    CHECK(vals(avg_pool2d(x, pad))[0] == 2.5);
  }
}
