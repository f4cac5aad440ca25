// Random fills from a counter-based generator: Philox4x32-10 (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11), as cuRAND and
// PyTorch use on CUDA. Each 128-bit counter (group index, call offset) under
// the 64-bit key (the seed) gives four 32-bit words; element groups are
// independent of the launch shape, so results depend only on (seed, offset).
// Every call advances the exec's offset, so successive calls differ;
// seed() resets seed and offset.
// - uniform [a, b): the top digits of one word (24 for float32, 11 for
//   float16, 8 for bfloat16, as the CPU), 53 bits of two words for float64;
// - normal: Box-Muller on pairs of uniforms (float math for float32/16/bf16,
//   double for float64);
// - int range [a, b): one word modulo the range, two words when the range
//   needs more than 32 bits (the CPU's rule).
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
  if constexpr (K == RandomKind::IntRange) {
    p.base = s.lo;
    p.range = uint64_t(s.hi) - uint64_t(s.lo);  // unsigned: the span may exceed int64_t
    p.wide = p.range >= (uint64_t(1) << 32);
  } else {
    p.vec = aligned_to(p.out, sizeof(T) * random_group<T, K>(false));
  }
  {
    std::lock_guard<std::mutex> g(ex->mu);
    p.seed = ex->seed;
    p.offset = ex->offset++;
  }
  const int64_t groups = (p.n + random_group<T, K>(p.wide) - 1) / random_group<T, K>(p.wide);
  constexpr auto kernel = random_kernel<T, K>;
  kernel<<<grid_for(ex, groups, resident_blocks<kernel>()), kThreads, 0, ex->stream>>>(p);
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
      case RandomKind::Bits32: throw RuntimeError("raw generator draws are taken on the CPU");
    }
  });
}

void k_seed(void* exec, uint64_t seed) {
  Exec* ex = as_exec(exec);
  std::lock_guard<std::mutex> g(ex->mu);
  ex->seed = seed;
  ex->offset = 0;
}

}  // namespace gl::cuda
