// Shared by the CUDA test files: host and device arrays, tolerances by dtype,
// and a runner that applies one kernel spec on the CPU and on the GPU and
// compares. Without a GPU, have_gpu() says so once and every case returns.
#pragma once
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/kernels/functors.h"
#include "tensor/kernels/kernels.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda_test {

inline bool have_gpu() {
  if (cuda::device_count() > 0) return true;
  static bool said = false;
  if (!said) {
    std::printf("CUDA tests skipped: %s\n", cuda::unavailable_reason().c_str());
    said = true;
  }
  return false;
}

struct Gpu {
  void* exec;
  Allocator* alloc;
  const Kernels* k;
};

inline Gpu& gpu() {
  static Gpu g{cuda::create_exec(0), cuda::create_allocator(0, 0, 0), &cuda::kernels()};
  return g;
}

const std::vector<int64_t> kSizes = {1, 7, 1023, 1000003};

// Host bytes of one dtype, read and written as doubles.
struct HostArr {
  DType dt = DType::Float32;
  int64_t n = 0;
  std::vector<char> bytes;
  HostArr() = default;
  HostArr(DType d, int64_t count) : dt(d), n(count), bytes(size_t(count) * itemsize(d) + 16, 0) {}
  char* data() { return bytes.data(); }
  double get(int64_t i) const {
    return dispatch_dtype(dt, [&](auto t) -> double {
      using T = decltype(t);
      T v;
      std::memcpy(&v, bytes.data() + size_t(i) * sizeof(T), sizeof(T));
      return double(opmath_t<T>(v));
    });
  }
  void set(int64_t i, double v) {
    dispatch_dtype(dt, [&](auto t) {
      using T = decltype(t);
      const T x = cast_to<T>(v);
      std::memcpy(bytes.data() + size_t(i) * sizeof(T), &x, sizeof(T));
    });
  }
};

// Device memory from the test allocator, filled from / read back to a HostArr.
struct DevArr {
  DType dt;
  int64_t n;
  size_t nbytes;
  char* p;
  DevArr(DType d, int64_t count) : dt(d), n(count), nbytes(size_t(count) * itemsize(d)) {
    p = static_cast<char*>(gpu().alloc->allocate(nbytes ? nbytes : 1));
  }
  explicit DevArr(const HostArr& h) : DevArr(h.dt, h.n) {
    cuda::memcpy(p, gpu().exec, h.bytes.data(), nullptr, nbytes);
  }
  ~DevArr() { gpu().alloc->deallocate(p, nbytes ? nbytes : 1); }
  DevArr(const DevArr&) = delete;
  DevArr& operator=(const DevArr&) = delete;
  HostArr download() const {
    HostArr h(dt, n);
    cuda::memcpy(h.data(), nullptr, p, gpu().exec, nbytes);
    return h;
  }
};

inline std::mt19937_64& rng() {
  static std::mt19937_64 r(12345);
  return r;
}

// Values in [lo, hi]; integers for integral dtypes; optionally never zero.
inline HostArr random_arr(DType dt, int64_t n, double lo = -2, double hi = 2, bool nonzero = false) {
  HostArr h(dt, n);
  std::uniform_real_distribution<double> u(lo, hi);
  for (int64_t i = 0; i < n; ++i) {
    double v = u(rng());
    if (dt == DType::Bool) v = v > (lo + hi) / 2;
    else if (!is_floating(dt)) v = std::round(v);
    if (nonzero && v == 0) v = is_floating(dt) ? 0.5 : 1;
    h.set(i, v);
  }
  return h;
}

inline double tolerance(DType dt) {
  switch (dt) {
    case DType::Float32: return 1e-5;
    case DType::Float64: return 1e-12;
    case DType::Float16: return 2e-3;
    case DType::BFloat16: return 1.6e-2;
    default: return 0;
  }
}

inline bool close(double a, double b, double tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tol * (1 + std::fabs(a));
}

// Checks every element; reports the first mismatch only.
inline void expect_close(const HostArr& cpu, const HostArr& dev, double tol, const std::string& what) {
  REQUIRE(cpu.n == dev.n);
  for (int64_t i = 0; i < cpu.n; ++i) {
    if (!close(cpu.get(i), dev.get(i), tol)) {
      INFO(what << " at " << i << ": cpu " << cpu.get(i) << " vs cuda " << dev.get(i));
      CHECK(false);
      return;
    }
  }
  CHECK(true);
}

// A dense 1-D loop over n elements.
inline LoopSpec flat_loop(int64_t n, std::vector<std::pair<char*, DType>> args) {
  LoopSpec s;
  s.ndim = 1;
  s.nargs = int(args.size());
  s.numel = n;
  s.shape[0] = n;
  s.contiguous = true;
  for (size_t a = 0; a < args.size(); ++a) {
    s.args[a].data = args[a].first;
    s.args[a].dtype = args[a].second;
    s.args[a].strides[0] = 1;
  }
  return s;
}

// A 2-D loop [rows, cols] with per-argument strides.
inline LoopSpec loop_2d(int64_t rows, int64_t cols, std::vector<std::pair<char*, DType>> args,
                        std::vector<std::pair<int64_t, int64_t>> strides) {
  LoopSpec s;
  s.ndim = 2;
  s.nargs = int(args.size());
  s.numel = rows * cols;
  s.shape[0] = rows;
  s.shape[1] = cols;
  for (size_t a = 0; a < args.size(); ++a) {
    s.args[a].data = args[a].first;
    s.args[a].dtype = args[a].second;
    s.args[a].strides[0] = strides[a].first;
    s.args[a].strides[1] = strides[a].second;
  }
  return s;
}

// Runs the same loop on the CPU (host arrays) and on the GPU (device copies):
// build(ptrs) makes the spec from one pointer per array; run(kernels, exec, spec).
inline void compare_loop(std::vector<HostArr*> arrays, const std::function<LoopSpec(const std::vector<char*>&)>& build,
                         const std::function<void(const Kernels&, void*, const LoopSpec&)>& run, double tol,
                         const std::string& what) {
  std::vector<std::unique_ptr<DevArr>> dev;
  std::vector<char*> hp, dp;
  for (HostArr* h : arrays) {
    dev.push_back(std::make_unique<DevArr>(*h));
    hp.push_back(h->data());
    dp.push_back(dev.back()->p);
  }
  run(cpu_kernels(), nullptr, build(hp));
  run(*gpu().k, gpu().exec, build(dp));
  expect_close(*arrays[0], dev[0]->download(), tol, what);
}

}  // namespace gl::cuda_test
