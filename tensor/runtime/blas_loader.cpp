#include "tensor/runtime/blas_loader.h"

#include "tensor/core/error.h"
#include "tensor/runtime/dl_library.h"

#ifndef GPULAB_OPENBLAS_PATH
#define GPULAB_OPENBLAS_PATH "libopenblas.so.0"
#endif

namespace gl::blas {

namespace {

bool resolve(DlLibrary& lib, Api* a) {
  return lib.sym("cblas_sgemm", &a->sgemm) && lib.sym("cblas_dgemm", &a->dgemm) && lib.sym("sgeqrf_", &a->sgeqrf) &&
         lib.sym("dgeqrf_", &a->dgeqrf) && lib.sym("sorgqr_", &a->sorgqr) && lib.sym("dorgqr_", &a->dorgqr) &&
         lib.sym("sgesdd_", &a->sgesdd) && lib.sym("dgesdd_", &a->dgesdd) && lib.sym("sgetrf_", &a->sgetrf) &&
         lib.sym("dgetrf_", &a->dgetrf) && lib.sym("sgetrs_", &a->sgetrs) && lib.sym("dgetrs_", &a->dgetrs) &&
         lib.sym("openblas_get_config", &a->get_config);
}

}  // namespace

const Api& api() {
  // The path found at build time keeps the OpenMP variant whatever the
  // alternatives system points libopenblas.so.0 at; the soname is the fallback
  // for a tree moved elsewhere (scripts/offline-deps.sh sets LD_LIBRARY_PATH).
  static DlLibrary built(GPULAB_OPENBLAS_PATH, false), any("libopenblas.so.0", false);
  static Api a{};
  static const bool ok =
      built.load([](DlLibrary& l) { return resolve(l, &a); }) || any.load([](DlLibrary& l) { return resolve(l, &a); });
  GL_CHECK(ok, "OpenBLAS could not be loaded (" + built.error() + "; " + any.error() +
                   "): matrix products on the CPU need it (Debian: apt install libopenblas0-openmp)");
  return a;
}

}  // namespace gl::blas
