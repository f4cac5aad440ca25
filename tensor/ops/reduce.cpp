// Reductions: sum, mean, prod, max/min (with and without indices), argmax,
// norm, any/all, var.
#include <algorithm>
#include <cmath>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/kernels/merge_dims.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/ops/reduce_table.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

std::vector<int64_t> normalize_dims(const Tensor& t, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  const int64_t nd = std::max<int64_t>(t.dim(), 1);
  if (dims.empty()) {
    for (int64_t i = 0; i < t.dim(); ++i) out.push_back(i);
    return out;
  }
  for (auto d : dims) {
    int64_t w = wrap_dim(d, nd);
    GL_CHECK(std::find(out.begin(), out.end(), w) == out.end(), "dim ", w,
             " appears multiple times in the list of dims");
    out.push_back(w);
  }
  std::sort(out.begin(), out.end());
  if (t.dim() == 0) out.clear();
  return out;
}

Shape reduced_shape(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim) {
  Shape s;
  for (int64_t i = 0; i < t.dim(); ++i) {
    bool red = std::find(dims.begin(), dims.end(), i) != dims.end();
    if (!red) s.push_back(t.sizes()[size_t(i)]);
    else if (keepdim) s.push_back(1);
  }
  return s;
}

// Runs `op` over `dims` of t into a new tensor of its row's result dtype
// (no autograd); `name` names it in errors.
Tensor reduce_raw(ReduceOp op, const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, const char* name) {
  const DType out_dtype = reduce_result_dtype(op, t.dtype());
  Shape out_shape = reduced_shape(t, dims, keepdim);
  Tensor out = empty_on(out_shape, out_dtype, t.device());
  ReduceSpec s;
  s.op = op;
  s.in.data = t.numel() ? t.data_ptr() : nullptr;
  s.in.dtype = t.dtype();
  s.out.data = out.numel() ? out.data_ptr() : nullptr;
  s.out.dtype = out_dtype;
  s.out_numel = 1;
  s.red_numel = 1;
  // Shapes are checked where made (check_shape); the spec's arrays rely on it.
  GL_CHECK(t.dim() <= kMaxDims, "gpulab supports tensors of at most ", kMaxDims, " dimensions, but got ", t.dim());
  for (int64_t i = 0; i < t.dim(); ++i) {
    bool red = std::find(dims.begin(), dims.end(), i) != dims.end();
    int64_t size = t.sizes()[size_t(i)], stride = t.strides()[size_t(i)];
    if (red) {
      s.red_shape[s.red_ndim] = size;
      s.in_red_strides[s.red_ndim++] = stride;
      s.red_numel *= size;
    } else {
      s.out_shape[s.out_ndim] = size;
      s.in.strides[s.out_ndim++] = stride;
      s.out_numel *= size;
    }
  }
  // Merge reduced dims that are one dense run (and drop size-1 ones): the
  // reduced index space and its order stay the same, and a whole-tensor
  // reduction of contiguous data becomes one unit-stride run (the fast path).
  int64_t* red_strides[1] = {s.in_red_strides};
  int m = merge_dims(s.red_ndim, s.red_shape, red_strides, 1);
  if (s.red_ndim > 0 && m == 0) {  // only size-1 dims: one step
    s.red_shape[0] = 1;
    s.in_red_strides[0] = 1;
    m = 1;
  }
  s.red_ndim = m;
  // Output strides over the kept dims (out is contiguous; keepdim adds size-1 dims only).
  Shape kept;
  for (int d = 0; d < s.out_ndim; ++d) kept.push_back(s.out_shape[d]);
  Shape kst = contiguous_strides(kept);
  for (int d = 0; d < s.out_ndim; ++d) s.out.strides[d] = kst[size_t(d)];
  if (s.out_numel == 0) return out;
  if (s.red_numel == 0) {
    switch (row(op).empty) {
      case ReduceEmpty::Zero: fill_(out, Scalar::from_int(0)); return out;
      case ReduceEmpty::One: fill_(out, Scalar::from_int(1)); return out;
      case ReduceEmpty::None: {
        // PyTorch's texts: a whole-tensor reduction asks for a dim; a given dim
        // of size zero is named.
        const bool arg = std::string(name).rfind("arg", 0) == 0;
        if (int64_t(dims.size()) == t.dim()) {
          if (arg) throw IndexError(cat(name, "(): Expected reduction dim to be specified for input.numel() == 0."));
          throw RuntimeError(cat(
              name,
              "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."));
        }
        int64_t d0 = dims.front();
        for (auto d : dims)
          if (t.sizes()[size_t(d)] == 0) {
            d0 = d;
            break;
          }
        throw IndexError(cat(name, "(): Expected reduction dim ", d0, " to have non-zero size."));
      }
    }
  }
  const DeviceSlot& sl = slot_of(t);
  trace::op(trace::op_name(s.op), t.device());
  sl.kernels->reduce(sl.exec, s);
  return out;
}

}  // namespace

