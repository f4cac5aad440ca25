// Device strings and the device registry with two virtual CUDA devices
// emulated in host memory (configured once per process by ut::devices()).
#include <doctest/doctest.h>
#include <unordered_set>
#include "tensor/runtime/caching_allocator.h"
#include "tensor/runtime/host_allocator.h"
#include "unit_util.h"

using namespace gl;
using ut::error_of;

TEST_CASE("device: parse valid strings, str and repr") {
  Device c = Device::parse("cpu");
  CHECK(c.is_cpu());
  CHECK_FALSE(c.has_index());
  CHECK(c.str() == "cpu");
  CHECK(c.repr() == "device(type='cpu')");
  CHECK(Device::parse("cpu:0") == Device(Device::CPU, 0));
  CHECK(Device::parse("cpu:0").repr() == "device(type='cpu', index=0)");
  Device u = Device::parse("cuda");
  CHECK(u.is_cuda());
  CHECK(u.index == -1);
  CHECK(u.str() == "cuda");
  CHECK(u.repr() == "device(type='cuda')");
  Device u1 = Device::parse("cuda:1");
  CHECK(u1 == Device(Device::CUDA, 1));
  CHECK(u1.str() == "cuda:1");
  CHECK(u1.repr() == "device(type='cuda', index=1)");
  CHECK(Device::parse("cuda:12").index == 12);
  CHECK(Device::parse("cuda:0") != Device::parse("cuda"));
  std::unordered_set<Device> set = {Device::parse("cpu"), Device::parse("cuda:0"), Device::parse("cuda:1"),
                                    Device::parse("cuda:0")};
  CHECK(set.size() == 3);
}

TEST_CASE("device: parse rejects bad strings with PyTorch's messages") {
  const std::string kExpected =  // PyTorch 2.15's list of device types
      "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, "
      "meta, hpu, mtia, privateuseone device type at start of device string: ";
  CHECK(error_of([] { Device::parse("gpu"); }) == kExpected + "gpu");
  CHECK(error_of([] { Device::parse(""); }) == "Device string must not be empty");
  CHECK(error_of([] { Device::parse("CUDA:0"); }) == kExpected + "CUDA");  // the type only, as c10
  CHECK(error_of([] { Device::parse("gpu:1"); }) == kExpected + "gpu");
  for (const char* s : {"cuda:", "cuda:x", "cuda:-1", "cuda:01", "cuda:1:2", "cuda: 1", "cuda:1 ", "gpu:", " cuda"}) {
    CAPTURE(s);
    CHECK(error_of([&] { Device::parse(s); }) == std::string("Invalid device string: '") + s + "'");
  }
  CHECK(error_of([] { Device::parse("cpu:1"); }) == "CPU device index must be -1 or zero, got 1");
  CHECK_THROWS_AS(Device::parse("tpu"), RuntimeError);
}

TEST_CASE("device: registry with virtual devices") {
  ut::devices();
  CHECK(cuda_device_count() == 2);
  CHECK(cuda_available());
  const DeviceSlot& s0 = slot_for(Device(Device::CUDA, 0));
  const DeviceSlot& s1 = slot_for(Device(Device::CUDA, 1));
  CHECK(s0.is_virtual);
  CHECK(s1.is_virtual);
  CHECK(s1.capacity == (int64_t(1) << 30));
  CHECK(s1.name.find("virtual") != std::string::npos);
  CHECK(&allocator_for(Device(Device::CUDA, 0)) != &allocator_for(Device(Device::CUDA, 1)));
  CHECK(resolve_device(Device(Device::CPU)) == Device(Device::CPU));

  // "cuda" follows the current device.
  REQUIRE(current_cuda_device() == 0);
  CHECK(resolve_device(Device(Device::CUDA)) == Device(Device::CUDA, 0));
  set_cuda_device(1);
  CHECK(current_cuda_device() == 1);
  CHECK(resolve_device(Device(Device::CUDA)) == Device(Device::CUDA, 1));
  Tensor t = zeros({2}, ut::opts(DType::Float32, Device(Device::CUDA)));
  CHECK(t.device() == Device(Device::CUDA, 1));
  set_cuda_device(0);
  CHECK(resolve_device(Device(Device::CUDA)) == Device(Device::CUDA, 0));
  CHECK(zeros({2}, ut::opts(DType::Float32, Device(Device::CUDA))).device() == Device(Device::CUDA, 0));

  // A bad ordinal: CUDA's message, the hint naming the devices there are.
  try {
    resolve_device(Device(Device::CUDA, 2));
    FAIL("no error for cuda:2");
  } catch (const RuntimeError& e) {
    CHECK(std::string(e.what()) == "CUDA error: invalid device ordinal");
    CHECK(e.hint() == "there are 2 CUDA devices: cuda:0 to cuda:1");
  }
  CHECK(error_of([] { set_cuda_device(5); }) == "CUDA error: invalid device ordinal");
  CHECK(current_cuda_device() == 0);
  CHECK(error_of([] { zeros({1}, ut::opts(DType::Float32, Device(Device::CUDA, 7))); }) ==
        "CUDA error: invalid device ordinal");
}

