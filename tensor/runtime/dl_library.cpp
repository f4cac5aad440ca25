// Note [Libraries on first use]: the large optional libraries (cuBLAS ~200 MB
// resident, cuDNN, NVML) are opened with dlopen when first needed, never at
// start: `gpulab -e ''` stays fast and small and touches no CUDA library, and
// one build runs on machines without them (the error then names the library
// and what needs it). A library stays loaded once opened.
#include "tensor/runtime/dl_library.h"

namespace gl {

bool DlLibrary::open() {
  handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
  if (handle_ != nullptr) return true;
  std::string first = dlerror();
  if (toolkit_dirs_) {
    for (const char* dir : {"/usr/local/cuda/lib64/", "/usr/local/cuda/lib/"}) {
      handle_ = dlopen((std::string(dir) + soname_).c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle_ != nullptr) return true;
    }
    (void)dlerror();
  }
  error_ = first;
  return false;
}

}  // namespace gl