// Gradient of a reduction: g broadcast back over the reduced dims.
Tensor expand_back(const Tensor& g, const Shape& in_shape, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor r = g;
  if (!keepdim)
    for (auto d : dims) r = unsqueeze(r, d);
  return expand(r, in_shape);
}

namespace {

// red_sum(x) of a row's derivative: x summed over the reduced dims, broadcast back.
struct RedSum {
  Shape in_shape;
  std::vector<int64_t> dims;
  bool keepdim;
  Tensor operator()(const Tensor& x) const { return expand_back(sum(x, dims, keepdim), in_shape, dims, keepdim); }
};

// The derivatives of the rows: the grad of the input (g and out broadcast back).
Tensor reduce_grad(ReduceOp op, const Tensor& g, const Tensor& a, const Tensor& out, const RedSum& red_sum) {
  switch (op) {
// clang-format off
#define GL_REDUCE(E, name, trace, kind, flag, result, empty, bind, node_all, node_dim, saves, doc, ...) \
  case ReduceOp::E: __VA_ARGS__
#include "tensor/ops/reduce_rows.def"
    // clang-format on
  }
  return {};
}

// Records the row's autograd node on `out`, the reduction of `t` over the
// normalized `dims` (`node`: its grad_fn name; nullptr: the row's, by
// whether the user gave dims).
void record_reduce(Tensor& out, ReduceOp op, const Tensor& t, const std::vector<int64_t>& dims, bool user_dims,
                   bool keepdim, const char* node = nullptr) {
  const ReduceRow& r = row(op);
  if (!r.node_all || !any_requires_grad({&t})) return;
  if (!node) node = user_dims ? r.node_dim : r.node_all;
  RedSum red_sum{t.sizes(), dims, keepdim};
  // The result detached: `out` itself would be owned by its own grad_fn (a cycle).
  Tensor sa = r.saves ? t : Tensor(), so = r.saves ? detach(out) : Tensor();
  const DType tdt = t.dtype();
  record(out, node, {t},
         [op, sa, so, red_sum, tdt](const Tensor& g) -> std::vector<Tensor> {
           const Tensor gb = expand_back(g, red_sum.in_shape, red_sum.dims, red_sum.keepdim);
           const Tensor ob = so.defined() ? expand_back(so, red_sum.in_shape, red_sum.dims, red_sum.keepdim) : Tensor();
           return {to_dtype(reduce_grad(op, gb, sa, ob, red_sum), tdt)};
         },
         {sa, so});
}

// A reduction row over an optional dim, with its autograd.
Tensor reduce_dim_opt(ReduceOp op, const Tensor& t, std::optional<int64_t> dim, bool keepdim,
                      const char* name = nullptr, const char* node = nullptr) {
  std::vector<int64_t> d0 = dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{};
  auto dims = normalize_dims(t, d0);
  Tensor out = reduce_raw(op, t, dims, keepdim, name ? name : row(op).name);
  record_reduce(out, op, t, dims, dim.has_value(), keepdim, node);
  return out;
}

}  // namespace

