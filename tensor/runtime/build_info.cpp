#include "tensor/runtime/build_info.h"

#include "tensor/kernels/cpu/isa.h"
#include "tensor/runtime/blas_loader.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::runtime {

std::string blas_description() {
  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY USE_OPENMP Cooperlake
  // MAX_THREADS=64": version, threading variant and the CPU kernel chosen now.
  std::string config;
  try {
    config = blas::api().get_config();
  } catch (const std::exception& e) { return e.what(); }
  while (!config.empty() && config.back() == ' ') config.pop_back();
  return config;
}

std::string cuda_description() {
  if (!cuda::compiled()) return "not compiled in (CPU and virtual devices only)";
  std::string text = "compiled in (CUDA runtime " + cuda::toolkit_version() + "); ";
  int v = cuda::driver_version();
  if (v == 0) return text + "no NVIDIA driver found (libcuda.so.1): CPU and virtual devices only";
  return text + "driver supports CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string cpu_capability() {
  if (cpu::has_avx512dq()) return "AVX512";
  if (cpu::has_avx2_fma()) return "AVX2";
  return "DEFAULT";
}

std::string cuda_banner_line() {
  // One line under 80 columns, as the rest of the banner.
  if (!cuda::compiled()) return "CUDA: not compiled in: CPU only (--virtual-gpus N emulates GPUs)";
  std::string driver = cuda_driver_version();
  if (driver.empty()) return "CUDA: no NVIDIA driver: CPU only (--virtual-gpus N emulates GPUs)";
  return "CUDA: NVIDIA driver for CUDA " + driver + ": real GPUs ('gpulab doctor' checks them)";
}

std::string cuda_runtime_version() { return cuda::toolkit_version(); }

std::string cuda_driver_version() {
  int v = cuda::driver_version();
  return v == 0 ? std::string() : std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::vector<LibraryInfo> cuda_libraries() {
  std::vector<LibraryInfo> out;
  for (const cuda::Library& l : cuda::libraries()) {
    out.push_back(LibraryInfo{l.purpose, l.file, l.version, l.error, l.found});
  }
  return out;
}

int physical_gpu_count() { return cuda::compiled() ? cuda::device_count() : 0; }

}  // namespace gl::runtime
