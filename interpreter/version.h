// The version line printed by --version and the REPL banner.
#pragma once
#include <lua.hpp>
#include <string>

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "0.0.0"
#endif

namespace gl::interp {
inline constexpr const char* kVersionLine = "gpulab " GPULAB_VERSION " (" LUA_VERSION ")";

// `gpulab --version`: gpulab, Lua, BLAS and CUDA support, one per line.
std::string version_report();
}  // namespace gl::interp
