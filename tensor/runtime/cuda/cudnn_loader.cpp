#include "tensor/runtime/cuda/cudnn_loader.h"

#include "tensor/core/error.h"
#include "tensor/runtime/dl_library.h"

namespace gl::cuda {
namespace {

#define GL_STR2(x) #x
#define GL_STR(x) GL_STR2(x)
constexpr const char* kSoname = "libcudnn.so." GL_STR(CUDNN_MAJOR);

DlLibrary& library() {
  static DlLibrary lib(kSoname, /*toolkit_dirs=*/true);
  return lib;
}
CudnnApi g_api;

// Opens cuDNN and fills the table, once (Note [Libraries on first use]).
bool loaded() {
  return library().load([](DlLibrary& lib) {
    bool ok = true;
#define GL_CUDNN_SYM(name) ok = lib.sym(#name, &g_api.name) && ok;
    GL_CUDNN_FUNCTIONS(GL_CUDNN_SYM)
#undef GL_CUDNN_SYM
    return ok;
  });
}

}  // namespace

const char* cudnn_soname() { return kSoname; }

const CudnnApi& cudnn() {
  if (!loaded()) {
    throw RuntimeError(cat("CUDA error: cannot load cuDNN (", kSoname,
                           "), which convolutions and pooling on a GPU need: ", library().error(),
                           ". Install cuDNN (NVIDIA's libcudnn", CUDNN_MAJOR, " package) and see `gpulab doctor`"));
  }
  return g_api;
}

bool cudnn_available(std::string* version, std::string* error) {
  if (!loaded()) {
    *error = library().error();
    return false;
  }
  const size_t v = g_api.cudnnGetVersion();  // major * 10000 + minor * 100 + patch since cuDNN 9
  *version = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
  return true;
}

}  // namespace gl::cuda
