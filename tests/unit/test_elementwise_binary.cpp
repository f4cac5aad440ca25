// Elementwise ops, binary: every BinaryOp on every dtype against a reference
// computed here in double; promotion, broadcasting, scalars on either side,
// integer division by zero and overflow, fmod. Each op runs on the CPU and on
// the virtual cuda:1, and the two results must be identical.
#include <doctest/doctest.h>
#include <cmath>
#include <functional>
#include <limits>
#include "elementwise_util.h"
#include "tensor/ops/op_table.h"
#include "unit_util.h"

using namespace gl;
using namespace gl::ew_test;
using ut::error_of;
using ut::vals;

namespace {
double py_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// PyTorch's div_floor_floating (from fmod: inf // x is nan).
double py_floordiv(double a, double b) {
  if (b == 0) return a / b;
  double mod = std::fmod(a, b), q = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) q -= 1;
  if (q == 0) return std::copysign(0.0, a / b);
  double fq = std::floor(q);
  return q - fq > 0.5 ? fq + 1 : fq;
}
struct BinaryCase {
  BinaryOp op;
  const char* name;
  std::function<double(double, double)> ref;
  bool floats, ints;
};
const std::vector<BinaryCase>& binary_cases() {
  static const std::vector<BinaryCase> cs = {
      {BinaryOp::Add, "add", [](double a, double b) { return a + b; }, true, true},
      {BinaryOp::Sub, "sub", [](double a, double b) { return a - b; }, true, true},
      {BinaryOp::Mul, "mul", [](double a, double b) { return a * b; }, true, true},
      {BinaryOp::Div, "div", [](double a, double b) { return a / b; }, true, true},
      {BinaryOp::Pow, "pow", [](double a, double b) { return std::pow(a, b); }, true, true},
      {BinaryOp::Remainder, "remainder", py_mod, true, true},
      {BinaryOp::FloorDivide, "floor_divide", py_floordiv, true, true},
      {BinaryOp::Maximum, "maximum",
       [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); }, true, true},
      {BinaryOp::Minimum, "minimum",
       [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); }, true, true},
      {BinaryOp::Atan2, "atan2", [](double a, double b) { return std::atan2(a, b); }, true, true},
      {BinaryOp::Eq, "eq", [](double a, double b) { return double(a == b); }, true, true},
      {BinaryOp::Ne, "ne", [](double a, double b) { return double(a != b); }, true, true},
      {BinaryOp::Lt, "lt", [](double a, double b) { return double(a < b); }, true, true},
      {BinaryOp::Le, "le", [](double a, double b) { return double(a <= b); }, true, true},
      {BinaryOp::Gt, "gt", [](double a, double b) { return double(a > b); }, true, true},
      {BinaryOp::Ge, "ge", [](double a, double b) { return double(a >= b); }, true, true},
      {BinaryOp::LogicalAnd, "logical_and", [](double a, double b) { return double(a != 0 && b != 0); }, true, true},
      {BinaryOp::LogicalOr, "logical_or", [](double a, double b) { return double(a != 0 || b != 0); }, true, true},
      {BinaryOp::LogicalXor, "logical_xor", [](double a, double b) { return double((a != 0) != (b != 0)); }, true,
       true},
      {BinaryOp::BitAnd, "bitwise_and", [](double a, double b) { return double(int64_t(a) & int64_t(b)); }, false,
       true},
      {BinaryOp::BitOr, "bitwise_or", [](double a, double b) { return double(int64_t(a) | int64_t(b)); }, false, true},
      {BinaryOp::BitXor, "bitwise_xor", [](double a, double b) { return double(int64_t(a) ^ int64_t(b)); }, false,
       true},
  };
  return cs;
}
DType result_dtype(BinaryOp op, DType in) {
  if (is_comparison(op)) return DType::Bool;
  if ((op == BinaryOp::Div || op == BinaryOp::Atan2) && !is_floating(in)) return DType::Float32;
  return in;
}
}  // namespace

