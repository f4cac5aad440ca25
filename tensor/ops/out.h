// out= (Note [out=], out.cpp): a function's result written into a tensor the
// caller gave, as PyTorch's out variants write it.
#pragma once
#include <string>
#include "tensor/ops/ops.h"

namespace gl {

// Writes `result`, computed by function `fname`, into `out` and returns out:
// PyTorch's errors for a result that needs a gradient, a dtype out cannot
// hold (the matrix products and some others want out's dtype to be the
// result's, each with its own message, by fname) or another device; out is
// resized to the result's shape, with PyTorch's deprecation warning when it
// had elements.
Tensor& assign_out(Tensor& out, const Tensor& result, const std::string& fname);

}  // namespace gl
