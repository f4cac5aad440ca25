#include "interpreter/version.h"

#include "tensor/runtime/build_info.h"

namespace gl::interp {

std::string version_report() {
  std::string text = std::string("gpulab ") + GPULAB_VERSION + "\n";
  text += LUA_RELEASE;  // "Lua 5.4.6": the headers of the liblua5.4 it links
  text += "\nBLAS: " + gl::runtime::blas_description() + "\n";
  text += "CUDA: " + gl::runtime::cuda_description() + "\n";
  return text;
}

}  // namespace gl::interp
