// The math of a scan line (cumsum, cumprod), written once: the CPU kernel
// (kernels/cpu/scan.cpp) runs it per line on cores, the CUDA kernel
// (kernels/cuda/scan.cuh) per line on a thread.
#pragma once
#include <cstdint>
#include <type_traits>
#include "tensor/kernels/functors.h"

namespace gl {

// The accumulator, as PyTorch's CPU acc_type (is_cuda=false): float32 sums in
// double and half types in float, so that the results are PyTorch's CPU
// results bit for bit; integers in int64 (wrapping, Note [Integer wrap-around]).
template <class T> struct ScanAcc { using type = int64_t; };
template <> struct ScanAcc<float> { using type = double; };
template <> struct ScanAcc<double> { using type = double; };
template <> struct ScanAcc<Half> { using type = float; };
template <> struct ScanAcc<BFloat16> { using type = float; };
template <class T> using scan_acc_t = typename ScanAcc<T>::type;

// Offsets (in elements) of line l's first element in out and in.
GL_HD inline void scan_line_offsets(const ScanSpec& s, int64_t l, int64_t* out_off, int64_t* in_off) {
  int64_t a = 0, b = 0;
  for (int d = s.line_ndim - 1; d >= 0; --d) {
    const int64_t i = l % s.line_shape[d];
    l /= s.line_shape[d];
    a += i * s.out.strides[d];
    b += i * s.in.strides[d];
  }
  *out_off = a;
  *in_off = b;
}

// Scans one line sequentially, in PyTorch's CPU order (its cpu_cum_base_kernel):
// acc op= x[i], then out[i] = acc rounded to T.
template <class T> GL_HD inline void scan_line(const ScanSpec& s, int64_t l) {
  using A = scan_acc_t<T>;
  int64_t oo, io;
  scan_line_offsets(s, l, &oo, &io);
  T* out = reinterpret_cast<T*>(s.out.data) + oo;
  const T* in = reinterpret_cast<const T*>(s.in.data) + io;
  const int64_t n = s.len;
  const bool sum = s.op == ScanOp::Sum;
  A acc = sum ? A(0) : A(1);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t i = s.reverse ? n - 1 - k : k;
    const A v = cast_to<A>(in[i * s.in_step]);
    acc = sum ? m::wadd(acc, v) : m::wmul(acc, v);
    out[i * s.out_step] = cast_to<T>(acc);
  }
}

}  // namespace gl
