// The rows of op_rows.def as data, indexed by op: names, docs, grad_fn names.
#pragma once
#include <cstddef>
#include "tensor/kernels/spec.h"

namespace gl {

// Plain: the binding is generated from the row; Custom: hand-written (options).
enum class BindKind : uint8_t { Plain, Custom };

struct UnaryRow {
  const char* name;          // torch.name, x:name(), the trace's op name
  const char* inplace_name;  // name_
  bool inplace;              // x:name_() is published
  const char* node;          // grad_fn name; nullptr: no autograd
  const char* doc;
};

struct BinaryRow {
  const char* name;
  const char* inplace_name;
  BindKind bind;
  bool inplace;
  const char* node;         // grad_fn name, tensor `other`; nullptr: no autograd
  const char* scalar_node;  // grad_fn name, number `other`
  bool saves;               // the derivative reads the inputs
  const char* doc;
};

inline constexpr UnaryRow kUnaryRows[] = {
// clang-format off
#define GL_UNARY(E, name, policy, inplace, node, doc, ...) {#name, #name "_", inplace != 0, node, doc},
#include "tensor/ops/op_rows.def"
    // clang-format on
};
inline constexpr BinaryRow kBinaryRows[] = {
// clang-format off
#define GL_BINARY(E, name, policy, bind, inplace, node, scalar_node, saves, doc, ...) \
  {#name, #name "_", BindKind::bind, inplace != 0, node, scalar_node, saves != 0, doc},
#include "tensor/ops/op_rows.def"
    // clang-format on
};

inline const UnaryRow& row(UnaryOp op) { return kUnaryRows[size_t(op)]; }
inline const BinaryRow& row(BinaryOp op) { return kBinaryRows[size_t(op)]; }

}  // namespace gl
