// What the test_elementwise*.cpp files share: the dtypes they sweep, the
// tolerance per dtype, the value a dtype stores, and the run on both devices.
#pragma once
#include <doctest/doctest.h>
#include <cmath>
#include <functional>
#include <vector>
#include "tensor/runtime/registry.h"
#include "unit_util.h"

namespace gl::ew_test {

inline constexpr DType kFloats[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16};
inline constexpr DType kInts[] = {DType::Int64, DType::Int32, DType::Int16, DType::Int8, DType::UInt8};

inline double tol(DType d) {
  switch (d) {
    case DType::Float64: return 1e-12;
    case DType::Float32: return 2e-6;
    case DType::Float16: return 1e-3;
    case DType::BFloat16: return 8e-3;
    default: return 0;
  }
}
// The value `v` stored in dtype `d` (wrap for ints, rounding for floats).
inline double store(DType d, double v) {
  if (std::isnan(v)) return v;
  switch (d) {
    case DType::Float32: return double(float(v));
    case DType::Float16: return double(float(Half(float(v))));
    case DType::BFloat16: return double(float(BFloat16(float(v))));
    case DType::Float64: return v;
    case DType::Bool: return v != 0;
    case DType::UInt8: return double(uint8_t(int64_t(v)));
    case DType::Int8: return double(int8_t(int64_t(v)));
    case DType::Int16: return double(int16_t(int64_t(v)));
    case DType::Int32: return double(int32_t(int64_t(v)));
    default: return double(int64_t(v));
  }
}

// Unit roundoff of a floating dtype (0 for the others).
inline double unit_roundoff(DType d) {
  switch (d) {
    case DType::Float32: return std::ldexp(1.0, -23);
    case DType::Float64: return std::ldexp(1.0, -52);
    case DType::Float16: return std::ldexp(1.0, -10);
    case DType::BFloat16: return std::ldexp(1.0, -7);
    default: return 0;
  }
}

// Runs `f` on the CPU and on cuda:1, checks both agree, returns the CPU
// result. An emulated cuda:1 runs the CPU's kernels and must agree exactly; a
// slice of a real GPU computes transcendental functions with CUDA's math
// library, which may round a few units in the last place apart.
inline Tensor on_both(const std::function<Tensor(Device)>& f) {
  Tensor c = f(ut::cpu());
  Tensor g = f(ut::cuda(1));
  CHECK(g.device() == ut::cuda(1));
  CHECK(g.dtype() == c.dtype());
  CHECK(g.sizes() == c.sizes());
  auto vc = ut::vals(c), vg = ut::vals(g);
  REQUIRE(vc.size() == vg.size());
  const double tol = slot_for(g.device()).host_memory ? 0 : 4 * unit_roundoff(g.dtype());
  for (size_t i = 0; i < vc.size(); ++i)
    if (!ut::same_double(vc[i], vg[i]) &&
        !(std::isfinite(vc[i]) && std::fabs(vc[i] - vg[i]) <= tol * std::max(std::fabs(vc[i]), 1e-30))) {
      CAPTURE(i);
      FAIL_CHECK("cuda:1 differs from cpu: " << vg[i] << " vs " << vc[i]);
    }
  return c;
}

inline void expect_vals(const Tensor& t, const std::vector<double>& ref, double rtol) {
  auto v = ut::vals(t);
  REQUIRE(v.size() == ref.size());
  for (size_t i = 0; i < v.size(); ++i)
    if (!ut::close(v[i], ref[i], rtol, rtol * 1e-3)) {
      CAPTURE(i);
      FAIL_CHECK("got " << v[i] << ", expected " << ref[i]);
    }
}

}  // namespace gl::ew_test
