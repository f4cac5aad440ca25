// Random fills on a real GPU, drawn as PyTorch draws them (Note [PyTorch's
// CUDA draws] in random.cuh): Philox4x32-10 (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3", SC'11) through cuRAND's transforms, so a
// seeded program prints PyTorch's numbers. Every call advances the exec's
// offset as PyTorch advances its generator's; seed() resets seed and offset.
#include "tensor/kernels/cuda/random.cuh"

namespace gl::cuda {

namespace {

template <class T, RandomKind K> __global__ void __launch_bounds__(kThreads) random_kernel(RandArgs<T> p) {
  random_body<T, K>(grid_1d(), p);
}

template <class T, RandomKind K> void run_random(Exec* ex, const RandomSpec& s) {
  RandArgs<T> p;
  p.out = reinterpret_cast<T*>(s.out.data);
  p.n = s.numel;
  p.a = s.a;
  p.b = s.b;
  p.group = s.group;
  if constexpr (K == RandomKind::IntRange) {
    p.base = s.lo;
    p.range = uint64_t(s.hi) - uint64_t(s.lo);  // unsigned: the span may exceed int64_t
    p.wide = p.range >= (uint64_t(1) << 28);    // PyTorch's threshold (its % skew stays under 5%)
  }
  RandomLaunch l = random_launch(p.n, random_unroll<T, K>(p.wide), ex->sm_count, ex->max_threads_per_sm);
  // bernoulli_ with a tensor p: one thread per four elements, and the offset
  // moves on by PyTorch's philox_cuda_state(10), rounded up to 12.
  if (K == RandomKind::Uniform4 && s.one_round) l = {(p.n + 3) / 4, 12};
  p.threads = l.threads;
  {
    std::lock_guard<std::mutex> g(ex->mu);
    p.seed = ex->seed;
    p.offset = ex->offset;
    ex->offset += l.advance;
  }
  random_kernel<T, K><<<unsigned((l.threads + kThreads - 1) / kThreads), kThreads, 0, ex->stream>>>(p);
  check_launch();
}

}  // namespace

void k_random(void* exec, const RandomSpec& s) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.out.dtype, [&](auto t) {
    using T = decltype(t);
    switch (s.kind) {
      case RandomKind::Uniform:
        if constexpr (is_float_v<T>) return run_random<T, RandomKind::Uniform>(ex, s);
        throw RuntimeError("uniform_ only supports floating-point dtypes");
      case RandomKind::Normal:
        if constexpr (is_float_v<T>) return run_random<T, RandomKind::Normal>(ex, s);
        throw RuntimeError("normal_ only supports floating-point dtypes");
      case RandomKind::IntRange: return run_random<T, RandomKind::IntRange>(ex, s);
      case RandomKind::Uniform4:
        if constexpr (std::is_same_v<T, float>) return run_random<T, RandomKind::Uniform4>(ex, s);
        throw RuntimeError("gpulab: grouped uniforms are float32");
      case RandomKind::Bits32: throw RuntimeError("raw generator draws are taken on the CPU");
    }
  });
}

void k_philox_reserve(void* exec, uint64_t increment, uint64_t* seed, uint64_t* offset) {
  Exec* ex = as_exec(exec);
  std::lock_guard<std::mutex> g(ex->mu);
  *seed = ex->seed;
  *offset = ex->offset;
  ex->offset += (increment + 3) / 4 * 4;
}

void k_seed(void* exec, uint64_t seed) {
  Exec* ex = as_exec(exec);
  std::lock_guard<std::mutex> g(ex->mu);
  ex->seed = seed;
  ex->offset = 0;
}

}  // namespace gl::cuda
