#pragma once
#include "bindings/luaT.h"
#include "tensor/ops/indexing.h"

namespace gl::lt {
// torch.tensor(data): nested tables of numbers/booleans (or a tensor).
Tensor tensor_from_lua(lua_State* L, int idx, std::optional<DType> dtype, Device device);
// tolist(): nested tables (Lua arrays, so 1-based), or a plain value for 0-d.
void push_list(lua_State* L, const Tensor& t);
// One item of an index string in Python's syntax ('2', '1:3', '::-1', '...',
// 'None'), as x['...'] reads it; IndexError for anything else (tensor_index.cpp).
IndexItem parse_index_item(const std::string& text);
// x[key] / x[key] = value (tensor_index.cpp)
void push_index(lua_State* L, const Tensor& t, int key);
void assign_index(lua_State* L, Tensor& t, int key, int value);
}  // namespace gl::lt
