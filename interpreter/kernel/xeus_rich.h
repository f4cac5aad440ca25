// Rich forms of an echoed value for Jupyter, beside its text/plain (the REPL's
// echo): text/html for 2-D tensors and for gpulab's tables.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/display.h"

struct lua_State;

namespace gl::interp {

// Adds the value's other MIME types to `data` (value_ref: a registry
// reference to the echoed value, or LUA_NOREF; text: its echo).
void add_rich_forms(lua_State* L, int value_ref, const std::string& text, nlohmann::json* data);

// A display bundle as a message's `data`: binary types (image/png, image/jpeg,
// image/gif, application/pdf) base64-encoded as IPython sends them, and the
// echo's rich forms added when the bundle is the echo alone.
nlohmann::json mime_json(lua_State* L, int value_ref, const MimeBundle& bundle);

// RFC 4648 base64, with padding.
std::string base64(const std::string& bytes);

}  // namespace gl::interp