TEST_CASE("elementwise: every binary op on every dtype, tensor-tensor and tensor-scalar") {
  const std::vector<double> fa = {-3, -2.5, -1, -0.5, 0, 0.5, 1, 2, 3.75, 7, NAN, INFINITY};
  const std::vector<double> fb = {2, -1.5, 3, 0.25, 1, -2, 4, 0.5, -3, 2.5, 1, 2};
  const std::vector<double> ia = {-7, -3, -1, 0, 1, 2, 3, 5, 6, 11};
  const std::vector<double> ib = {2, -2, 3, 1, 4, -3, 2, 5, -4, 3};
  const std::vector<double> ua = {7, 3, 1, 0, 1, 2, 3, 5, 6, 11};
  const std::vector<double> ub = {2, 2, 3, 1, 4, 3, 2, 5, 4, 3};
  const std::vector<double> pb = {2, 0, 3, 1, 4, 3, 2, 1, 0, 2};  // integer exponents >= 0
  for (const auto& c : binary_cases()) {
    std::vector<DType> dts;
    if (c.floats) dts.insert(dts.end(), std::begin(kFloats), std::end(kFloats));
    if (c.ints) dts.insert(dts.end(), std::begin(kInts), std::end(kInts));
    for (DType dt : dts) {
      CAPTURE(std::string(c.name));
      CAPTURE(std::string(dtype_name(dt)));
      const bool fl = is_floating(dt);
      const auto& A = fl ? fa : dt == DType::UInt8 ? ua : ia;
      const auto& B = !fl && c.op == BinaryOp::Pow ? pb : fl ? fb : dt == DType::UInt8 ? ub : ib;
      const DType rd = result_dtype(c.op, dt);
      const DType cd = is_comparison(c.op) ? dt : rd;  // dtype the math is done in
      std::vector<double> ref;
      for (size_t i = 0; i < A.size(); ++i)
        ref.push_back(store(rd, store(cd, c.ref(store(dt, A[i]), store(dt, B[i])))));
      const double rtol = rd == DType::Float32 && !fl ? 1e-6 : tol(rd) * 2;
      Tensor out = on_both([&](Device d) { return binary(c.op, ut::tens(A, {}, dt, d), ut::tens(B, {}, dt, d)); });
      CHECK(out.dtype() == rd);
      expect_vals(out, ref, rtol);
      // Tensor op Python scalar: the scalar's kind never widens the tensor's dtype within a category.
      const double s = fl ? 2.5 : 3;
      Scalar sc = fl ? ut::sf(s) : ut::si(int64_t(s));
      std::vector<double> rs, rl;
      for (double x : A) {
        rs.push_back(store(rd, store(cd, c.ref(store(dt, x), s))));
        rl.push_back(store(rd, store(cd, c.ref(s, store(dt, x)))));
      }
      Tensor os = on_both([&](Device d) { return binary(c.op, ut::tens(A, {}, dt, d), sc); });
      CHECK(os.dtype() == rd);
      expect_vals(os, rs, rtol);
      if (c.op == BinaryOp::Remainder || c.op == BinaryOp::FloorDivide || c.op == BinaryOp::Pow) {
        if (!fl) continue;  // integer a % 0, and ints to negative powers, are checked separately
      }
      Tensor ol = on_both([&](Device d) { return binary(c.op, ut::tens(A, {}, dt, d), sc, true); });
      CHECK(ol.dtype() == rd);
      expect_vals(ol, rl, rtol);
    }
  }
}

