// Gather and scatter along one indexed axis, for gather, scatter(_add),
// index_add, index_select, take, put and advanced indexing: the op layer
// reduces each to this one description. Over an iteration `shape`:
//   a = self + offset(i, self.strides) + index[i] * self_step
//   b = other + offset(i, other.strides)
//   Gather: *b = *a;  Scatter: *a = *b (or the scalar);  ScatterAdd: *a += *b * alpha;
//   ScatterMul: *a *= *b.
// self.strides are 0 along the indexed axis (the index supplies it); indices
// are already checked and wrapped by the op layer. The offsets and the
// combining math are here once, for the CPU loop and the CUDA kernel.
#pragma once
#include <cstdint>
#include "tensor/kernels/functors.h"
#include "tensor/kernels/spec.h"

namespace gl {

enum class IndexOp : uint8_t { Gather, Scatter, ScatterAdd, ScatterMul };

struct IndexSpec {
  IndexOp op = IndexOp::Gather;
  int ndim = 0;
  int64_t numel = 0;
  int64_t shape[kMaxDims] = {};
  ArgSpec self;           // dtype T
  int64_t self_step = 0;  // elements per index unit
  ArgSpec index;          // int64
  ArgSpec other;          // dtype T (out for Gather, src otherwise)
  bool other_is_scalar = false;
  double value_f = 0;  // the scalar (scatter's value=), in T's category
  int64_t value_i = 0;
  double alpha = 1;  // index_add's alpha (ScatterAdd)
};

// Element offsets (in elements) of position i's self and other operands.
GL_HD inline void index_offsets(const IndexSpec& s, int64_t i, int64_t& a, int64_t& b, int64_t& k) {
  int64_t sa = 0, sb = 0, si = 0;
  for (int d = s.ndim - 1; d >= 0; --d) {
    const int64_t c = i % s.shape[d];
    i /= s.shape[d];
    sa += c * s.self.strides[d];
    sb += c * s.other.strides[d];
    si += c * s.index.strides[d];
  }
  k = si;
  a = sa;
  b = sb;
}

// The value a scatter writes or combines, in T.
template <class T> GL_HD inline T index_source(const IndexSpec& s, const T* other, int64_t b) {
  if (!s.other_is_scalar) return other[b];
  if constexpr (is_float_v<T>) return cast_to<T>(s.value_f);
  else return cast_to<T>(s.value_i);
}

// old (op) v for the accumulating scatters, in T's arithmetic type.
template <class T> GL_HD inline T index_combine(IndexOp op, T old, T v, double alpha) {
  using M = opmath_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return op == IndexOp::ScatterMul ? (old && v) : (old || v);
  } else {
    if (op == IndexOp::ScatterMul) return T(M(old) * M(v));
    if (alpha == 1) return T(M(old) + M(v));
    return T(M(old) + M(v) * cast_to<M>(alpha));  // cast_to: no UB for an out-of-range alpha
  }
}

}  // namespace gl
