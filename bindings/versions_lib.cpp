// The versions torch.version and torch.backends.cudnn report
// (bindings/lua/18_backends.lua): torch._cuda_version(), the CUDA runtime
// compiled in ("13.0", nil in a build without CUDA), and
// torch._cudnn_version(), cuDNN's as PyTorch's integer (9.19.0 -> 91900),
// nil when the library cannot be loaded.
#include <cstdio>
#include <string>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/runtime/build_info.h"

namespace gl::lt {

namespace {

int cudnn_version(lua_State* L) {
  for (const auto& l : gl::runtime::cuda_libraries()) {
    if (l.purpose != "cuDNN" || !l.found) continue;
    int major = 0, minor = 0, patch = 0;
    if (std::sscanf(l.version.c_str(), "%d.%d.%d", &major, &minor, &patch) >= 2) {
      lua_pushinteger(L, lua_Integer(major) * 10000 + minor * 100 + patch);
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

int cuda_version(lua_State* L) {
  const std::string v = gl::runtime::cuda_runtime_version();
  if (v.empty()) lua_pushnil(L);
  else lua_pushstring(L, v.c_str());
  return 1;
}

}  // namespace

void open_versions(lua_State* L) {
  push_function(L, cudnn_version, "internal: cuDNN's version as PyTorch's integer, nil without the library");
  lua_setfield(L, -2, "_cudnn_version");
  push_function(L, cuda_version, "internal: the CUDA runtime compiled in, nil without CUDA");
  lua_setfield(L, -2, "_cuda_version");
}

}  // namespace gl::lt