TEST_CASE("elementwise: type promotion of results") {
  auto T = [](DType d) { return ut::tens({1, 2}, {}, d); };
  CHECK(add(T(DType::Int64), T(DType::Float32)).dtype() == DType::Float32);
  CHECK(add(T(DType::Int32), T(DType::Int64)).dtype() == DType::Int64);
  CHECK(add(T(DType::UInt8), T(DType::Int8)).dtype() == DType::Int16);
  CHECK(div(T(DType::Int64), T(DType::Int64)).dtype() == DType::Float32);
  CHECK(vals(div(ut::tens({7}, {}, DType::Int64), ut::tens({2}, {}, DType::Int64))) == std::vector<double>{3.5});
  CHECK(add(T(DType::Float16), T(DType::Float32)).dtype() == DType::Float32);
  CHECK(add(T(DType::Float16), T(DType::BFloat16)).dtype() == DType::Float32);
  CHECK(add(T(DType::Float64), T(DType::Float16)).dtype() == DType::Float64);
  CHECK(add(T(DType::Bool), T(DType::Bool)).dtype() == DType::Bool);
  CHECK(mul(T(DType::Bool), T(DType::Int8)).dtype() == DType::Int8);
  // Scalars: int tensor + float scalar -> default float; float16 tensor + float scalar stays float16.
  CHECK(binary(BinaryOp::Add, T(DType::Int64), ut::sf(0.5)).dtype() == DType::Float32);
  CHECK(binary(BinaryOp::Add, T(DType::Int8), ut::si(1000)).dtype() == DType::Int8);
  CHECK(binary(BinaryOp::Mul, T(DType::Float16), ut::sf(1e10)).dtype() == DType::Float16);
  CHECK(binary(BinaryOp::Add, T(DType::Bool), ut::si(1)).dtype() == DType::Int64);
  CHECK(binary(BinaryOp::Add, T(DType::Bool), ut::sf(1)).dtype() == DType::Float32);
  // Zero-dim tensors take part like scalars unless they are of a higher category.
  Tensor z64 = scalar_tensor(ut::sf(2), DType::Float64, ut::cpu());
  CHECK(add(T(DType::Float32), z64).dtype() == DType::Float32);
  CHECK(add(T(DType::Int32), z64).dtype() == DType::Float64);  // torch: higher-category 0-d keeps its dtype
  CHECK(add(T(DType::Int32), scalar_tensor(ut::si(2), DType::Int64, ut::cpu())).dtype() == DType::Int32);
}

TEST_CASE("elementwise: broadcasting and scalars on either side") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor col = ut::tens({1, 2, 3}, {3, 1}, DType::Float32, d);
    Tensor row = ut::tens({10, 20}, {1, 2}, DType::Float32, d);
    Tensor s = add(col, row);
    CHECK(s.sizes() == Shape{3, 2});
    CHECK(vals(s) == std::vector<double>{11, 21, 12, 22, 13, 23});
    CHECK(vals(sub(row, col)) == std::vector<double>{9, 19, 8, 18, 7, 17});
    Tensor x = ut::tens({1, 2, 4}, {}, DType::Float32, d);
    CHECK(vals(binary(BinaryOp::Sub, x, ut::si(2), true)) == std::vector<double>{1, 0, -2});   // 2 - x
    CHECK(vals(binary(BinaryOp::Div, x, ut::si(2), true)) == std::vector<double>{2, 1, 0.5});  // 2 / x
    CHECK(vals(binary(BinaryOp::Pow, x, ut::si(2), true)) == std::vector<double>{2, 4, 16});   // 2 ** x
    CHECK(vals(binary(BinaryOp::Sub, x, ut::si(2))) == std::vector<double>{-1, 0, 2});
    CHECK(vals(add(x, x, ut::sf(0.5))) == std::vector<double>{1.5, 3, 6});
    // A 0-d CPU tensor combines with a device tensor (and lands on the device).
    Tensor r = mul(x, scalar_tensor(ut::sf(3), DType::Float32, ut::cpu()));
    CHECK(r.device() == d);
    CHECK(vals(r) == std::vector<double>{3, 6, 12});
    // Transposed (non-contiguous) operands.
    Tensor m = ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d);
    CHECK(vals(add(t(m), t(m))) == std::vector<double>{2, 8, 4, 10, 6, 12});
    CHECK(error_of([&] {
            add(x, ut::tens({1, 2}, {}, DType::Float32, d));
          }) == "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
  }
  CHECK(error_of([] {
          add(ut::tens({1, 2}), ut::tens({1, 2}, {}, DType::Float32, ut::cuda(1)));
        }) == "Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu!");
}

