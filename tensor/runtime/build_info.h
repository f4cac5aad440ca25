// What gpulab was built with, for `gpulab --version`, the banner and `gpulab doctor`.
// Nothing here initialises CUDA (Note [Lazy CUDA]): --version stays instant.
#pragma once
#include <string>
#include <vector>

namespace gl::runtime {

// "OpenBLAS 0.3.21 (OpenMP) NO_AFFINITY Haswell MAX_THREADS=64": the library
// actually loaded, as it describes itself (openblas_get_config).
std::string blas_description();

// "compiled in (CUDA runtime 13.0); driver 13.0 (libcuda.so.1)", or why not:
// loads libcuda.so.1 to ask its version, but never initialises CUDA.
std::string cuda_description();

// torch.backends.cpu.get_cpu_capability(): "AVX512", "AVX2" or "DEFAULT", the
// vector kernels PyTorch would pick on this CPU (and gpulab where it matches
// them: Note [PyTorch's vector Box-Muller]).
std::string cpu_capability();

// The REPL banner's line when no virtual devices were asked for: real GPUs or
// CPU only, from the driver's presence alone (cheap: CUDA stays uninitialised).
std::string cuda_banner_line();

// For `gpulab doctor`: the CUDA runtime compiled in ("" without CUDA), the
// driver's CUDA version ("" without one), and the libraries gpulab loads at run
// time, each looked for now (this loads cuBLAS).
struct LibraryInfo {
  std::string purpose, file, version, error;
  bool found = false;
};
std::string cuda_runtime_version();
std::string cuda_driver_version();
std::vector<LibraryInfo> cuda_libraries();
// GPUs the driver reports (initialises CUDA); 0 without a driver or a GPU.
int physical_gpu_count();

}  // namespace gl::runtime
