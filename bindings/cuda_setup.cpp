// Setting up CUDA devices from a running session: torch.cuda.use_virtual(n)
// (virtual devices switched on before the first CUDA use), is_emulated(i),
// run_with_visible_devices (a second gpulab under another
// CUDA_VISIBLE_DEVICES, which a process can only set before it starts), and
// device_supply() for the lesson runner.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "bindings/bindings.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/runtime/event.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {
namespace {

// What the session's devices are, for messages: "2 virtual GPUs", "1 GPU".
std::string devices_in_use() {
  const int n = cuda_device_count();
  if (n == 0) return "no CUDA device";
  return std::to_string(n) + (device_info(0).is_virtual ? " virtual" : "") + (n == 1 ? " GPU" : " GPUs");
}

int use_virtual(lua_State* L) {
  std::string spec;
  if (lua_type(L, 1) == LUA_TSTRING) {
    spec = lua_tostring(L, 1);
  } else {
    Args a(L, 1, "use_virtual");
    spec = std::to_string(a.integer(0, "n"));
  }
  int n = 0;
  int64_t cap = 0;
  if (!parse_virtual_spec(spec, &n, &cap) || n < 1)
    throw ValueError("use_virtual(n) needs a number of devices from 1 to 64 (or 'N:SIZE', e.g. '2:16GiB'), not '" +
                     spec + "'");
  if (cuda_initialized() && cuda_device_count() > 0) {
    // Asking again for what the session already has is harmless.
    if (configured_virtual_devices() == n && cuda_device_count() > 0 && device_info(0).is_virtual) return 0;
    throw RuntimeError(
        "torch.cuda.use_virtual(" + spec + ") must come before the first CUDA use: this session already uses " +
            devices_in_use(),
        "start a new session with gpulab --virtual-gpus " + spec + " (or set GPULAB_VIRTUAL_GPUS=" + spec + ")");
  }
  configure_virtual_devices(n, cap);
  return 0;
}

int is_emulated(lua_State* L) {
  if (!cuda_available()) {
    lua_pushboolean(L, false);
    return 1;
  }
  int i = current_cuda_device();
  if (!lua_isnoneornil(L, 1)) {
    auto d = to_device(L, 1);
    if (!d) type_error("is_emulated", "device", "a torch.device or int", type_name(L, 1));
    GL_CHECK(d->is_cuda(), "Expected a cuda device, but got: ", d->str());
    i = resolve_device(*d).index;
  }
  lua_pushboolean(L, device_info(i).host_memory);
  return 1;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw RuntimeError("cannot find the gpulab program to start (no /proc/self/exe)");
  return std::string(buf, size_t(n));
}

int run_with_visible_devices(lua_State* L) {
  Args a(L, 1, "run_with_visible_devices");
  if (!a.has(0, "visible") || !a.has(1, "code"))
    throw TypeError(
        "run_with_visible_devices() missing required argument: it takes (visible, code), e.g. ('2,3', 'print(1)')");
  const std::string visible = a.string(0, "visible", "");
  const std::string code = a.string(1, "code", "");
  // The child starts with the devices this session was given: virtual devices
  // are passed on (they exist only by configuration), real GPUs it finds itself.
  std::string env = "CUDA_VISIBLE_DEVICES=" + shell_quote(visible);
  const int n_virtual = configured_virtual_devices();
  if (n_virtual > 0) env += " GPULAB_VIRTUAL_GPUS=" + std::to_string(n_virtual);
  else env = "env -u GPULAB_VIRTUAL_GPUS " + env;
  const std::string command = env + " " + shell_quote(self_exe()) + " -e " + shell_quote(code) + " 2>&1";
  std::fflush(stdout);
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) throw RuntimeError("cannot start a second gpulab");
  std::string output;
  char buf[4096];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, got);
  int status = pclose(p);
  std::fwrite(output.data(), 1, output.size(), stdout);
  std::fflush(stdout);
  if (status != 0) {
    int code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    throw RuntimeError("the gpulab started with CUDA_VISIBLE_DEVICES='" + visible + "' failed (exit status " +
                       std::to_string(code_) + ")");
  }
  return 0;
}

}  // namespace

void open_cuda_setup(lua_State* L) {
  static const Reg fns[] = {
      {"use_virtual", use_virtual,
       "torch.cuda.use_virtual(n) (or 'N:SIZE'): switch on n virtual CUDA devices from a running session,\n"
       "as gpulab --virtual-gpus n does; only before the first CUDA use (torch.cuda.is_available(),\n"
       "device_count(), a tensor on 'cuda', ...), or after one that found no device. Where a GPU\n"
       "exists they are slices of it. (gpulab only)"},
      {"is_emulated", is_emulated,
       "torch.cuda.is_emulated(i): is device i (default: the current one) emulated in host memory, so\n"
       "that its work runs on the CPU and its timings are CPU timings? false without CUDA devices. (gpulab only)"},
      {"run_with_visible_devices", run_with_visible_devices,
       "torch.cuda.run_with_visible_devices(visible, code): run the Lua `code` in a second gpulab started\n"
       "with CUDA_VISIBLE_DEVICES=visible ('2,3'; '' hides every GPU) and print its output. The variable\n"
       "is read once, at a process's first CUDA use, so it needs a new process. Virtual devices of this\n"
       "session are passed on. (gpulab only; in Python: CUDA_VISIBLE_DEVICES=2,3 python script.py)"},
      {nullptr, nullptr, nullptr}};
  set_functions(L, fns, "cuda.");
}

}  // namespace gl::lt

namespace gl::bindings {

DeviceSupply device_supply() {
  DeviceSupply s;
  s.initialised = cuda_initialized();
  s.virtual_devices = configured_virtual_devices();
  s.physical = physical_cuda_device_count();
  s.count = s.initialised ? cuda_device_count() : s.virtual_devices > 0 ? s.virtual_devices : s.physical;
  return s;
}

}  // namespace gl::bindings
