// The cases of the derivative-row test (test_derivatives.cpp), one per row of
// tensor/autograd/derivative_rows.def, filled in by three files by family:
// derivative_cases_linalg.cpp (products, reductions, scans),
// derivative_cases_shape.cpp (views, joins, indexing) and
// derivative_cases_nn.cpp (elementwise, copies, neural-network functions).
#pragma once
#include <map>
#include "gradcheck.h"
#include "tensor/kernels/dnn.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/random_ops.h"
#include "tensor/ops/shape_extras.h"
#include "tensor/ops/shape_ops.h"
#include "tensor/ops/sort_ops.h"
#include "tensor/runtime/registry.h"

namespace gl::dcases {

using ut::leaf;
using In = std::vector<Tensor>;

struct Case {
  std::function<In(Device)> inputs;
  ut::Fn f;
  const char* error = nullptr;  // backward raises this (no derivative)
  bool zero = false;            // the gradient is zero (a sampler): no finite differences
  double eps = 1e-6, tol = 1e-5;
  // The devices whose op takes this row (all when unset): a library's row
  // where that device's library has the kernel.
  std::function<bool(Device)> on = nullptr;
};

inline const std::vector<double> kA = {0.3, -0.7, 1.2, 0.9, -1.4, 0.55};  // 2x3, distinct
inline const std::vector<double> kB = {0.8, 1.1, -0.6, 0.35, 0.6, -1.3};
inline const std::vector<double> kP = {0.3, 0.7, 1.2, 0.9, 1.4, 0.55};  // positive
inline const std::vector<double> k9 = {0.9, -0.2, 0.4, 0.1, 1.3, -0.8, 0.6, 0.25, -1.1};

inline std::vector<double> wave(int64_t n, double phase) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = std::sin(0.61 * double(i) + phase);
  return v;
}
inline Tensor ints(const std::vector<double>& v, Shape s, Device d) { return ut::tens(v, s, DType::Int64, d); }
inline Tensor mask(Device d) { return ut::tens({1, 0, 1, 0, 0, 1}, {2, 3}, DType::Bool, d); }
inline Tensor f32(const std::vector<double>& v, Shape s, Device d) {
  Tensor t = ut::tens(v, s, DType::Float32, d);
  t.set_requires_grad(true);
  return t;
}
inline Tensor ones_of(const Tensor& t) { return ones(t.sizes(), {t.dtype(), t.device()}); }
inline Device other(Device d) { return d.is_cpu() ? ut::cuda(1) : ut::cpu(); }

// One input of kA's values as 2x3, and as many more as `shapes` name.
inline std::function<In(Device)> A() {
  return [](Device d) { return In{leaf(kA, {2, 3}, d)}; };
}
inline std::function<In(Device)> AB() {
  return [](Device d) { return In{leaf(kA, {2, 3}, d), leaf(kB, {2, 3}, d)}; };
}

using Cases = std::map<std::string, Case>;
void linalg_cases(Cases& c);
void shape_cases(Cases& c);
void nn_cases(Cases& c);

}  // namespace gl::dcases
