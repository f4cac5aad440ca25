// The accumulation rules of the reductions, written once: host and device
// code (the CPU loops of kernels/cpu/reduce.cpp, the CUDA kernels of
// kernels/cuda/reduce.cu).
//
// Accumulation: sum and prod of integers and bool in int64 (wrapping), of
// floats in opmath (float for float16/bfloat16/float32), or in double where
// `Wide` (the CPU, so that long sums stay accurate without a second pass).
// max/min propagate NaN; argmax/argmin return the first index of the extreme
// value, NaN counting as the extreme (in any merge order: ties go to the
// smaller index).
#pragma once
#include <limits>
#include "tensor/kernels/functors.h"

namespace gl {

enum class RKind { Sum, Prod, MinMax, Arg, AnyAll };

template <class V> struct ValIdx {
  V v;
  int64_t i;
};

template <class M> GL_HD inline M red_lowest() {
  if constexpr (std::is_floating_point_v<M>) return -std::numeric_limits<M>::infinity();
  else return std::numeric_limits<M>::lowest();
}
template <class M> GL_HD inline M red_highest() {
  if constexpr (std::is_floating_point_v<M>) return std::numeric_limits<M>::infinity();
  else return std::numeric_limits<M>::max();
}

template <class T, bool Wide> using red_sum_acc_t =
    std::conditional_t<is_float_v<T>, std::conditional_t<Wide, double, opmath_t<T>>, int64_t>;

template <class T, RKind K, bool Wide = false> struct RedOp;

template <class T, bool Wide> struct RedOp<T, RKind::Sum, Wide> {
  using M = opmath_t<T>;
  using Acc = red_sum_acc_t<T, Wide>;
  bool flag = false;
  GL_HD Acc ident() const { return Acc(0); }
  GL_HD void add(Acc& a, T x, int64_t) const { a = m::wadd(a, Acc(M(x))); }  // Note [Integer wrap-around]
  GL_HD void merge(Acc& a, const Acc& b) const { a = m::wadd(a, b); }
  template <class O> GL_HD O result(const Acc& a) const { return cast_to<O>(a); }
};

template <class T, bool Wide> struct RedOp<T, RKind::Prod, Wide> {
  using M = opmath_t<T>;
  using Acc = red_sum_acc_t<T, Wide>;
  bool flag = false;
  GL_HD Acc ident() const { return Acc(1); }
  GL_HD void add(Acc& a, T x, int64_t) const { a = m::wmul(a, Acc(M(x))); }
  GL_HD void merge(Acc& a, const Acc& b) const { a = m::wmul(a, b); }
  template <class O> GL_HD O result(const Acc& a) const { return cast_to<O>(a); }
};

template <class T, bool Wide> struct RedOp<T, RKind::MinMax, Wide> {
  using M = opmath_t<T>;
  using Acc = M;
  bool flag = true;  // max
  GL_HD Acc ident() const { return flag ? red_lowest<M>() : red_highest<M>(); }
  GL_HD void merge(Acc& a, const Acc& b) const {
    if (m::isnan_(a)) return;
    if (m::isnan_(b) || (flag ? b > a : b < a)) a = b;
  }
  GL_HD void add(Acc& a, T x, int64_t) const { merge(a, M(x)); }
  template <class O> GL_HD O result(const Acc& a) const { return cast_to<O>(a); }
};

template <class T, bool Wide> struct RedOp<T, RKind::Arg, Wide> {
  using M = opmath_t<T>;
  using Acc = ValIdx<M>;
  bool flag = true;  // argmax
  GL_HD Acc ident() const {
    return Acc{flag ? red_lowest<M>() : red_highest<M>(), std::numeric_limits<int64_t>::max()};
  }
  GL_HD void merge(Acc& a, const Acc& b) const {
    const bool an = m::isnan_(a.v), bn = m::isnan_(b.v);
    bool take;
    if (an || bn) take = bn && (!an || b.i < a.i);
    else if (b.v == a.v) take = b.i < a.i;
    else take = flag ? b.v > a.v : b.v < a.v;
    if (take) a = b;
  }
  GL_HD void add(Acc& a, T x, int64_t r) const { merge(a, Acc{M(x), r}); }
  template <class O> GL_HD O result(const Acc& a) const { return cast_to<O>(a.i); }
};

template <class T, bool Wide> struct RedOp<T, RKind::AnyAll, Wide> {
  using M = opmath_t<T>;
  using Acc = int;
  bool flag = true;  // any
  GL_HD Acc ident() const { return flag ? 0 : 1; }
  GL_HD void merge(Acc& a, const Acc& b) const { a = flag ? (a | b) : (a & b); }
  GL_HD void add(Acc& a, T x, int64_t) const { merge(a, M(x) != M(0) ? 1 : 0); }
  template <class O> GL_HD O result(const Acc& a) const { return cast_to<O>(a != 0); }
};

// Calls f(std::integral_constant<RKind, K>{}, flag) for a ReduceOp: its
// accumulation kind, and which way (max, argmax, any: true), from its row of
// tensor/ops/reduce_rows.def.
template <class F> void dispatch_reduce(ReduceOp op, F&& f) {
  using std::integral_constant;
  switch (op) {
// clang-format off
#define GL_REDUCE(E, name, trace, kind, flag, ...) \
  case ReduceOp::E: return f(integral_constant<RKind, RKind::kind>{}, flag != 0);
#include "tensor/ops/reduce_rows.def"
    // clang-format on
  }
}

}  // namespace gl
