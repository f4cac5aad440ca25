// Elementwise ops, unary: every UnaryOp on each dtype it supports, against a
// reference computed here in double. Each op runs on the CPU and on the
// virtual cuda:1, and the two results must be identical. (Binary ops:
// test_elementwise_binary.cpp; in-place, where, clamp: test_elementwise_inplace.cpp.)
#include <doctest/doctest.h>
#include <cmath>
#include <functional>
#include <limits>
#include "elementwise_util.h"
#include <cstring>
#include <vector>
#include "tensor/kernels/cpu/sigmoid_f32.h"
#include "tensor/kernels/functors.h"
#include "tensor/ops/op_table.h"
#include "unit_util.h"

using namespace gl;
using namespace gl::ew_test;
using ut::error_of;
using ut::vals;

namespace {
double round_even(double x) { return std::nearbyint(x); }
// erfinv by bisection on std::erf: slow, simple, independent of the kernel's method.
double erfinv_ref(double y) {
  if (std::isnan(y) || std::fabs(y) > 1) return NAN;
  if (std::fabs(y) == 1) return std::copysign(INFINITY, y);
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) (std::erf((lo + hi) / 2) < y ? lo : hi) = (lo + hi) / 2;
  return (lo + hi) / 2;
}

struct UnaryCase {
  UnaryOp op;
  const char* name;
  std::function<double(double)> ref;
  bool ints;  // defined on integer inputs (result stays integer unless `int_to_float`)
  bool int_to_float;
};

const std::vector<UnaryCase>& unary_cases() {
  static const std::vector<UnaryCase> cs = {
      {UnaryOp::Neg, "neg", [](double x) { return -x; }, true, false},
      {UnaryOp::Abs, "abs", [](double x) { return std::fabs(x); }, true, false},
      {UnaryOp::Exp, "exp", [](double x) { return std::exp(x); }, true, true},
      {UnaryOp::Log, "log", [](double x) { return std::log(x); }, true, true},
      {UnaryOp::Log2, "log2", [](double x) { return std::log2(x); }, true, true},
      {UnaryOp::Log1p, "log1p", [](double x) { return std::log1p(x); }, true, true},
      {UnaryOp::Expm1, "expm1", [](double x) { return std::expm1(x); }, true, true},
      {UnaryOp::Sqrt, "sqrt", [](double x) { return std::sqrt(x); }, true, true},
      {UnaryOp::Rsqrt, "rsqrt", [](double x) { return 1 / std::sqrt(x); }, true, true},
      {UnaryOp::Sin, "sin", [](double x) { return std::sin(x); }, true, true},
      {UnaryOp::Cos, "cos", [](double x) { return std::cos(x); }, true, true},
      {UnaryOp::Tan, "tan", [](double x) { return std::tan(x); }, true, true},
      {UnaryOp::Tanh, "tanh", [](double x) { return std::tanh(x); }, true, true},
      {UnaryOp::Sigmoid, "sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, true, true},
      {UnaryOp::Relu, "relu", [](double x) { return std::isnan(x) ? x
                                                    : x > 0       ? x
                                                                  : 0; }, true, false},
      {UnaryOp::Sign, "sign", [](double x) { return double((x > 0) - (x < 0)); }, true, false},
      {UnaryOp::Floor, "floor", [](double x) { return std::floor(x); }, true, false},
      {UnaryOp::Ceil, "ceil", [](double x) { return std::ceil(x); }, true, false},
      {UnaryOp::Round, "round", round_even, true, false},
      {UnaryOp::Trunc, "trunc", [](double x) { return std::trunc(x); }, true, false},
      {UnaryOp::Reciprocal, "reciprocal", [](double x) { return 1 / x; }, true, true},
      {UnaryOp::Square, "square", [](double x) { return x * x; }, true, false},
      {UnaryOp::Erf, "erf", [](double x) { return std::erf(x); }, true, true},
      {UnaryOp::Erfinv, "erfinv", erfinv_ref, true, true},
      {UnaryOp::LogicalNot, "logical_not", [](double x) { return double(x == 0); }, true, false},
      {UnaryOp::IsNan, "isnan", [](double x) { return double(std::isnan(x)); }, true, false},
      {UnaryOp::IsInf, "isinf", [](double x) { return double(std::isinf(x)); }, true, false},
      {UnaryOp::IsFinite, "isfinite", [](double x) { return double(std::isfinite(x)); }, true, false},
  };
  return cs;
}
}  // namespace

