// Gradient checks for the autograd unit tests (header only; not a test file):
// gradcheck(name, f, inputs) compares d(sum(f(x) * w))/dx from backward()
// with central finite differences, for every input that requires grad, in
// the inputs' dtype (float64 unless a float32 kernel is under test).
#pragma once
#include <functional>
#include "unit_util.h"

namespace gl::ut {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

inline Tensor leaf(const std::vector<double>& v, Shape s, Device d) {
  Tensor t = ut::tens(v, s, DType::Float64, d);
  t.set_requires_grad(true);
  return t;
}
inline std::vector<double> weights(int64_t n) {
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) w[size_t(i)] = 0.5 + 0.1 * double((i * 3) % 7);
  return w;
}
inline double weighted(const Tensor& out, const std::vector<double>& w) {
  auto v = vals(out);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * w[i];
  return s;
}

// Checks d(sum(f(x) * w))/dx for every input against central differences.
inline void gradcheck(const char* name, const Fn& f, const std::vector<Tensor>& inputs, double eps = 1e-6,
                      double tol = 1e-5) {
  CAPTURE(std::string(name));
  Tensor out = f(inputs);
  REQUIRE(out.grad_fn() != nullptr);
  auto w = weights(out.numel());
  Tensor wt = ut::tens(w, out.sizes(), out.dtype(), out.device());
  if (out.dim() == 0) wt = view(wt, {});
  run_backward(out, wt, false);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& x = inputs[k];
    if (!x.requires_grad()) continue;
    CAPTURE(k);
    REQUIRE(x.grad().defined());
    CHECK(x.grad().sizes() == x.sizes());
    CHECK(x.grad().device() == x.device());
    auto g = vals(x.grad());
    auto base = vals(x);
    for (size_t i = 0; i < base.size(); ++i) {
      std::vector<Tensor> plus, minus;
      for (size_t j = 0; j < inputs.size(); ++j) {
        NoGradGuard ng;
        if (j != k) {
          plus.push_back(detach(inputs[j]));
          minus.push_back(detach(inputs[j]));
          continue;
        }
        auto p = base, m = base;
        p[i] += eps;
        m[i] -= eps;
        plus.push_back(ut::tens(p, x.sizes(), x.dtype(), x.device()));
        minus.push_back(ut::tens(m, x.sizes(), x.dtype(), x.device()));
      }
      double num;
      {
        NoGradGuard ng;
        num = (weighted(f(plus), w) - weighted(f(minus), w)) / (2 * eps);
      }
      CAPTURE(i);
      CHECK(g[i] == doctest::Approx(num).epsilon(tol).scale(1.0));
    }
  }
}

}  // namespace gl::ut