Tensor sum(const Tensor& t, const std::vector<int64_t>& dims0, bool keepdim, std::optional<DType> dtype) {
  // fp32_set_opt_dtype in PyTorch: a dtype given is kept
  if (autocast::Scope ac{autocast::Op::sum, {&t}})
    return dtype ? sum(t, dims0, keepdim, dtype) : sum(ac(t), dims0, keepdim);  // Note [Autocast]
  auto dims = normalize_dims(t, dims0);
  DType out_dt = dtype ? *dtype : reduce_result_dtype(ReduceOp::Sum, t.dtype());
  Tensor in = dtype ? to_dtype(t, *dtype) : t;
  Tensor out = to_dtype(reduce_raw(ReduceOp::Sum, in, dims, keepdim, "sum"), out_dt);
  record_reduce(out, ReduceOp::Sum, t, dims, !dims0.empty(), keepdim);
  return out;
}

Tensor mean(const Tensor& t, const std::vector<int64_t>& dims0, bool keepdim) {
  GL_CHECK_T(
      NotImplementedError, is_floating(t.dtype()),
      "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ",
      dtype_legacy_name(t.dtype()));
  auto dims = normalize_dims(t, dims0);
  int64_t count = 1;
  for (auto d : dims) count *= t.sizes()[size_t(d)];
  Tensor out;
  {
    NoGradGuard ng;
    // Half types sum and divide in float32, as PyTorch's accumulate type: the
    // mean of 10^5 float16 ones is 1, though their float16 sum overflows.
    const bool half = t.dtype() == DType::Float16 || t.dtype() == DType::BFloat16;
    out = binary(BinaryOp::Div, sum(t, dims0, keepdim, half ? std::optional<DType>(DType::Float32) : std::nullopt),
                 Scalar::from_double(double(count)));
    out = to_dtype(out, t.dtype());
    if (count == 0) fill_(out, Scalar::from_double(NAN));
  }
  if (any_requires_grad({&t})) {
    record(out, dims0.empty() ? "MeanBackward0" : "MeanBackward1", {t}, MeanBackward{t.sizes(), dims, keepdim, count});
  }
  return out;
}

Tensor prod(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  if (autocast::Scope ac{autocast::Op::prod, {&t}}) return prod(ac(t), dim, keepdim);  // Note [Autocast]
  return reduce_dim_opt(ReduceOp::Prod, t, dim, keepdim);
}
Tensor amax(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return reduce_dim_opt(ReduceOp::Max, t, dim, keepdim);
}
Tensor amin(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return reduce_dim_opt(ReduceOp::Min, t, dim, keepdim);
}
Tensor max_all(const Tensor& t) { return reduce_dim_opt(ReduceOp::Max, t, std::nullopt, false, "max", "MaxBackward1"); }
Tensor min_all(const Tensor& t) { return reduce_dim_opt(ReduceOp::Min, t, std::nullopt, false, "min", "MinBackward1"); }

namespace {
Tensor arg_extreme(ReduceOp op, const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  const char* name = row(op).name;
  if (t.dtype() == DType::Bool) throw NotImplementedError(cat(name, "(): does not support bool input"));
  if (dim) return reduce_raw(op, t, normalize_dims(t, {*dim}), keepdim, name);
  Tensor r = reduce_raw(op, reshape(t, {-1}), {0}, false, name);
  // keepdim without a dim keeps every dim, at size 1 (PyTorch: [[0]] for a matrix).
  return keepdim ? reshape(r, Shape(size_t(t.dim()), 1)) : r;
}
}  // namespace

Tensor argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(ReduceOp::ArgMax, t, dim, keepdim);
}
Tensor argmin(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(ReduceOp::ArgMin, t, dim, keepdim);
}

namespace {
std::pair<Tensor, Tensor> extreme_dim(bool is_max, const Tensor& t, int64_t dim, bool keepdim) {
  auto dims = normalize_dims(t, {dim});
  const char* name = is_max ? "max" : "min";
  Tensor idx = reduce_raw(is_max ? ReduceOp::ArgMax : ReduceOp::ArgMin, t, dims, keepdim, name);
  Tensor val = reduce_raw(is_max ? ReduceOp::Max : ReduceOp::Min, t, dims, keepdim, name);
  if (any_requires_grad({&t})) {
    const int64_t d = dims.empty() ? 0 : dims[0];
    record(val, is_max ? "MaxBackward0" : "MinBackward0", {t}, MaxMinDimBackward{idx, t.sizes(), d, dims, keepdim});
  }
  return {val, idx};
}
}  // namespace

