// GradScaler's device steps (amp.h), written with the elementwise ops so that
// one definition serves the CPU and CUDA, and nothing waits for the device.
#include "tensor/ops/amp.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl {
namespace {

void check_one_float(const Tensor& t, const char* name) {
  GL_CHECK(t.numel() == 1, name, " must be a 1-element tensor.");
  GL_CHECK(t.dtype() == DType::Float32, name, " must be a float tensor.");
}

}  // namespace

void amp_non_finite_check_and_unscale_(std::vector<Tensor>& grads, Tensor& found_inf, const Tensor& inv_scale) {
  check_one_float(inv_scale, "inv_scale");
  check_one_float(found_inf, "found_inf");
  NoGradGuard no_grad;
  for (Tensor& g : grads) {
    GL_CHECK(is_floating(g.dtype()),
             "_amp_foreach_non_finite_check_and_unscale_: gradients must be floating point, got ",
             dtype_name(g.dtype()));
    common_device({&g, &found_inf, &inv_scale});
    const Tensor bad = any(unary(UnaryOp::LogicalNot, unary(UnaryOp::IsFinite, g)), std::nullopt, false);
    binary_(BinaryOp::Maximum, found_inf, to_dtype(bad, DType::Float32));
    binary_(BinaryOp::Mul, g, inv_scale);
  }
}

Tensor amp_update_scale_(Tensor& scale, Tensor& growth_tracker, const Tensor& found_inf, double growth_factor,
                         double backoff_factor, int64_t growth_interval) {
  GL_CHECK(growth_tracker.numel() == 1, "growth_tracker must be a 1-element tensor.");
  GL_CHECK(scale.numel() == 1, "current_scale must be a 1-element tensor.");
  GL_CHECK(found_inf.numel() == 1, "found_inf must be a 1-element tensor.");
  GL_CHECK(growth_tracker.dtype() == DType::Int32, "growth_tracker must be an int tensor.");
  GL_CHECK(scale.dtype() == DType::Float32, "current_scale must be a float tensor.");
  GL_CHECK(found_inf.dtype() == DType::Float32, "found_inf must be a float tensor.");
  common_device({&scale, &growth_tracker, &found_inf});
  NoGradGuard no_grad;
  const Tensor overflow = binary(BinaryOp::Ne, found_inf, Scalar::from_double(0.0), false);
  const Tensor successful = binary(BinaryOp::Add, growth_tracker, Scalar::from_int(1), false);
  const Tensor grow = binary(BinaryOp::LogicalAnd, unary(UnaryOp::LogicalNot, overflow),
                             binary(BinaryOp::Eq, successful, Scalar::from_int(growth_interval), false));
  const Tensor grown = binary(BinaryOp::Mul, scale, Scalar::from_double(growth_factor), false);
  const Tensor kept_or_grown = where(binary(BinaryOp::LogicalAnd, grow, unary(UnaryOp::IsFinite, grown)), grown, scale);
  const Tensor new_scale =
      where(overflow, binary(BinaryOp::Mul, scale, Scalar::from_double(backoff_factor), false), kept_or_grown);
  const Tensor zero = scalar_tensor(Scalar::from_int(0), DType::Int32, growth_tracker.device());
  const Tensor new_tracker = where(binary(BinaryOp::LogicalOr, overflow, grow), zero, successful);
  copy_(scale, new_scale);
  copy_(growth_tracker, new_tracker);
  return scale;
}

}  // namespace gl
