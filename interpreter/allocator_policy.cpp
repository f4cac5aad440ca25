// Note [Freed blocks stay]: mimalloc (Note [Allocator] in CMakeLists.txt)
// hands a freed page back to the OS (madvise) 100 ms after it fell empty. A
// training step allocates and frees the same large activations every few
// milliseconds, but a step that waits a little (a loaded machine, an item()
// per batch) lets them go, and each is then paid again in page faults: a
// LeNet step took 7,600 of them, a fifth of its time. gpulab keeps empty pages
// 10 s instead (PyTorch's caching allocators keep blocks for good), unless the
// user chose MIMALLOC_DECOMMIT_DELAY (or its old name MIMALLOC_RESET_DELAY).
#include <cstdlib>
#if defined(GPULAB_HAVE_MIMALLOC)
#include <mimalloc.h>

namespace {
struct FreedBlocksStay {
  FreedBlocksStay() {
    // mimalloc 2.0 calls it decommit_delay (MIMALLOC_RESET_DELAY is its older name).
    if (!std::getenv("MIMALLOC_RESET_DELAY") && !std::getenv("MIMALLOC_DECOMMIT_DELAY"))
      mi_option_set(mi_option_decommit_delay, 10000);
  }
} freed_blocks_stay;
}  // namespace
#endif
