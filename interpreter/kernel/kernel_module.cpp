// Note [Kernel on first use]: xeus and what it brings (ZeroMQ, libsodium,
// OpenSSL's libcrypto, Kerberos: 14 libraries) cost every start about 2.5 ms
// of the dynamic loader's time, for `gpulab kernel` alone. The kernel proper
// (xeus_*.cpp) is built as a module, gpulab_kernel.so, that this binary opens
// only to run it; the module takes the interpreter's functions from the
// binary (which exports its symbols for it: ENABLE_EXPORTS in CMakeLists.txt).
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "interpreter/kernel/kernel.h"
#include "interpreter/terminal.h"

#ifndef GPULAB_KERNEL_MODULE_RELDIR
#define GPULAB_KERNEL_MODULE_RELDIR "../lib/gpulab"
#endif

namespace gl::interp {

namespace {

std::string exe_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string p(buf, size_t(n));
  return p.substr(0, p.find_last_of('/'));
}

}  // namespace

int start_kernel(const std::string& connection_file, const SessionOptions& session) {
  // Beside the binary in a build tree; under the prefix's lib once installed.
  const std::string dir = exe_dir();
  std::string tried;
  for (const std::string& path : {dir + "/gpulab_kernel.so", dir + "/" GPULAB_KERNEL_MODULE_RELDIR "/gpulab_kernel.so"}) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      if (access(path.c_str(), F_OK) == 0) tried += std::string(tried.empty() ? "" : "; ") + dlerror();
      continue;
    }
    using Start = int (*)(const std::string&, const SessionOptions&);
    auto start = reinterpret_cast<Start>(dlsym(h, "gpulab_start_kernel"));
    if (start != nullptr) return start(connection_file, session);
    tried += std::string(tried.empty() ? "" : "; ") + path + " has no gpulab_start_kernel";
  }
  write_cli_error("the Jupyter kernel module (gpulab_kernel.so) could not be loaded: " +
                  (tried.empty() ? "it is neither beside gpulab nor in " + dir + "/" GPULAB_KERNEL_MODULE_RELDIR : tried));
  return 1;
}

}  // namespace gl::interp
