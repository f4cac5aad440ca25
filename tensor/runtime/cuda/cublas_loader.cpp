#include "tensor/runtime/cuda/cublas_loader.h"

#include "tensor/core/error.h"
#include "tensor/runtime/dl_library.h"

namespace gl::cuda {
namespace {

#define GL_STR2(x) #x
#define GL_STR(x) GL_STR2(x)
constexpr const char* kSoname = "libcublas.so." GL_STR(CUBLAS_VER_MAJOR);

DlLibrary& library() {
  static DlLibrary lib(kSoname, /*toolkit_dirs=*/true);
  return lib;
}
CublasApi g_api;

// Opens cuBLAS and fills the table, once (Note [Libraries on first use]).
bool loaded() {
  return library().load([](DlLibrary& lib) {
    CublasApi& a = g_api;
    return lib.sym("cublasCreate_v2", &a.create) & lib.sym("cublasDestroy_v2", &a.destroy) &
           lib.sym("cublasSetStream_v2", &a.set_stream) &
           lib.sym("cublasDgemmStridedBatched", &a.dgemm_strided_batched) &
           lib.sym("cublasGemmStridedBatchedEx", &a.gemm_strided_batched_ex) & lib.sym("cublasGemmEx", &a.gemm_ex) &
           lib.sym("cublasDgemm_v2", &a.dgemm) & lib.sym("cublasSetWorkspace_v2", &a.set_workspace) &
           lib.sym("cublasGetStatusString", &a.status_string) & lib.sym("cublasGetProperty", &a.get_property);
  });
}

}  // namespace

const char* cublas_soname() { return kSoname; }

const CublasApi& cublas() {
  if (!loaded()) {
    throw RuntimeError(cat("CUDA error: cannot load cuBLAS (", kSoname,
                           "), which matmul on a GPU needs: ", library().error(),
                           ". Install cuBLAS (part of the CUDA toolkit, or NVIDIA's libcublas package) "
                           "and see `gpulab doctor`"));
  }
  return g_api;
}

bool cublas_available(std::string* version, std::string* error) {
  if (!loaded()) {
    *error = library().error();
    return false;
  }
  int v[3] = {0, 0, 0};
  const libraryPropertyType props[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int i = 0; i < 3; ++i) g_api.get_property(props[i], &v[i]);
  *version = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
  return true;
}

}  // namespace gl::cuda
