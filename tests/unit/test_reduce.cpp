// Reductions: every reduction over all dims, one dim, negative dims, keepdim,
// non-contiguous inputs, empty inputs, NaN, integer sums; cpu and cuda:1.
#include <doctest/doctest.h>
#include <cmath>
#include <random>
#include "tensor/kernels/cpu/sum_block.h"
#include "tensor/core/warning.h"
#include "tensor/kernels/merge_dims.h"
#include "tensor/ops/composite.h"
#include "unit_util.h"

using namespace gl;
using ut::error_of;
using ut::vals;

namespace {
// 2x3x4 values 0..23, shifted so there are negatives and a unique max/min per row.
Tensor cube(Device d, DType dt = DType::Float32) {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[size_t(i)] = double((i * 7) % 24) - 10;
  return ut::tens(v, {2, 3, 4}, dt, d);
}
double at(const std::vector<double>& v, int i, int j, int k) { return v[size_t(i * 12 + j * 4 + k)]; }
}  // namespace

TEST_CASE("reduce: sum/mean/prod over all, one and negative dims with keepdim") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = cube(d);
    auto v = vals(x);
    double total = 0;
    for (double e : v) total += e;
    Tensor s = sum(x, {}, false);
    CHECK(s.dim() == 0);
    CHECK(s.device() == d);
    CHECK(vals(s)[0] == total);
    CHECK(vals(mean(x, {}, false))[0] == doctest::Approx(total / 24));
    // sum over dim 1 and over -1, with and without keepdim.
    Tensor s1 = sum(x, {1}, false);
    CHECK(s1.sizes() == Shape{2, 4});
    CHECK(sum(x, {1}, true).sizes() == Shape{2, 1, 4});
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k)
        CHECK(vals(s1)[size_t(i * 4 + k)] == at(v, i, 0, k) + at(v, i, 1, k) + at(v, i, 2, k));
    Tensor sl = sum(x, {-1}, true);
    CHECK(sl.sizes() == Shape{2, 3, 1});
    CHECK(vals(sl)[5] == at(v, 1, 2, 0) + at(v, 1, 2, 1) + at(v, 1, 2, 2) + at(v, 1, 2, 3));
    Tensor s02 = sum(x, {0, -1}, false);
    CHECK(s02.sizes() == Shape{3});
    CHECK(vals(s02)[1] == at(v, 0, 1, 0) + at(v, 0, 1, 1) + at(v, 0, 1, 2) + at(v, 0, 1, 3) + at(v, 1, 1, 0) +
                              at(v, 1, 1, 1) + at(v, 1, 1, 2) + at(v, 1, 1, 3));
    CHECK(error_of([&] { sum(x, {1, -2}, false); }) == "dim 1 appears multiple times in the list of dims");
    CHECK_THROWS_AS(sum(x, {3}, false), IndexError);
    CHECK(vals(mean(x, {0}, true))[0] == (at(v, 0, 0, 0) + at(v, 1, 0, 0)) / 2);
    CHECK(mean(x, {0}, true).sizes() == Shape{1, 3, 4});
    Tensor p = prod(ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d), 1, false);
    CHECK(vals(p) == std::vector<double>{6, 120});
    CHECK(vals(prod(ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d), -2, true)) ==
          std::vector<double>{4, 10, 18});
    CHECK(vals(prod(ut::tens({1, 2, 3, 4}, {}, DType::Float32, d), std::nullopt, false)) == std::vector<double>{24});
    CHECK(
        error_of([&] {
          mean(ut::tens({1, 2}, {}, DType::Int64, d), {}, false);
        }) ==
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
  }
}

