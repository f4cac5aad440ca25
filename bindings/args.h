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
