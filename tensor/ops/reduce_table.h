// The rows of reduce_rows.def as data, indexed by ReduceOp: names, dtype
// policies, empty values, grad_fn names, docs.
#pragma once
#include <cstddef>
#include <string_view>
#include "tensor/core/dtype.h"
#include "tensor/kernels/spec.h"

namespace gl {

enum class ReduceResult : uint8_t { Widen, Same, Index, Bool };
enum class ReduceEmpty : uint8_t { Zero, One, None };
// DimOpt: the binding is generated from the row; Custom: hand-written.
enum class ReduceBind : uint8_t { DimOpt, Custom };

struct ReduceRow {
  const char* name;  // torch.name, x:name(), the errors' name
  const char* trace_name;
  bool arg;  // returns indices (kind Arg)
  ReduceResult result;
  ReduceEmpty empty;
  ReduceBind bind;
  const char* node_all;  // grad_fn name over all elements; nullptr: no autograd
  const char* node_dim;  // grad_fn name over given dims
  bool saves;            // the derivative reads the input or the result
  const char* doc;
};

inline constexpr ReduceRow kReduceRows[] = {
// clang-format off
#define GL_REDUCE(E, name, trace, kind, flag, result, empty, bind, node_all, node_dim, saves, doc, ...)                \
  {#name, trace, std::string_view(#kind) == "Arg", ReduceResult::result, ReduceEmpty::empty, ReduceBind::bind, node_all, \
   node_dim, saves != 0, doc},
#include "tensor/ops/reduce_rows.def"
    // clang-format on
};

inline const ReduceRow& row(ReduceOp op) { return kReduceRows[size_t(op)]; }

// The result's dtype for an input of dtype `in`.
inline DType reduce_result_dtype(ReduceOp op, DType in) {
  switch (kReduceRows[size_t(op)].result) {
    case ReduceResult::Widen: return is_floating(in) ? in : DType::Int64;
    case ReduceResult::Same: return in;
    case ReduceResult::Index: return DType::Int64;
    case ReduceResult::Bool: return in == DType::UInt8 ? DType::UInt8 : DType::Bool;  // PyTorch's any/all
  }
  return in;
}

}  // namespace gl
