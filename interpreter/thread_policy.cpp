// Note [Idle workers sleep]: learners share machines (JupyterHub, lab
// servers), and an OpenMP worker that spins while waiting for work takes a
// core someone else needs; worse, when that someone spins too, a parallel
// region waits for a descheduled worker and one MLP step took 50x its median.
// So gpulab's OpenMP threads (OpenBLAS's included, Note [One thread pool])
// sleep as soon as they are idle, unless the user chose a policy
// (OMP_WAIT_POLICY, GOMP_SPINCOUNT). Small work never wakes them at all: it
// runs on the calling thread (kGrain in kernels/cpu/loop.h, kGemmSerialMNK in
// kernels/cpu/gemm.cpp).
//
// libgomp reads its settings once, in its own initialiser, before main. An
// executable's .preinit_array runs before any shared library's initialiser,
// so the default is set there.
#include <cstdlib>

namespace {

void default_wait_policy(int, char**, char**) {
  if (!std::getenv("OMP_WAIT_POLICY") && !std::getenv("GOMP_SPINCOUNT")) setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
}

}  // namespace

__attribute__((section(".preinit_array"), used)) static void (*const gl_preinit_wait_policy)(int, char**,
                                                                                             char**) =
    default_wait_policy;
