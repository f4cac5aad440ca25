// Sorting and selection along lines (sort, topk, kthvalue, median, mode) and
// the gathers/scatters their gradients need: the spec the op layer
// (ops/sort_ops.cpp) hands to a device, and the per-line math written once,
// run per line by the CPU kernel (kernels/cpu/sort.cpp) and per thread by the
// CUDA one (kernels/cuda/sort.cu).
//
// The op layer always hands contiguous lines: the sorted dim moved last and
// copied, so line l of a buffer with `n` entries per line starts at l * n.
// NaN counts as larger than every number, as in PyTorch (numpy's order).
#pragma once
#include <cstdint>
#include "tensor/core/dtype.h"
#include "tensor/kernels/functors.h"

namespace gl {

enum class SortOp : uint8_t {
  Sort,     // values [lines, len] sorted in place, stably; indices [lines, len] written
  TopK,     // out/out_indices [lines, k]: the k largest (smallest) of values [lines, len]
  Kth,      // out/out_indices [lines, 1]: the k-th smallest (k from 1); values, indices: scratch
  Median,   // out/out_indices [lines, 1]: the lower median, or the first NaN
  Mode,     // out/out_indices [lines, 1]: the most frequent value (smallest on ties)
  Gather,   // out [lines, k] = values [lines, len] at out_indices [lines, k]
  Scatter,  // out [lines, len] at out_indices [lines, k] = values [lines, k] (out zeroed before)
};

struct SortSpec {
  SortOp op = SortOp::Sort;
  DType dtype = DType::Float32;
  char* values = nullptr;
  int64_t* indices = nullptr;
  char* out = nullptr;
  int64_t* out_indices = nullptr;
  int64_t lines = 0, len = 0, k = 0;
  bool descending = false;  // Sort: descending; TopK: largest
  bool sorted = true;       // TopK: the k results in order
};

namespace sortk {

template <class T> GL_HD inline opmath_t<T> key(T v) { return opmath_t<T>(v); }
template <class A> GL_HD inline bool nan(A v) {
  if constexpr (std::is_floating_point_v<A>) return v != v;
  else return false;
}
// a before b in ascending order, NaN last.
template <class A> GL_HD inline bool lt(A a, A b) { return (!nan(a) && nan(b)) || a < b; }
// a before b in descending order, NaN first (PyTorch's "gt or nan").
template <class A> GL_HD inline bool gt(A a, A b) { return (nan(a) && !nan(b)) || a > b; }

// The k-th smallest (0-based) of one line by PyTorch's CPU quickselect
// (median of three, Hoare partition): ties land where PyTorch's land, so
// kthvalue returns PyTorch's indices. vals/idx are scratch, permuted in place.
template <class T> GL_HD inline void quickselect(T* vals, int64_t* idx, int64_t n, int64_t k) {
  auto g = [&](int64_t i, int64_t j) { return gt(key(vals[i]), key(vals[j])); };
  auto sw = [&](int64_t i, int64_t j) {
    T tv = vals[i];
    vals[i] = vals[j];
    vals[j] = tv;
    int64_t ti = idx[i];
    idx[i] = idx[j];
    idx[j] = ti;
  };
  int64_t L = 0, R = n - 1;
  for (;;) {
    if (R <= L) return;
    if (R == L + 1) {
      if (g(L, R)) sw(L, R);
      return;
    }
    const int64_t P = L + (R - L) / 2;
    sw(P, L + 1);
    if (g(L + 1, R)) sw(L + 1, R);
    if (g(L, R)) sw(L, R);
    if (g(L + 1, L)) sw(L + 1, L);
    int64_t i = L + 1, j = R;
    const auto piv = key(vals[L]);
    for (;;) {
      do ++i;
      while (gt(piv, key(vals[i])));
      do --j;
      while (gt(key(vals[j]), piv));
      if (j < i) break;
      sw(i, j);
    }
    sw(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

template <class T> GL_HD inline void kth_line(const SortSpec& s, int64_t l) {
  T* v = reinterpret_cast<T*>(s.values) + l * s.len;
  int64_t* ix = s.indices + l * s.len;
  for (int64_t j = 0; j < s.len; ++j) ix[j] = j;
  quickselect(v, ix, s.len, s.k - 1);
  reinterpret_cast<T*>(s.out)[l] = v[s.k - 1];
  s.out_indices[l] = ix[s.k - 1];
}

// The element at position (len - 1) / 2 of the line sorted with ties broken
// by index (what PyTorch's nth_element over indices gives), or the first NaN.
template <class T> GL_HD inline void median_line(const SortSpec& s, int64_t l) {
  T* v = reinterpret_cast<T*>(s.values) + l * s.len;
  int64_t* ix = s.indices + l * s.len;
  T* out = reinterpret_cast<T*>(s.out) + l;
  for (int64_t j = 0; j < s.len; ++j) {
    if (nan(key(v[j]))) {
      *out = v[j];
      s.out_indices[l] = j;
      return;
    }
  }
  // Selection on (value, index) pairs: every pair distinct, so any correct
  // selection finds the same element.
  const int64_t want = (s.len - 1) / 2;
  for (int64_t j = 0; j < s.len; ++j) ix[j] = j;
  int64_t lo = 0, hi = s.len - 1;
  auto before = [&](int64_t a, int64_t b) {
    const auto x = key(v[a]), y = key(v[b]);
    return x < y || (x == y && ix[a] < ix[b]);
  };
  auto sw = [&](int64_t a, int64_t b) {
    T tv = v[a];
    v[a] = v[b];
    v[b] = tv;
    int64_t ti = ix[a];
    ix[a] = ix[b];
    ix[b] = ti;
  };
  while (lo < hi) {  // Lomuto partition around the middle element
    sw((lo + hi) / 2, hi);
    int64_t store = lo;
    for (int64_t j = lo; j < hi; ++j)
      if (before(j, hi)) sw(j, store++);
    sw(store, hi);
    if (store == want) break;
    if (store < want) lo = store + 1;
    else hi = store - 1;
  }
  *out = v[want];
  s.out_indices[l] = ix[want];
}

// The mode of a line already sorted (values with their original indices):
// the longest run, the first (smallest) on ties, reported at its last entry.
template <class T>
GL_HD inline void mode_of_sorted_line(const T* v, const int64_t* ix, int64_t n, T* out, int64_t* out_index) {
  int64_t best = 0, run = 0;
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    if (i == n - 1 || key(v[i]) != key(v[i + 1])) {
      if (run > best) {
        best = run;
        *out = v[i];
        *out_index = ix[i];
      }
      run = 0;
    }
  }
}

template <class T> GL_HD inline void gather_at(const SortSpec& s, int64_t e) {
  const int64_t l = e / s.k;
  reinterpret_cast<T*>(s.out)[e] = reinterpret_cast<const T*>(s.values)[l * s.len + s.out_indices[e]];
}
template <class T> GL_HD inline void scatter_at(const SortSpec& s, int64_t e) {
  const int64_t l = e / s.k;
  reinterpret_cast<T*>(s.out)[l * s.len + s.out_indices[e]] = reinterpret_cast<const T*>(s.values)[e];
}

}  // namespace sortk
}  // namespace gl
