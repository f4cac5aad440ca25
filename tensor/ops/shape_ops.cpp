// Matrix-shape and layout ops, each composed from primitives that already
// run on every device (views, where, matmul, reductions), with the grad_fn
// PyTorch prints for them.
#include "tensor/autocast/autocast.h"
#include "tensor/ops/shape_ops.h"

#include <algorithm>
#include <cmath>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/registry.h"

namespace gl {

namespace {

Tensor arange_on(int64_t n, Device d) {
  return arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64, {DType::Int64, d});
}

// The mask of a triangle over the last two dims: col - row <= k (lower) or >= k (upper).
Tensor triangle_mask(int64_t rows, int64_t cols, int64_t k, bool lower, Device d) {
  Tensor diff = sub(reshape(arange_on(cols, d), {1, cols}), reshape(arange_on(rows, d), {rows, 1}));
  return binary(lower ? BinaryOp::Le : BinaryOp::Ge, diff, Scalar::from_int(k));
}

Tensor triangle(const Tensor& t, int64_t k, bool lower) {
  const char* name = lower ? "tril" : "triu";
  GL_CHECK(t.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
  Tensor mask, out;
  {
    NoGradGuard ng;
    mask = triangle_mask(t.size(-2), t.size(-1), k, lower, t.device());
    out = where(mask, t, scalar_tensor(Scalar::from_int(0), t.dtype(), t.device()));
  }
  if (any_requires_grad({&t})) record(out, lower ? "TrilBackward0" : "TriuBackward0", {t}, TriangleBackward{mask});
  return out;
}

}  // namespace

// The k-th diagonal of a matrix as a strided view (no autograd).
Tensor diagonal_view(const Tensor& m, int64_t k) {
  const int64_t r = m.size(0), c = m.size(1);
  const int64_t len = std::max<int64_t>(0, k >= 0 ? std::min(r, c - k) : std::min(r + k, c));
  const int64_t off = m.offset() + (len == 0 ? 0 : (k >= 0 ? k * m.stride(1) : -k * m.stride(0)));
  return make_view(m, {len}, {m.stride(0) + m.stride(1)}, off);
}

namespace {

// A square matrix with v on its k-th diagonal (no autograd).
Tensor diag_embed(const Tensor& v, int64_t k) {
  // |k| in unsigned arithmetic: -k of INT64_MIN does not exist in int64_t.
  const uint64_t ak = k < 0 ? uint64_t(0) - uint64_t(k) : uint64_t(k);
  GL_CHECK(ak <= uint64_t(INT64_MAX) - uint64_t(v.size(0)), "diag(): the diagonal offset ", k,
           " makes a matrix too large to exist");
  const int64_t n = v.size(0) + int64_t(ak);
  Tensor out = zeros({n, n}, {v.dtype(), v.device()});
  Tensor d = diagonal_view(out, k);
  copy_(d, v);
  return out;
}

}  // namespace

Tensor tril(const Tensor& t, int64_t diagonal) { return triangle(t, diagonal, true); }
Tensor triu(const Tensor& t, int64_t diagonal) { return triangle(t, diagonal, false); }

Tensor diag(const Tensor& t, int64_t k) {
  GL_CHECK(t.dim() == 1 || t.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ", t.dim(), "D");
  Tensor out;
  {
    NoGradGuard ng;
    out = t.dim() == 1 ? diag_embed(t, k) : clone(diagonal_view(t, k));
  }
  if (any_requires_grad({&t})) {
    if (t.dim() == 1) record(out, {t}, DiagEmbedBackward0{k});
    else record(out, {t}, DiagonalBackward0_copy{t.sizes(), k});
  }
  return out;
}

Tensor trace(const Tensor& t) {
  if (autocast::Scope ac{autocast::Op::trace, {&t}}) return trace(ac(t));  // Note [Autocast]
  GL_CHECK(t.dim() == 2, "trace: expected a matrix, but got tensor with dim ", t.dim());
  if (t.dtype() == DType::Bool) throw NotImplementedError("\"trace\" not implemented for 'Bool'");
  Tensor out;
  {
    NoGradGuard ng;
    out = sum(diagonal_view(t, 0), {}, false);
  }
  if (any_requires_grad({&t})) { record(out, {t}, TraceBackward0{t.sizes()}); }
  return out;
}

Tensor outer(const Tensor& a, const Tensor& b) {
  GL_CHECK(a.dim() == 1, "outer: Expected 1-D argument self, but got ", a.dim(), "-D");
  GL_CHECK(b.dim() == 1, "outer: Expected 1-D argument vec2, but got ", b.dim(), "-D");
  return mul(reshape(a, {a.size(0), 1}), b);  // PyTorch's own composition: MulBackward0
}

Tensor mv(const Tensor& m, const Tensor& v) {
  if (autocast::Scope ac{autocast::Op::mv, {&m, &v}}) return mv(ac(m), ac(v));  // Note [Autocast]
  GL_CHECK(m.dim() == 2 && v.dim() == 1, "vector + matrix @ vector expected, got 1, ", m.dim(), ", ", v.dim());
  GL_CHECK(m.size(1) == v.size(0), "size mismatch, got input (", m.size(0), "), mat (", m.size(0), "x", m.size(1),
           "), vec (", v.size(0), ")");
  GL_CHECK(m.dtype() == v.dtype(), "addmv input tensors must have the same dtype, but got ",
           dtype_legacy_name(v.dtype()), ", ", dtype_legacy_name(m.dtype()), ", and ", dtype_legacy_name(v.dtype()));
  Tensor out;
  {
    NoGradGuard ng;
    out = matmul(m, v);
  }
  if (any_requires_grad({&m, &v})) { record(out, {m, v}, MvBackward0{detach(m), detach(v)}); }
  return out;
}

Tensor repeat_interleave(const Tensor& x, int64_t r, std::optional<int64_t> dim) {
  GL_CHECK(r >= 0, "Repeats must be non-negative");
  Tensor in = dim ? x : reshape(x, {-1});
  const int64_t d = dim ? wrap_dim(*dim, std::max<int64_t>(x.dim(), 1)) : 0;
  if (in.dim() == 0) in = reshape(in, {1});
  // Each entry along d repeated r times: a new axis after d, expanded, merged.
  Shape big = in.sizes();
  big.insert(big.begin() + d + 1, r);
  Shape merged = in.sizes();
  GL_CHECK(!__builtin_mul_overflow(merged[size_t(d)], r, &merged[size_t(d)]), "numel: integer multiplication overflow");
  Tensor out = reshape(expand(unsqueeze(in, d + 1), big), merged);
  rename_grad_fn(out, "ViewBackward0");  // PyTorch's last step is a view too
  return out;
}

Tensor repeat_interleave(const Tensor& repeats) {
  GL_CHECK(repeats.dim() <= 1, "repeat_interleave only accept 1D vector as repeat");
  GL_CHECK(repeats.dtype() == DType::Int64 || repeats.dtype() == DType::Int32, "repeats has to be Long or Int tensor");
  Tensor rep = to(reshape(repeats, {-1}), Device(Device::CPU), DType::Int64);
  int64_t total = 0;
  for (int64_t i = 0; i < rep.numel(); ++i) {
    const int64_t n = rep.data<int64_t>()[i];
    GL_CHECK(n >= 0, "repeats can not be negative");
    GL_CHECK(!__builtin_add_overflow(total, n, &total), "repeat_interleave: the total of repeats overflows int64");
  }
  check_new_shape({total}, DType::Int64);  // the allocator's limits before the host copy
  std::vector<int64_t> idx;
  idx.reserve(size_t(total));
  for (int64_t i = 0; i < rep.numel(); ++i) idx.insert(idx.end(), size_t(rep.data<int64_t>()[i]), i);
  return from_host(idx.data(), {int64_t(idx.size())}, DType::Int64, {DType::Int64, repeats.device()});
}

Tensor repeat_interleave(const Tensor& x, const Tensor& repeats, std::optional<int64_t> dim) {
  if (repeats.numel() == 1 && repeats.dim() <= 1) return repeat_interleave(x, item(repeats).to_int(), dim);
  Tensor in = dim ? x : reshape(x, {-1});
  const int64_t d = dim ? wrap_dim(*dim, std::max<int64_t>(x.dim(), 1)) : 0;
  GL_CHECK(repeats.dim() == 1 && repeats.size(0) == in.size(d),
           "repeats must have the same size as input along dim, but got repeats.size(0) = ", repeats.numel(),
           " and input.size(", d, ") = ", in.size(d));
  common_device({&x, &repeats});
  return index_select(in, d, repeat_interleave(repeats));
}

// PyTorch's logspace kernel, step by step (every value of a float32/float64
// sweep equal): start and end in the result's type, the step in double from
// their difference in that type, each half counted from its own end, and
// std::pow in double; no fused multiply-add here (unlike linspace).
Tensor logspace(double start, double end, int64_t steps, double base, const TensorOptions& o) {
  GL_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor host = empty_on({steps}, DType::Float64, Device(Device::CPU));  // the size checked before any work
  auto in_dtype = [&](double x) {
    if (o.dtype == DType::Float64) return x;
    return item(to_dtype(full({}, Scalar::from_double(x), {DType::Float64, Device(Device::CPU)}), o.dtype)).to_double();
  };
  double* v = host.data<double>();
  if (steps == 1) v[0] = std::pow(base, start);
  if (steps > 1) {
    const double s = in_dtype(start), e = in_dtype(end), step = in_dtype(e - s) / double(steps - 1);
    const int64_t half = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      const volatile double mul = step * double(i < half ? i : steps - i - 1);  // volatile: no contraction
      v[i] = std::pow(base, i < half ? s + mul : e - mul);
    }
  }
  Tensor out = to(host, resolve_device(o.device), o.dtype, true);
  if (o.requires_grad) requires_grad_at_creation(out);
  return out;
}

std::vector<Tensor> meshgrid(const std::vector<Tensor>& ts, const std::string& indexing) {
  GL_CHECK(indexing == "ij" || indexing == "xy",
           "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
  GL_CHECK(!ts.empty(), "meshgrid expects a non-empty TensorList");
  Shape shape;
  for (const auto& t : ts) {
    GL_CHECK(t.dim() <= 1,
             "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ", shape_str(t.sizes()));
    GL_CHECK(t.dtype() == ts[0].dtype(), "meshgrid expects all tensors to have the same dtype");
    GL_CHECK(t.device() == ts[0].device(), "meshgrid expects all tensors to have the same device");
    shape.push_back(t.numel());
  }
  const bool xy = indexing == "xy" && ts.size() >= 2;
  if (xy) std::swap(shape[0], shape[1]);
  std::vector<Tensor> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    size_t at = i;
    if (xy && i < 2) at = 1 - i;
    Shape view(ts.size(), 1);
    view[at] = ts[i].numel();
    out.push_back(expand(reshape(ts[i], view), shape));
  }
  return out;
}

Tensor unflatten(const Tensor& t, int64_t dim, const Shape& sizes) {
  const int64_t d = wrap_dim(dim, t.dim());
  GL_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t prod = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) infer = int64_t(i);
    else prod *= sizes[i];
  }
  Shape s = sizes;
  if (infer >= 0 && prod != 0 && t.size(d) % prod == 0) s[size_t(infer)] = t.size(d) / prod;
  GL_CHECK(numel_of(s) == t.size(d) && std::count(s.begin(), s.end(), -1) == 0, "unflatten: Provided sizes ",
           shape_str(sizes), " don't multiply up to the size of dim ", d, " (", t.size(d), ") in the input tensor");
  Shape out(t.sizes().begin(), t.sizes().begin() + d);
  out.insert(out.end(), s.begin(), s.end());
  out.insert(out.end(), t.sizes().begin() + d + 1, t.sizes().end());
  return view(t, out);
}

