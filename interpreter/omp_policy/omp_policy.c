/* Note [Idle workers sleep]: learners share machines (JupyterHub, lab
 * servers), and an OpenMP worker that spins while waiting for work takes a
 * core someone else needs; worse, when that someone runs too, a parallel
 * region waits for a descheduled worker: LeNet trained 4x slower beside two
 * niced processes, its workers spinning in libgomp (300,000 times after each
 * region by default, about 15 ms here). Sleeping at once costs a wake-up per
 * region instead: an MLP step of 20-odd regions took 527 us, against 382 us on
 * one thread. So gpulab's OpenMP threads (OpenBLAS's and oneDNN's included,
 * Note [One thread pool]) spin for about 100 us and then sleep: the regions of
 * one step find their workers awake, and a worker left idle gives its core
 * back within a tenth of a millisecond. libgomp counts spins, not time, and a
 * spin's `pause` costs 52 ns on an AMD Zen 5 (bench/README.md's machine), a few ns
 * on older Intel ones, so the count is measured at start-up (about 20 us). On
 * the 2-core machine the MLP step (bench/mlp_bench.lua, two threads) took
 * 0.35-0.38 ms spinning 300 times (15 us), no faster than on one thread
 * (0.37 ms), and 0.27 ms spinning about 4,200 times (100 us). Beside a busy process the
 * count no longer matters: the regions run on one thread there (Note [Threads
 * that pay], kernels/cpu/threads.cpp). The user's OMP_WAIT_POLICY or
 * GOMP_SPINCOUNT wins. Small work never wakes the workers at all: it runs on
 * the calling thread (kGrain in kernels/cpu/loop.h, kGemmSerialMNK in
 * kernels/cpu/gemm.cpp).
 *
 * libgomp reads its settings once, in its own initialiser. So the default must
 * be in the environment after libc's initialiser (which sets `environ` back to
 * what the kernel passed: a setenv in the executable's .preinit_array, run
 * before it, was lost that way) and before libgomp's. This is that code, as a
 * library of its own that the gpulab executable needs after libgomp
 * (CMakeLists.txt): the dynamic loader initialises a library loaded later, and
 * not needed by the earlier ones, before them. tests/cli/run.sh checks that
 * order and the policy `gpulab doctor` reports. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int set_it;
static double spin_ns;  /* one measured spin */

enum { kSpinTargetNs = 100000, kMinSpins = 300, kMaxSpins = 300000 };

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* libgomp's spin (config/linux/wait.h do_spin): a relaxed load and a
 * cpu_relax per round, `pause` on x86. The best of three runs of 128. */
static double measure_spin_ns(void) {
  static volatile int flag;
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    const double t0 = now_ns();
    for (int i = 0; i < 128; ++i) {
      if (__atomic_load_n(&flag, __ATOMIC_RELAXED)) break;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      __asm__ volatile("yield" ::: "memory");
#endif
    }
    const double per = (now_ns() - t0) / 128;
    if (per < best) best = per;
  }
  return best;
}

__attribute__((constructor)) static void gpulab_default_wait_policy(void) {
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
  spin_ns = measure_spin_ns();
  double spins = spin_ns > 0 ? kSpinTargetNs / spin_ns : kMaxSpins;
  if (spins < kMinSpins) spins = kMinSpins;
  if (spins > kMaxSpins) spins = kMaxSpins;
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", (long)spins);
  set_it = setenv("GOMP_SPINCOUNT", buf, 0) == 0;
}

/* Whether the policy in the environment is gpulab's default (gpulab doctor
 * says so); also what keeps the library needed, so no linker drops it. */
int gpulab_omp_policy_set_it(void) { return set_it; }

/* The time one spin took when the default was set (0 otherwise). */
double gpulab_omp_policy_spin_ns(void) { return spin_ns; }
