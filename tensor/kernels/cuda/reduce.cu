// Reductions: sum, prod, max, min, argmax, argmin, any, all over any set of
// dims (see reduce.cuh for the layouts and accumulation rules). Instantiated
// per input dtype and accumulation kind; the output dtype (the input's,
// int64 or bool, as on the CPU) is chosen at the final store.
#include <algorithm>
#include <cstdlib>
#include "tensor/kernels/cuda/reduce.cuh"
#include "tensor/kernels/merge_dims.h"

namespace gl::cuda {

ReduceSpec normalize_reduce(const ReduceSpec& s) {
  ReduceSpec r = s;
  int64_t* out_strides[2] = {r.in.strides, r.out.strides};
  r.out_ndim = merge_dims(r.out_ndim, r.out_shape, out_strides, 2);
  int64_t* red_strides[1] = {r.in_red_strides};
  r.red_ndim = merge_dims(r.red_ndim, r.red_shape, red_strides, 1);
  return r;
}

RedPlan plan_reduce(const ReduceSpec& s, int sm_count, int max_threads_per_sm, size_t acc_bytes, int vec_elems) {
  RedPlan p;
  const int64_t O = s.out_numel, R = s.red_numel;
  int64_t min_red = INT64_MAX, min_out = INT64_MAX;
  for (int d = 0; d < s.red_ndim; ++d) min_red = std::min<int64_t>(min_red, std::llabs(s.in_red_strides[d]));
  for (int d = 0; d < s.out_ndim; ++d) min_out = std::min<int64_t>(min_out, std::llabs(s.in.strides[d]));
  p.inner = O == 1 || min_red <= min_out;
  p.vec = p.inner && s.red_ndim == 1 && s.in_red_strides[0] == 1 && R >= 2 * vec_elems;
  const int64_t units = p.vec ? (R + vec_elems - 1) / vec_elems : std::max<int64_t>(R, 1);
  if (p.inner) {
    p.bx = int(std::min<int64_t>(kRedThreads, pow2_ceil(units)));
    p.by = int(std::min<int64_t>(kRedThreads / p.bx, pow2_ceil(O)));
    p.grid_x = (O + p.by - 1) / p.by;
  } else {
    p.bx = int(std::min<int64_t>(32, pow2_ceil(O)));
    p.by = int(std::min<int64_t>(kRedThreads / p.bx, pow2_ceil(std::max<int64_t>(R, 1))));
    if (p.by < 16) p.bx = int(std::min<int64_t>(pow2_ceil(O), kRedThreads / p.by));  // short columns
    p.grid_x = (O + p.bx - 1) / p.bx;
  }
  const int64_t lanes = p.inner ? p.bx : p.by;
  const int64_t threads = int64_t(p.bx) * p.by;
  const int64_t target = int64_t(sm_count) * std::max<int64_t>(1, max_threads_per_sm / threads);
  p.splits = 1;
  if (p.grid_x < target && R > 0) {
    const int64_t want = (target + p.grid_x - 1) / p.grid_x;
    const int64_t by_work = std::max<int64_t>(1, units / (lanes * 16));
    const int64_t by_ws = std::max<int64_t>(1, int64_t(kRedWorkspaceCap / (size_t(O) * acc_bytes)));
    p.splits = std::min({want, by_work, by_ws, int64_t(65535)});
  }
  if (p.splits > 1) {
    const int64_t align = p.vec ? vec_elems : 1;
    p.chunk = (R + p.splits - 1) / p.splits;
    p.chunk = (p.chunk + align - 1) / align * align;
    p.splits = (R + p.chunk - 1) / p.chunk;
  } else {
    p.chunk = R;
  }
  if (p.splits > 1) {
    p.fx = int(std::min<int64_t>(32, pow2_ceil(O)));
    p.fy = int(std::min<int64_t>(kRedThreads / p.fx, pow2_ceil(p.splits)));
    p.fgrid = (O + p.fx - 1) / p.fx;
  }
  return p;
}

RedArgs make_red_args(const ReduceSpec& s, const RedPlan& plan, void* partial) {
  RedArgs a;
  a.in = s.in.data;
  a.out = s.out.data;
  a.out_dtype = s.out.dtype;
  const int64_t* st2[2] = {s.in.strides, s.out.strides};
  a.out_oc = make_offset_calc<2>(s.out_ndim, s.out_shape, st2, s.out_numel);
  const int64_t* st1[1] = {s.in_red_strides};
  a.red_oc = make_offset_calc<1>(s.red_ndim, s.red_shape, st1, s.red_numel);
  a.red_1d = s.red_ndim <= 1;
  a.red_stride = s.red_ndim == 1 ? s.in_red_strides[0] : 0;
  a.out_numel = s.out_numel;
  a.red_numel = s.red_numel;
  a.chunk = plan.chunk;
  a.inner = plan.inner;
  a.vec = plan.vec;
  a.partial = plan.splits > 1 ? partial : nullptr;
  return a;
}

RedFinalArgs make_red_final_args(const ReduceSpec& s, const RedPlan& plan, const void* partial) {
  RedFinalArgs a;
  a.partial = partial;
  a.splits = plan.splits;
  a.out_numel = s.out_numel;
  a.out = s.out.data;
  a.out_dtype = s.out.dtype;
  const int64_t* st2[2] = {s.in.strides, s.out.strides};
  a.out_oc = make_offset_calc<2>(s.out_ndim, s.out_shape, st2, s.out_numel);
  return a;
}

namespace {

template <int VEC, class T, class Op> __global__ void __launch_bounds__(kRedThreads) reduce_kernel(RedArgs p, Op op) {
  using Acc = typename Op::Acc;
  extern __shared__ __align__(16) unsigned char red_smem[];
  Acc* sh = reinterpret_cast<Acc*>(red_smem);
  const int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
  Acc acc;
  const int64_t o = red_accumulate<VEC, T>(p, op, tx, ty, bx, by, blockIdx.x, blockIdx.y, acc);
  sh[ty * bx + tx] = acc;
  __syncthreads();
  for (int s = (p.inner ? bx : by) / 2; s > 0; s >>= 1) {
    red_tree_step(op, sh, p.inner, tx, ty, bx, s);
    __syncthreads();
  }
  red_write<T>(p, op, tx, ty, o, blockIdx.y, sh[ty * bx + tx]);
}

template <class T, class Op> __global__ void __launch_bounds__(kRedThreads) reduce_final_kernel(RedFinalArgs p, Op op) {
  using Acc = typename Op::Acc;
  extern __shared__ __align__(16) unsigned char red_smem[];
  Acc* sh = reinterpret_cast<Acc*>(red_smem);
  const int tx = threadIdx.x, ty = threadIdx.y, fx = blockDim.x, fy = blockDim.y;
  Acc acc;
  const int64_t o = red_final_accumulate(p, op, tx, ty, fx, fy, blockIdx.x, acc);
  sh[ty * fx + tx] = acc;
  __syncthreads();
  for (int s = fy / 2; s > 0; s >>= 1) {
    red_tree_step(op, sh, false, tx, ty, fx, s);
    __syncthreads();
  }
  red_final_write<T>(p, op, ty, o, sh[ty * fx + tx]);
}

template <class T, RKind K> void run_reduce(Exec* ex, const ReduceSpec& s, bool flag) {
  using Op = RedOp<T, K>;
  using Acc = typename Op::Acc;
  constexpr int VEC = int(16 / sizeof(T));
  Op op;
  op.flag = flag;
  const RedPlan plan = plan_reduce(s, ex->sm_count, ex->max_threads_per_sm, sizeof(Acc), VEC);
  std::lock_guard<std::mutex> g(ex->mu);  // the workspace is shared by this slot's reductions
  void* ws = plan.splits > 1 ? exec_workspace(ex, size_t(plan.splits) * size_t(s.out_numel) * sizeof(Acc)) : nullptr;
  const RedArgs a = make_red_args(s, plan, ws);
  const dim3 block(unsigned(plan.bx), unsigned(plan.by));
  const dim3 grid(unsigned(plan.grid_x), unsigned(plan.splits));
  reduce_kernel<VEC, T><<<grid, block, size_t(plan.bx) * plan.by * sizeof(Acc), ex->stream>>>(a, op);
  check_launch();
  if (plan.splits > 1) {
    const RedFinalArgs f = make_red_final_args(s, plan, ws);
    const dim3 fblock(unsigned(plan.fx), unsigned(plan.fy));
    reduce_final_kernel<T>
        <<<unsigned(plan.fgrid), fblock, size_t(plan.fx) * plan.fy * sizeof(Acc), ex->stream>>>(f, op);
    check_launch();
  }
}

}  // namespace

void k_reduce(void* exec, const ReduceSpec& s0) {
  if (s0.out_numel <= 0) return;
  const DType it = s0.in.dtype, ot = s0.out.dtype;
  // Output dtypes the op layer can ask for: the input's, int64, bool.
  if (!(ot == it || ot == DType::Int64 || ot == DType::Bool)) throw RuntimeError("unsupported reduction output dtype");
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  const ReduceSpec s = normalize_reduce(s0);
  dispatch_dtype(it, [&](auto t) {
    using T = decltype(t);
    dispatch_reduce(s.op, [&](auto kind, bool flag) { run_reduce<T, decltype(kind)::value>(ex, s, flag); });
  });
}

}  // namespace gl::cuda
