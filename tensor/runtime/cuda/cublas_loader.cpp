#include "tensor/runtime/cuda/cublas_loader.h"

#include <dlfcn.h>
#include <mutex>
#include "tensor/core/error.h"

namespace gl::cuda {
namespace {

#define GL_STR2(x) #x
#define GL_STR(x) GL_STR2(x)
constexpr const char* kSoname = "libcublas.so." GL_STR(CUBLAS_VER_MAJOR);

struct Loaded {
  CublasApi api;
  bool ok = false;
  std::string error;
};

template <class F>
bool sym(void* lib, const char* name, F* out, std::string* error) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out == nullptr && error->empty()) *error = std::string("symbol ") + name + " not found in " + kSoname;
  return *out != nullptr;
}

// The toolkit's default place, for machines where it is not on the loader's path.
void* open_library() {
  void* lib = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (lib != nullptr) return lib;
  std::string first = dlerror();
  for (const char* dir : {"/usr/local/cuda/lib64/", "/usr/local/cuda/lib/"}) {
    lib = dlopen((std::string(dir) + kSoname).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) return lib;
  }
  (void)dlerror();
  throw RuntimeError(first);
}

const Loaded& loaded() {
  static Loaded l;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = nullptr;
    try {
      lib = open_library();
    } catch (const std::exception& e) {
      l.error = e.what();
      return;
    }
    CublasApi& a = l.api;
    std::string& err = l.error;
    l.ok = sym(lib, "cublasCreate_v2", &a.create, &err) & sym(lib, "cublasDestroy_v2", &a.destroy, &err) &
           sym(lib, "cublasSetStream_v2", &a.set_stream, &err) &
           sym(lib, "cublasDgemmStridedBatched", &a.dgemm_strided_batched, &err) &
           sym(lib, "cublasGemmStridedBatchedEx", &a.gemm_strided_batched_ex, &err) &
           sym(lib, "cublasGetStatusString", &a.status_string, &err) &
           sym(lib, "cublasGetProperty", &a.get_property, &err);
  });
  return l;
}

}  // namespace

const char* cublas_soname() { return kSoname; }

const CublasApi& cublas() {
  const Loaded& l = loaded();
  if (!l.ok) {
    throw RuntimeError(cat("CUDA error: cannot load cuBLAS (", kSoname, "), which matmul on a GPU needs: ", l.error,
                           ". Install cuBLAS (part of the CUDA toolkit, or NVIDIA's libcublas package) "
                           "and see `gpulab doctor`"));
  }
  return l.api;
}

bool cublas_available(std::string* version, std::string* error) {
  const Loaded& l = loaded();
  if (!l.ok) {
    *error = l.error;
    return false;
  }
  int v[3] = {0, 0, 0};
  const libraryPropertyType props[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int i = 0; i < 3; ++i) l.api.get_property(props[i], &v[i]);
  *version = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
  return true;
}

}  // namespace gl::cuda