TEST_CASE("reduce: amax/amin/argmax/argmin/max_dim/min_dim") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = cube(d);
    auto v = vals(x);
    CHECK(vals(amax(x, std::nullopt, false))[0] == 13);
    CHECK(vals(amin(x, std::nullopt, false))[0] == -10);
    CHECK(ut::ivals(argmax(x, std::nullopt, false))[0] == 17);  // (17*7)%24 == 23
    auto [mx, mi] = max_dim(x, 2, false);
    CHECK(mx.sizes() == Shape{2, 3});
    CHECK(mi.dtype() == DType::Int64);
    auto [nx, ni] = min_dim(x, -1, true);
    CHECK(nx.sizes() == Shape{2, 3, 1});
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        int best = 0, worst = 0;
        for (int k = 1; k < 4; ++k) {
          if (at(v, i, j, k) > at(v, i, j, best)) best = k;
          if (at(v, i, j, k) < at(v, i, j, worst)) worst = k;
        }
        CHECK(vals(mx)[size_t(i * 3 + j)] == at(v, i, j, best));
        CHECK(ut::ivals(mi)[size_t(i * 3 + j)] == best);
        CHECK(vals(nx)[size_t(i * 3 + j)] == at(v, i, j, worst));
        CHECK(ut::ivals(ni)[size_t(i * 3 + j)] == worst);
        CHECK(vals(amax(x, 2, false))[size_t(i * 3 + j)] == at(v, i, j, best));
        CHECK(ut::ivals(argmin(x, -1, false))[size_t(i * 3 + j)] == worst);
      }
    CHECK(amax(x, 0, true).sizes() == Shape{1, 3, 4});
    CHECK(argmax(x, 1, true).sizes() == Shape{2, 1, 4});
    // Ties: the first index, as PyTorch.
    Tensor tie = ut::tens({1, 3, 3, 0, 0}, {}, DType::Float32, d);
    CHECK(ut::ivals(argmax(tie, std::nullopt, false))[0] == 1);
    CHECK(ut::ivals(argmin(tie, 0, false))[0] == 3);
    CHECK(ut::ivals(max_dim(tie, 0, false).second)[0] == 1);
    // Integer dtypes keep their dtype.
    CHECK(amax(cube(d, DType::Int32), 1, false).dtype() == DType::Int32);
    CHECK(vals(amin(cube(d, DType::Int8), std::nullopt, false))[0] == -10);
  }
}

TEST_CASE("reduce: norm, var, any, all") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ut::tens({3, -4, 0, 12}, {2, 2}, DType::Float64, d);
    CHECK(vals(norm(x, 2, {}, false))[0] == doctest::Approx(13));
    CHECK(vals(norm(x, 1, {}, false))[0] == 19);
    CHECK(vals(norm(x, INFINITY, {}, false))[0] == 12);
    CHECK(vals(norm(x, 2, {1}, false)) == std::vector<double>{5, 12});
    CHECK(norm(x, 2, {-1}, true).sizes() == Shape{2, 1});
    CHECK(error_of([&] {
            norm(ut::tens({1}, {}, DType::Int64, d), 2, {}, false);
          }).find("linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long") == 0);
    Tensor y = ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d);
    CHECK(vals(var(y, {}, false, 1))[0] == doctest::Approx(3.5));
    CHECK(vals(var(y, {}, false, 0))[0] == doctest::Approx(35.0 / 12));
    CHECK(vals(var(y, {1}, false, 1)) == std::vector<double>{1, 1});
    CHECK(vals(var(y, {0}, true, 1)) == std::vector<double>{4.5, 4.5, 4.5});
    CHECK(var(y, {0}, true, 1).sizes() == Shape{1, 3});
    // correction= (PyTorch 2.x): divide by max(N - correction, 0)
    CHECK(vals(var(y, {}, false, 2))[0] == doctest::Approx(17.5 / 4));
    CHECK(vals(var(y, {}, false, 1.5))[0] == doctest::Approx(17.5 / 4.5));
    CHECK(vals(var(y, {1}, false, 3)) == std::vector<double>{INFINITY, INFINITY});
    Tensor b = ut::tens({0, 1, 0, 0, 0, 0}, {2, 3}, DType::Bool, d);
    CHECK(vals(any(b, std::nullopt, false)) == std::vector<double>{1});
    CHECK(vals(all(b, std::nullopt, false)) == std::vector<double>{0});
    CHECK(vals(any(b, 1, false)) == std::vector<double>{1, 0});
    CHECK(vals(any(b, 0, true)) == std::vector<double>{0, 1, 0});
    CHECK(any(b, 0, true).dtype() == DType::Bool);
    // uint8 stays uint8, as PyTorch's any/all; other integers give bool
    Tensor u = ut::tens({0, 3, 0, 0}, {2, 2}, DType::UInt8, d);
    CHECK(any(u, std::nullopt, false).dtype() == DType::UInt8);
    CHECK(vals(any(u, 1, false)) == std::vector<double>{1, 0});
    CHECK(vals(all(u, 0, false)) == std::vector<double>{0, 0});
    CHECK(all(u, 0, false).dtype() == DType::UInt8);
    CHECK(all(ut::tens({1, 2}, {}, DType::Int8, d), std::nullopt, false).dtype() == DType::Bool);
    CHECK(vals(all(ut::tens({1, 2, -1}, {}, DType::Float32, d), std::nullopt, false)) == std::vector<double>{1});
    CHECK(vals(all(ut::tens({1, 0, -1}, {}, DType::Int64, d), 0, false)) == std::vector<double>{0});
  }
}