TEST_CASE("device: copy_bytes and to() between cpu, cuda:0 and cuda:1") {
  ut::devices();
  std::vector<double> v = {1.5, -2, 3, 4.25, 1e300};
  Tensor c = ut::f64(v);
  Tensor d0 = to(c, ut::cuda(0), std::nullopt);
  CHECK(d0.device() == ut::cuda(0));
  CHECK(d0.storage() != c.storage());
  Tensor d1 = to(d0, ut::cuda(1), std::nullopt);
  CHECK(d1.device() == ut::cuda(1));
  CHECK(ut::vals(d1) == v);
  CHECK(to(d1, ut::cuda(1), std::nullopt).is_same(d1));  // nothing changes: same tensor

  // Raw copy_bytes between storages on different devices.
  Tensor e = empty({5}, ut::opts(DType::Float64, ut::cuda(0)));
  copy_bytes(e.data_ptr(), ut::cuda(0), d1.data_ptr(), ut::cuda(1), 5 * sizeof(double));
  CHECK(ut::vals(e) == v);
  Tensor back = empty({5}, ut::opts(DType::Float64));
  copy_bytes(back.data_ptr(), ut::cpu(), e.data_ptr(), ut::cuda(0), 5 * sizeof(double));
  CHECK(ut::vals(back) == v);
  copy_bytes(nullptr, ut::cpu(), nullptr, ut::cuda(1), 0);  // zero bytes: nothing touched

  // copy_ across devices with a cast, non-contiguous source.
  Tensor m = to(ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}), ut::cuda(1), std::nullopt);
  Tensor dst = empty({3, 2}, ut::opts(DType::Int64, ut::cuda(0)));
  copy_(dst, t(m));
  CHECK(ut::ivals(dst) == std::vector<int64_t>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("device: memory stats rise and fall on a virtual device") {
  ut::devices();
  Allocator& a = allocator_for(ut::cuda(1));
  synchronize_device(ut::cuda(1));
  AllocStats before = a.stats();
  {
    Tensor t = empty({1000}, ut::opts(DType::Float32, ut::cuda(1)));  // 4000 B, rounded to 4096
    AllocStats mid = a.stats();
    CHECK(mid.allocated - before.allocated == 4096);
    CHECK(mid.peak_allocated >= mid.allocated);
    CHECK(mid.reserved >= mid.allocated);
    CHECK(mid.num_allocs == before.num_allocs + 1);
    Tensor big = empty({1 << 20}, ut::opts(DType::Float32, ut::cuda(1)));  // 4 MiB, not cached
    CHECK(a.stats().allocated - before.allocated == 4096 + (4 << 20));
    CHECK(a.stats().peak_allocated >= before.allocated + 4096 + (4 << 20));
  }
  AllocStats after = a.stats();
  CHECK(after.allocated == before.allocated);
  a.reset_peak();
  CHECK(a.stats().peak_allocated == after.allocated);
  a.empty_cache();
  CHECK(a.stats().reserved >= a.stats().allocated);
  // cuda:0's count is separate.
  AllocStats other = allocator_for(ut::cuda(0)).stats();
  Tensor t1 = empty({256}, ut::opts(DType::Float32, ut::cuda(1)));
  CHECK(allocator_for(ut::cuda(0)).stats().allocated == other.allocated);
  int64_t free_b = 0, total_b = 0;
  mem_get_info(1, &free_b, &total_b);
  CHECK(total_b == (int64_t(1) << 30));
  CHECK(free_b <= total_b - 1024);
}

TEST_CASE("device: out-of-memory message on a virtual device") {
  ut::devices();
  // PyTorch's format_size prints 1 GiB as "1024.00 MiB" (<= 2^30 is MiB). The
  // process-wide devices hold 1 GiB each: asking for 1.5 GiB fails after the
  // cache is released, and the message reports the state after that release.
  Allocator& a = allocator_for(ut::cuda(1));
  std::string msg = error_of([] { empty({int64_t(3) << 27}, ut::opts(DType::Float32, ut::cuda(1))); });
  AllocStats s = a.stats();
  const std::string tail =
      " If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF="
      "expandable_segments:True to avoid fragmentation.  See documentation for Memory Management "
      " (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)";
  CHECK(msg == "CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1 has a total capacity of 1024.00 MiB of which " +
                   format_bytes((int64_t(1) << 30) - s.reserved) + " is free. Of the allocated memory " +
                   format_bytes(s.allocated) + " is allocated by PyTorch, and " +
                   format_bytes(s.reserved - s.allocated) + " is reserved by PyTorch but unallocated." + tail);
  CHECK_THROWS_AS(empty({int64_t(3) << 27}, ut::opts(DType::Float32, ut::cuda(1))), OutOfMemoryError);
  CHECK(a.stats().allocated == s.allocated);  // the failed request left no trace

  // A small-capacity device of its own (the registry's capacity is fixed per
  // process). "Tried to allocate" names the segment PyTorch asked the device
  // for: a 1.5 MiB tensor needs a 20 MiB one.
  CachingAllocator small(host_segments(), int64_t(4) << 20, 3);
  void* p = small.allocate(600 << 10);  // 600 KiB, in a 2 MiB small segment
  CHECK(small.stats().allocated == 600 << 10);
  std::string m2 = error_of([&] { small.allocate(1536 << 10); });
  CHECK(m2 ==
        "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 3 has a total capacity of 4.00 MiB of which "
        "2.00 MiB is free. Of the allocated memory 600.00 KiB is allocated by PyTorch, and 1.41 MiB is "
        "reserved by PyTorch but unallocated." +
            tail);
  small.deallocate(p, 600 << 10);
  CHECK(small.stats().allocated == 0);
  void* q = small.allocate(1000);  // rounded to 512-byte blocks
  CHECK(small.stats().allocated == 1024);
  small.deallocate(q, 1000);
  CHECK(format_bytes(512) == "512 bytes");
  CHECK(format_bytes(1536) == "1.50 KiB");
  CHECK(format_bytes(int64_t(20) << 20) == "20.00 MiB");
}
