#include "tensor/runtime/memory_pressure.h"
#include <algorithm>
#include <utility>
#include <vector>
#include "tensor/runtime/trace.h"

namespace gl {

namespace {
std::vector<std::pair<PressureHook, void*>>& hooks() {
  static std::vector<std::pair<PressureHook, void*>> h;
  return h;
}
bool running = false;
}  // namespace

void add_memory_pressure_hook(PressureHook fn, void* ctx) { hooks().emplace_back(fn, ctx); }

void remove_memory_pressure_hook(void* ctx) {
  auto& h = hooks();
  h.erase(std::remove_if(h.begin(), h.end(), [ctx](const auto& e) { return e.second == ctx; }), h.end());
}

bool relieve_memory_pressure(Relief how) {
  // A hook's collection may free tensors whose finalizers allocate again: that
  // allocation must not start a second collection inside the first.
  if (running || hooks().empty()) return false;
  struct Guard {
    Guard() { running = true; }
    ~Guard() { running = false; }
  } guard;
  trace::collection(how == Relief::Full);
  const auto copy = hooks();  // a hook may unregister (a state closing)
  for (auto& [fn, ctx] : copy) fn(ctx, how);
  return true;
}

}  // namespace gl