TEST_CASE("reduce: non-contiguous inputs") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor m = ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d);
    Tensor tt = t(m);  // [[1,4],[2,5],[3,6]]
    CHECK(vals(sum(tt, {1}, false)) == std::vector<double>{5, 7, 9});
    CHECK(vals(sum(tt, {0}, false)) == std::vector<double>{6, 15});
    CHECK(ut::ivals(argmax(tt, 1, false)) == std::vector<int64_t>{1, 1, 1});
    CHECK(vals(amax(slice(m, 1, 0, std::nullopt, 2), 1, false)) == std::vector<double>{3, 6});
    Tensor e = expand(ut::tens({1, 2, 3}, {3}, DType::Float32, d), {4, 3});
    CHECK(vals(sum(e, {0}, false)) == std::vector<double>{4, 8, 12});
    CHECK(vals(prod(e, 1, false)) == std::vector<double>{6, 6, 6, 6});
  }
}

TEST_CASE("reduce: empty tensors and NaN") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor e = empty({0}, ut::opts(DType::Float32, d));
    CHECK(vals(sum(e, {}, false)) == std::vector<double>{0});
    CHECK(vals(prod(e, std::nullopt, false)) == std::vector<double>{1});
    CHECK(std::isnan(vals(mean(e, {}, false))[0]));
    CHECK(vals(any(e, std::nullopt, false)) == std::vector<double>{0});
    CHECK(vals(all(e, std::nullopt, false)) == std::vector<double>{1});
    CHECK(error_of([&] {
            amax(e, std::nullopt, false);
          }).find("Expected reduction dim to be specified for input.numel() == 0") != std::string::npos);
    CHECK_THROWS_AS(argmax(e, std::nullopt, false), IndexError);
    Tensor e2 = empty({0, 3}, ut::opts(DType::Float32, d));
    CHECK(vals(sum(e2, {0}, false)) == std::vector<double>{0, 0, 0});
    CHECK(amax(e2, 1, false).sizes() == Shape{0});
    Tensor n = ut::tens({1, NAN, 3, -INFINITY}, {2, 2}, DType::Float32, d);
    CHECK(std::isnan(vals(sum(n, {}, false))[0]));
    CHECK(std::isnan(vals(amax(n, std::nullopt, false))[0]));
    CHECK(std::isnan(vals(amin(n, std::nullopt, false))[0]));
    auto am = vals(amax(n, 1, false));
    CHECK(std::isnan(am[0]));
    CHECK(am[1] == 3);
    CHECK(ut::ivals(argmax(n, std::nullopt, false))[0] == 1);
    CHECK(ut::ivals(argmin(n, std::nullopt, false))[0] == 1);
    CHECK(ut::ivals(max_dim(n, 1, false).second)[0] == 1);
    CHECK(vals(amin(n, 0, false))[0] == 1);
    CHECK(vals(amin(ut::tens({1, -INFINITY}, {}, DType::Float32, d), 0, false))[0] == -INFINITY);
  }
}

