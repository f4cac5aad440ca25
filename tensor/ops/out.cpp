// Note [out=]: PyTorch's torch.f(..., out=t) runs f's out variant, which
// writes into t and returns it. gpulab computes f as usual and writes the
// result into t, with the out variants' rules: no autograd through it, a
// dtype t can hold (the same one for the matrix products), t's device, and
// t resized to the result's shape (PyTorch warns when t had elements). The
// elementwise ops write into t itself (Note [out= written in place], out.h);
// the others compute a temporary that is copied, as a TensorIterator op's
// would be for a strided t.
#include "tensor/autograd/saved.h"
#include "tensor/ops/out.h"
#include <string>
#include <unordered_set>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/inplace.h"
#include "tensor/ops/promote.h"

namespace gl {

namespace {

// Out variants that want out's dtype to be the result's, with the message
// each gives (the others cast as TensorIterator does: out must hold the result).
std::string dtype_mismatch(const std::string& f, const Tensor& out, const Tensor& r) {
  if (out.dtype() == r.dtype()) return "";
  static const std::unordered_set<std::string> exact = {
      "matmul", "mm",   "bmm",  "mv",        "addmm",  "softmax", "log_softmax", "gather", "tril",
      "triu",   "diag", "norm", "index_add", "argmax", "argmin",  "argsort",     "sort",   "topk"};
  const std::string od = dtype_legacy_name(out.dtype()), rd = dtype_legacy_name(r.dtype());
  if (f == "dot") return cat("result dtype ", od, " does not match input dtype ", rd);
  if (f == "index_select" || f == "masked_select") return cat(f, "(): self and result must have the same scalar type");
  if (f == "take")
    return cat("take(): self and out expected to have the same dtype, but got self.dtype = ", rd,
               " and out.dtype = ", od);
  if (f == "amax" || f == "amin")
    return cat("Expected the dtype for input and out to match, but got ", rd, " for input's dtype and ", od,
               " for out's dtype.");
  if (f == "nonzero") return cat("nonzero: Expected out tensor to have scalar type Long but got scalar type", od);
  if (exact.count(f))
    return cat("Expected out tensor to have dtype ", dtype_cpp_name(r.dtype()), ", but got ",
               dtype_cpp_name(out.dtype()), " instead");
  return "";
}

}  // namespace

namespace {
thread_local OutScope* t_call = nullptr;  // the innermost bound call with out=
}  // namespace

OutScope::OutScope(const std::string& fname, const Tensor& out, std::vector<Tensor> args)
    : fname_(fname), out_(out), args_(std::move(args)), previous_(t_call) {
  t_call = this;
}

OutScope::~OutScope() { t_call = previous_; }

const Tensor* claim_out(const char* op, const Shape& shape, DType dtype, Device device,
                        std::initializer_list<const Tensor*> inputs) {
  OutScope* c = t_call;
  if (!c || c->claimed_ || c->fname_ != op) return nullptr;
  // The entered op: its tensor inputs are the call's tensor arguments, in order.
  if (inputs.size() != c->args_.size()) return nullptr;
  size_t i = 0;
  for (const Tensor* t : inputs)
    if (!t->is_same(c->args_[i++])) return nullptr;
  const Tensor& out = c->out_;
  // It checks out against its inputs as PyTorch's TensorIterator does (Note
  // [Memory overlap]); an out of another shape is resized into fresh memory.
  if (out.sizes() == shape) {
    assert_no_internal_overlap(out);
    for (const Tensor* t : inputs) assert_no_partial_overlap(out, *t);
  }
  if (out.sizes() != shape || out.dtype() != dtype || out.device() != device) return nullptr;
  if (GradMode::enabled() && (out.requires_grad() || any_requires_grad(inputs))) return nullptr;
  std::vector<const Tensor*> args;
  for (const Tensor& a : c->args_) args.push_back(&a);
  if (!may_write_into(out, args)) return nullptr;  // out=x for an input x is written in place
  c->claimed_ = true;
  return &out;
}

Tensor& assign_out(Tensor& out, const Tensor& result, const std::string& fname) {
  Mutation written(out);                // Note [Version counter]
  if (result.is_same(out)) return out;  // Note [out= written in place]
  const std::string mismatch = dtype_mismatch(fname, out, result);
  if (!mismatch.empty()) throw RuntimeError(mismatch);
  if (GradMode::enabled() && result.requires_grad())
    throw RuntimeError(cat(fname,
                           "(): functions with out=... arguments don't support automatic differentiation, but one of "
                           "the arguments requires grad."));
  if (GradMode::enabled() && out.requires_grad() && out.is_leaf())
    throw RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
  if (!can_cast(result.dtype(), out.dtype()))
    throw RuntimeError(cat("result type ", dtype_legacy_name(result.dtype()),
                           " can't be cast to the desired output type ", dtype_legacy_name(out.dtype())));
  if (out.device() != result.device()) {
    // TensorIterator's order: the outputs first, the first non-CPU device is the common one
    const Device common = out.device().is_cpu() ? result.device() : out.device();
    const Device other = common == out.device() ? result.device() : out.device();
    throw RuntimeError(cat("Expected all tensors to be on the same device, but found at least two devices, ",
                           common.str(), " and ", other.str(), "!"),
                       "make out on the inputs' device");
  }
  if (out.sizes() != result.sizes()) {
    if (out.numel() != 0)
      warn(cat("An output with one or more elements was resized since it had shape ", shape_str(out.sizes()),
               ", which does not match the required output shape ", shape_str(result.sizes()),
               ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they "
               "have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
               "with t.resize_(0)."));
    // out takes fresh memory of the new shape; views of its old memory keep it
    Tensor fresh = empty(result.sizes(), {out.dtype(), out.device()});
    TensorImpl& o = *out.impl;
    o.storage = fresh.impl->storage;
    o.sizes = fresh.impl->sizes;
    o.strides = fresh.impl->strides;
    o.offset = fresh.impl->offset;
    o.numel = fresh.impl->numel;
  }
  NoGradGuard ng;
  copy_(out, result);
  return out;
}

}  // namespace gl
