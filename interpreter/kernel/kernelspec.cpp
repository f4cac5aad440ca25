// `gpulab kernel install`: the kernelspec that tells Jupyter how to start gpulab,
// where `jupyter kernelspec install` would put it.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "interpreter/command_line.h"
#include "interpreter/kernel/kernel.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Jupyter's data directories: jupyter_core.paths (user: JUPYTER_DATA_DIR, else
// XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter; system: /usr/local/share).
std::string data_dir(const CommandLine& cl, std::string* error) {
  if (cl.install_prefix) return *cl.install_prefix + "/share/jupyter";
  if (!cl.install_user) return "/usr/local/share/jupyter";
  if (const char* d = std::getenv("JUPYTER_DATA_DIR"); d != nullptr && *d) return d;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x != nullptr && *x) return std::string(x) + "/jupyter";
  const char* home = std::getenv("HOME");
  if (home == nullptr || !*home) {
    *error = "HOME is not set: give --prefix P";
    return "";
  }
  return std::string(home) + "/.local/share/jupyter";
}

}  // namespace

int install_kernelspec(const CommandLine& cl) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    write_cli_error("cannot find the path of the gpulab binary");
    return 1;
  }
  exe[n] = '\0';
  std::string error;
  std::string dir = data_dir(cl, &error);
  if (dir.empty()) {
    write_cli_error(error);
    return 1;
  }
  dir += "/kernels/gpulab";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string argv = "[" + json_string(exe) + ", \"kernel\", \"-f\", \"{connection_file}\"";
  if (cl.virtual_gpus) argv += ", \"--virtual-gpus\", " + json_string(*cl.virtual_gpus);
  if (cl.seed) argv += ", \"--seed\", " + json_string(*cl.seed);
  argv += "]";
  std::ofstream out(dir + "/kernel.json", std::ios::trunc);
  out << "{\n"
      << "  \"argv\": " << argv << ",\n"
      << "  \"display_name\": \"gpulab (Lua)\",\n"
      << "  \"language\": \"lua\",\n"
      << "  \"interrupt_mode\": \"signal\",\n"
      << "  \"metadata\": {\"debugger\": false}\n"
      << "}\n";
  out.close();
  if (ec || !out) {
    write_cli_error("cannot write " + dir + "/kernel.json" +
                    (ec ? ": " + ec.message() : std::string(": ") + std::strerror(errno)) +
                    (cl.install_user || cl.install_prefix ? "" : " (try --user)"));
    return 1;
  }
  std::printf("Installed the gpulab kernelspec in %s\n", dir.c_str());
  return 0;
}

}  // namespace gl::interp
