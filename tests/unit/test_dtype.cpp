// DType: promotion table, names, sizes, and Half/BFloat16 conversions, all
// checked against PyTorch 2.x (values generated with the CPU build, see below).
#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include "tensor/core/dtype.h"
#include "unit_util.h"

using namespace gl;

namespace {
constexpr DType B = DType::Bool, U8 = DType::UInt8, I8 = DType::Int8, I16 = DType::Int16, I32 = DType::Int32,
                I64 = DType::Int64, F16 = DType::Float16, BF16 = DType::BFloat16, F32 = DType::Float32,
                F64 = DType::Float64;
constexpr DType kAll[kNumDTypes] = {B, U8, I8, I16, I32, I64, F16, BF16, F32, F64};
}  // namespace

TEST_CASE("dtype: promote_types matches torch.promote_types for every pair") {
  // python3 -c 'import torch; dts=[torch.bool,torch.uint8,...,torch.float64];
  //   [print([torch.promote_types(a,b) for b in dts]) for a in dts]'   (torch 2.15.0)
  const DType expect[kNumDTypes][kNumDTypes] = {
      {B, U8, I8, I16, I32, I64, F16, BF16, F32, F64},     {U8, U8, I16, I16, I32, I64, F16, BF16, F32, F64},
      {I8, I16, I8, I16, I32, I64, F16, BF16, F32, F64},   {I16, I16, I16, I16, I32, I64, F16, BF16, F32, F64},
      {I32, I32, I32, I32, I32, I64, F16, BF16, F32, F64}, {I64, I64, I64, I64, I64, I64, F16, BF16, F32, F64},
      {F16, F16, F16, F16, F16, F16, F16, F32, F32, F64},  {BF16, BF16, BF16, BF16, BF16, BF16, F32, BF16, F32, F64},
      {F32, F32, F32, F32, F32, F32, F32, F32, F32, F64},  {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64},
  };
  for (int i = 0; i < kNumDTypes; ++i)
    for (int j = 0; j < kNumDTypes; ++j) {
      CAPTURE(std::string(dtype_name(kAll[i])));
      CAPTURE(std::string(dtype_name(kAll[j])));
      CHECK(promote_types(kAll[i], kAll[j]) == expect[i][j]);
    }
}

TEST_CASE("dtype: names, reprs, legacy names, itemsize, categories") {
  const char* names[] = {"bool",  "uint8",   "int8",     "int16",   "int32",
                         "int64", "float16", "bfloat16", "float32", "float64"};
  const char* legacy[] = {"Bool", "Byte", "Char", "Short", "Int", "Long", "Half", "BFloat16", "Float", "Double"};
  const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
  for (int i = 0; i < kNumDTypes; ++i) {
    CAPTURE(i);
    CHECK(std::string(dtype_name(kAll[i])) == names[i]);
    CHECK(dtype_repr(kAll[i]) == std::string("torch.") + names[i]);
    CHECK(std::string(dtype_legacy_name(kAll[i])) == legacy[i]);
    CHECK(itemsize(kAll[i]) == sizes[i]);
    CHECK(is_floating(kAll[i]) == (i >= 6));
    DType back;
    REQUIRE(dtype_from_name(names[i], &back));
    CHECK(back == kAll[i]);
  }
  CHECK(is_integral(B, true));
  CHECK_FALSE(is_integral(B, false));
  CHECK(is_integral(I32, false));
  CHECK_FALSE(is_integral(F16, true));
  // PyTorch's aliases: torch.float, torch.double, torch.half, torch.long, torch.int, torch.short.
  struct {
    const char* name;
    DType d;
  } aliases[] = {{"float", F32}, {"double", F64}, {"half", F16}, {"long", I64}, {"int", I32}, {"short", I16}};
  for (auto& a : aliases) {
    DType d;
    CAPTURE(a.name);
    REQUIRE(dtype_from_name(a.name, &d));
    CHECK(d == a.d);
  }
  DType d;
  CHECK_FALSE(dtype_from_name("float128", &d));
  CHECK_FALSE(dtype_from_name("", &d));
}

