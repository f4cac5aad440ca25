// PyTorch's result_type: dimensioned tensors outrank zero-dim tensors, which
// outrank Python (Lua) scalars; a lower rank only matters when it brings a
// higher category (bool < integer < floating).
#pragma once
#include <optional>
#include "tensor/core/tensor.h"
#include "tensor/runtime/registry.h"

namespace gl {

struct ResultType {
  std::optional<DType> dim, zero, wrapped;
  void add(const Tensor& t) {
    auto& slot = t.dim() > 0 ? dim : zero;
    slot = slot ? promote_types(*slot, t.dtype()) : t.dtype();
  }
  void add(Scalar s) {
    DType d = s.kind == Scalar::Float ? default_dtype() : s.kind == Scalar::Int ? DType::Int64 : DType::Bool;
    wrapped = wrapped ? promote_types(*wrapped, d) : d;
  }
  static std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
    if (!higher) return lower;
    if (!lower || is_floating(*higher)) return higher;
    if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
    return higher;
  }
  DType get() const { return combine(dim, combine(zero, wrapped)).value_or(default_dtype()); }
};

// PyTorch's canCast: no float -> integral, no non-bool -> bool.
inline bool can_cast(DType from, DType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

inline const DeviceSlot& slot_of(const Tensor& t) { return slot_for(t.device()); }

}  // namespace gl
