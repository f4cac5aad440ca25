// out= (Note [out=], out.cpp): a function's result written into a tensor the
// caller gave, as PyTorch's out variants write it.
#pragma once
#include <string>
#include <vector>
#include "tensor/ops/ops.h"

namespace gl {

// Writes `result`, computed by function `fname`, into `out` and returns out:
// PyTorch's errors for a result that needs a gradient, a dtype out cannot
// hold (the matrix products and some others want out's dtype to be the
// result's, each with its own message, by fname) or another device; out is
// resized to the result's shape, with PyTorch's deprecation warning when it
// had elements.
Tensor& assign_out(Tensor& out, const Tensor& result, const std::string& fname);

// Note [out= written in place]: while a bound call with one out= tensor runs
// (an OutScope, opened by the bindings around the call), the op the call
// entered may write its result straight into out, as PyTorch's out variants
// do, instead of into a temporary that assign_out then copies. An op claims
// out (claim_out) when it is the function called (same name, and its inputs
// are the call's tensor arguments), its result has out's shape, dtype and
// device, out shares memory with none of the call's tensors other than as
// their very view (Note [Writing into a given tensor]), and no gradient
// is wanted (so assign_out's errors come before any write and out keeps its
// values). Otherwise the result is a temporary that assign_out copies into out.
const Tensor* claim_out(const char* op, const Shape& shape, DType dtype, Device device,
                        std::initializer_list<const Tensor*> inputs);
class OutScope {
 public:
  OutScope(const std::string& fname, const Tensor& out, std::vector<Tensor> args);
  ~OutScope();
  OutScope(const OutScope&) = delete;
  OutScope& operator=(const OutScope&) = delete;

 private:
  friend const Tensor* claim_out(const char*, const Shape&, DType, Device, std::initializer_list<const Tensor*>);
  const std::string& fname_;
  const Tensor& out_;
  std::vector<Tensor> args_;
  bool claimed_ = false;
  OutScope* previous_;  // the enclosing bound call's
};

}  // namespace gl
