// Note [Kernel on first use]: xeus and what it brings (ZeroMQ, libsodium,
// OpenSSL's libcrypto, Kerberos: 14 libraries) cost every start about 2.5 ms
// of the dynamic loader's time, for `gpulab kernel` alone. The kernel proper
// (xeus_*.cpp) is built as a module, gpulab_kernel.so, that this binary opens
// only to run it; the module takes the interpreter's functions from the
// binary (which exports its symbols for it: ENABLE_EXPORTS in CMakeLists.txt).
#include <dlfcn.h>

#include <string>

#include "interpreter/kernel/kernel.h"
#include "interpreter/terminal.h"
#include "tensor/runtime/dl_library.h"

namespace gl::interp {

int start_kernel(const std::string& connection_file, const SessionOptions& session) {
  std::string why;
  if (void* h = gl::open_module("gpulab_kernel.so", &why)) {
    using Start = int (*)(const std::string&, const SessionOptions&);
    if (auto start = reinterpret_cast<Start>(dlsym(h, "gpulab_start_kernel"))) return start(connection_file, session);
    why = "gpulab_kernel.so has no gpulab_start_kernel";
  }
  write_cli_error("the Jupyter kernel module could not be loaded: " + why);
  return 1;
}

}  // namespace gl::interp
