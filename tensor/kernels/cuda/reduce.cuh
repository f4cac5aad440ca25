// Reductions on CUDA: the accumulation rules, the launch plan and the
// per-thread bodies (host-callable, so the index logic can be checked on the
// host). Kernels and dispatch are in reduce.cu.
//
// out[o] = reduce over r of in[o, r] (see ReduceSpec). After merging
// size-1 and adjacent dense dimensions, one of two layouts is chosen:
// - inner: the reduced dims hold the smallest stride (row sums, full
//   reductions). Threads along x split one output's reduction, so a warp
//   reads consecutive elements; a unit-stride 1-D reduction uses 16-byte
//   loads. threadIdx.y picks the output.
// - outer: a kept dim holds the smallest stride (column sums). Threads along
//   x take consecutive outputs (coalesced), threads along y split r.
// Each block merges its threads in shared memory. When there are too few
// outputs to fill the GPU, blockIdx.y splits r into slices whose partial
// results go to the exec's workspace, and a second kernel merges them.
//
// The accumulation rules (RedOp) are shared with the CPU: kernels/reduce_ops.h.
#pragma once
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/reduce_ops.h"

namespace gl::cuda {

// ---- the plan ----

constexpr int kRedThreads = 512;
constexpr size_t kRedWorkspaceCap = size_t(4) << 20;

// A ReduceSpec with size-1 dims dropped and adjacent dense dims merged
// (keeps the row-major order of the reduced index, which argmax reports).
ReduceSpec normalize_reduce(const ReduceSpec& s);

struct RedPlan {
  bool inner = true;
  bool vec = false;    // inner, 1-D unit-stride reduction: 16-byte loads
  int bx = 1, by = 1;  // block (powers of two, bx * by <= kRedThreads)
  int64_t grid_x = 1;  // blocks over outputs
  int64_t splits = 1;  // blocks over slices of r (gridDim.y)
  int64_t chunk = 0;   // r per slice
  int fx = 1, fy = 1;  // second pass block, when splits > 1
  int64_t fgrid = 1;
};

inline int64_t pow2_ceil(int64_t n) {
  int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// vec_elems: elements per 16-byte load of the input dtype.
RedPlan plan_reduce(const ReduceSpec& s, int sm_count, int max_threads_per_sm, size_t acc_bytes, int vec_elems);

// ---- per-thread bodies ----

struct RedArgs {
  const char* in = nullptr;
  char* out = nullptr;
  DType out_dtype = DType::Float32;
  OffsetCalc<2> out_oc;  // o -> {offset in `in`, offset in `out`}
  OffsetCalc<1> red_oc;  // r -> offset in `in`
  bool red_1d = true;    // red_ndim <= 1: offset is r * red_stride
  int64_t red_stride = 0;
  int64_t out_numel = 0, red_numel = 0, chunk = 0;
  bool inner = true, vec = false;
  void* partial = nullptr;  // splits > 1: Acc[split][out_numel]
};

template <class T, class Op>
GL_HD void red_store(const Op& op, char* out, DType od, int64_t off, const typename Op::Acc& a) {
  if (od == DType::Int64) reinterpret_cast<int64_t*>(out)[off] = op.template result<int64_t>(a);
  else if (od == DType::Bool) reinterpret_cast<bool*>(out)[off] = op.template result<bool>(a);
  else reinterpret_cast<T*>(out)[off] = op.template result<T>(a);
}

// Phase 1: one thread's share of one output. Returns the output index (may be
// >= out_numel for idle threads, which return the identity).
template <int VEC, class T, class Op> GL_HD int64_t red_accumulate(const RedArgs& p, const Op& op, int tx, int ty,
                                                                   int bx, int by, int64_t blk_x, int64_t blk_y,
                                                                   typename Op::Acc& acc) {
  acc = op.ident();
  int64_t o, lane, nlanes;
  if (p.inner) {
    o = blk_x * by + ty;
    lane = tx;
    nlanes = bx;
  } else {
    o = blk_x * bx + tx;
    lane = ty;
    nlanes = by;
  }
  if (o >= p.out_numel) return o;
  const int64_t r0 = blk_y * p.chunk;
  int64_t r1 = r0 + p.chunk;
  if (r1 > p.red_numel) r1 = p.red_numel;
  if (r0 >= r1) return o;
  int64_t off[2];
  p.out_oc.get(o, off);
  const T* base = reinterpret_cast<const T*>(p.in) + off[0];
  if (p.vec) {
    // Unit stride: scalar head up to 16-byte alignment, 16-byte body, scalar tail.
    const T* q = base + r0;
    const int64_t len = r1 - r0;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(q);
    int64_t head = addr % sizeof(T) ? len : int64_t(((16 - addr % 16) % 16) / sizeof(T));
    if (head > len) head = len;
    for (int64_t j = lane; j < head; j += nlanes) op.add(acc, q[j], r0 + j);
    const Vec<T, VEC>* vq = reinterpret_cast<const Vec<T, VEC>*>(q + head);
    const int64_t nv = (len - head) / VEC;
    const int64_t rv = r0 + head;
    // Several loads in flight per thread (fewer for 1- and 2-byte types,
    // whose vectors already hold 8 or 16 elements).
    constexpr int U = VEC >= 8 ? 2 : 4;
    int64_t v = lane;
    for (; v + (U - 1) * nlanes < nv; v += U * nlanes) {
      Vec<T, VEC> x[U];
#pragma unroll
      for (int u = 0; u < U; ++u) x[u] = vq[v + u * nlanes];
#pragma unroll
      for (int u = 0; u < U; ++u) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) op.add(acc, x[u].v[k], rv + (v + u * nlanes) * VEC + k);
      }
    }
    for (; v < nv; v += nlanes) {
      const Vec<T, VEC> x = vq[v];
#pragma unroll
      for (int k = 0; k < VEC; ++k) op.add(acc, x.v[k], rv + v * VEC + k);
    }
    for (int64_t j = head + nv * VEC + lane; j < len; j += nlanes) op.add(acc, q[j], r0 + j);
    return o;
  }
  if (p.red_1d) {
    const int64_t rs = p.red_stride;
    int64_t r = r0 + lane;
    for (; r + 3 * nlanes < r1; r += 4 * nlanes) {
      const T x0 = base[r * rs], x1 = base[(r + nlanes) * rs], x2 = base[(r + 2 * nlanes) * rs],
              x3 = base[(r + 3 * nlanes) * rs];
      op.add(acc, x0, r);
      op.add(acc, x1, r + nlanes);
      op.add(acc, x2, r + 2 * nlanes);
      op.add(acc, x3, r + 3 * nlanes);
    }
    for (; r < r1; r += nlanes) op.add(acc, base[r * rs], r);
    return o;
  }
  for (int64_t r = r0 + lane; r < r1; r += nlanes) {
    int64_t ro;
    p.red_oc.get(r, &ro);
    op.add(acc, base[ro], r);
  }
  return o;
}

