// Args helpers for arguments of more than one kind (bindings/args_lua.cpp), so
// bindings ask "which kind" instead of reading the Lua stack by hand.
#pragma once
#include "bindings/luaT.h"

namespace gl::lt {

// The tensor at positional i or keyword `name`, or nullptr when that argument
// is absent or not a tensor (a number, say: the caller reads it another way).
Tensor* opt_tensor(Args& a, int i, const char* name);
// Whether positional i or keyword `name` is a table: the list form of an
// argument that also takes one value (dim=(0, 1), meshgrid({a, b})).
bool is_list(Args& a, int i, const char* name);

}  // namespace gl::lt

namespace gl::lt {

// Note [Binding rows]: the binding of an op that takes only tensors is one
// row, GL_TENSOR_OP1(name, doc) or GL_TENSOR_OP2(name, second, doc): it reads
// (input[, second]) by position or keyword, rejects anything else (Args),
// calls gl::name and pushes the result. Ops with options keep a hand-written
// binding that does the same three steps.
template <size_t N> struct Lit {
  char s[N];
  constexpr Lit(const char (&v)[N]) {
    for (size_t i = 0; i < N; ++i) s[i] = v[i];
  }
};
template <Tensor (*Op)(const Tensor&), Lit Name> int tensor_op1(lua_State* L) {
  Args a(L, 1, Name.s);
  push_tensor(L, Op(a.tensor(0, "input")));
  return 1;
}
template <Tensor (*Op)(const Tensor&, const Tensor&), Lit Name, Lit Second> int tensor_op2(lua_State* L) {
  Args a(L, 1, Name.s);
  push_tensor(L, Op(a.tensor(0, "input"), a.tensor(1, Second.s)));
  return 1;
}
// (clang-format reads the template's < as a comparison.)
// clang-format off
#define GL_TENSOR_OP1(name, doc) {#name, ::gl::lt::tensor_op1<&::gl::name, #name>, doc}
#define GL_TENSOR_OP2(name, second, doc) {#name, ::gl::lt::tensor_op2<&::gl::name, #name, #second>, doc}
// clang-format on

}  // namespace gl::lt
