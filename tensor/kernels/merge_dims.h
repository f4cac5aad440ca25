// Dimension merging, written once: the elementwise loops (ops/iter.cpp), the
// reductions' specs (ops/reduce.cpp) and the CUDA reduction plan
// (kernels/cuda/reduce.cu).
#pragma once
#include <cstdint>

namespace gl {

// Drops the size-1 dims of `shape` and merges each dim into the one before it
// where every stride array steps over the two as one run (outer stride ==
// inner stride * inner size), in place. The row-major order of the index is
// kept (argmax reports it). Returns the new number of dims.
inline int merge_dims(int ndim, int64_t* shape, int64_t* const* strides, int nstrides) {
  int m = 0;
  for (int d = 0; d < ndim; ++d) {
    const int64_t size = shape[d];
    if (size == 1) continue;
    bool mergeable = m > 0;
    for (int a = 0; a < nstrides && mergeable; ++a) mergeable = strides[a][m - 1] == strides[a][d] * size;
    if (mergeable) {
      shape[m - 1] *= size;
      for (int a = 0; a < nstrides; ++a) strides[a][m - 1] = strides[a][d];
      continue;
    }
    shape[m] = size;
    for (int a = 0; a < nstrides; ++a) strides[a][m] = strides[a][d];
    ++m;
  }
  return m;
}

}  // namespace gl
