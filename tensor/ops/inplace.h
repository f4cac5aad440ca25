// The rules every in-place op follows (inplace.cpp): when it may run on a
// tensor in a graph, and how its result is written back into self.
#pragma once
#include "tensor/ops/ops.h"

namespace gl {

// An in-place op with no derivative (comparisons, floor_divide, ...) on a
// tensor in a graph would change values its graph may have saved: refused.
void check_no_grad_inplace(const Tensor& self);

// Copies `result` (computed as dtype rt) into self, with PyTorch's errors for
// a dtype self cannot hold or a shape that is not self's.
void write_back(Tensor& self, const Tensor& result, DType rt);

}  // namespace gl
