// The generic CUDA elementwise launcher: one grid-stride kernel over a
// LoopSpec, applying a functor built from kernels/functors.h.
//
// - Contiguous loops (every operand dense, same order) use 128-bit loads and
//   stores when every pointer is aligned for them: VEC = 16 bytes divided by
//   the widest operand's item size, so float32 moves 4 elements a load,
//   float16 8, int8 16. Unaligned pointers take the scalar path of the same
//   kernel; the tail after the last whole vector is scalar too.
// - Strided loops compute each operand's offset from the coalesced shape and
//   strides (elements), with 32-bit multiply-shift division while the index
//   fits in 31 bits and 64-bit division beyond.
//
// The per-thread bodies are __host__ __device__ so they can be checked on the
// host; the __global__ wrappers only supply the thread coordinates.
#pragma once
// functors.h compares unsigned values with zero or -1 in generic code (abs,
// sign, pow of uint8): correct, and not worth a warning per instantiation.
#pragma nv_diag_suppress 186, 514
#include <cuda_runtime.h>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include "tensor/core/dtype.h"
#include "tensor/kernels/functors.h"
#include "tensor/kernels/spec.h"
#include "tensor/runtime/cuda/exec.h"

namespace gl::cuda {

constexpr int kThreads = 256;  // elementwise block size

template <class T> constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, Half>) return DType::Float16;
  else if constexpr (std::is_same_v<T, BFloat16>) return DType::BFloat16;
  else if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else return DType::Float64;
}

// An unsigned type of `bytes` bytes: values that are only moved (copy, fill,
// where) are moved by size, not by dtype.
template <size_t N> struct UIntOf;
template <> struct UIntOf<1> { using type = uint8_t; };
template <> struct UIntOf<2> { using type = uint16_t; };
template <> struct UIntOf<4> { using type = uint32_t; };
template <> struct UIntOf<8> { using type = uint64_t; };

// Calls f(U{}) with U the unsigned type of the item size of `t`.
template <class F> void dispatch_size(DType t, F&& f) {
  switch (itemsize(t)) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

GL_HD inline uint32_t mulhi32(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

// Division by a fixed divisor as a multiply and a shift (Granlund and
// Montgomery, as PyTorch's IntDivider); exact for dividends below 2^31.
struct IntDiv {
  uint32_t div = 1, mul = 1, shift = 0;
  IntDiv() = default;
  explicit IntDiv(uint32_t d) : div(d) {
    shift = 0;
    while (shift < 32 && (uint64_t(1) << shift) < d) ++shift;
    mul = uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << shift) - d)) / d + 1);
  }
  GL_HD uint32_t divide(uint32_t n) const { return (mulhi32(n, mul) + n) >> shift; }
};

// Offsets (in elements) of NA operands for a linear index over a shape.
// Dimensions are stored innermost first.
template <int NA> struct OffsetCalc {
  int ndim = 0;
  bool small = true;  // every linear index < 2^31: 32-bit division
  IntDiv div[kMaxDims];
  int64_t size[kMaxDims] = {};
  int64_t stride[kMaxDims][NA] = {};

  GL_HD void get(int64_t linear, int64_t* off) const {
#pragma unroll
    for (int a = 0; a < NA; ++a) off[a] = 0;
    if (small) {
      uint32_t r = uint32_t(linear);
#pragma unroll
      for (int d = 0; d < kMaxDims; ++d) {
        if (d == ndim) break;
        uint32_t i;
        if (d == ndim - 1) {
          i = r;
        } else {
          const uint32_t q = div[d].divide(r);
          i = r - q * div[d].div;
          r = q;
        }
#pragma unroll
        for (int a = 0; a < NA; ++a) off[a] += int64_t(i) * stride[d][a];
      }
    } else {
      int64_t r = linear;
#pragma unroll 1  // the rare path (over 2^31 elements): kept small
      for (int d = 0; d < kMaxDims; ++d) {
        if (d == ndim) break;
        int64_t i;
        if (d == ndim - 1) {
          i = r;
        } else {
          const int64_t q = r / size[d];
          i = r - q * size[d];
          r = q;
        }
#pragma unroll
        for (int a = 0; a < NA; ++a) off[a] += i * stride[d][a];
      }
    }
  }
};

// shape: outermost first (as in LoopSpec); strides[a][d] likewise.
template <int NA>
OffsetCalc<NA> make_offset_calc(int ndim, const int64_t* shape, const int64_t* const* strides, int64_t numel) {
  OffsetCalc<NA> oc;
  oc.ndim = ndim;
  oc.small = numel < (int64_t(1) << 31);
  for (int d = 0; d < ndim; ++d) {
    const int src = ndim - 1 - d;
    oc.size[d] = shape[src] > 0 ? shape[src] : 1;
    if (oc.small) oc.div[d] = IntDiv(uint32_t(oc.size[d]));
    for (int a = 0; a < NA; ++a) oc.stride[d][a] = strides[a][src];
  }
  return oc;
}

