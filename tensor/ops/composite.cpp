// Composite ops with a grad_fn name of their own: std, var_mean and std_mean,
// round with decimals, repeat, unbind.
#include <algorithm>
#include <cmath>
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"

namespace gl {

Tensor stddev(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction) {
  Tensor out = unary(UnaryOp::Sqrt, var(t, dims, keepdim, correction, "std"));
  rename_grad_fn(out, "StdBackward0");
  return out;
}

std::pair<Tensor, Tensor> var_mean(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction,
                                   bool take_std) {
  const char* name = take_std ? "std_mean" : "var_mean";
  if (!is_floating(t.dtype())) throw NotImplementedError(cat(name, " only support floating point and complex dtypes"));
  Tensor v = var(t, dims, keepdim, correction, name);
  if (take_std) v = unary(UnaryOp::Sqrt, v);
  Tensor m = mean(t, dims, keepdim);
  // PyTorch's one node for both results; here one each, under its name
  const char* node = take_std ? "StdMeanBackward0" : "VarMeanBackward0";
  rename_grad_fn(v, node);
  rename_grad_fn(m, node);
  return {v, m};
}

Tensor round(const Tensor& t, int64_t decimals) {
  if (!is_floating(t.dtype())) {
    const char* kernel = !t.device().is_cpu() ? "round_cuda" : decimals == 0 ? "round_vml_cpu" : "round_cpu";
    throw NotImplementedError(cat('"', kernel, "\" not implemented for '", dtype_legacy_name(t.dtype()), "'"));
  }
  // PyTorch's opmath: float for the 16-bit floats, each step rounded to it.
  const DType compute = t.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  double p = std::pow(10.0, std::fabs(double(decimals)));            // (-INT64_MIN would overflow)
  if (compute == DType::Float32) p = double(static_cast<float>(p));  // 10^39 and past: inf, so nan, as PyTorch
  Tensor r;
  {
    NoGradGuard ng;
    const Scalar s = Scalar::from_double(p);
    Tensor x = to_dtype(t, compute);
    r = decimals >= 0 ? binary(BinaryOp::Div, unary(UnaryOp::Round, binary(BinaryOp::Mul, x, s)), s)
                      : binary(BinaryOp::Mul, unary(UnaryOp::Round, binary(BinaryOp::Div, x, s)), s);
    r = to_dtype(r, t.dtype());
  }
  if (any_requires_grad({&t})) { record(r, {t}, RoundBackward1{t.sizes(), {t.dtype(), t.device()}}); }
  return r;
}

void round_(Tensor& t, int64_t decimals) {
  Mutation written(t);  // Note [Version counter]
  if (GradMode::enabled() && t.requires_grad()) {
    inplace_with_grad(t, [&](const Tensor& old) { return round(old, decimals); });
    return;
  }
  Tensor r = round(t, decimals);
  copy_(t, r);
}

// Tiles t: repeats[d] copies along dim d (t first gains leading dims of size 1).
Tensor repeat(const Tensor& t0, const Shape& reps) {
  Tensor t = t0;
  GL_CHECK(int64_t(reps.size()) >= t.dim(),
           "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  while (t.dim() < int64_t(reps.size())) t = unsqueeze(t, 0);
  // The result's shape is checked before any copy is planned (a count of
  // copies past what memory could hold is an error, not a vector's length_error).
  Shape out_shape = t.sizes();
  for (size_t d = 0; d < reps.size(); ++d)
    GL_CHECK(!__builtin_mul_overflow(out_shape[d], reps[d], &out_shape[d]), "repeat: repeating a tensor of size ",
             shape_str(t.sizes()), " by ", shape_str(reps), " gives a size past int64");
  // PyTorch checks the sizes it is asked for, not the repeats: a negative
  // repeat of an empty dim is an empty dim
  for (int64_t s : out_shape)
    GL_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(out_shape));
  check_new_shape(out_shape, t.dtype());
  // Along each repeated dim d: t viewed as (..., 1, s_d, ...), expanded to
  // (..., r_d, s_d, ...) and laid out as (..., r_d * s_d, ...), so entry i reads
  // t's i mod s_d; no list of copies, whose length alone could exhaust memory.
  bool copied = false;
  for (size_t d = 0; d < reps.size(); ++d) {
    if (reps[d] == 1) continue;
    const int64_t r = out_shape[d] == 0 ? 0 : reps[d];  // an empty dim's repeat may be negative
    Shape big = t.sizes(), merged = t.sizes();
    big.insert(big.begin() + int64_t(d), r);
    merged[d] *= r;  // no overflow: out_shape's product was checked
    t = reshape(contiguous(expand(unsqueeze(t, int64_t(d)), big)), merged);
    copied = true;
  }
  if (!copied) t = clone(t);  // repeat always returns new memory, as PyTorch's
  rename_grad_fn(t, "RepeatBackward0");
  return t;
}

std::vector<Tensor> unbind(const Tensor& t, int64_t d) {
  std::vector<Tensor> out;
  for (int64_t i = 0; i < t.size(d); ++i) {
    out.push_back(select(t, d, i));
    rename_grad_fn(out.back(), "UnbindBackward0");
  }
  return out;
}

}  // namespace gl