std::pair<Tensor, Tensor> max_dim(const Tensor& t, int64_t dim, bool keepdim) {
  return extreme_dim(true, t, dim, keepdim);
}
std::pair<Tensor, Tensor> min_dim(const Tensor& t, int64_t dim, bool keepdim) {
  return extreme_dim(false, t, dim, keepdim);
}

Tensor norm(const Tensor& t, double p, const std::vector<int64_t>& dims, bool keepdim) {
  if (autocast::Scope ac{autocast::Op::norm, {&t}}) return norm(ac(t), p, dims, keepdim);  // Note [Autocast]
  GL_CHECK_T(NotImplementedError, is_floating(t.dtype()),
             "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(t.dtype()));
  if (std::isinf(p)) {  // max/min have no identity: PyTorch's own words (its missing space kept)
    const char* which = p > 0 ? "inf" : "-inf";
    GL_CHECK(t.numel() > 0 || !dims.empty(), "linalg.vector_norm cannot compute the ", which,
             " norm on an empty tensor because the operation does not have an identity");
    for (int64_t d : normalize_dims(t, dims))
      GL_CHECK(t.size(d) > 0, "linalg.vector_norm cannot compute the ", which, " norm on the dimension ", d,
               "because this dimension is empty and the operation does not have an identity");
  }
  Tensor out;
  {
    NoGradGuard ng;
    if (p == 2) out = unary(UnaryOp::Sqrt, sum(unary(UnaryOp::Square, t), dims, keepdim));
    else if (p == 1) out = sum(unary(UnaryOp::Abs, t), dims, keepdim);
    else if (std::isinf(p))
      out = p > 0
                ? amax(unary(UnaryOp::Abs, t), dims.empty() ? std::nullopt : std::optional<int64_t>(dims[0]), keepdim)
                : amin(unary(UnaryOp::Abs, t), dims.empty() ? std::nullopt : std::optional<int64_t>(dims[0]), keepdim);
    else
      out = binary(BinaryOp::Pow,
                   sum(binary(BinaryOp::Pow, unary(UnaryOp::Abs, t), Scalar::from_double(p)), dims, keepdim),
                   Scalar::from_double(1.0 / p));
  }
  if (any_requires_grad({&t})) {
    GL_CHECK(p == 2, "gpulab: gradients of norm are implemented for p=2");
    record(out, "LinalgVectorNormBackward0", {t}, NormP2Backward{t, detach(out), normalize_dims(t, dims), keepdim});
  }
  return out;
}

Tensor any(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return reduce_dim_opt(ReduceOp::Any, t, dim, keepdim);
}
Tensor all(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return reduce_dim_opt(ReduceOp::All, t, dim, keepdim);
}

Tensor var(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction, const char* name) {
  if (!is_floating(t.dtype())) throw NotImplementedError("std and var only support floating point and complex dtypes");
  auto nd = normalize_dims(t, dims);
  int64_t count = 1;
  for (auto d : nd) count *= t.sizes()[size_t(d)];
  // PyTorch's factor is input numel / output numel: 0 for an empty input.
  if (double(t.numel() == 0 ? 0 : count) - correction <= 0)  // Note [Warnings]
    warn(cat(name,
             "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input "
             "numel divided by output numel)."));
  Tensor mu = mean(t, dims, true);
  Tensor dev = sub(t, mu);
  Tensor ss = sum(mul(dev, dev), dims, keepdim);
  Tensor out = binary(BinaryOp::Div, ss, Scalar::from_double(std::max(double(count) - correction, 0.0)));
  rename_grad_fn(out, "VarBackward0");
  return out;
}

}  // namespace gl
