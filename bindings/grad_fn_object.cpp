// The grad_fn userdata (y.grad_fn): its name, next_functions and, for an
// AccumulateGrad node, the leaf it accumulates into. One userdata per lookup,
// compared by node.
#include <cstdio>
#include <cstring>
#include <string>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/udata.h"
#include "tensor/autograd/node.h"

namespace gl::lt {

namespace {

const char* kGradFnMT = "torch.GradFn";

}  // namespace

void push_grad_fn(lua_State* L, const std::shared_ptr<Node>& n) {
  if (!n) {
    lua_pushnil(L);
    return;
  }
  ud_push<std::shared_ptr<Node>>(L, UdTag::GradFn, kGradFnMT, n);
}

namespace {

int grad_fn_gc(lua_State* L) {
  ud_destroy<std::shared_ptr<Node>>(L, 1, UdTag::GradFn);
  return 0;
}

int grad_fn_tostring(lua_State* L) {
  auto* p = ud_test<std::shared_ptr<Node>>(L, 1, UdTag::GradFn);
  if (!p) return 0;
  const Node& n = **p;
  lua_pushfstring(L, "<%s%s%s object at %p>", n.module ? n.module : "", n.module ? "." : "", n.name.c_str(),
                  static_cast<const void*>(&n));
  return 1;
}

// grad_fn:name(), a method as in PyTorch (y.grad_fn.name()).
int grad_fn_name(lua_State* L) {
  auto* p = ud_test<std::shared_ptr<Node>>(L, 1, UdTag::GradFn);
  if (!p) return luaL_typeerror(L, 1, kGradFnMT);  // not trampolined: nothing C++ is alive
  lua_pushstring(L, (*p)->name.c_str());
  return 1;
}

// grad_fn.next_functions: PyTorch's tuple of (node, input_nr) pairs, one per
// input, as a Lua array of {node, index} pairs; node is nil where PyTorch has
// None (an input that needs no gradient). Every gpulab node has one output,
// so the index is always 0. Printed as Python prints the tuple.
const char* kEdgesMT = "torch.next_functions";
const char* kEdgeMT = "torch.next_function";

std::string edge_repr(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return "?";  // an entry replaced from Lua
  std::string s = "(";
  if (lua_rawgeti(L, idx, 1) == LUA_TNIL) {
    s += "None";
  } else {
    s += luaL_tolstring(L, -1, nullptr);  // pushes the string
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_rawgeti(L, idx, 2);
  s += ", " + std::to_string(lua_tointeger(L, -1)) + ")";
  lua_pop(L, 1);
  return s;
}
int edge_tostring(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushstring(L, edge_repr(L, 1).c_str());
  return 1;
}
int edge_len(lua_State* L) {
  lua_pushinteger(L, 2);  // {nil, 0} has no reliable # of its own
  return 1;
}
int edges_tostring(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const lua_Integer n = lua_Integer(lua_rawlen(L, 1));
  std::string s = "(";
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 1, i);
    s += (i > 1 ? ", " : "") + edge_repr(L, lua_gettop(L));
    lua_pop(L, 1);
  }
  s += n == 1 ? ",)" : ")";  // a 1-tuple keeps its comma
  lua_pushstring(L, s.c_str());
  return 1;
}

void push_next_functions(lua_State* L, const Node& n) {
  lua_createtable(L, int(n.next.size()), 0);
  for (size_t i = 0; i < n.next.size(); ++i) {
    lua_createtable(L, 2, 0);
    push_grad_fn(L, n.next[i]);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, 0);
    lua_rawseti(L, -2, 2);
    luaL_setmetatable(L, kEdgeMT);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  luaL_setmetatable(L, kEdgesMT);
}

// Two lookups of one node give two userdata; == compares the nodes, as
// Python's `is` does for the one object PyTorch keeps per node.
int grad_fn_eq(lua_State* L) {
  auto* a = ud_test<std::shared_ptr<Node>>(L, 1, UdTag::GradFn);
  auto* b = ud_test<std::shared_ptr<Node>>(L, 2, UdTag::GradFn);
  lua_pushboolean(L, a && b && a->get() == b->get());
  return 1;
}

int grad_fn_index(lua_State* L) {
  auto* p = ud_test<std::shared_ptr<Node>>(L, 1, UdTag::GradFn);
  const char* k = lua_tostring(L, 2);
  if (!p || !k) return 0;
  if (!std::strcmp(k, "name")) {
    lua_pushcfunction(L, grad_fn_name);
    return 1;
  }
  if (!std::strcmp(k, "next_functions")) {
    push_next_functions(L, **p);
    return 1;
  }
  if (!std::strcmp(k, "variable") && (*p)->name == "AccumulateGrad") {  // the leaf it accumulates into
    auto leaf = (*p)->leaf.lock();
    if (leaf) push_tensor(L, Tensor(leaf));
    else lua_pushnil(L);
    return 1;
  }
  return 0;
}

}  // namespace

void open_grad_fn_type(lua_State* L) {
  ud_set_finalizer(UdTag::GradFn, grad_fn_gc);
  luaL_newmetatable(L, kGradFnMT);
  ud_set_gc(L, -1);  // Note [One finalizer]
  lua_pushcfunction(L, grad_fn_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, grad_fn_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, grad_fn_eq);
  lua_setfield(L, -2, "__eq");
  lua_pop(L, 1);
  luaL_newmetatable(L, kEdgesMT);
  lua_pushcfunction(L, edges_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_newmetatable(L, kEdgeMT);
  lua_pushcfunction(L, edge_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, edge_len);
  lua_setfield(L, -2, "__len");
  lua_pop(L, 1);
}

}  // namespace gl::lt
