// gelu and silu: the rows Gelu, GeluTanh and Silu of op_rows.def behind
// PyTorch's checks, and the derivatives those rows name.
#include <cmath>
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"

namespace gl {

namespace {
// PyTorch dispatches these kernels for floating dtypes only; the error names
// the kernel of the input's device.
void check_floating(const Tensor& x, const char* cpu_kernel, const char* cuda_kernel) {
  if (is_floating(x.dtype())) return;
  throw NotImplementedError(cat('"', x.device().is_cpu() ? cpu_kernel : cuda_kernel, "\" not implemented for '",
                                dtype_legacy_name(x.dtype()), "'"));
}

Tensor times(const Tensor& t, double v) { return binary(BinaryOp::Mul, t, Scalar::from_double(v)); }
Tensor plus(const Tensor& t, double v) { return binary(BinaryOp::Add, t, Scalar::from_double(v)); }
// The kernels' arithmetic type (Note [Reduced-precision math]).
DType opmath(DType d) { return d == DType::Float64 ? d : DType::Float32; }
}  // namespace

Tensor gelu(const Tensor& x, const std::string& approximate) {
  GL_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  check_floating(x, "GeluKernelImpl", "GeluCUDAKernelImpl");
  return unary(approximate == "none" ? UnaryOp::Gelu : UnaryOp::GeluTanh, x);
}

Tensor silu(const Tensor& x) {
  check_floating(x, "silu_cpu", "silu_cuda");
  return unary(UnaryOp::Silu, x);
}

void silu_(Tensor& x) {
  Mutation written(x);  // Note [Version counter]
  check_floating(x, "silu_cpu", "silu_cuda");
  unary_(UnaryOp::Silu, x);
}

// PyTorch's GeluBackward kernels (ActivationGeluKernel.cpp), their steps in their order.
Tensor gelu_backward(const Tensor& g0, const Tensor& x0, bool tanh_form) {
  const DType dt = x0.dtype();
  const Tensor g = to_dtype(g0, opmath(dt)), x = to_dtype(x0, opmath(dt));
  Tensor d;
  if (!tanh_form) {
    const double kBeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;  // 1 / sqrt(2 pi)
    const Tensor cdf = times(plus(unary(UnaryOp::Erf, times(x, M_SQRT1_2)), 1), 0.5);
    const Tensor pdf = times(unary(UnaryOp::Exp, mul(times(x, -0.5), x)), kBeta);
    d = add(cdf, mul(x, pdf));
  } else {
    const double kBeta = M_SQRT2 * M_2_SQRTPI * 0.5;  // sqrt(2 / pi)
    const double kKappa = 0.044715;
    const Tensor x_sq = mul(x, x);
    const Tensor inner = times(add(x, times(mul(x_sq, x), kKappa)), kBeta);
    const Tensor tanh_inner = unary(UnaryOp::Tanh, inner);
    const Tensor left_derivative = times(plus(tanh_inner, 1), 0.5);
    const Tensor tanh_derivative = binary(BinaryOp::Sub, mul(tanh_inner, tanh_inner), Scalar::from_int(1), true);
    const Tensor inner_derivative = times(plus(times(x_sq, 3 * kKappa), 1), kBeta);
    d = add(left_derivative, mul(mul(times(x, 0.5), tanh_derivative), inner_derivative));
  }
  return to_dtype(mul(g, d), dt);
}

// PyTorch's silu_backward: dy * s * (1 + x * (1 - s)), s = sigmoid(x).
Tensor silu_backward(const Tensor& g0, const Tensor& x0) {
  const DType dt = x0.dtype();
  const Tensor g = to_dtype(g0, opmath(dt)), x = to_dtype(x0, opmath(dt));
  const Tensor s = unary(UnaryOp::Sigmoid, x);
  return to_dtype(mul(mul(g, s), plus(mul(x, binary(BinaryOp::Sub, s, Scalar::from_int(1), true)), 1)), dt);
}

}  // namespace gl
