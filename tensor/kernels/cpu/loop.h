// The generic CPU loop: visits every element of a LoopSpec one contiguous-ish
// row at a time, split across cores above a grain size.
#pragma once
#include <cstdint>
#include "tensor/core/dtype.h"
#include "tensor/kernels/spec.h"
#include "tensor/kernels/cpu/threads.h"

namespace gl::cpu {

constexpr int64_t kGrain = 32768;

// row(char** ptrs, const int64_t* strides_in_elements, int64_t n)
template <class Row> void loop(const LoopSpec& s, Row&& row) {
  const int na = s.nargs;
  if (s.numel == 0) return;
  int64_t isz[4] = {};
  for (int a = 0; a < na; ++a) isz[a] = int64_t(itemsize(s.args[a].dtype));
  if (s.contiguous || s.ndim == 0) {
    const int64_t n = s.numel;
    if (n <= kGrain) {  // small: no OpenMP region at all (entering one costs microseconds)
      char* p[4] = {};
      int64_t st[4] = {1, 1, 1, 1};
      for (int a = 0; a < na; ++a) p[a] = s.args[a].data;
      row(p, st, n);
      return;
    }
    const int64_t chunks = (n + kGrain - 1) / kGrain;
    fit_threads();  // Note [Threads that pay]
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t begin = c * kGrain, len = n - begin < kGrain ? n - begin : kGrain;
      char* p[4] = {};
      int64_t st[4] = {};
      for (int a = 0; a < na; ++a) {
        p[a] = s.args[a].data + begin * isz[a];
        st[a] = 1;
      }
      row(p, st, len);
    }
    return;
  }
  const int nd = s.ndim;
  const int64_t inner = s.shape[nd - 1];
  const int64_t rows = s.numel / inner;
  int64_t st[4] = {};
  for (int a = 0; a < na; ++a) st[a] = s.args[a].strides[nd - 1];
  auto body = [&](int64_t r) {
    char* p[4] = {};
    for (int a = 0; a < na; ++a) p[a] = s.args[a].data;
    int64_t rem = r;
    for (int d = nd - 2; d >= 0; --d) {
      int64_t idx = rem % s.shape[d];
      rem /= s.shape[d];
      for (int a = 0; a < na; ++a) p[a] += idx * s.args[a].strides[d] * isz[a];
    }
    int64_t st_local[4] = {st[0], st[1], st[2], st[3]};
    row(p, st_local, inner);
  };
  if (s.numel > kGrain && rows > 1) {
    fit_threads();
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) body(r);
  } else {
    for (int64_t r = 0; r < rows; ++r) body(r);
  }
}

}  // namespace gl::cpu