TEST_CASE("dtype: Half and BFloat16 rounding match PyTorch bit for bit") {
  // float32 bits -> torch half bits, torch bfloat16 bits, bits of half->float32. Generated with:
  //   t = torch.tensor(vals).to(torch.int32).view(torch.float32)
  //   t.half().view(torch.int16), t.bfloat16().view(torch.int16), t.half().float().view(torch.int32)
  // Covers ties (round half to even), overflow to inf, subnormals, underflow to zero, inf, nan.
  struct Row {
    uint32_t f;
    uint16_t h, bf;
    uint32_t hf;
  };
  const Row rows[] = {
      {0x00000000u, 0x0000, 0x0000, 0x00000000u}, {0x80000000u, 0x8000, 0x8000, 0x80000000u},
      {0x3f800000u, 0x3c00, 0x3f80, 0x3f800000u}, {0xbf800000u, 0xbc00, 0xbf80, 0xbf800000u},
      {0x7f800000u, 0x7c00, 0x7f80, 0x7f800000u}, {0xff800000u, 0xfc00, 0xff80, 0xff800000u},
      {0x477fe000u, 0x7bff, 0x4780, 0x477fe000u}, {0x477ff000u, 0x7c00, 0x4780, 0x7f800000u},
      {0x477fefffu, 0x7bff, 0x4780, 0x477fe000u}, {0x47800000u, 0x7c00, 0x4780, 0x7f800000u},
      {0x38800000u, 0x0400, 0x3880, 0x38800000u}, {0x387fc000u, 0x03ff, 0x3880, 0x387fc000u},
      {0x33800000u, 0x0001, 0x3380, 0x33800000u}, {0x33000000u, 0x0000, 0x3300, 0x00000000u},
      {0x33000001u, 0x0001, 0x3300, 0x33800000u}, {0x337fffffu, 0x0001, 0x3380, 0x33800000u},
      {0x34000000u, 0x0002, 0x3400, 0x34000000u}, {0x34400000u, 0x0003, 0x3440, 0x34400000u},
      {0x34c00000u, 0x0006, 0x34c0, 0x34c00000u}, {0x3f801000u, 0x3c00, 0x3f80, 0x3f800000u},
      {0x3f803000u, 0x3c02, 0x3f80, 0x3f804000u}, {0x3f801001u, 0x3c01, 0x3f80, 0x3f802000u},
      {0x3f802000u, 0x3c01, 0x3f80, 0x3f802000u}, {0x3f808000u, 0x3c04, 0x3f80, 0x3f808000u},
      {0x3f818000u, 0x3c0c, 0x3f82, 0x3f818000u}, {0x3f808001u, 0x3c04, 0x3f81, 0x3f808000u},
      {0x7f7fffffu, 0x7c00, 0x7f80, 0x7f800000u}, {0x7f7f8000u, 0x7c00, 0x7f80, 0x7f800000u},
      {0x00000001u, 0x0000, 0x0000, 0x00000000u}, {0x00800000u, 0x0000, 0x0080, 0x00000000u},
      {0x3eaaaaabu, 0x3555, 0x3eab, 0x3eaaa000u}, {0x40490fdbu, 0x4248, 0x4049, 0x40490000u},
      {0xc2f6e979u, 0xd7b7, 0xc2f7, 0xc2f6e000u}, {0x3dcccccdu, 0x2e66, 0x3dcd, 0x3dccc000u},
      {0x477fffffu, 0x7c00, 0x4780, 0x7f800000u}, {0x38000000u, 0x0200, 0x3800, 0x38000000u},
      {0x387fe000u, 0x0400, 0x3880, 0x38800000u}, {0x387ff000u, 0x0400, 0x3880, 0x38800000u},
  };
  for (const Row& r : rows) {
    CAPTURE(r.f);
    float f = bits_float(r.f);
    CHECK(Half::from_float(f) == r.h);
    CHECK(BFloat16::from_float(f) == r.bf);
    CHECK(float_bits(float(Half(f))) == r.hf);
    CHECK(float_bits(float(BFloat16(f))) == (uint32_t(r.bf) << 16));
  }
  // NaN: PyTorch keeps the sign and quiets half NaNs (0x7e00 / 0xfe00); bfloat16 NaN payloads
  // differ between PyTorch's scalar and vector paths, so only NaN-ness is required there.
  CHECK(Half::from_float(bits_float(0x7fc00000u)) == 0x7e00);
  CHECK(Half::from_float(bits_float(0x7f800001u)) == 0x7e00);
  CHECK(Half::from_float(bits_float(0xffc00000u)) == 0xfe00);
  CHECK(std::isnan(float(BFloat16(bits_float(0x7f800001u)))));
  CHECK(std::isnan(float(BFloat16(bits_float(0xffc00000u)))));
  CHECK(std::isnan(float(Half(NAN))));
}

TEST_CASE("dtype: every finite half and bfloat16 value survives float and back") {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    float f = Half::to_float(uint16_t(h));
    if (std::isnan(f)) {
      CHECK(((h >> 10) & 0x1f) == 0x1f);
      continue;
    }
    if (Half::from_float(f) != h) {
      CAPTURE(h);
      FAIL_CHECK("half round trip");
    }
    BFloat16 b;
    b.x = uint16_t(h);
    float g = float(b);
    if (!std::isnan(g) && BFloat16::from_float(g) != h) {
      CAPTURE(h);
      FAIL_CHECK("bfloat16 round trip");
    }
  }
  // Half subnormals are exact multiples of 2^-24.
  CHECK(Half::to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(Half::to_float(0x03ff) == std::ldexp(1023.0f, -24));
  CHECK(Half::to_float(0x7bff) == 65504.0f);
}

TEST_CASE("dtype: tensor casts round like the scalar conversions") {
  // 1 + 2^-11 is halfway between two halves: ties to even -> 1.0; 1 + 3*2^-11 -> 1 + 2^-9.
  std::vector<double> v = {1.0 + std::ldexp(1.0, -11), 1.0 + 3 * std::ldexp(1.0, -11), 65520.0, 1e-8, -0.0};
  auto h = ut::vals(ut::tens(v, {}, F16));
  CHECK(h[0] == 1.0);
  CHECK(h[1] == 1.0 + std::ldexp(1.0, -9));
  CHECK(std::isinf(h[2]));
  CHECK(h[3] == 0.0);
  CHECK(std::signbit(h[4]));
  // bfloat16: 1 + 2^-8 ties to 1.0, 1 + 3*2^-8 -> 1 + 2^-6.
  auto b = ut::vals(ut::tens({1.0 + std::ldexp(1.0, -8), 1.0 + 3 * std::ldexp(1.0, -8)}, {}, BF16));
  CHECK(b[0] == 1.0);
  CHECK(b[1] == 1.0 + std::ldexp(1.0, -6));
  // float -> int truncates toward zero; -> bool is "!= 0"; -> uint8 wraps like C casts of in-range ints.
  CHECK(ut::ivals(ut::tens({2.7, -2.7, 0.0}, {}, I64)) == std::vector<int64_t>{2, -2, 0});
  CHECK(ut::ivals(ut::tens({0.5, 0.0, -3.0}, {}, B)) == std::vector<int64_t>{1, 0, 1});
}
