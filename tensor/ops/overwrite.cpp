// The Tensor methods zero_, fill_ and copy_: the raw fills and copies of
// copy.cpp, recorded for autograd when self or the source needs a gradient
// (Note [In-place autograd]), with PyTorch's nodes: ZeroBackward0,
// FillBackward2 (a number), FillBackward3 (a 0-dim tensor), CopyBackwards.
// Unrecorded, y = x * 2; y:zero_() kept MulBackward0 and gave x the gradient
// of y before the overwrite.
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {
bool in_graph(const Tensor& self, const Tensor* src) {
  if (!GradMode::enabled() || !is_floating(self.dtype())) return false;
  if (self.requires_grad()) return true;
  // Only the source needs a gradient. A self that shares its memory (a view,
  // p.data) cannot take a node here (PyTorch's CopySlices); it is outside any
  // graph, so the plain write is what such code wants: target.data:copy_(p).
  const bool shared = self.impl.use_count() > 1 || self.storage().use_count() > 1;
  return src && src->requires_grad() && !shared;
}
}  // namespace

void zero_recorded_(Tensor& self) {
  Mutation written(self);  // Note [Version counter]
  check_inplace_leaf(self);
  if (!in_graph(self, nullptr)) return fill_(self, Scalar::from_int(0));
  inplace_with_grad(self, [](const Tensor& old) {
    Tensor r = zeros(old.sizes(), {old.dtype(), old.device()});
    record(r, {old}, ZeroBackward0{});
    return r;
  });
}

void fill_recorded_(Tensor& self, Scalar v, const Tensor* value) {
  Mutation written(self);  // Note [Version counter]
  check_inplace_leaf(self);
  if (!in_graph(self, value)) return fill_(self, v);
  inplace_with_grad(self, [&](const Tensor& old) {
    Tensor r = empty_on(old.sizes(), old.dtype(), old.device());
    fill_(r, v);
    if (value) record(r, {old, *value}, FillBackward3{value->device(), value->dtype()});
    else record(r, {old}, FillBackward2{});
    return r;
  });
}

void copy_recorded_(Tensor& self, const Tensor& src) {
  Mutation written(self);  // Note [Version counter]
  check_inplace_leaf(self);
  if (!in_graph(self, &src)) return copy_(self, src);
  inplace_with_grad(self, [&](const Tensor& old) {
    Tensor r = empty_on(old.sizes(), old.dtype(), old.device());
    {
      NoGradGuard ng;
      copy_(r, src);
    }
    record(r, {old, src}, CopyBackwards{src.sizes(), src.device(), src.dtype()});
    return r;
  });
}

}  // namespace gl
