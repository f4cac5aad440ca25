// The derivatives of indexing, gather and scatter (Note [Derivative rows] in
// derivatives.h).
#include <algorithm>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"

namespace gl {

// x[items] = value: the old tensor's gradient with a hole where value went.
GL_DERIVATIVE(CopySlices) {
  Tensor g_old = clone(grad);
  Tensor hole = basic_index(g_old, items);
  fill_(hole, Scalar::from_int(0));
  return {g_old, sum_to(clone(basic_index(grad, items)), value_sizes)};
}

GL_DERIVATIVE(IndexBackward0) {
  Tensor z = zeros(self_sizes, {grad.dtype(), grad.device()});
  index_put_(z, indices, grad, true);
  return {z};
}

GL_DERIVATIVE(IndexPutBackward0) {
  Tensor gs = accumulate ? grad : index_put(grad, indices, zeros({}, {grad.dtype(), grad.device()}), false);
  return {gs, sum_to(index(grad, indices), values_sizes)};
}

GL_DERIVATIVE(GatherBackward0) {
  Tensor z = zeros(self_sizes, {grad.dtype(), grad.device()});
  scatter_add_(z, dim, index, grad);
  return {z};
}

GL_DERIVATIVE(ScatterBackward0) {
  Tensor gs = scatter(grad, dim, index, Scalar::from_int(0));
  Tensor gsrc = gather(grad, dim, index);
  if (gsrc.sizes() != src_sizes) {  // src larger than the index: the rest gets no gradient
    Tensor full = zeros(src_sizes, {grad.dtype(), grad.device()});
    Tensor part = full;
    for (int64_t d = 0; d < gsrc.dim(); ++d) part = narrow(part, d, 0, gsrc.size(d));
    copy_(part, gsrc);
    gsrc = full;
  }
  return {gs, gsrc};
}

GL_DERIVATIVE(ScatterBackward1) { return {scatter(grad, dim, index, Scalar::from_int(0))}; }

GL_DERIVATIVE(ScatterAddBackward0) { return {grad, gather(grad, dim, index)}; }

GL_DERIVATIVE(NotImplemented) { throw RuntimeError("derivative for aten::scatter is not implemented"); }

GL_DERIVATIVE(IndexAddBackward0) {
  Tensor gs = grad.dim() ? index_select(grad, dim, index) : reshape(grad, {1});
  gs = binary(BinaryOp::Mul, gs, alpha);
  return {grad, reshape(gs, source_sizes)};
}

GL_DERIVATIVE(TakeBackward0) {
  Tensor z = zeros({numel_of(self_sizes)}, {grad.dtype(), grad.device()});
  scatter_add_(z, 0, reshape(index, {-1}), reshape(contiguous(grad), {-1}));
  return {reshape(z, self_sizes)};
}

// grad's elements back at the positions the mask picked (of the broadcast shape).
GL_DERIVATIVE(MaskedSelectBackward0) {
  Tensor flat = zeros({numel_of(mask_shape)}, {grad.dtype(), grad.device()});
  auto gb = to_host_bytes(grad);
  auto fb = to_host_bytes(flat);
  const size_t isz = itemsize(grad.dtype());
  for (size_t k = 0; k < picked.size(); ++k)
    std::copy_n(gb.begin() + long(k * isz), isz, fb.begin() + long(size_t(picked[k]) * isz));
  Tensor full = from_host(fb.data(), mask_shape, grad.dtype(), {grad.dtype(), grad.device()});
  return {sum_to(full, self_sizes)};
}

GL_DERIVATIVE(MaskedFillBackward) {
  Tensor z = zeros({}, {grad.dtype(), grad.device()});
  Grads grads{to_dtype(sum_to(where(mask, z, grad), self_sizes), self_dtype)};
  // (a 0-d CPU value may fill a tensor on a device: its gradient goes back to the CPU)
  if (has_value) grads.push_back(to(sum_to(where(mask, grad, z), {}), value_device, value_dtype));
  return grads;
}

}  // namespace gl
