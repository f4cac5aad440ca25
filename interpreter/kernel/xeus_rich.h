// Rich forms of an echoed value for Jupyter, beside its text/plain (the REPL's
// echo): text/html for 2-D tensors and for gpulab's tables.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

struct lua_State;

namespace gl::interp {

// Adds the value's other MIME types to `data` (value_ref: a registry
// reference to the echoed value, or LUA_NOREF; text: its echo).
void add_rich_forms(lua_State* L, int value_ref, const std::string& text, nlohmann::json* data);

}  // namespace gl::interp
