// torch._read_idx(path): an IDX file (gzip or plain) as a CPU tensor, for
// torchvision.datasets (bindings/lua/31_torchvision.lua). The format and its
// checks live in tensor/io/idx.cpp.
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/io/idx.h"

namespace gl::lt {

namespace {

int read_idx(lua_State* L) {
  if (lua_type(L, 1) != LUA_TSTRING) type_error("torch._read_idx", "path", "str", type_name(L, 1));
  GL_CHECK_T(TypeError, lua_gettop(L) == 1, "torch._read_idx() takes 1 argument (", lua_gettop(L), " given)");
  size_t n = 0;
  const char* s = lua_tolstring(L, 1, &n);
  push_tensor(L, io::read_idx(std::string(s, n)));
  return 1;
}

const Reg kIdxFunctions[] = {
    {"_read_idx", read_idx,
     "internal: torch._read_idx(path) reads an IDX file (gzip-compressed or not) into a CPU tensor "
     "(torchvision.datasets.FashionMNIST calls it)"},
    {nullptr, nullptr, nullptr}};

}  // namespace

void open_idx(lua_State* L) { set_functions(L, kIdxFunctions); }

}  // namespace gl::lt