TEST_CASE("elementwise: every unary op on float dtypes, cpu and cuda:1") {
  const std::vector<double> in = {-2.5, -1.5, -0.75, -0.5, 0.0, 0.25, 0.5, 1.5, 2.5, 3.0, INFINITY, -INFINITY, NAN};
  for (const auto& c : unary_cases())
    for (DType dt : kFloats) {
      CAPTURE(std::string(c.name));
      CAPTURE(std::string(dtype_name(dt)));
      Tensor out = on_both([&](Device d) { return unary(c.op, ut::tens(in, {}, dt, d)); });
      CHECK(out.dtype() == (unary_returns_bool(c.op) ? DType::Bool : dt));
      std::vector<double> ref;
      for (double x : in) ref.push_back(store(out.dtype(), c.ref(store(dt, x))));
      expect_vals(out, ref, tol(dt) * 4);
    }
}

TEST_CASE("elementwise: every unary op on integer and bool dtypes") {
  const std::vector<double> in = {-7, -2, -1, 0, 1, 3, 5, 100};
  for (const auto& c : unary_cases())
    for (DType dt : kInts) {
      CAPTURE(std::string(c.name));
      CAPTURE(std::string(dtype_name(dt)));
      if (dt == DType::UInt8 && c.op == UnaryOp::Neg) continue;  // wraps; checked below
      Tensor out = on_both([&](Device d) { return unary(c.op, ut::tens(in, {}, dt, d)); });
      DType want = unary_returns_bool(c.op) ? DType::Bool : c.int_to_float ? DType::Float32 : dt;
      CHECK(out.dtype() == want);
      std::vector<double> ref;
      for (double x : in) ref.push_back(store(want, c.ref(store(dt, x))));
      expect_vals(out, ref, want == DType::Float32 ? 1e-6 : 0);
    }
  CHECK(vals(unary(UnaryOp::Neg, ut::tens({1, 0, 255}, {}, DType::UInt8))) == std::vector<double>{255, 0, 1});
  Tensor b = ut::tens({1, 0}, {}, DType::Bool);
  CHECK(vals(unary(UnaryOp::LogicalNot, b)) == std::vector<double>{0, 1});
  CHECK(unary(UnaryOp::Sqrt, b).dtype() == DType::Float32);
  CHECK(error_of([&] {
          unary(UnaryOp::Neg, b);
        }).find("Negation, the `-` operator, on a bool tensor is not supported") == 0);
}

// Note [Vector sigmoid]: the AVX2 loop against the functor it stands in for,
// over a sweep of float32 values, the edges of its range and NaN, and in place.
TEST_CASE("sigmoid_f32 stays within 4 ulp of the functor, and is the functor past its range") {
  std::vector<float> a;
  for (float x = -100.f; x <= 100.f; x += 0.0123f) a.push_back(x);
  for (float x : {-1e30f, -104.f, -88.5f, -88.f, -87.f, -86.99f, 86.99f, 87.f, 88.f, 88.5f, 1e30f, 0.f, -0.f, 1e-30f,
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    a.push_back(x);
  std::vector<float> o(a.size());
  if (!gl::cpu::sigmoid_f32(a.data(), o.data(), int64_t(a.size()))) {
    MESSAGE("no AVX2+FMA here: the functor runs, nothing to compare");
    return;
  }
  gl::UnaryF<gl::UnaryOp::Sigmoid> f;
  int worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = f(a[i]);
    if (std::isnan(want)) {
      CHECK(std::isnan(o[i]));
      continue;
    }
    int32_t wi, gi;
    std::memcpy(&wi, &want, 4);
    std::memcpy(&gi, &o[i], 4);
    worst = std::max(worst, std::abs(wi - gi));
    if (std::abs(wi - gi) > 4) CHECK_MESSAGE(false, "sigmoid(", a[i], "): ", o[i], " against ", want);
  }
  CHECK(worst <= 4);
  std::vector<float> b = a;  // in place (sigmoid_)
  gl::cpu::sigmoid_f32(b.data(), b.data(), int64_t(b.size()));
  for (size_t i = 0; i < a.size(); ++i) CHECK((b[i] == o[i] || (std::isnan(b[i]) && std::isnan(o[i]))));
}
