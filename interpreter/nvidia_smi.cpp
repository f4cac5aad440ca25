#include "interpreter/nvidia_smi.h"
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include "bindings/cuda_memory.h"

namespace gl::interp {

namespace {
bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    std::string dir = dirs.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    if (dir.empty()) dir = ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  return false;
}
}  // namespace

bool nvidia_smi_fallback(const std::string& command) {
  const size_t b = command.find_first_not_of(" \t");
  if (b == std::string::npos) return false;
  const size_t e = command.find_first_of(" \t", b);
  if (command.substr(b, e == std::string::npos ? std::string::npos : e - b) != "nvidia-smi") return false;
  if (on_path("nvidia-smi")) return false;
  const bool has_args = e != std::string::npos && command.find_first_not_of(" \t", e) != std::string::npos;
  std::printf("(no nvidia-smi here: this is gpulab's emulation of its table, as torch.cuda.smi() prints it%s)\n",
              has_args ? "; its options are ignored" : "");
  std::fputs(gl::bindings::smi_text().c_str(), stdout);
  std::fflush(stdout);
  return true;
}

}  // namespace gl::interp
