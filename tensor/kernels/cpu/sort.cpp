// CPU sorting and selection (the spec and shared line math: kernels/sort.h).
// Where PyTorch's CPU result depends on its algorithm (which of tied values
// topk and mode report), the same standard-library calls PyTorch makes are
// made here, so that the indices are PyTorch's.
#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>
#include "tensor/kernels/cpu/loop.h"
#include "tensor/kernels/sort.h"

namespace gl::cpu {

namespace {

template <class F> void per_line(int64_t lines, int64_t work, F&& f) {
  if (lines > 1 && work > kGrain) {
    fit_threads();        // Note [Threads that pay]
    RegionErrors errors;  // Note [Exceptions in parallel regions]: each line allocates
#pragma omp parallel for schedule(static)
    for (int64_t l = 0; l < lines; ++l) errors.run([&] { f(l); });
    errors.rethrow();
  } else {
    for (int64_t l = 0; l < lines; ++l) f(l);
  }
}

template <class T> void sort_lines(const SortSpec& s) {
  using A = opmath_t<T>;
  per_line(s.lines, s.lines * s.len, [&](int64_t l) {
    T* v = reinterpret_cast<T*>(s.values) + l * s.len;
    int64_t* ix = s.indices + l * s.len;
    std::vector<std::pair<A, int64_t>> e(size_t(s.len));
    for (int64_t j = 0; j < s.len; ++j) e[size_t(j)] = {sortk::key(v[j]), j};
    if (s.descending)
      std::stable_sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return sortk::gt(a.first, b.first); });
    else std::stable_sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return sortk::lt(a.first, b.first); });
    std::unique_ptr<T[]> copy(new T[size_t(s.len)]);
    std::copy(v, v + s.len, copy.get());
    for (int64_t j = 0; j < s.len; ++j) {
      ix[j] = e[size_t(j)].second;
      v[j] = copy[size_t(ix[j])];
    }
  });
}

// PyTorch's topk_impl_loop: partial_sort when k is small against the line,
// else nth_element and a sort of the first k - 1.
template <class T> void topk_lines(const SortSpec& s) {
  using A = opmath_t<T>;
  using E = std::pair<A, int64_t>;
  const int64_t k = s.k;
  if (k == 0) return;
  per_line(s.lines, s.lines * s.len, [&](int64_t l) {
    const T* v = reinterpret_cast<const T*>(s.values) + l * s.len;
    std::vector<E> q(size_t(s.len));
    for (int64_t j = 0; j < s.len; ++j) q[size_t(j)] = {sortk::key(v[j]), j};
    auto gt = [](const E& x, const E& y) { return sortk::gt(x.first, y.first); };
    auto lt = [](const E& x, const E& y) { return sortk::lt(x.first, y.first); };
    const bool partial = k * 64 <= s.len;
    if (partial) {
      if (s.descending) std::partial_sort(q.begin(), q.begin() + k, q.end(), gt);
      else std::partial_sort(q.begin(), q.begin() + k, q.end(), lt);
    } else if (s.descending) {
      std::nth_element(q.begin(), q.begin() + k - 1, q.end(), gt);
      if (s.sorted) std::sort(q.begin(), q.begin() + k - 1, gt);
    } else {
      std::nth_element(q.begin(), q.begin() + k - 1, q.end(), lt);
      if (s.sorted) std::sort(q.begin(), q.begin() + k - 1, lt);
    }
    T* out = reinterpret_cast<T*>(s.out) + l * k;
    int64_t* oi = s.out_indices + l * k;
    for (int64_t j = 0; j < k; ++j) {
      oi[j] = q[size_t(j)].second;
      out[j] = v[oi[j]];
    }
  });
}

// PyTorch's CPU mode: std::sort of (value, index) pairs by value, then the
// longest run (the first on ties) at its last pair.
template <class T> void mode_lines(const SortSpec& s) {
  per_line(s.lines, s.lines * s.len, [&](int64_t l) {
    const T* v = reinterpret_cast<const T*>(s.values) + l * s.len;
    std::vector<std::pair<T, int64_t>> e(size_t(s.len));
    for (int64_t j = 0; j < s.len; ++j) e[size_t(j)] = {v[j], j};
    std::sort(e.begin(), e.end(),
              [](const auto& a, const auto& b) { return sortk::key(a.first) < sortk::key(b.first); });
    std::unique_ptr<T[]> vs(new T[size_t(s.len)]);  // not vector<bool>: no data()
    std::vector<int64_t> is(size_t(s.len));
    for (size_t j = 0; j < e.size(); ++j) {
      vs[j] = e[j].first;
      is[j] = e[j].second;
    }
    sortk::mode_of_sorted_line(vs.get(), is.data(), s.len, reinterpret_cast<T*>(s.out) + l, s.out_indices + l);
  });
}

}  // namespace

void sort(void*, const SortSpec& s) {
  if (s.lines == 0) return;
  dispatch_dtype(s.dtype, [&](auto t) {
    using T = decltype(t);
    switch (s.op) {
      case SortOp::Sort:
        if (s.len) sort_lines<T>(s);
        break;
      case SortOp::TopK: topk_lines<T>(s); break;
      case SortOp::Kth: per_line(s.lines, s.lines * s.len, [&](int64_t l) { sortk::kth_line<T>(s, l); }); break;
      case SortOp::Median: per_line(s.lines, s.lines * s.len, [&](int64_t l) { sortk::median_line<T>(s, l); }); break;
      case SortOp::Mode: mode_lines<T>(s); break;
      case SortOp::Gather:
        for (int64_t e = 0; e < s.lines * s.k; ++e) sortk::gather_at<T>(s, e);
        break;
      case SortOp::Scatter:
        for (int64_t e = 0; e < s.lines * s.k; ++e) sortk::scatter_at<T>(s, e);
        break;
    }
  });
}

}  // namespace gl::cpu
