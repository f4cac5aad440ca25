// OpenBLAS, opened on first use (Note [Libraries on first use]): its 16,000
// symbol relocations were most of the dynamic loader's work at every start,
// for a library that only float64 products, convolutions on im2col and
// linalg's factorizations need (float32 products run on oneDNN: tensor/kernels/cpu/gemm.cpp).
#pragma once
#include <cblas.h>
#include <cstddef>
#include <string>

namespace gl::blas {

using Gemm32 = decltype(&cblas_sgemm);
using Gemm64 = decltype(&cblas_dgemm);
// LAPACK's Fortran entry points (OpenBLAS carries LAPACK), by reference.
using Geqrf32 = void (*)(const int*, const int*, float*, const int*, float*, float*, const int*, int*);
using Geqrf64 = void (*)(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
using Orgqr32 = void (*)(const int*, const int*, const int*, float*, const int*, const float*, float*, const int*,
                         int*);
using Orgqr64 = void (*)(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*,
                         int*);

using Getrf32 = void (*)(const int*, const int*, float*, const int*, int*, int*);
using Getrf64 = void (*)(const int*, const int*, double*, const int*, int*, int*);
// getrs, with the hidden length of its character argument (gfortran's ABI).
using Getrs32 = void (*)(const char*, const int*, const int*, const float*, const int*, const int*, float*, const int*,
                         int*, size_t);
using Getrs64 = void (*)(const char*, const int*, const int*, const double*, const int*, const int*, double*,
                         const int*, int*, size_t);

// gesdd, with the hidden length of its character argument (gfortran's ABI).
using Gesdd32 = void (*)(const char*, const int*, const int*, float*, const int*, float*, float*, const int*, float*,
                         const int*, float*, const int*, int*, int*, size_t);
using Gesdd64 = void (*)(const char*, const int*, const int*, double*, const int*, double*, double*, const int*,
                         double*, const int*, double*, const int*, int*, int*, size_t);

struct Api {
  Gemm32 sgemm;
  Gemm64 dgemm;
  Geqrf32 sgeqrf;
  Geqrf64 dgeqrf;
  Orgqr32 sorgqr;
  Orgqr64 dorgqr;
  Gesdd32 sgesdd;
  Gesdd64 dgesdd;
  Getrf32 sgetrf;
  Getrf64 dgetrf;
  Getrs32 sgetrs;
  Getrs64 dgetrs;
  char* (*get_config)();
};

// Opens OpenBLAS once (the OpenMP variant gpulab was built against, Note [One
// thread pool], else whichever libopenblas.so.0 the loader finds); a missing
// library is a RuntimeError naming it and the Debian package. Thread-safe.
const Api& api();

}  // namespace gl::blas
