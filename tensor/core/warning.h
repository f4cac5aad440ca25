// Note [Warnings]: an op warns where PyTorch does (its TORCH_WARN) by calling
// warn(text). The Lua library installs a handler that prints
// "UserWarning: text" on stderr once per Lua call site, as Python's default
// warning filter does (bindings/warnings_lib.cpp); without a handler (C++
// alone) each text is printed once.
#pragma once
#include <string>

namespace gl {

using WarnHandler = void (*)(const std::string& text, void* ctx);
void set_warn_handler(WarnHandler handler, void* ctx);
void warn(const std::string& text);

}  // namespace gl
