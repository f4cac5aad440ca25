// Ops made of other ops (composite.cpp, arith.cpp, compare.cpp, masked.cpp):
// the meaning of options such as div's rounding_mode or add's alpha lives
// here, so that bindings/ only parses arguments and calls one of these.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "tensor/ops/ops.h"

namespace gl {

// The `other` of a binary op: a tensor, or a number (t == nullptr).
struct Other {
  const Tensor* t = nullptr;
  Scalar s;
  static Other of(const Tensor& x) { return {&x, Scalar()}; }
  static Other of(Scalar v) { return {nullptr, v}; }
};

// The dtype a number becomes as a tensor of its own: the default dtype
// (float32 unless torch.set_default_dtype) for floats, int64 for integers,
// bool for booleans.
DType scalar_default_dtype(Scalar s);

// The one check before an in-place op: a leaf that requires grad (PyTorch's words).
void check_inplace_leaf(const Tensor& self);

// ---- arith.cpp ----
// input + alpha * other and input - alpha * other, with PyTorch's rules for
// alpha (a float alpha needs a float result, a bool alpha a bool one).
Tensor add(const Tensor& x, Other y, Scalar alpha);
Tensor sub(const Tensor& x, Other y, Scalar alpha);
void add_(Tensor& x, Other y, Scalar alpha);
void sub_(Tensor& x, Other y, Scalar alpha);
// div with rounding_mode "trunc" or "floor" (nullopt: true division).
Tensor div(const Tensor& x, const Tensor& y, const std::optional<std::string>& rounding_mode);
void div_(Tensor& x, Other y, const std::optional<std::string>& rounding_mode);
// Throws PyTorch's error for a rounding mode other than trunc and floor.
void check_rounding_mode(const std::string& mode);

// ---- compare.cpp ----
bool equal(const Tensor& a, const Tensor& b);  // same shape and values
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8);

// ---- masked.cpp ----
Tensor masked_fill(const Tensor& t, const Tensor& mask, Other value);
// torch.where(cond, x, y) where x and/or y may be numbers: a number takes the
// dtype of the tensor operand (`like`), widened to float32 for a float number
// and to int64 for an integer with a bool tensor.
Tensor where(const Tensor& cond, Other x, Other y);
void clamp_(Tensor& t, std::optional<double> lo, std::optional<double> hi);
// clamp with a tensor among the bounds (the other may be a number or absent).
Tensor clamp_tensor(const Tensor& a, std::optional<Other> lo, std::optional<Other> hi);
void clamp_tensor_(Tensor& t, std::optional<Other> lo, std::optional<Other> hi);

// ---- composite.cpp ----
// torch.std: sqrt(var), its own grad_fn (StdBackward0); correction as var's.
Tensor stddev(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction);
// torch.var_mean and torch.std_mean: (var or std, mean) over dims, both
// results named as PyTorch's one node (VarMeanBackward0, StdMeanBackward0).
std::pair<Tensor, Tensor> var_mean(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction,
                                   bool take_std);
// torch.round(x, decimals=d), PyTorch's round_decimals kernel: nearbyint(x * 10^d) / 10^d
// (for d < 0, nearbyint(x / 10^-d) * 10^-d), in float for float32, float16 and
// bfloat16 (10^d rounded to float first) and in double for float64. Integer and
// bool inputs are refused as by PyTorch's round.decimals, decimals = 0 included;
// the grad_fn is RoundBackward1 (zero gradient).
Tensor round(const Tensor& t, int64_t decimals);
void round_(Tensor& t, int64_t decimals);
Tensor repeat(const Tensor& t, const Shape& repeats);
std::vector<Tensor> unbind(const Tensor& t, int64_t dim);

// ---- activation.cpp ----
// F.gelu (approximate "none" or "tanh") and F.silu: the rows Gelu, GeluTanh
// and Silu of op_rows.def, with PyTorch's refusals (an unknown approximate;
// integer and bool inputs, naming PyTorch's kernel).
Tensor gelu(const Tensor& x, const std::string& approximate);
Tensor silu(const Tensor& x);
void silu_(Tensor& x);
// The rows' derivatives: PyTorch's gelu_backward and silu_backward, step by
// step in the kernels' precision (float for float16 and bfloat16), of
// recorded ops, so that a gradient made with create_graph differentiates again.
Tensor gelu_backward(const Tensor& g, const Tensor& x, bool tanh_form);
Tensor silu_backward(const Tensor& g, const Tensor& x);

}  // namespace gl
