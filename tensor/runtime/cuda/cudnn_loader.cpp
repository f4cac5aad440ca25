#include "tensor/runtime/cuda/cudnn_loader.h"

#include <dlfcn.h>
#include <mutex>
#include "tensor/core/error.h"

namespace gl::cuda {
namespace {

#define GL_STR2(x) #x
#define GL_STR(x) GL_STR2(x)
constexpr const char* kSoname = "libcudnn.so." GL_STR(CUDNN_MAJOR);

struct Loaded {
  CudnnApi api;
  bool ok = false;
  std::string error;
};

template <class F>
bool sym(void* lib, const char* name, F* out, std::string* error) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out == nullptr && error->empty()) *error = std::string("symbol ") + name + " not found in " + kSoname;
  return *out != nullptr;
}

// The loader's path first, then the toolkit's default place.
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
    bool ok = true;
#define GL_CUDNN_SYM(name) ok = sym(lib, #name, &l.api.name, &l.error) && ok;
    GL_CUDNN_FUNCTIONS(GL_CUDNN_SYM)
#undef GL_CUDNN_SYM
    l.ok = ok;
  });
  return l;
}

}  // namespace

const char* cudnn_soname() { return kSoname; }

const CudnnApi& cudnn() {
  const Loaded& l = loaded();
  if (!l.ok) {
    throw RuntimeError(cat("CUDA error: cannot load cuDNN (", kSoname, "), which convolutions and pooling on a GPU need: ",
                           l.error, ". Install cuDNN (NVIDIA's libcudnn", CUDNN_MAJOR, " package) and see `gpulab doctor`"));
  }
  return l.api;
}

bool cudnn_available(std::string* version, std::string* error) {
  const Loaded& l = loaded();
  if (!l.ok) {
    *error = l.error;
    return false;
  }
  const size_t v = l.api.cudnnGetVersion();  // major * 10000 + minor * 100 + patch since cuDNN 9
  *version = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
  return true;
}

}  // namespace gl::cuda
