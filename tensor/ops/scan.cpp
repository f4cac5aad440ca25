// Scans along a dim: cumsum and cumprod, with PyTorch's dtype rules (integer
// and bool inputs give int64; dtype= casts the input first) and gradients.
#include <algorithm>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

// The scan itself, no autograd: a new contiguous tensor of in's dtype.
Tensor scan_raw(ScanOp op, const Tensor& in, int64_t d, bool reverse) {
  Tensor out = empty_on(in.sizes(), in.dtype(), in.device());
  if (in.numel() == 0) return out;
  ScanSpec s;
  s.op = op;
  s.reverse = reverse;
  s.out.data = out.data_ptr();
  s.out.dtype = in.dtype();
  s.in.data = in.data_ptr();
  s.in.dtype = in.dtype();
  s.len = 1;  // a 0-d tensor is one line of one element
  s.lines = 1;
  GL_CHECK(in.dim() <= kMaxDims, "gpulab supports tensors of at most ", kMaxDims, " dimensions, but got ", in.dim());
  for (int64_t i = 0; i < in.dim(); ++i) {
    const int64_t size = in.sizes()[size_t(i)];
    if (i == d) {
      s.len = size;
      s.out_step = out.strides()[size_t(i)];
      s.in_step = in.strides()[size_t(i)];
      continue;
    }
    if (size == 1) continue;
    s.line_shape[s.line_ndim] = size;
    s.out.strides[s.line_ndim] = out.strides()[size_t(i)];
    s.in.strides[s.line_ndim++] = in.strides()[size_t(i)];
    s.lines *= size;
  }
  const DeviceSlot& sl = slot_of(in);
  trace::op(s.op == ScanOp::Sum ? "cumsum" : "cumprod", in.device());
  sl.kernels->scan(sl.exec, s);
  return out;
}

// cumsum of t in its own dtype from the end: the gradient of a cumsum
// (PyTorch's reversed_cumsum, without two flips). Backward runs without
// recording, so this records nothing.
}  // namespace
Tensor reversed_cumsum(const Tensor& t, int64_t d) { return scan_raw(ScanOp::Sum, t, d, true); }
namespace {

DType scan_dtype(const Tensor& t, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_floating(t.dtype()) ? t.dtype() : DType::Int64;
}

// PyTorch's cumprod_backward: sum over j >= k of g_j * prod_{i <= j, i != k} x_i.
// Without zeros that is reversed_cumsum(out * g) / x, as PyTorch computes it.
// With zeros, per line: before the first zero z1 the same formula on the
// terms before z1; at z1, prod_{i < z1} x_i * sum_{z1 <= j < z2} g_j *
// prod_{z1 < i <= j} x_i (z2 the second zero); after z1, zero.
}  // namespace
Tensor cumprod_backward(const Tensor& g, const Tensor& x, const Tensor& out, int64_t d) {
  if (x.numel() <= 1 || x.dim() == 0 || x.size(d) == 1) return g;
  const Tensor w = mul(out, g);
  const Tensor is_zero = binary(BinaryOp::Eq, x, Scalar::from_int(0));
  if (item(any(is_zero, std::nullopt, false)).to_double() == 0) return div(reversed_cumsum(w, d), x);
  const Tensor zero = scalar_tensor(Scalar::from_double(0), x.dtype(), x.device());
  const Tensor one = scalar_tensor(Scalar::from_double(1), x.dtype(), x.device());
  Tensor cz;
  {
    NoGradGuard ng;
    cz = scan_raw(ScanOp::Sum, to_dtype(is_zero, DType::Int64), d, false);
  }
  const Tensor before = binary(BinaryOp::Eq, cz, Scalar::from_int(0));
  const Tensor second = binary(BinaryOp::Eq, cz, Scalar::from_int(1));  // [z1, z2)
  const Tensor first_zero = binary(BinaryOp::LogicalAnd, second, is_zero);
  const Tensor between = binary(BinaryOp::LogicalAnd, second, unary(UnaryOp::LogicalNot, is_zero));
  const Tensor g_before = div(reversed_cumsum(where(before, w, zero), d), x);
  const Tensor prefix = cumprod(where(before, x, one), d, std::nullopt);  // at z1: prod_{i < z1} x_i
  const Tensor run = cumprod(where(between, x, one), d, std::nullopt);    // at j: prod_{z1 < i <= j} x_i
  const Tensor at_z1 = mul(sum(mul(run, where(second, g, zero)), {d}, true), prefix);
  return where(before, g_before, where(first_zero, at_z1, zero));
}

Tensor cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  if (autocast::Scope ac{autocast::Op::cumsum, {&t}}) return cumsum(dtype ? t : ac(t), dim, dtype);  // Note [Autocast]
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  Tensor in;
  {
    NoGradGuard ng;
    in = to_dtype(t, scan_dtype(t, dtype));
  }
  Tensor out = scan_raw(ScanOp::Sum, in, d, false);
  if (any_requires_grad({&t})) { record(out, {t}, CumsumBackward0{d, t.dtype()}); }
  return out;
}

Tensor cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  if (autocast::Scope ac{autocast::Op::cumprod, {&t}})
    return cumprod(dtype ? t : ac(t), dim, dtype);  // Note [Autocast]
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  Tensor out;
  {
    NoGradGuard ng;
    out = scan_raw(ScanOp::Prod, to_dtype(t, scan_dtype(t, dtype)), d, false);
  }
  if (any_requires_grad({&t})) { record(out, {t}, CumprodBackward0{t, detach(out), d, t.dtype()}); }
  return out;
}

}  // namespace gl
