/* Note [Idle workers sleep]: learners share machines (JupyterHub, lab
 * servers), and an OpenMP worker that spins while waiting for work takes a
 * core someone else needs; worse, when that someone runs too, a parallel
 * region waits for a descheduled worker: LeNet trained 4x slower beside two
 * niced processes, its workers spinning in libgomp (300,000 times after each
 * region by default, about 15 ms here). Sleeping at once costs a wake-up per
 * region instead: an MLP step of 20-odd regions took 527 us, against 382 us on
 * one thread. So gpulab's OpenMP threads (OpenBLAS's and oneDNN's included,
 * Note [One thread pool]) spin 300 times (about 15 us) and then sleep: the
 * regions of one step mostly find their workers awake (366 us), and a worker
 * that shares its core with another process gives it back soon (beside a
 * spinning process: 549 us; 757 us with 1,000 spins). The user's
 * OMP_WAIT_POLICY or GOMP_SPINCOUNT wins. Small work never wakes them at all: it runs on the
 * calling thread (kGrain in kernels/cpu/loop.h, kGemmSerialMNK in
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
#include <stdlib.h>

static int set_it;

__attribute__((constructor)) static void gpulab_default_wait_policy(void) {
  if (!getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT")) set_it = setenv("GOMP_SPINCOUNT", "300", 0) == 0;
}

/* Whether the policy in the environment is gpulab's default (gpulab doctor
 * says so); also what keeps the library needed, so no linker drops it. */
int gpulab_omp_policy_set_it(void) { return set_it; }
