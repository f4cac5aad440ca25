// `!nvidia-smi` in the REPL where no nvidia-smi is installed (no NVIDIA
// driver, e.g. with virtual GPUs): gpulab's own table instead of "not found",
// since it is the first command of the tutorials.
#pragma once
#include <string>

namespace gl::interp {

// Handles `command` (a shell escape without its `!`) when it runs nvidia-smi
// and PATH has none; false to let the shell run it.
bool nvidia_smi_fallback(const std::string& command);

}  // namespace gl::interp
