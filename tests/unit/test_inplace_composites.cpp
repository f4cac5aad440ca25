// The in-place composites (x:op_(...)) and clamp with tensor bounds, on every
// device: each against its out-of-place form or values PyTorch 2.15 gives.
// Exact PyTorch outputs for the Lua surface: tests/lua/test_b1_*.lua, test_b2_ops.lua.
#include <doctest/doctest.h>
#include <cmath>
#include "tensor/autograd/node.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/random_ops.h"
#include "unit_util.h"
using namespace gl;
using ut::tens;
using ut::vals;

TEST_CASE("clamp_tensor: broadcast, promotion, ties share the gradient, in place keeps the shape") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = tens({0, 0.5, 1}, {3}, DType::Float32, d);
    x.impl->requires_grad = true;
    Tensor lo = tens({0, 0, 0}, {3}, DType::Float32, d), hi = tens({1}, {}, DType::Float32, d);
    lo.impl->requires_grad = true;
    Tensor y = clamp_tensor(x, Other::of(lo), Other::of(hi));
    CHECK(y.grad_fn()->name == "ClampBackward0");
    run_backward(sum(y, {}, false), ones({}, {DType::Float32, d}), false);
    CHECK(vals(x.grad()) == std::vector<double>{0.5, 1, 0.5});  // PyTorch 2.15
    CHECK(vals(lo.grad()) == std::vector<double>{0.5, 0, 0});
    Tensor ints = tens({1, 5, 9}, {3}, DType::Int64, d);
    Tensor r = clamp_tensor(ints, Other::of(tens({2.5}, {}, DType::Float32, d)), Other::of(Scalar::from_int(8)));
    CHECK(r.dtype() == DType::Float32);
    CHECK(vals(r) == std::vector<double>{2.5, 5, 8});
    CHECK(clamp_tensor(tens({1, 5}, {2}, DType::Float32, d), Other::of(tens({2, 6}, {2, 1}, DType::Float32, d)),
                       std::nullopt)
              .sizes() == Shape{2, 2});
    Tensor z = tens({1, 5, 9}, {3}, DType::Float32, d);
    clamp_tensor_(z, Other::of(tens({2, 2, 2}, {3}, DType::Float32, d)), Other::of(tens({8}, {}, DType::Float32, d)));
    CHECK(vals(z) == std::vector<double>{2, 5, 8});
    Tensor w = tens({1, 5}, {2}, DType::Float32, d);
    CHECK(ut::error_of([&] {
            clamp_tensor_(w, Other::of(tens({2, 6}, {2, 1}, DType::Float32, d)), std::nullopt);
          }).find("doesn't match the broadcast shape [2, 2]") != std::string::npos);
  }
}

TEST_CASE("in-place composites equal their out-of-place forms") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    const Tensor base = tens({1.25, -2.5, 3.75, 0.5}, {2, 2}, DType::Float32, d);
    const Tensor idx = tens({1, 0}, {2}, DType::Int64, d);
    const Tensor src = tens({10, 20, 30, 40}, {2, 2}, DType::Float32, d);
    Tensor a = clone(base);
    index_add_(a, 0, idx, src, Scalar::from_int(2));
    CHECK(vals(a) == vals(index_add(base, 0, idx, src, Scalar::from_int(2))));
    CHECK(vals(a) == std::vector<double>{61.25, 77.5, 23.75, 40.5});
    const Tensor sidx = tens({1, 0, 0, 1}, {2, 2}, DType::Int64, d);
    Tensor s = clone(base);
    scatter_(s, 1, sidx, src);
    CHECK(vals(s) == vals(scatter(base, 1, sidx, src)));
    Tensor sv = clone(base);
    scatter_(sv, 0, sidx, Scalar::from_double(7));
    CHECK(vals(sv) == vals(scatter(base, 0, sidx, Scalar::from_double(7))));
    Tensor sa = clone(base);
    scatter_add_(sa, 1, sidx, src);
    CHECK(vals(sa) == vals(scatter_add(base, 1, sidx, src)));
    Tensor m = clone(base);
    masked_assign_(m, tens({1, 0}, {2}, DType::Bool, d), tens({9}, {}, DType::Float32, d));
    CHECK(vals(m) == std::vector<double>{9, 9, 3.75, 0.5});
    Tensor rd = clone(base);
    round_(rd, 1);
    CHECK(vals(rd) == vals(round(base, 1)));
    Tensor sb = clone(base);
    sub_(sb, Other::of(src), Scalar::from_int(2));
    CHECK(vals(sb) == vals(sub(base, Other::of(src), Scalar::from_int(2))));
  }
}

TEST_CASE("bernoulli_ and exponential_: values in range, every device") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor b = zeros({1000}, {DType::Float32, d});
    bernoulli_(b, 0.25, nullptr);
    double ones_ = 0;
    for (double v : vals(b)) {
      CHECK((v == 0 || v == 1));
      ones_ += v;
    }
    CHECK(ones_ > 150);
    CHECK(ones_ < 350);
    Tensor p = tens({0, 1}, {2}, DType::Float32, d), bp = zeros({2}, {DType::Float32, d});
    bernoulli_(bp, p, nullptr);
    CHECK(vals(bp) == std::vector<double>{0, 1});
    Tensor e = zeros({1000}, {DType::Float32, d});
    exponential_(e, 2.0, nullptr);
    double mean = 0;
    for (double v : vals(e)) {
      CHECK(v >= 0);
      mean += v / 1000;
    }
    CHECK(mean > 0.4);  // 1/lambda = 0.5
    CHECK(mean < 0.6);
  }
}

TEST_CASE("linalg_qr: Q orthonormal, R upper triangular, Q R = A") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor A = tens({2, -1, 0, 1, 3, 1, 0, 1, 4, 1, 0, 2}, {4, 3}, DType::Float64, d);
    auto [Q, R] = linalg_qr(A, "reduced");
    CHECK(Q.sizes() == Shape{4, 3});
    CHECK(R.sizes() == Shape{3, 3});
    const auto qr = vals(matmul(Q, R)), a = vals(A);
    for (size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(qr[i] - a[i]) < 1e-12);
    const auto qtq = vals(matmul(transpose(Q, 0, 1), Q));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) CHECK(std::fabs(qtq[size_t(i * 3 + j)] - (i == j)) < 1e-12);
    const auto r = vals(R);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < i; ++j) CHECK(r[size_t(i * 3 + j)] == 0);
  }
}
