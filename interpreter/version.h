// The version line printed by --version and the REPL banner.
#pragma once
#include <lua.hpp>

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "0.0.0"
#endif

namespace gl::interp {
inline constexpr const char* kVersionLine = "gpulab " GPULAB_VERSION " (" LUA_VERSION ")";
}  // namespace gl::interp
