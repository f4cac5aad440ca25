// Memory pressure: the embedder (the Lua bindings) may hold tensors it no
// longer reaches but has not collected yet. It registers a hook here that
// collects them; the caching allocator runs it before taking a new segment
// (PyTorch's free-memory callbacks), so an allocation never fails, nor grows
// the reserve, for garbage; memory statistics run it before they are read.
#pragma once

namespace gl {

// Note [Young garbage first]: how much the hook collects. The allocator asks
// for the young garbage first: in a loop such as `r = a + b` the block it needs
// is held by the previous iteration's result, dead but not yet collected, and
// a minor collection of a generational collector frees it in microseconds.
// A full collection (a tenth of a millisecond over the torch library's heap)
// comes only when that was not enough. Before this, every allocation that
// needed a block held by such a result paid a full collection: 100 us per
// 16 MiB tensor made in a loop, on virtual and real GPUs alike.
enum class Relief { Young, Full };

using PressureHook = void (*)(void* ctx, Relief how);

// Several may be registered (one per interpreter state); each runs in turn.
void add_memory_pressure_hook(PressureHook fn, void* ctx);
void remove_memory_pressure_hook(void* ctx);

// Runs the hooks (never reentrantly); true when at least one ran. Must not be
// called with an allocator's lock held: the hooks free memory.
bool relieve_memory_pressure(Relief how = Relief::Full);

}  // namespace gl
