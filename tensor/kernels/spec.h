// What an op hands to a device's kernels: plain structs, no Tensor, so that
// the same description serves the CPU loops and the CUDA launchers.
#pragma once
#include <cstdint>
#include "tensor/core/dtype.h"
#include "tensor/core/limits.h"

namespace gl {

struct ArgSpec {
  char* data = nullptr;  // points at element 0 (storage offset applied)
  DType dtype = DType::Float32;
  int64_t strides[kMaxDims] = {};  // in elements
};

// An elementwise loop over `shape`; args[0] is the output. Dimensions are
// coalesced by the op layer, so `contiguous` loops are flat.
struct LoopSpec {
  int ndim = 0;
  int nargs = 0;
  int64_t numel = 0;
  int64_t shape[kMaxDims] = {};
  ArgSpec args[4];
  bool contiguous = false;  // every arg dense and in the same order
};

// The elementwise ops and their dtype policies, from the rows of
// tensor/ops/op_rows.def (which says what each policy means).
enum class UnaryOp : uint8_t {
// clang-format off
#define GL_UNARY(E, ...) E,
#include "tensor/ops/op_rows.def"
  // clang-format on
};
enum class BinaryOp : uint8_t {
// clang-format off
#define GL_BINARY(E, ...) E,
#include "tensor/ops/op_rows.def"
  // clang-format on
};
enum class UnaryPolicy : uint8_t { Float, Same, Rounding, Pred };
enum class BinaryPolicy : uint8_t { Same, IntToFloat, Float, Compare, IntOnly };

constexpr UnaryPolicy unary_policy(UnaryOp op) {
  constexpr UnaryPolicy p[] = {
// clang-format off
#define GL_UNARY(E, name, policy, ...) UnaryPolicy::policy,
#include "tensor/ops/op_rows.def"
      // clang-format on
  };
  return p[size_t(op)];
}
constexpr BinaryPolicy binary_policy(BinaryOp op) {
  constexpr BinaryPolicy p[] = {
// clang-format off
#define GL_BINARY(E, name, policy, ...) BinaryPolicy::policy,
#include "tensor/ops/op_rows.def"
      // clang-format on
  };
  return p[size_t(op)];
}
constexpr bool is_comparison(BinaryOp op) { return binary_policy(op) == BinaryPolicy::Compare; }
constexpr bool unary_returns_bool(UnaryOp op) { return unary_policy(op) == UnaryPolicy::Pred; }
// Integer inputs are computed in float32 (the kernels see floats only).
constexpr bool unary_to_float(UnaryOp op) { return unary_policy(op) == UnaryPolicy::Float; }
constexpr bool binary_to_float(BinaryOp op) {
  return binary_policy(op) == BinaryPolicy::IntToFloat || binary_policy(op) == BinaryPolicy::Float;
}

// One operand may be a scalar held by value (`b_scalar`), in compute dtype.
struct BinarySpec {
  LoopSpec loop;  // args: out, a, b (b absent when scalar)
  BinaryOp op;
  DType compute;  // inputs are already this dtype
  bool b_is_scalar = false;
  double b_f = 0;
  int64_t b_i = 0;
  bool scalar_first = false;  // scalar is the left operand (e.g. 2 - x)
  // Note [Add with alpha]: add/sub of floating tensors with alpha != 1 are one
  // fused multiply-add, a + alpha * b rounded once (b tensor; sub passes -alpha),
  // as PyTorch's CPU (vec::fmadd) and CUDA kernels compute it, with alpha first
  // rounded to the tensor's dtype (float16: half(alpha)). A number `other` is
  // scaled by alpha before the kernel, as PyTorch's add(Tensor, Scalar) does.
  double alpha = 1;
};

// Note [Ternary ops]: addcmul and lerp, as PyTorch's kernels round them (in
// opmath, one fused multiply-add each): addcmul = fma(value * t1, t2, self);
// addcdiv = self + value * t1 / t2 (no fusing a division);
// lerp = |w| < 0.5 ? fma(w, end - start, start) : fma(w - 1, end - start, end).
// Args: out, a (self / start), b (t1 / end), c (t2 / weight; absent for lerp
// with a number weight, which is `value`).
enum class TernaryOp : uint8_t { Addcmul, Addcdiv, Lerp };
struct TernarySpec {
  LoopSpec loop;
  TernaryOp op;
  DType compute;  // the inputs are already this dtype
  double value = 1;
  int64_t value_i = 1;  // addcmul's value for integer dtypes
  bool scalar_weight = false;
};

// The reductions, from the rows of tensor/ops/reduce_rows.def.
enum class ReduceOp : uint8_t {
// clang-format off
#define GL_REDUCE(E, ...) E,
#include "tensor/ops/reduce_rows.def"
  // clang-format on
};

// out[o] = reduce over r of in[o, r]; `o` ranges over out_shape (in's kept
// dims), `r` over red_shape. Arg ops write int64 indices into out.
struct ReduceSpec {
  ReduceOp op;
  ArgSpec out;  // strides over out_shape
  ArgSpec in;   // strides over out_shape
  int64_t in_red_strides[kMaxDims] = {};
  int out_ndim = 0, red_ndim = 0;
  int64_t out_shape[kMaxDims] = {};
  int64_t red_shape[kMaxDims] = {};
  int64_t out_numel = 0, red_numel = 0;
};

// Inclusive scan along one dim (cumsum, cumprod): out[l, i] = in[l, 0] op ...
// op in[l, i] for every line l, or in[l, i] op ... op in[l, len - 1] when
// `reverse` (the gradient of cumsum, without flipping twice). out and in share
// a dtype: the op layer casts first, as PyTorch's CPU kernel does. Lines range
// over line_shape (the other dims); out.strides/in.strides step over it.
enum class ScanOp : uint8_t { Sum, Prod };
struct ScanSpec {
  ScanOp op = ScanOp::Sum;
  bool reverse = false;
  ArgSpec out, in;
  int line_ndim = 0;
  int64_t line_shape[kMaxDims] = {};
  int64_t lines = 0, len = 0;
  int64_t out_step = 0, in_step = 0;  // strides along the scanned dim
};

// Row-major C[b] = alpha * op(A[b]) @ op(B[b]) + beta * C[b], for b < batch.
struct GemmSpec {
  DType dtype;
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  const char* a = nullptr;
  int64_t lda = 0;
  int64_t stride_a = 0;
  const char* b = nullptr;
  int64_t ldb = 0;
  int64_t stride_b = 0;
  char* c = nullptr;
  int64_t ldc = 0;
  int64_t stride_c = 0;
  int64_t batch = 1;
  double alpha = 1, beta = 0;
  bool allow_tf32 = false;
};

// Bits32: the generator's raw 32-bit draws (randperm's Fisher-Yates; CPU only).
// Uniform4 (real GPUs only): raw float32 uniforms in (0, 1], grouped as PyTorch's
// CUDA dropout (its vector width: `group` consecutive elements per thread and
// round) and bernoulli with a tensor p (four) take them (Note [PyTorch's CUDA draws]).
enum class RandomKind : uint8_t { Uniform, Normal, IntRange, Bits32, Uniform4 };
struct RandomSpec {
  RandomKind kind;
  ArgSpec out;  // contiguous
  int64_t numel = 0;
  double a = 0, b = 1;     // uniform [a, b), normal (mean a, std b)
  int64_t lo = 0, hi = 1;  // ints [lo, hi), exact (a double cannot hold every int64)
  bool one_round = false;  // Uniform4: every element in one round (bernoulli), else dropout's launch
  int group = 4;           // Uniform4: 1, 2, 4 or 8 (dropout's vector width)
};

}  // namespace gl
