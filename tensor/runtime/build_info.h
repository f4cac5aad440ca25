// What gpulab was built with, for `gpulab --version`, the banner and `gpulab doctor`.
// Nothing here initialises CUDA (Note [Lazy CUDA]): --version stays instant.
#pragma once
#include <string>

namespace gl::runtime {

// "OpenBLAS 0.3.21 (OpenMP) NO_AFFINITY Haswell MAX_THREADS=64": the library
// actually loaded, as it describes itself (openblas_get_config).
std::string blas_description();

// "compiled in (CUDA runtime 13.0); driver 13.0 (libcuda.so.1)", or why not:
// loads libcuda.so.1 to ask its version, but never initialises CUDA.
std::string cuda_description();

}  // namespace gl::runtime
