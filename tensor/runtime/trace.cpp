#include "tensor/runtime/trace.h"
#include "tensor/ops/op_table.h"
#include "tensor/ops/reduce_table.h"

#include <mutex>

namespace gl::trace {
namespace detail {
std::atomic<bool> enabled{false};
}  // namespace detail

namespace {
std::mutex& lock() {
  static std::mutex m;
  return m;
}
Record& record() {
  static Record r;
  return r;
}
thread_local const char* reason = nullptr;
}  // namespace

void detail::copy(Device from, Device to, size_t bytes) {
  if (from.is_cpu() && to.is_cpu()) return;  // host memcpy: no device involved
  std::lock_guard<std::mutex> g(lock());
  Count& c = record().copies[{from.str(), to.str()}];
  c.calls += 1;
  c.bytes += int64_t(bytes);
}

void detail::sync(Device device) {
  if (device.is_cpu()) return;
  std::lock_guard<std::mutex> g(lock());
  record().syncs[{reason != nullptr ? reason : "copy", device.str()}] += 1;
}

void detail::op(const char* name, Device device) {
  std::lock_guard<std::mutex> g(lock());
  record().ops[{name, device.str()}] += 1;
}

void detail::collection(bool full) {
  std::lock_guard<std::mutex> g(lock());
  (full ? record().full_collections : record().young_collections) += 1;
}

void start() {
  std::lock_guard<std::mutex> g(lock());
  record() = Record();
  detail::enabled = true;
}

Record stop() {
  std::lock_guard<std::mutex> g(lock());
  detail::enabled = false;
  Record out = std::move(record());
  record() = Record();
  return out;
}

Record peek() {
  std::lock_guard<std::mutex> g(lock());
  return record();
}

bool running() { return detail::enabled.load(); }

SyncReason::SyncReason(const char* what) : previous_(reason) {
  if (reason == nullptr) reason = what;  // the outermost reason names the wait
}
SyncReason::~SyncReason() { reason = previous_; }

const char* op_name(UnaryOp op) { return row(op).name; }
const char* op_name(BinaryOp op) { return row(op).name; }

const char* op_name(ReduceOp op) { return row(op).trace_name; }

}  // namespace gl::trace
