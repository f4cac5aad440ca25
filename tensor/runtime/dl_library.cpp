// Note [Libraries on first use]: the large optional libraries (cuBLAS ~200 MB
// resident, cuDNN, NVML, NCCL, OpenBLAS) are opened with dlopen when first
// needed, never at start: `gpulab -e ''` stays fast and small and touches no
// CUDA library, and one build runs on machines without them (the error then
// names the library and what needs it). Where gpulab's own code is what uses a
// library set (xeus for the Jupyter kernel, cairo for figures), that code is a
// module of gpulab's (open_module). A library stays loaded once opened.
#include "tensor/runtime/dl_library.h"

#include <unistd.h>

#include <climits>

#ifndef GPULAB_MODULE_RELDIR
#define GPULAB_MODULE_RELDIR "../lib/gpulab"
#endif

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

void* open_module(const char* file, std::string* why) {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string dir = n > 0 ? std::string(buf, size_t(n)) : std::string("./gpulab");
  dir.erase(dir.find_last_of('/'));
  std::string errors;
  for (const std::string& d : {dir, dir + "/..", dir + "/" GPULAB_MODULE_RELDIR}) {
    const std::string path = d + "/" + file;
    if (access(path.c_str(), F_OK) != 0) continue;
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    errors += std::string(errors.empty() ? "" : "; ") + dlerror();
  }
  if (why)
    *why = errors.empty()
               ? std::string(file) + " is not in " + dir + " (gpulab's folder) nor in " + dir + "/" GPULAB_MODULE_RELDIR
               : errors;
  return nullptr;
}

}  // namespace gl