// Phase 2, one level of the block's tree (s: half the remaining lanes).
template <class Op>
GL_HD void red_tree_step(const Op& op, typename Op::Acc* sh, bool inner, int tx, int ty, int bx, int s) {
  const int me = ty * bx + tx;
  if (inner) {
    if (tx < s) op.merge(sh[me], sh[me + s]);
  } else {
    if (ty < s) op.merge(sh[me], sh[me + s * bx]);
  }
}

// Phase 3: the lane-0 thread of each output writes the block's result.
template <class T, class Op> GL_HD void red_write(const RedArgs& p, const Op& op, int tx, int ty, int64_t o,
                                                  int64_t blk_y, const typename Op::Acc& a) {
  if ((p.inner ? tx : ty) != 0 || o >= p.out_numel) return;
  if (p.partial) {
    reinterpret_cast<typename Op::Acc*>(p.partial)[blk_y * p.out_numel + o] = a;
    return;
  }
  int64_t off[2];
  p.out_oc.get(o, off);
  red_store<T>(op, p.out, p.out_dtype, off[1], a);
}

// Second pass over the slices: x along outputs, y along slices.
struct RedFinalArgs {
  const void* partial = nullptr;
  int64_t splits = 1, out_numel = 0;
  char* out = nullptr;
  DType out_dtype = DType::Float32;
  OffsetCalc<2> out_oc;
};

template <class Op> GL_HD int64_t red_final_accumulate(const RedFinalArgs& p, const Op& op, int tx, int ty, int fx,
                                                       int fy, int64_t blk_x, typename Op::Acc& acc) {
  acc = op.ident();
  const int64_t o = blk_x * fx + tx;
  if (o >= p.out_numel) return o;
  const auto* part = reinterpret_cast<const typename Op::Acc*>(p.partial);
  for (int64_t s = ty; s < p.splits; s += fy) op.merge(acc, part[s * p.out_numel + o]);
  return o;
}

template <class T, class Op>
GL_HD void red_final_write(const RedFinalArgs& p, const Op& op, int ty, int64_t o, const typename Op::Acc& a) {
  if (ty != 0 || o >= p.out_numel) return;
  int64_t off[2];
  p.out_oc.get(o, off);
  red_store<T>(op, p.out, p.out_dtype, off[1], a);
}

// Host: the argument blocks for a normalized spec.
RedArgs make_red_args(const ReduceSpec& s, const RedPlan& plan, void* partial);
RedFinalArgs make_red_final_args(const ReduceSpec& s, const RedPlan& plan, const void* partial);

}  // namespace gl::cuda