// 16 bytes (or fewer) of consecutive elements, loaded and stored at once.
template <class T, int N> struct alignas(sizeof(T) * N) Vec { T v[N]; };

struct Ptrs {
  char* p[4] = {nullptr, nullptr, nullptr, nullptr};
};

struct Grid {
  int64_t tid, nthreads;
};

// A dummy operand type for unused input slots.
struct None {
  char c = 0;
};

template <int NIN, class Out, class F, class A, class B, class C>
GL_HD inline Out apply(const F& f, const A& a, const B& b, const C& c) {
  if constexpr (NIN == 0) return f();
  else if constexpr (NIN == 1) return f(a);
  else if constexpr (NIN == 2) return f(a, b);
  else return f(a, b, c);
}

template <class Out, class A, class B, class C, int NIN> constexpr int vec_width() {
  size_t m = sizeof(Out);
  if (NIN >= 1 && sizeof(A) > m) m = sizeof(A);
  if (NIN >= 2 && sizeof(B) > m) m = sizeof(B);
  if (NIN >= 3 && sizeof(C) > m) m = sizeof(C);
  return int(16 / m);
}

// Note [Elementwise tiles]
// A contiguous, aligned elementwise op gives each block a tile of
// kThreads * kTileVecs vectors, and each thread kTileVecs of them (lane,
// lane + kThreads, ...), all loaded before any is stored; there are as many
// blocks as tiles, with no grid-stride loop: PyTorch's shape for its
// vectorized_elementwise_kernel. On an H200 a 2^28-float add ran in 737 us
// so (4.37 TB/s) against 777 us (4.15 TB/s) for one resident wave of blocks
// with a grid-stride loop, however many vectors that loop held in flight
// (bench/elementwise_shapes.cu). The body walks the logical threads, so the
// host's emulation (a few threads) covers the same tiles.
constexpr int kTileVecs = 2;
constexpr int64_t kElemTile = int64_t(kThreads) * kTileVecs;  // vectors per block
GL_HD constexpr int64_t tiles_for(int64_t vectors) { return (vectors + kElemTile - 1) / kElemTile; }

template <int VEC, int NIN, class Out, class A, class B, class C, class F>
GL_HD void contig_body(Grid g, const Ptrs& p, int64_t n, bool vec, const F& f) {
  Out* out = reinterpret_cast<Out*>(p.p[0]);
  const A* a = reinterpret_cast<const A*>(p.p[1]);
  const B* b = reinterpret_cast<const B*>(p.p[2]);
  const C* c = reinterpret_cast<const C*>(p.p[3]);
  int64_t start = 0;
  if (vec) {
    // Note [Elementwise tiles]
    const int64_t nv = n / VEC;
    for (int64_t t = g.tid; t < tiles_for(nv) * kThreads; t += g.nthreads) {
      const int64_t first = t / kThreads * kElemTile + t % kThreads;
      Vec<A, VEC> va[kTileVecs]{};
      Vec<B, VEC> vb[kTileVecs]{};
      Vec<C, VEC> vc[kTileVecs]{};
#pragma unroll
      for (int u = 0; u < kTileVecs; ++u) {
        const int64_t v = first + int64_t(u) * kThreads;
        if (v >= nv) break;
        if constexpr (NIN >= 1) va[u] = reinterpret_cast<const Vec<A, VEC>*>(a)[v];
        if constexpr (NIN >= 2) vb[u] = reinterpret_cast<const Vec<B, VEC>*>(b)[v];
        if constexpr (NIN >= 3) vc[u] = reinterpret_cast<const Vec<C, VEC>*>(c)[v];
      }
#pragma unroll
      for (int u = 0; u < kTileVecs; ++u) {
        const int64_t v = first + int64_t(u) * kThreads;
        if (v >= nv) break;
        Vec<Out, VEC> vo;
#pragma unroll
        for (int j = 0; j < VEC; ++j) vo.v[j] = apply<NIN, Out>(f, va[u].v[j], vb[u].v[j], vc[u].v[j]);
        reinterpret_cast<Vec<Out, VEC>*>(out)[v] = vo;
      }
    }
    start = nv * VEC;
  }
  for (int64_t i = start + g.tid; i < n; i += g.nthreads) {
    A av{};
    B bv{};
    C cv{};
    if constexpr (NIN >= 1) av = a[i];
    if constexpr (NIN >= 2) bv = b[i];
    if constexpr (NIN >= 3) cv = c[i];
    out[i] = apply<NIN, Out>(f, av, bv, cv);
  }
}

