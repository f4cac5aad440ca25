// The in-place rules: the leaf check, the refusal of in-place ops with no
// derivative on tensors in a graph, the write-back of a result into self, and
// the recording of an in-place op for autograd (Note [In-place autograd]).
#include "tensor/ops/inplace.h"
#include "tensor/autograd/node.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/promote.h"

namespace gl {

void check_inplace_leaf(const Tensor& self) {
  if (GradMode::enabled() && self.requires_grad() && self.is_leaf())
    throw RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
}

void check_no_grad_inplace(const Tensor& self) {
  check_inplace_leaf(self);
  if (GradMode::enabled() && self.requires_grad())
    throw NotImplementedError(
        "gpulab does not record this in-place operation on a tensor that requires grad; use the "
        "out-of-place op");
}

void write_back(Tensor& self, const Tensor& result, DType rt) {
  if (!can_cast(rt, self.dtype()))
    throw RuntimeError(cat("result type ", dtype_legacy_name(rt), " can't be cast to the desired output type ",
                           dtype_legacy_name(self.dtype())));
  if (result.sizes() != self.sizes())
    throw RuntimeError(cat("output with shape ", shape_str(self.sizes()), " doesn't match the broadcast shape ",
                           shape_str(result.sizes())));
  copy_(self, result);
}

void write_in_place(Tensor& self, std::initializer_list<const Tensor*> inputs, DType rt,
                    const std::function<Tensor(Tensor* into)>& compute) {
  Mutation written(self);  // Note [Version counter]
  // PyTorch's TensorIterator refuses these before computing (Note [Memory overlap])
  assert_no_internal_overlap(self);
  for (const Tensor* t : inputs) assert_no_partial_overlap(self, *t);
  const bool direct =
      rt == self.dtype() && self.is_contiguous() && may_write_into(self, {inputs.begin(), inputs.end()});
  NoGradGuard ng;
  Tensor r = compute(direct ? &self : nullptr);
  if (!r.is_same(self)) write_back(self, r, rt);
}

// Note [In-place autograd]. PyTorch records an in-place op on a tensor in a
// graph by rewriting the graphs of its views (CopySlices), and its version
// counters refuse a backward that would read a changed saved value. gpulab
// counts versions too (Note [Version counter]) but rewrites no view's graph,
// so it records the op only where no tensor made as a view for autograd sees
// self's storage (nor is self one: Storage::autograd_views). `old`, self's
// value and node as they were, is the op's input; the result's node becomes
// self's. Where no other tensor and no node holds self's storage, the
// result's storage simply becomes self's. Otherwise the result is written
// into self's storage, as PyTorch writes: detached aliases see it, and a node
// that saved the old value fails at backward with PyTorch's version error;
// `old` is then a copy, since the new node may keep it. A view is a clear
// error instead of a wrong gradient.
namespace {
bool sees_autograd_views(const Tensor& self) {
  if (self.grad_fn() && self.grad_fn()->view) return true;
  for (const auto& w : self.storage()->autograd_views)
    if (const auto v = w.lock(); v && v != self.impl && v->storage == self.storage() && v->grad_fn && v->grad_fn->view)
      return true;
  return false;
}
}  // namespace

void inplace_with_grad(Tensor& self, const std::function<Tensor(const Tensor&)>& f) {
  check_inplace_leaf(self);
  Mutation written(self);  // Note [Version counter]: before `old` is saved
  const bool alone = self.impl.use_count() == 1 && self.storage().use_count() == 1 &&
                     !(self.grad_fn() && self.grad_fn()->saves_output);
  if (!alone && sees_autograd_views(self))
    throw NotImplementedError(
        "gpulab cannot record this in-place operation for autograd on a view, or on a tensor that has views; use "
        "the out-of-place form (y = x + 1 instead of x:add_(1))");
  Tensor old(std::make_shared<TensorImpl>(*self.impl));
  old.impl->grad = nullptr;
  old.impl->retains_grad = false;
  old.impl->is_parameter = false;
  if (!alone) {
    NoGradGuard ng;
    Tensor copy = clone(self);
    old.impl->storage = copy.impl->storage;
    old.impl->strides = copy.impl->strides;
    old.impl->offset = copy.impl->offset;
  }
  Tensor r = f(old);
  if (!can_cast(r.dtype(), self.dtype()))
    throw RuntimeError(cat("result type ", dtype_legacy_name(r.dtype()), " can't be cast to the desired output type ",
                           dtype_legacy_name(self.dtype())));
  GL_CHECK(r.sizes() == self.sizes(), "output with shape ", shape_str(self.sizes()),
           " doesn't match the broadcast shape ", shape_str(r.sizes()));
  r = to_dtype(r, self.dtype());
  if (r.is_same(old)) return;
  TensorImpl& s = *self.impl;
  if (alone) {
    s.storage = r.impl->storage;
    s.strides = r.impl->strides;
    s.offset = r.impl->offset;
  } else {
    NoGradGuard ng;
    copy_(self, r);
  }
  s.grad_fn = r.impl->grad_fn;
  s.requires_grad = r.requires_grad();
}

}  // namespace gl
