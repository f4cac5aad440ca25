// The CUDA pieces gpulab finds at run time (cuda_api.h: toolkit_version,
// driver_version, libraries), for --version, the banner and `gpulab doctor`.
// The CUDA runtime is linked statically and loads the driver itself; cuBLAS
// (cublas_loader.cpp) and NVML (smi.cpp) are loaded with dlopen on first use.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include "tensor/runtime/cuda/cublas_loader.h"
#include "tensor/runtime/cuda/cudnn_loader.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {
namespace {

std::string dotted(int v) {  // 13000 -> "13.0", 12040 -> "12.4"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

Library probe(const char* purpose, const char* file) {
  Library lib;
  lib.purpose = purpose;
  lib.file = file;
  // RTLD_LAZY: only looking; the library stays loaded for the program's later use.
  lib.found = dlopen(file, RTLD_LAZY | RTLD_LOCAL) != nullptr;
  if (!lib.found) lib.error = dlerror();
  return lib;
}

}  // namespace

std::string toolkit_version() { return dotted(CUDART_VERSION); }

int driver_version() {
  // cuDriverGetVersion is the one driver call that needs no cuInit.
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) return 0;
  using Fn = int (*)(int*);
  auto get = reinterpret_cast<Fn>(dlsym(lib, "cuDriverGetVersion"));
  int v = 0;
  if (get == nullptr || get(&v) != 0) return 0;
  return v;
}

std::vector<Library> libraries() {
  std::vector<Library> out;
  Library driver = probe("driver", "libcuda.so.1");
  if (int v = driver_version(); v > 0) driver.version = dotted(v);
  out.push_back(driver);
  Library blas;
  blas.purpose = "cuBLAS";
  blas.file = cublas_soname();
  blas.found = cublas_available(&blas.version, &blas.error);
  out.push_back(blas);
  Library dnn;
  dnn.purpose = "cuDNN";
  dnn.file = cudnn_soname();
  dnn.found = cudnn_available(&dnn.version, &dnn.error);
  out.push_back(dnn);
  out.push_back(probe("NVML", "libnvidia-ml.so.1"));
  return out;
}

}  // namespace gl::cuda
