// Memory pressure: the embedder (the Lua bindings) may hold tensors it no
// longer reaches but has not collected yet. It registers a hook here that
// collects them; the caching allocator runs it before taking a new segment
// (PyTorch's free-memory callbacks), so an allocation never fails, nor grows
// the reserve, for garbage; memory statistics run it before they are read.
#pragma once

namespace gl {

using PressureHook = void (*)(void* ctx);

// Several may be registered (one per interpreter state); each runs in turn.
void add_memory_pressure_hook(PressureHook fn, void* ctx);
void remove_memory_pressure_hook(void* ctx);

// Runs the hooks (never reentrantly); true when at least one ran. Must not be
// called with an allocator's lock held: the hooks free memory.
bool relieve_memory_pressure();

}  // namespace gl
