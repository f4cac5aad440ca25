// The trace: what a piece of code made the devices do, for exercise checkers
// that must see *where* work ran, not only its result. Off unless started;
// when off, each hook is one load of a flag.
//   copies: host<->device and device<->device byte copies (calls, bytes)
//   syncs:  points where the host waited for a device (item, tolist, print,
//           cpu(), synchronize), with the device waited for
//   ops:    kernels launched, by name and device (a virtual device counts as
//           the GPU it stands for)
//   collections: the embedder's garbage collections that device memory asked
//           for (Note [Young garbage first]): minor ones and full ones
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include "tensor/core/device.h"
#include "tensor/kernels/spec.h"

namespace gl::trace {

struct Count {
  int64_t calls = 0;
  int64_t bytes = 0;
};

struct Record {
  std::map<std::pair<std::string, std::string>, Count> copies;   // (from, to) devices
  std::map<std::pair<std::string, std::string>, int64_t> syncs;  // (what, device)
  std::map<std::pair<std::string, std::string>, int64_t> ops;    // (name, device)
  int64_t young_collections = 0, full_collections = 0;
};

namespace detail {
extern std::atomic<bool> enabled;  // read on every hook: relaxed, one load
void copy(Device from, Device to, size_t bytes);
void sync(Device device);
void op(const char* name, Device device);
void collection(bool full);
}  // namespace detail

void start();   // clears the record and starts counting
Record stop();  // stops counting and returns what was counted
Record peek();  // what was counted so far (still counting)
bool running();

inline void copy(Device from, Device to, size_t bytes) {
  if (detail::enabled.load(std::memory_order_relaxed)) detail::copy(from, to, bytes);
}
// The host waits for `device` (a no-op for the CPU): counted under the
// reason of the innermost SyncReason in scope ("copy" when there is none).
inline void sync(Device device) {
  if (detail::enabled.load(std::memory_order_relaxed)) detail::sync(device);
}
inline void op(const char* name, Device device) {
  if (detail::enabled.load(std::memory_order_relaxed)) detail::op(name, device);
}
inline void collection(bool full) {
  if (detail::enabled.load(std::memory_order_relaxed)) detail::collection(full);
}

// Names the reason of the syncs made in its scope (item, tolist, print, cpu).
class SyncReason {
 public:
  explicit SyncReason(const char* what);
  ~SyncReason();
  SyncReason(const SyncReason&) = delete;
  SyncReason& operator=(const SyncReason&) = delete;

 private:
  const char* previous_;
};

const char* op_name(UnaryOp op);
const char* op_name(BinaryOp op);
const char* op_name(ReduceOp op);

}  // namespace gl::trace