TEST_CASE("reduce: integer and bool sums are int64") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    for (DType dt : {DType::Bool, DType::UInt8, DType::Int8, DType::Int16, DType::Int32, DType::Int64}) {
      CAPTURE(std::string(dtype_name(dt)));
      Tensor x = ut::tens({1, 1, 1, 0, 1}, {}, dt, d);
      Tensor s = sum(x, {}, false);
      CHECK(s.dtype() == DType::Int64);
      CHECK(ut::ivals(s)[0] == 4);
    }
    // No overflow at the input's width.
    Tensor big = full({1000}, ut::si(100), ut::opts(DType::Int8, d));
    CHECK(ut::ivals(sum(big, {}, false))[0] == 100000);
    CHECK(sum(big, {}, false, DType::Float64).dtype() == DType::Float64);
    CHECK(prod(ut::tens({2, 3}, {}, DType::Int32, d), std::nullopt, false).dtype() == DType::Int64);
    CHECK(sum(ut::tens({1}, {}, DType::Float16, d), {}, false).dtype() == DType::Float16);
  }
}

TEST_CASE("reduce: 10^6+3 float32 sum is accurate") {
  const int64_t n = 1000003;
  std::vector<double> v(static_cast<size_t>(n));
  std::mt19937 rng(123);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  double exact = 0;
  for (auto& e : v) {
    e = double(u(rng));
    exact += e;
  }
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ut::tens(v, {}, DType::Float32, d);
    double got = vals(sum(x, {}, false))[0];
    CHECK(std::fabs(got - exact) / exact < 1e-6);  // naive float accumulation is off by ~1e-4
    double m = vals(mean(x, {}, false))[0];
    CHECK(std::fabs(m - exact / double(n)) < 1e-6);
    // Along a dim, with a row of 10^6+3 / 1 layout.
    Tensor col = view(x, {n, 1});
    CHECK(std::fabs(vals(sum(col, {0}, false))[0] - exact) / exact < 1e-6);
  }
}

// Reduced dims are merged when they form one dense run (Note in reduce_raw):
// dims around a kept one, size-1 dims, and transposed inputs must give the
// same sums as a plain loop.
TEST_CASE("reduce: merged and unmerged reduced dims agree with a plain loop") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = cube(d);
    auto v = vals(x);
    Tensor s02 = sum(x, {0, 2}, false);  // the kept dim 1 sits between the reduced ones
    REQUIRE(s02.sizes() == Shape{3});
    for (int j = 0; j < 3; ++j) {
      double want = 0;
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 4; ++k) want += at(v, i, j, k);
      CHECK(vals(s02)[size_t(j)] == want);
    }
    Tensor s12 = sum(x, {1, 2}, true);  // dense trailing dims merge into one run
    REQUIRE(s12.sizes() == Shape{2, 1, 1});
    for (int i = 0; i < 2; ++i) {
      double want = 0;
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) want += at(v, i, j, k);
      CHECK(vals(s12)[size_t(i)] == want);
    }
    Tensor t = transpose(x, 0, 2);  // 4x3x2, not contiguous: nothing merges
    double total = 0;
    for (double e : v) total += e;
    CHECK(vals(sum(t, {}, false))[0] == total);
    CHECK(vals(amax(unsqueeze(x, 1), std::nullopt, false))[0] == 13);
    Tensor ones1 = sum(unsqueeze(unsqueeze(x, 0), 2), {0, 2}, false);  // only size-1 dims reduced
    CHECK(ones1.sizes() == Shape{2, 3, 4});
    CHECK(vals(ones1) == v);
  }
}

TEST_CASE("reduce: float16/bfloat16 mean accumulates in float32") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    for (DType dt : {DType::Float16, DType::BFloat16}) {
      Tensor m = mean(ones({100000}, ut::opts(dt, d)), {}, false);
      CHECK(m.dtype() == dt);
      CHECK(vals(m)[0] == 1.0);  // the float16 sum (100000) would overflow to inf
    }
  }
}

