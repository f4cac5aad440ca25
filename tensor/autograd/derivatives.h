// Note [Derivative rows]
// The autograd nodes of every differentiable op that is not a row of
// op_rows.def or reduce_rows.def, in one table, as PyTorch's derivatives.yaml
// keeps them: one row per node (derivative_rows.def), its grad_fn name (the
// struct's name) and what it saves. Its derivative, a function of `grad` and
// the saved values returning one gradient per input, is defined in
// derivatives_<family>.cpp, the rows one after another, in this order. A
// forward records its node with
//   record(out, {self, mat2}, MmBackward0{self, mat2});
// and, where PyTorch's name depends on the path taken (the row's comment
// lists its names),
//   record(out, "MaxBackward0", {self}, MaxMinDimBackward{...});
// Saving a value here keeps it alive as long as the graph: save sizes and
// dtypes, not tensors, where the derivative needs no more. A saved output is
// detached (the output itself would own its own node: a cycle that is never
// freed). Adding an op: README "Adding an op".
#pragma once
#include <optional>
#include <vector>
#include "tensor/autograd/node.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/indexing.h"

namespace gl {

using Grads = std::vector<Tensor>;

#define GL_NODE(Name, ...) \
  struct Name { \
    static constexpr const char* kName = #Name; \
    __VA_ARGS__ \
    Grads operator()(const Tensor& grad) const; \
  };

#include "tensor/autograd/derivative_rows.def"

// Defines a row's derivative in derivatives_<family>.cpp.
#define GL_DERIVATIVE(Name) Grads Name::operator()(const Tensor& grad) const

}  // namespace gl
