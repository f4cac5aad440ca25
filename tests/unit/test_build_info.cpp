// What --version, the banner and `gpulab doctor` report about the build
// (tensor/runtime/build_info.h), consistent with cuda_api.h.
#include <doctest/doctest.h>
#include "tensor/runtime/build_info.h"
#include "tensor/runtime/cuda_api.h"

using namespace gl;

TEST_CASE("build_info: the BLAS describes itself as OpenBLAS with a version") {
  std::string blas = runtime::blas_description();
  CHECK(blas.rfind("OpenBLAS 0.", 0) == 0);
  CHECK(blas.back() != ' ');
}

TEST_CASE("build_info: CUDA facts agree with the build and need no device") {
  std::string line = runtime::cuda_banner_line();
  CHECK(line.size() < 80);
  CHECK(line.rfind("CUDA: ", 0) == 0);
  if (!cuda::compiled()) {
    CHECK(runtime::cuda_description().rfind("not compiled in", 0) == 0);
    CHECK(runtime::cuda_runtime_version().empty());
    CHECK(runtime::cuda_libraries().empty());
    CHECK(runtime::physical_gpu_count() == 0);
    return;
  }
  CHECK(runtime::cuda_description().rfind("compiled in (CUDA runtime " + runtime::cuda_runtime_version(), 0) == 0);
  std::vector<runtime::LibraryInfo> libs = runtime::cuda_libraries();
  REQUIRE(libs.size() == 4);  // driver, cuBLAS, cuDNN, NVML
  CHECK(libs[0].purpose == "driver");
  CHECK(libs[1].purpose == "cuBLAS");
  CHECK(libs[1].file.rfind("libcublas.so.", 0) == 0);
  CHECK(libs[2].purpose == "cuDNN");
  CHECK(libs[2].file.rfind("libcudnn.so.", 0) == 0);
  for (const auto& l : libs) CHECK((l.found ? l.error.empty() : !l.error.empty()));
  // Without a driver there is no version to report, and the banner says CPU only.
  if (!libs[0].found) {
    CHECK(runtime::cuda_driver_version().empty());
    CHECK(line.find("CPU only") != std::string::npos);
  }
}
