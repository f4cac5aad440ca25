// What the interpreter needs from the bindings: open the library into a Lua
// state, configure virtual devices before first CUDA use, and describe the
// devices for the banner. (interpreter/ never includes tensor/ headers.)
#pragma once
#include <string>
#include <vector>

struct lua_State;

namespace gl::bindings {

// A lua_CFunction: call it with lua_pcall. Sets the globals torch, nn, repr,
// help, time, try_gpu, try_all_gpus, and the embedded Lua library.
int open(lua_State* L);

// "--virtual-gpus N[:SIZE]" / GPULAB_VIRTUAL_GPUS; false with *err on a bad spec.
bool configure_virtual(const std::string& spec, std::string* err);

// The CUDA devices a lesson can count on, for the lesson runner; never
// initialises CUDA. `count`: the devices in use once initialised, else the
// configured virtual devices, else the physical GPUs.
struct DeviceSupply {
  bool initialised = false;  // the first CUDA use happened: the set is fixed
  int virtual_devices = 0;   // configured (--virtual-gpus, GPULAB_VIRTUAL_GPUS, use_virtual)
  int physical = 0;          // GPUs the driver reports
  int count = 0;
};
DeviceSupply device_supply();

// One line for the REPL banner about devices, without initialising CUDA unless
// virtual devices were asked for (real GPUs are discovered on first use).
std::string device_banner();

// Completion candidates for the REPL: globals, fields of tables, methods after
// `x:` (from the object's metatable). `prefix` is the word being completed,
// e.g. "torch.cu", "x:ad", "pri". Returns whole replacement words.
std::vector<std::string> completions(lua_State* L, const std::string& prefix);

// Note [Guard window]: whether a grad-mode guard (`local _ <close> =
// torch.no_grad()`) was just made and may not yet be registered as
// to-be-closed; clears the mark. An interrupt arriving then waits two Lua
// instructions, so that the guard's <close> is in place and restores the mode.
bool take_guard_window(lua_State* L);
// Marks that window open: a guard other than grad mode's (torch.autocast) was just made.
void open_guard_window(lua_State* L);

}  // namespace gl::bindings
