// torch._op_rows(): the rows of tensor/ops/op_rows.def and reduce_rows.def as
// Lua data, so that what follows from a row in Lua (help's signature and
// example, 91_doc_signatures.lua and 92_doc_examples.lua) needs no list of its
// own: adding an op stays one row, one functor branch and one test.
#include "bindings/luaT.h"
#include "bindings/registry.h"

namespace gl::lt {

namespace {

struct LuaRow {
  const char* name;
  const char* kind;    // unary, binary, reduce
  const char* policy;  // the row's dtype policy (unary, binary) or result (reduce)
  const char* bind;    // Plain / Custom (binary), DimOpt / Custom (reduce), Plain (unary)
  bool inplace;        // x:name_() is published
};

constexpr LuaRow kRows[] = {
// clang-format off
#define GL_NN_UNARY(...)  // F.gelu, F.silu: bindings/nn_activation.cpp
#define GL_UNARY(E, name, policy, inplace, ...) {#name, "unary", #policy, "Plain", inplace != 0},
#define GL_BINARY(E, name, policy, bind, inplace, ...) {#name, "binary", #policy, #bind, inplace != 0},
#include "tensor/ops/op_rows.def"
#define GL_REDUCE(E, name, trace, kind, flag, result, empty, bind, ...) {#name, "reduce", #result, #bind, false},
#include "tensor/ops/reduce_rows.def"
    // clang-format on
};

int op_rows(lua_State* L) {
  lua_createtable(L, int(std::size(kRows)), 0);
  int i = 0;
  for (const LuaRow& r : kRows) {
    lua_createtable(L, 0, 5);
    lua_pushstring(L, r.name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, r.kind);
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, r.policy);
    lua_setfield(L, -2, "policy");
    lua_pushstring(L, r.bind);
    lua_setfield(L, -2, "bind");
    lua_pushboolean(L, r.inplace);
    lua_setfield(L, -2, "inplace");
    lua_rawseti(L, -2, ++i);
  }
  return 1;
}

}  // namespace

void open_op_rows(lua_State* L) {
  push_function(L, op_rows, "internal: torch._op_rows(): the op table's rows {name, kind, policy, bind, inplace}");
  lua_setfield(L, -2, "_op_rows");
}

}  // namespace gl::lt
