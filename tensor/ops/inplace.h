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

// self op= inputs, outside autograd: the result is written straight into self
// when the kernel can (dtype `rt` is self's, self is contiguous, and no input
// shares memory with self unless it is the same view of it: elementwise
// kernels read and write element by element), else computed apart and
// written back. compute(into) runs the op, grad mode off, into `into` if given.
void write_in_place(Tensor& self, std::initializer_list<const Tensor*> inputs, DType rt,
                    const std::function<Tensor(Tensor* into)>& compute);

}  // namespace gl