template <int NIN, class Out, class A, class B, class C, class F>
GL_HD void strided_body(Grid g, const Ptrs& p, const OffsetCalc<NIN + 1>& oc, int64_t n, const F& f) {
  for (int64_t i = g.tid; i < n; i += g.nthreads) {
    int64_t off[NIN + 1];
    oc.get(i, off);
    A av{};
    B bv{};
    C cv{};
    if constexpr (NIN >= 1) av = reinterpret_cast<const A*>(p.p[1])[off[1]];
    if constexpr (NIN >= 2) bv = reinterpret_cast<const B*>(p.p[2])[off[2]];
    if constexpr (NIN >= 3) cv = reinterpret_cast<const C*>(p.p[3])[off[3]];
    reinterpret_cast<Out*>(p.p[0])[off[0]] = apply<NIN, Out>(f, av, bv, cv);
  }
}

#if defined(__CUDACC__)
__device__ __forceinline__ Grid grid_1d() {
  return Grid{int64_t(blockIdx.x) * blockDim.x + threadIdx.x, int64_t(gridDim.x) * blockDim.x};
}

template <int VEC, int NIN, class Out, class A, class B, class C, class F> __global__ void __launch_bounds__(kThreads)
    k_contig(Ptrs p, int64_t n, bool vec, F f) {
  contig_body<VEC, NIN, Out, A, B, C>(grid_1d(), p, n, vec, f);
}

template <int NIN, class Out, class A, class B, class C, class F> __global__ void __launch_bounds__(kThreads)
    k_strided(Ptrs p, OffsetCalc<NIN + 1> oc, int64_t n, F f) {
  strided_body<NIN, Out, A, B, C>(grid_1d(), p, oc, n, f);
}
#endif

// Blocks of kThreads threads for `units` work items: enough to fill the GPU
// once, the grid-stride loops do the rest. `per_sm` is how many blocks of the
// kernel fit on one SM at a time (resident_blocks); more blocks than that
// would run as a second, partial wave and leave most SMs idle at its end.
inline unsigned grid_for(const Exec* ex, int64_t units, int per_sm = 0) {
  int64_t b = (units + kThreads - 1) / kThreads;
  if (per_sm <= 0) per_sm = ex->max_threads_per_sm / kThreads;
  const int64_t cap = int64_t(ex->sm_count) * per_sm;
  if (b > cap) b = cap;
  if (b < 1) b = 1;
  return unsigned(b);
}

#if defined(__CUDACC__)
// Blocks of `Kernel` (launched with kThreads threads, no dynamic shared
// memory) resident per SM: registers often allow fewer than the thread limit.
// Asked of the runtime once per kernel; 0 (use the thread limit) on failure.
template <auto Kernel> int resident_blocks() {
  static const int n = [] {
    int v = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, Kernel, kThreads, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      v = 0;
    }
    return v;
  }();
  return n;
}
#endif

inline bool aligned_to(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

#if defined(__CUDACC__)
// Runs out = f(in...) over the loop `s` (args[0] out, args[1..NIN] inputs of
// types A, B, C) on the exec's stream. Asynchronous; throws on launch errors.
template <int NIN, class Out, class A = None, class B = None, class C = None, class F>
void launch_loop(Exec* ex, const LoopSpec& s, const F& f) {
  if (s.numel <= 0) return;
  Ptrs p;
  for (int a = 0; a <= NIN; ++a) p.p[a] = s.args[a].data;
  if (s.contiguous || s.ndim == 0) {
    constexpr int VEC = vec_width<Out, A, B, C, NIN>();
    bool vec = aligned_to(p.p[0], sizeof(Out) * VEC);
    if constexpr (NIN >= 1) vec = vec && aligned_to(p.p[1], sizeof(A) * VEC);
    if constexpr (NIN >= 2) vec = vec && aligned_to(p.p[2], sizeof(B) * VEC);
    if constexpr (NIN >= 3) vec = vec && aligned_to(p.p[3], sizeof(C) * VEC);
    constexpr auto kernel = k_contig<VEC, NIN, Out, A, B, C, F>;
    // Aligned: a block per tile (Note [Elementwise tiles]), at least one for
    // the tail; else one resident wave and the grid-stride loop.
    // (the body's loop covers tiles past the grid's limit)
    const int64_t tiles = std::clamp<int64_t>(tiles_for(s.numel / VEC), 1, INT_MAX);
    const unsigned grid = vec ? unsigned(tiles) : grid_for(ex, s.numel, resident_blocks<kernel>());
    kernel<<<grid, kThreads, 0, ex->stream>>>(p, s.numel, vec, f);
  } else {
    const int64_t* st[NIN + 1];
    for (int a = 0; a <= NIN; ++a) st[a] = s.args[a].strides;
    auto oc = make_offset_calc<NIN + 1>(s.ndim, s.shape, st, s.numel);
    constexpr auto kernel = k_strided<NIN, Out, A, B, C, F>;
    kernel<<<grid_for(ex, s.numel, resident_blocks<kernel>()), kThreads, 0, ex->stream>>>(p, oc, s.numel, f);
  }
  check_launch();
}
#endif

}  // namespace gl::cuda
