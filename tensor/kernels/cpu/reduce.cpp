// CPU reductions: the accumulation rules of kernels/reduce_ops.h (shared with
// CUDA) in a loop per output. Sums of floats add blocks in float and the
// blocks in double (Note [Sums in blocks]).
#include <algorithm>
#include <cmath>
#include <limits>
#include <omp.h>
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/loop.h"
#include "tensor/kernels/cpu/sum_block.h"
#include "tensor/kernels/reduce_ops.h"

namespace gl::cpu {

namespace {

// Offset (in elements) of reduced index r inside one output's slab.
inline int64_t red_offset(const ReduceSpec& s, int64_t r) {
  int64_t off = 0;
  for (int d = s.red_ndim - 1; d >= 0; --d) {
    int64_t i = r % s.red_shape[d];
    r /= s.red_shape[d];
    off += i * s.in_red_strides[d];
  }
  return off;
}
inline void out_offsets(const ReduceSpec& s, int64_t o, int64_t* in_off, int64_t* out_off) {
  int64_t a = 0, b = 0;
  for (int d = s.out_ndim - 1; d >= 0; --d) {
    int64_t i = o % s.out_shape[d];
    o /= s.out_shape[d];
    a += i * s.in.strides[d];
    b += i * s.out.strides[d];
  }
  *in_off = a;
  *out_off = b;
}

template <class T> double sum_contiguous_float(const T* x, int64_t n) {
  double total = 0;
  constexpr int64_t B = kSumBlock;
  const int64_t blocks = (n + B - 1) / B;
  auto block = [&](int64_t b) -> double {
    const int64_t lo = b * B, hi = std::min(n, lo + B);
    if constexpr (std::is_same_v<T, float>) return sum_block_f32(x + lo, hi - lo);
    opmath_t<T> s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t i = lo;
    for (; i + 4 <= hi; i += 4) {
      s0 += opmath_t<T>(x[i]);
      s1 += opmath_t<T>(x[i + 1]);
      s2 += opmath_t<T>(x[i + 2]);
      s3 += opmath_t<T>(x[i + 3]);
    }
    for (; i < hi; ++i) s0 += opmath_t<T>(x[i]);
    return double(s0) + double(s1) + double(s2) + double(s3);
  };
  // No OpenMP region for small sums (entering one costs a futex syscall even
  // with one thread), nor inside reduce_typed's region over outputs.
  if (n <= kGrain || omp_in_parallel()) {
    for (int64_t b = 0; b < blocks; ++b) total += block(b);
    return total;
  }
  fit_threads();  // Note [Threads that pay]
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int64_t b = 0; b < blocks; ++b) total += block(b);
  return total;
}

template <class T, class Out> void reduce_typed(const ReduceSpec& s) {
  const T* in = reinterpret_cast<const T*>(s.in.data);
  Out* out = reinterpret_cast<Out*>(s.out.data);
  const ReduceOp op = s.op;
  // Whole-tensor sum of a dense float input: the fast path benchmarks hit.
  if constexpr (is_float_v<T>) {
    if (op == ReduceOp::Sum && s.out_numel == 1 && s.red_ndim == 1 && s.in_red_strides[0] == 1) {
      out[0] = cast_to<Out>(sum_contiguous_float(in, s.red_numel));
      return;
    }
  }
  // Reducing over a unit-stride innermost dimension lets the inner loop vectorise.
  const bool inner_dense = s.red_ndim == 1 && s.in_red_strides[0] == 1;
  dispatch_reduce(op, [&](auto kind, bool flag) {
    constexpr RKind K = decltype(kind)::value;
    RedOp<T, K, true> rop;  // float sums in double (reduce_ops.h)
    rop.flag = flag;
    auto one = [&](int64_t o) {
      int64_t base, ooff;
      out_offsets(s, o, &base, &ooff);
      const T* x = in + base;
      const int64_t n = s.red_numel;
      if constexpr (K == RKind::Sum && is_float_v<T>) {
        if (inner_dense) {
          out[ooff] = cast_to<Out>(sum_contiguous_float(x, n));
          return;
        }
      }
      auto acc = rop.ident();
      if (inner_dense) {
        for (int64_t r = 0; r < n; ++r) rop.add(acc, x[r], r);
      } else {
        for (int64_t r = 0; r < n; ++r) rop.add(acc, x[red_offset(s, r)], r);
      }
      out[ooff] = rop.template result<Out>(acc);
    };
    if (s.out_numel * s.red_numel > kGrain && s.out_numel > 1) {
      fit_threads();  // Note [Threads that pay]
#pragma omp parallel for schedule(static)
      for (int64_t o = 0; o < s.out_numel; ++o) one(o);
    } else {
      for (int64_t o = 0; o < s.out_numel; ++o) one(o);
    }
  });
}

}  // namespace

void reduce(void*, const ReduceSpec& s) {
  dispatch_dtype(s.in.dtype, [&](auto t) {
    using T = decltype(t);
    dispatch_dtype(s.out.dtype, [&](auto o) {
      using O = decltype(o);
      // Output dtypes the op layer can ask for: the input's, int64, bool.
      if constexpr (std::is_same_v<O, T> || std::is_same_v<O, int64_t> || std::is_same_v<O, bool>)
        reduce_typed<T, O>(s);
      else throw RuntimeError("unsupported reduction output dtype");
    });
  });
}

}  // namespace gl::cpu
