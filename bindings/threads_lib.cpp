// torch.get_num_threads and torch.set_num_threads: the most threads a CPU
// operation uses (Note [Threads that pay]: fewer while other processes keep
// cores busy).
#include <cstdint>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/threads.h"

namespace gl::lt {

namespace {

int get_num_threads(lua_State* L) {
  lua_pushinteger(L, cpu::num_threads());
  return 1;
}

// PyTorch's checks and words (RuntimeError, not TypeError).
int set_num_threads(lua_State* L) {
  GL_CHECK_T(TypeError, lua_gettop(L) == 1, "torch.set_num_threads() takes exactly one argument (", lua_gettop(L),
             " given)");
  const int t = lua_type(L, 1);
  if (t != LUA_TNUMBER || !lua_isinteger(L, 1)) {
    const char* py = t == LUA_TNUMBER    ? "float"
                     : t == LUA_TSTRING  ? "str"
                     : t == LUA_TBOOLEAN ? "bool"
                     : t == LUA_TNIL     ? "NoneType"
                                         : nullptr;
    throw RuntimeError(cat("set_num_threads expects an int, but got ", py ? py : type_name(L, 1).c_str()));
  }
  const lua_Integer n = lua_tointeger(L, 1);
  GL_CHECK_T(ValueError, n <= INT32_MAX, "Overflow when unpacking long");
  GL_CHECK(n > 0, "set_num_threads expects a positive integer");
  cpu::set_num_threads(int(n));
  return 0;
}

}  // namespace

const Reg kThreadFunctions[] = {
    {"get_num_threads", get_num_threads,
     "torch.get_num_threads() -> int: the most threads a CPU operation uses (fewer while other processes keep cores "
     "busy)."},
    {"set_num_threads", set_num_threads, "torch.set_num_threads(n): use at most n threads for CPU operations."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
