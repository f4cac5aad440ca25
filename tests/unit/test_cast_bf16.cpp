// Note [Vector bfloat16 casts]: the AVX2 casts give the scalar path's bits,
// for every bfloat16 and for float32 rounding cases, NaNs and infinities
// included; and a tensor cast takes that path.
#include <doctest/doctest.h>
#include <cstring>
#include <random>
#include <vector>
#include "tensor/kernels/cpu/cast_bf16.h"
#include "unit_util.h"

using namespace gl;

namespace {
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

TEST_CASE("cast_bf16: float32 -> bfloat16 rounds as BFloat16::from_float, bit for bit") {
  std::vector<float> in;
  for (uint32_t hi : {0x0000u, 0x0001u, 0x007fu, 0x0080u, 0x3f80u, 0x3f81u, 0x7f7fu, 0x7f80u, 0x7fc0u, 0x7f81u})
    for (uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      for (uint32_t sign : {0u, 0x80000000u}) in.push_back(from_bits(sign | hi << 16 | lo));
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; ++i) in.push_back(from_bits(uint32_t(rng())));
  std::vector<BFloat16> got(in.size());
  if (!cpu::cast_f32_to_bf16(in.data(), got.data(), int64_t(in.size()))) {
    MESSAGE("no AVX2 on this CPU: the scalar path is used, nothing to compare");
    return;
  }
  size_t bad = 0;
  for (size_t i = 0; i < in.size(); ++i) bad += got[i].x != BFloat16(in[i]).x;
  CHECK(bad == 0);
  // a length that is not a multiple of 8 ends on the scalar tail
  std::vector<BFloat16> odd(13);
  CHECK(cpu::cast_f32_to_bf16(in.data(), odd.data(), 13));
  for (size_t i = 0; i < 13; ++i) CHECK(odd[i].x == BFloat16(in[i]).x);
}

TEST_CASE("cast_bf16: every bfloat16 -> float32 exactly") {
  std::vector<BFloat16> in(65536);
  for (uint32_t i = 0; i < 65536; ++i) in[i].x = uint16_t(i);
  std::vector<float> got(in.size());
  if (!cpu::cast_bf16_to_f32(in.data(), got.data(), int64_t(in.size()))) return;
  size_t bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const float want = float(in[i]);
    bad += std::memcmp(&got[i], &want, 4) != 0;
  }
  CHECK(bad == 0);
}

TEST_CASE("cast_bf16: a tensor's cast gives the same values as element by element") {
  const Tensor x = randn({1003}, ut::opts(DType::Float32));
  const Tensor b = to_dtype(x, DType::BFloat16);
  const BFloat16* pb = b.data<BFloat16>();
  const float* px = x.data<float>();
  for (int64_t i = 0; i < 1003; ++i) REQUIRE(pb[i].x == BFloat16(px[i]).x);
  const Tensor back = to_dtype(b, DType::Float32);
  for (int64_t i = 0; i < 1003; ++i) REQUIRE(back.data<float>()[i] == float(pb[i]));
}
