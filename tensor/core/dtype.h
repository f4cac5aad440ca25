// Element types and PyTorch's promotion rules.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include "tensor/core/error.h"
#include "tensor/core/half.h"

namespace gl {

// Order matters: it is the promotion lattice's category order (bool < ints < floats).
enum class DType : uint8_t { Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64 };
constexpr int kNumDTypes = 10;

size_t itemsize(DType t);
bool is_floating(DType t);
inline bool is_integral(DType t, bool include_bool) { return !is_floating(t) && (include_bool || t != DType::Bool); }
inline bool is_reduced_float(DType t) { return t == DType::Float16 || t == DType::BFloat16; }
const char* dtype_name(DType t);                         // "float32"
std::string dtype_repr(DType t);                         // "torch.float32"
const char* dtype_legacy_name(DType t);                  // "Float", "Long" (used in error texts)
const char* dtype_cpp_name(DType t);                     // "float", "long int": some errors' C++ type names
bool dtype_from_name(const std::string& s, DType* out);  // accepts "float32", "float", "long", ...
DType promote_types(DType a, DType b);
// torch.get_default_dtype / set_default_dtype: the floating dtype of the
// factories, of tensors made from Lua floats and of integer inputs promoted
// to float (float32 unless set; one for the process, as PyTorch's).
DType default_dtype();
void set_default_dtype(DType d);  // a floating dtype (the bindings check)

template <DType D> struct CType;
template <> struct CType<DType::Bool> { using type = bool; };
template <> struct CType<DType::UInt8> { using type = uint8_t; };
template <> struct CType<DType::Int8> { using type = int8_t; };
template <> struct CType<DType::Int16> { using type = int16_t; };
template <> struct CType<DType::Int32> { using type = int32_t; };
template <> struct CType<DType::Int64> { using type = int64_t; };
template <> struct CType<DType::Float16> { using type = Half; };
template <> struct CType<DType::BFloat16> { using type = BFloat16; };
template <> struct CType<DType::Float32> { using type = float; };
template <> struct CType<DType::Float64> { using type = double; };

// The one dtype switch: calls f(T{}) with T the C type of `t`.
template <class F> decltype(auto) dispatch_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f(bool{});
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::Float16: return f(Half{});
    case DType::BFloat16: return f(BFloat16{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
  }
  throw RuntimeError("unknown dtype");
}

// A Python-like scalar: PyTorch wraps Python numbers the same way, and they
// take part in promotion only by category (bool < integer < float).
struct Scalar {
  enum Kind : uint8_t { Bool, Int, Float } kind = Int;
  double f = 0;
  int64_t i = 0;
  // double -> int64 truncating, as x86's cvttsd2si (what PyTorch's casts give
  // there): NaN and values out of range become INT64_MIN. A plain int64_t(v)
  // is undefined behaviour for them (found by tests/fuzz/fuzz_lua).
  static int64_t trunc_int(double v) {
    return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? int64_t(v) : INT64_MIN;
  }
  static Scalar from_double(double v) {
    Scalar s;
    s.kind = Float;
    s.f = v;
    s.i = trunc_int(v);
    return s;
  }
  static Scalar from_int(int64_t v) {
    Scalar s;
    s.kind = Int;
    s.i = v;
    s.f = double(v);
    return s;
  }
  static Scalar from_bool(bool v) {
    Scalar s;
    s.kind = Bool;
    s.i = v;
    s.f = v;
    return s;
  }
  double to_double() const { return kind == Float ? f : double(i); }
  int64_t to_int() const { return kind == Float ? trunc_int(f) : i; }
};

}  // namespace gl
