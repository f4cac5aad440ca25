// The trace of tensor/runtime/trace.h: copies by direction and device, host
// waits by reason, ops by name and device; nothing is counted when stopped.
#include <doctest/doctest.h>
#include "tensor/core/format.h"
#include "tensor/runtime/trace.h"
#include "unit_util.h"

using namespace gl;
using ut::cpu;
using ut::cuda;

namespace {
int64_t ops(const trace::Record& r, const std::string& name, const std::string& device) {
  auto it = r.ops.find({name, device});
  return it == r.ops.end() ? 0 : it->second;
}
int64_t syncs(const trace::Record& r, const std::string& what, const std::string& device) {
  auto it = r.syncs.find({what, device});
  return it == r.syncs.end() ? 0 : it->second;
}
trace::Count copies(const trace::Record& r, const std::string& from, const std::string& to) {
  auto it = r.copies.find({from, to});
  return it == r.copies.end() ? trace::Count{} : it->second;
}
}  // namespace

TEST_CASE("trace: off by default, nothing counted when stopped") {
  Device d = cuda(0);
  CHECK_FALSE(trace::running());
  Tensor x = ut::tens({1, 2, 3}, {}, DType::Float32, d);
  Tensor y = add(x, x);
  (void)item(sum(y, {}, false));
  trace::start();
  trace::Record r = trace::stop();
  CHECK(r.copies.empty());
  CHECK(r.syncs.empty());
  CHECK(r.ops.empty());
}

TEST_CASE("trace: copies per direction and device, with bytes") {
  Device d0 = cuda(0), d1 = cuda(1);
  Tensor h = ut::tens({1, 2, 3, 4}, {}, DType::Float32, cpu());
  trace::start();
  Tensor a = to(h, d0, std::nullopt);       // 16 bytes host -> cuda:0
  Tensor b = to(a, d1, std::nullopt);       // cuda:0 -> cuda:1
  Tensor c = to(b, cpu(), std::nullopt);    // cuda:1 -> host: the host waits
  Tensor e = to(h, cpu(), DType::Float64);  // host only: no copy between devices
  trace::Record r = trace::stop();
  CHECK(copies(r, "cpu", "cuda:0").calls == 1);
  CHECK(copies(r, "cpu", "cuda:0").bytes == 16);
  CHECK(copies(r, "cuda:0", "cuda:1").calls == 1);
  CHECK(copies(r, "cuda:1", "cpu").bytes == 16);
  CHECK(r.copies.size() == 3);
  CHECK(syncs(r, "cpu", "cuda:1") == 1);
  CHECK(r.syncs.size() == 1);
  (void)e;
}

TEST_CASE("trace: host waits are named by what caused them") {
  Device d = cuda(1);
  Tensor x = ut::tens({1, 2}, {}, DType::Float32, d);
  trace::start();
  (void)item(sum(x, {}, false));
  synchronize_device(d);
  (void)tensor_repr(x);
  trace::Record r = trace::stop();
  CHECK(syncs(r, "item", "cuda:1") == 1);
  CHECK(syncs(r, "synchronize", "cuda:1") == 1);
  CHECK(syncs(r, "print", "cuda:1") == 1);
  // A CPU tensor's item() waits for no device.
  trace::start();
  (void)item(ut::tens({5}, {}, DType::Float32, cpu()));
  CHECK(trace::stop().syncs.empty());
}

TEST_CASE("trace: ops by name and device") {
  Device d = cuda(0);
  Tensor a = ut::tens({1, 2, 3, 4}, {2, 2}, DType::Float32, d);
  Tensor h = ut::tens({1, 2, 3, 4}, {2, 2}, DType::Float32, cpu());
  trace::start();
  Tensor m = matmul(a, a);
  Tensor s = add(h, h);
  Tensor n = neg(a);
  trace::Record peeked = trace::peek();
  CHECK(trace::running());
  Tensor t = sum(m, {}, false);
  trace::Record r = trace::stop();
  CHECK(ops(peeked, "sum", "cuda:0") == 0);
  CHECK(ops(r, "mm", "cuda:0") == 1);
  CHECK(ops(r, "add", "cpu") == 1);
  CHECK(ops(r, "neg", "cuda:0") == 1);
  CHECK(ops(r, "sum", "cuda:0") == 1);
  CHECK(ops(r, "mm", "cpu") == 0);
  CHECK_FALSE(trace::running());
}
