// Small helpers shared by the tensor unit tests (header only; not a test file).
#pragma once
#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/registry.h"

namespace gl::ut {

// Two virtual CUDA devices emulated in host memory (1 GiB each). The registry
// initialises CUDA once per process, so every test that needs devices calls this.
inline bool devices() {
  static bool ok = [] {
    configure_virtual_devices(2, int64_t(1) << 30);
    return cuda_device_count() >= 2;
  }();
  REQUIRE_MESSAGE(ok, "virtual devices unavailable (CUDA initialised before configure_virtual_devices)");
  return ok;
}
inline Device cpu() { return Device(Device::CPU); }
inline Device cuda(int i) {
  devices();
  return Device(Device::CUDA, i);
}
// Devices every op is checked on: CPU and the emulated cuda:1.
inline std::vector<Device> test_devices() { return {cpu(), cuda(1)}; }

inline TensorOptions opts(DType d, Device dev = Device(Device::CPU)) {
  TensorOptions o;
  o.dtype = d;
  o.device = dev;
  return o;
}

// Builds a tensor of `dtype` from doubles (converted with the library's own cast).
inline Tensor tens(const std::vector<double>& v, Shape shape = {}, DType dt = DType::Float32,
                   Device dev = Device(Device::CPU)) {
  if (shape.empty() && v.size() != 1) shape = {int64_t(v.size())};
  Tensor f = from_host(v.data(), shape, DType::Float64, opts(DType::Float64));
  return to(f, dev, dt, true);
}
inline Tensor f64(const std::vector<double>& v, Shape shape = {}) { return tens(v, shape, DType::Float64); }

// Values as doubles, on the host, in logical (row-major) order.
inline std::vector<double> vals(const Tensor& t) {
  Tensor c = to(t, Device(Device::CPU), DType::Float64, true);
  std::vector<char> b = to_host_bytes(c);
  std::vector<double> out(b.size() / 8);
  if (!out.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}
inline std::vector<int64_t> ivals(const Tensor& t) {
  Tensor c = to(t, Device(Device::CPU), DType::Int64, true);
  std::vector<char> b = to_host_bytes(c);
  std::vector<int64_t> out(b.size() / 8);
  if (!out.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}

inline bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;
}
inline bool close(double a, double b, double rtol, double atol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}

// The message of the exception `f` throws ("" when it throws none).
template <class F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

inline Scalar sf(double v) { return Scalar::from_double(v); }
inline Scalar si(int64_t v) { return Scalar::from_int(v); }

inline void backward(const Tensor& root, bool retain = false) {
  run_backward(root, ones(root.sizes(), opts(root.dtype(), root.device())), retain);
}

}  // namespace gl::ut