namespace {
std::vector<int64_t> wrap_dims(const Tensor& t, const std::vector<int64_t>& dims) {
  std::vector<int64_t> w;
  for (int64_t d : dims) {
    const int64_t x = wrap_dim(d, std::max<int64_t>(t.dim(), 1));
    GL_CHECK(std::find(w.begin(), w.end(), x) == w.end(), "dim ", x, " appears multiple times in the list of dims");
    w.push_back(x);
  }
  return w;
}
}  // namespace

Tensor squeeze_dims(const Tensor& t, const std::vector<int64_t>& dims) {
  const std::vector<int64_t> w = wrap_dims(t, dims);
  Shape s;
  for (int64_t i = 0; i < t.dim(); ++i)
    if (!(t.size(i) == 1 && std::find(w.begin(), w.end(), i) != w.end())) s.push_back(t.size(i));
  Tensor out;
  {
    NoGradGuard ng;
    out = reshape(t, s);
  }
  if (any_requires_grad({&t})) { record(out, "SqueezeBackward2", {t}, SqueezeBackward{t.sizes()}); }
  return out;
}

namespace {
// amax/amin over several dims: the reduced dims moved last and merged into
// one, reduced there; the gradient shared evenly among the tied extremes.
Tensor extreme_dims(bool is_max, const Tensor& t, const std::vector<int64_t>& dims0, bool keepdim) {
  std::vector<int64_t> dims = wrap_dims(t, dims0);
  if (dims.empty())
    for (int64_t i = 0; i < t.dim(); ++i) dims.push_back(i);
  if (t.dim() == 0) dims.clear();
  std::sort(dims.begin(), dims.end());
  Shape perm, kept, keep_shape;
  for (int64_t i = 0; i < t.dim(); ++i) {
    const bool red = std::find(dims.begin(), dims.end(), i) != dims.end();
    if (!red) {
      perm.push_back(i);
      kept.push_back(t.size(i));
    }
    keep_shape.push_back(red ? 1 : t.size(i));
  }
  for (int64_t d : dims) perm.push_back(d);
  Tensor out;
  {
    NoGradGuard ng;
    if (dims.empty()) {
      out = clone(t);
    } else {
      Shape merged = kept;
      merged.push_back(-1);
      Tensor m = reshape(permute(t, perm), merged);
      const char* name = is_max ? "amax" : "amin";
      for (int64_t d : dims)
        if (t.size(d) == 0) throw IndexError(cat(name, "(): Expected reduction dim ", d, " to have non-zero size."));
      out = is_max ? amax(m, -1, false) : amin(m, -1, false);
      if (keepdim) out = reshape(out, keep_shape);
    }
  }
  if (any_requires_grad({&t})) {
    record(out, is_max ? "AmaxBackward0" : "AminBackward0", {t}, AmaxAminBackward{t, detach(out), keep_shape});
  }
  return out;
}
}  // namespace

Tensor amax_dims(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim) {
  return extreme_dims(true, t, dims, keepdim);
}
Tensor amin_dims(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim) {
  return extreme_dims(false, t, dims, keepdim);
}

}  // namespace gl
