// Which vector instructions this CPU has, for the loops compiled for one
// target alone and chosen at run time (sum_block.cpp, sigmoid_f32.cpp, gemm_int.cpp).
#pragma once

namespace gl::cpu {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// __builtin_cpu_init first: a caller may run in a static initialiser, before libgcc's.
inline bool has_avx2() {
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return yes;
}
inline bool has_avx512dq() {  // 64-bit integer multiplies in vectors (vpmullq)
  static const bool yes =
      (__builtin_cpu_init(), __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"));
  return yes;
}
inline bool has_avx2_fma() {
  static const bool yes = has_avx2() && __builtin_cpu_supports("fma");
  return yes;
}
#else
inline bool has_avx2() { return false; }
inline bool has_avx512dq() { return false; }
inline bool has_avx2_fma() { return false; }
#endif

}  // namespace gl::cpu
