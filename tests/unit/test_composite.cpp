// Composite ops of tensor/ops/composite.h (the meaning of options that the
// bindings only parse). Expected values are PyTorch 2.15's.
#include <doctest/doctest.h>
#include <cmath>
#include "tensor/autograd/node.h"
#include "tensor/ops/composite.h"
#include "unit_util.h"
using namespace gl;
using ut::error_of;
using ut::ivals;
using ut::tens;
using ut::vals;

namespace {
Tensor i64(const std::vector<double>& v) { return tens(v, {}, DType::Int64); }
}  // namespace

TEST_CASE("composite: div rounding modes") {
  Tensor x = i64({7, -7, 7, -7}), y = i64({2, 2, -2, -2});
  CHECK(ivals(div(x, y, std::string("trunc"))) == std::vector<int64_t>{3, -3, -3, 3});
  CHECK(ivals(div(x, y, std::string("floor"))) == std::vector<int64_t>{3, -4, -4, 3});
  CHECK(div(x, y, std::nullopt).dtype() == DType::Float32);
  CHECK(vals(div(tens({7.5, -7.5}), tens({2}), std::string("trunc"))) == std::vector<double>{3, -3});
  CHECK(error_of([&] { div(x, y, std::string("round")); }) ==
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  Tensor z = i64({7, -7});
  div_(z, Other::of(Scalar::from_int(2)), std::string("trunc"));
  CHECK(ivals(z) == std::vector<int64_t>{3, -3});
}

TEST_CASE("composite: add and sub with alpha") {
  CHECK(ivals(add(i64({1, 2}), Other::of(i64({3, 4})), Scalar::from_int(2))) == std::vector<int64_t>{7, 10});
  CHECK(vals(sub(tens({1, 2}), Other::of(Scalar::from_int(3)), Scalar::from_double(0.5))) ==
        std::vector<double>{-0.5, 0.5});
  CHECK(error_of([] {
          add(i64({1, 2}), Other::of(i64({3, 4})), Scalar::from_double(0.5));
        }) == "For integral input tensors, argument alpha must not be a floating point number.");
  Tensor x = tens({1, 2});
  add_(x, Other::of(tens({1, 1})), Scalar::from_int(3));
  CHECK(vals(x) == std::vector<double>{4, 5});
}

TEST_CASE("composite: masked_fill, where with numbers, clamp_") {
  Tensor m = tens({1, 0}, {}, DType::Bool);
  CHECK(ivals(masked_fill(i64({1, 2}), m, Other::of(Scalar::from_int(9)))) == std::vector<int64_t>{9, 2});
  Tensor w = where(m, Other::of(i64({1, 2})), Other::of(Scalar::from_double(2.5)));
  CHECK(w.dtype() == DType::Float32);
  CHECK(vals(w) == std::vector<double>{1, 2.5});
  Tensor t = tens({1, 5, 9});
  clamp_(t, 2.0, 6.0);
  CHECK(vals(t) == std::vector<double>{2, 5, 6});
}

TEST_CASE("composite: std has its own grad_fn; repeat, unbind, equal, allclose") {
  Tensor x = tens({1, 2, 4});
  x.set_requires_grad(true);
  Tensor s = stddev(x, {}, false, 1);
  CHECK(std::fabs(vals(s)[0] - 1.5275252316519468) < 1e-6);
  CHECK(std::string(s.grad_fn()->name) == "StdBackward0");
  Tensor r = repeat(i64({1, 2}), {2, 2});
  CHECK(r.sizes() == Shape{2, 4});
  CHECK(ivals(r) == std::vector<int64_t>{1, 2, 1, 2, 1, 2, 1, 2});
  auto parts = unbind(tens({1, 2, 3, 4}, {2, 2}), 1);
  REQUIRE(parts.size() == 2);
  CHECK(vals(parts[1]) == std::vector<double>{2, 4});
  CHECK(allclose(tens({1, 2}), tens({1, 2.000001})));
  CHECK(!allclose(tens({1, 2}), tens({1, 2.1})));
  CHECK(!equal(i64({1, 2}), i64({1, 3})));
  CHECK(equal(i64({1, 2}), i64({1, 2})));
  CHECK(scalar_default_dtype(Scalar::from_double(1.5)) == DType::Float32);
}

TEST_CASE("composite: one leaf check for in-place ops, uniform_ and normal_ included") {
  Tensor x = tens({1, 2});
  x.set_requires_grad(true);
  const std::string leaf = "a leaf Variable that requires grad is being used in an in-place operation.";
  CHECK(error_of([&] { uniform_(x, 0, 1); }) == leaf);
  CHECK(error_of([&] { normal_(x, 0, 1); }) == leaf);
  CHECK(error_of([&] { clamp_(x, 0.0, 1.0); }) == leaf);
  NoGradGuard ng;
  CHECK(error_of([&] { uniform_(x, 0, 1); }) == "");
}