// merge_dims serves make_loop, reduce_raw and the CUDA reduction plan.
TEST_CASE("merge_dims: drops size-1 dims and merges runs that are dense for every stride array") {
  int64_t shape[4] = {2, 1, 3, 4};
  int64_t a[4] = {12, 99, 4, 1};  // contiguous (the size-1 dim's stride does not matter)
  int64_t b[4] = {1, 0, 2, 6};    // dense, but in another order: nothing merges
  int64_t* both[2] = {a, b};
  CHECK(merge_dims(4, shape, both, 2) == 3);
  CHECK(shape[0] == 2);
  CHECK(shape[1] == 3);
  CHECK(shape[2] == 4);
  CHECK(b[2] == 6);
  int64_t shape2[4] = {2, 1, 3, 4};
  int64_t c[4] = {12, 99, 4, 1};
  int64_t* one[1] = {c};
  CHECK(merge_dims(4, shape2, one, 1) == 1);
  CHECK(shape2[0] == 24);
  CHECK(c[0] == 1);
  int64_t shape3[2] = {1, 1};
  CHECK(merge_dims(2, shape3, one, 1) == 0);
}

TEST_CASE("reduce: a float32 sum adds blocks of 4096 in 32 float lanes and the blocks in double") {
  // Note [Sums in blocks]: the reference below is that order written out; the
  // AVX2 loop and the portable one must both give it, on 1 thread or many.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 100.f);
  for (int64_t n : {int64_t(5), int64_t(4096 + 31), int64_t(100003)}) {
    CAPTURE(n);
    std::vector<float> x(static_cast<size_t>(n));
    for (auto& e : x) e = u(rng);
    double ref = 0;
    for (int64_t lo = 0; lo < n; lo += 4096) {
      const int64_t hi = std::min(n, lo + 4096);
      float lane[32] = {};
      int64_t i = lo;
      for (; i + 32 <= hi; i += 32)
        for (int k = 0; k < 32; ++k) lane[k] += x[size_t(i + k)];
      double b = 0;
      for (float l : lane) b += l;
      for (; i < hi; ++i) b += x[size_t(i)];
      ref += b;
    }
    Tensor t = from_host(x.data(), {n}, DType::Float32, {DType::Float32, Device(Device::CPU)});
    CHECK(vals(sum(t, {}, false))[0] == double(float(ref)));
    // the same numbers as the rows of a matrix: each row is one inner sum
    Tensor m = view(t, {1, n});
    CHECK(vals(sum(m, {1}, false))[0] == double(float(ref)));
  }
}

TEST_CASE("reduce: the AVX2 block sum and the portable one agree to the bit") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1e3f, 1e3f);
  std::vector<float> x(4096);
  for (auto& e : x) e = u(rng);
  for (int64_t n : {0, 1, 31, 32, 33, 100, 4095, 4096}) {
    CAPTURE(n);
    CHECK(cpu::sum_block_f32(x.data(), n) == cpu::sum_block_f32_portable(x.data(), n));
  }
}

TEST_CASE("var and std warn through gl::warn when the degrees of freedom are <= 0 (Note [Warnings])") {
  static std::vector<std::string> got;
  got.clear();
  set_warn_handler([](const std::string& text, void*) { got.push_back(text); }, nullptr);
  Tensor one = ut::tens({1}, {1}, DType::Float32, ut::cpu());
  (void)stddev(one, {}, false, 1);
  (void)var(ut::tens({1, 2}, {2}, DType::Float32, ut::cpu()), {}, false, 1.5);  // 2 - 1.5 > 0: no warning
  (void)var(ut::tens({1, 2}, {2}, DType::Float32, ut::cpu()), {}, false, 2);
  set_warn_handler(nullptr, nullptr);
  REQUIRE(got.size() == 2);
  CHECK(got[0].rfind("std(): degrees of freedom is <= 0.", 0) == 0);
  CHECK(got[1].rfind("var(): degrees of freedom is <= 0.", 0) == 0);
}