TEST_CASE("elementwise: integer division by zero, negative powers") {
  Tensor i = ut::tens({5, -5}, {}, DType::Int64);
  CHECK(error_of([&] { binary(BinaryOp::Remainder, i, ut::si(0)); }) == "ZeroDivisionError");
  CHECK(error_of([&] { binary(BinaryOp::Remainder, i, ut::tens({1, 0}, {}, DType::Int64)); }) == "ZeroDivisionError");
  CHECK(error_of([&] { binary(BinaryOp::FloorDivide, i, ut::tens({0, 1}, {}, DType::Int32)); }) == "ZeroDivisionError");
  CHECK(error_of([&] {
          binary(BinaryOp::Remainder, ut::tens({1, 0}, {}, DType::Int64), ut::si(3), true);
        }) == "ZeroDivisionError");
  CHECK(error_of([&] { binary(BinaryOp::Pow, i, ut::si(-1)); }) ==
        "Integers to negative integer powers are not allowed.");
  // With a tensor exponent PyTorch raises nothing: 5 ** -1 == 0 (torch.tensor([5,-5]) ** torch.tensor([2,-1])).
  CHECK(vals(binary(BinaryOp::Pow, i, ut::tens({2, -1}, {}, DType::Int64))) == std::vector<double>{25, 0});
  // Python-style signs: -5 % 3 == 1, 5 % -3 == -1; float % 0 is nan.
  CHECK(vals(binary(BinaryOp::Remainder, i, ut::si(3))) == std::vector<double>{2, 1});
  CHECK(vals(binary(BinaryOp::Remainder, i, ut::si(-3))) == std::vector<double>{-1, -2});
  CHECK(std::isnan(vals(binary(BinaryOp::Remainder, ut::tens({1.5}), ut::sf(0)))[0]));
  CHECK(vals(div(ut::tens({1, -1, 0}), ut::tens({0, 0, 1})))[0] == INFINITY);
}

// Note [Integer wrap-around]: values from PyTorch 2.15, e.g.
//   python3 -c 'import torch; print(torch.tensor([2**62]) * 4, -torch.tensor([-2**63]))'
// (the sanitizer build fails this case if any of it is signed overflow).
TEST_CASE("elementwise: integer overflow wraps around as in PyTorch") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    const int64_t big = int64_t(1) << 62, min64 = std::numeric_limits<int64_t>::min();
    Tensor a = ut::tens({double(big)}, {1}, DType::Int64, d);
    CHECK(ut::ivals(binary(BinaryOp::Mul, a, ut::si(4))) == std::vector<int64_t>{0});
    Tensor mx = full({1}, ut::si(std::numeric_limits<int64_t>::max()), ut::opts(DType::Int64, d));
    CHECK(ut::ivals(binary(BinaryOp::Add, mx, ut::si(1))) == std::vector<int64_t>{min64});
    Tensor mn = full({1}, ut::si(min64), ut::opts(DType::Int64, d));
    CHECK(ut::ivals(unary(UnaryOp::Neg, mn)) == std::vector<int64_t>{min64});
    CHECK(ut::ivals(unary(UnaryOp::Abs, mn)) == std::vector<int64_t>{min64});
    Tensor p = full({2}, ut::si(int64_t(1) << 40), ut::opts(DType::Int64, d));
    CHECK(ut::ivals(prod(p, std::nullopt, false)) == std::vector<int64_t>{0});
    Tensor i8 = full({1}, ut::si(100), ut::opts(DType::Int8, d));
    CHECK(ut::ivals(binary(BinaryOp::Mul, i8, ut::si(3))) == std::vector<int64_t>{44});
    Tensor i32 = full({1}, ut::si(65536), ut::opts(DType::Int32, d));
    CHECK(ut::ivals(binary(BinaryOp::Mul, i32, i32)) == std::vector<int64_t>{0});
  }
}

// fmod, the recipe's example row (README "Adding an op"): values from PyTorch 2.15.
TEST_CASE("elementwise: fmod keeps the dividend's sign, on every device") {
  Tensor f = on_both([](Device d) {
    return binary(BinaryOp::Fmod, ut::tens({5.5, -5.5, 7, -7}, {}, DType::Float32, d),
                  ut::tens({2, 2, -3, -3}, {}, DType::Float32, d));
  });
  CHECK(vals(f) == std::vector<double>{1.5, -1.5, 1, -1});
  Tensor i = on_both([](Device d) {
    return binary(BinaryOp::Fmod, ut::tens({7, -7, 7, -7}, {}, DType::Int64, d),
                  ut::tens({3, 3, -3, -3}, {}, DType::Int64, d));
  });
  CHECK(i.dtype() == DType::Int64);
  CHECK(ut::ivals(i) == std::vector<int64_t>{1, -1, 1, -1});
  CHECK(error_of([] { binary(BinaryOp::Fmod, ut::tens({1, 2}, {}, DType::Int64), ut::si(0)); }) == "ZeroDivisionError");
  CHECK(std::string(row(BinaryOp::Fmod).name) == "fmod");
}
