#include "tensor/core/dtype.h"
#include <atomic>
#include <cstring>

namespace gl {

namespace {
struct Info {
  const char* name;
  const char* legacy;
  const char* cpp;  // caffe2::TypeMeta's name
  size_t size;
};
constexpr Info kInfo[kNumDTypes] = {{"bool", "Bool", "bool", 1},         {"uint8", "Byte", "unsigned char", 1},
                                    {"int8", "Char", "signed char", 1},  {"int16", "Short", "short int", 2},
                                    {"int32", "Int", "int", 4},          {"int64", "Long", "long int", 8},
                                    {"float16", "Half", "c10::Half", 2}, {"bfloat16", "BFloat16", "c10::BFloat16", 2},
                                    {"float32", "Float", "float", 4},    {"float64", "Double", "double", 8}};
}  // namespace

size_t itemsize(DType t) { return kInfo[int(t)].size; }
bool is_floating(DType t) { return t >= DType::Float16; }
const char* dtype_name(DType t) { return kInfo[int(t)].name; }
std::string dtype_repr(DType t) { return std::string("torch.") + kInfo[int(t)].name; }
const char* dtype_legacy_name(DType t) { return kInfo[int(t)].legacy; }
const char* dtype_cpp_name(DType t) { return kInfo[int(t)].cpp; }

bool dtype_from_name(const std::string& s0, DType* out) {
  std::string s = s0.rfind("torch.", 0) == 0 ? s0.substr(6) : s0;
  static const struct {
    const char* n;
    DType t;
  } aliases[] = {{"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
                 {"long", DType::Int64},    {"int", DType::Int32},      {"short", DType::Int16},
                 {"uint8", DType::UInt8},   {"byte", DType::UInt8},     {"char", DType::Int8}};
  for (auto& a : aliases)
    if (s == a.n) {
      *out = a.t;
      return true;
    }
  for (int i = 0; i < kNumDTypes; ++i)
    if (s == kInfo[i].name) {
      *out = DType(i);
      return true;
    }
  return false;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  // Mixed float16/bfloat16 promotes to float32, as in PyTorch.
  if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
    return DType::Float32;
  // uint8 with a signed int promotes to the next signed type that holds both.
  auto is_signed_int = [](DType t) { return t >= DType::Int8 && t <= DType::Int64; };
  if (a == DType::UInt8 && is_signed_int(b)) return b == DType::Int8 ? DType::Int16 : b;
  if (b == DType::UInt8 && is_signed_int(a)) return a == DType::Int8 ? DType::Int16 : a;
  return a > b ? a : b;
}

namespace {
std::atomic<DType> g_default_dtype{DType::Float32};
}
DType default_dtype() { return g_default_dtype.load(std::memory_order_relaxed); }
void set_default_dtype(DType d) { g_default_dtype.store(d, std::memory_order_relaxed); }

}  // namespace gl
