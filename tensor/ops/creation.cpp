// Creation ops: empty/zeros/ones/full, ranges, eye, and
// tensors from host data.
#include <cmath>
#include <cstring>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

void requires_grad_at_creation(Tensor& t) {
  // PyTorch words this check differently from requires_grad_()'s.
  GL_CHECK(is_floating(t.dtype()), "Only Tensors of floating point and complex dtype can require gradients");
  t.set_requires_grad(true);
}

// Note [Valid bools]: a C++ bool must hold 0 or 1, and kernels read bool
// tensors as bool (another byte is undefined behaviour, which UBSan reports).
// So a bool tensor made from bytes is normalised (nonzero -> true, as Python
// reads it), and torch.empty's bool tensors start false where PyTorch's hold
// whatever the memory held.
Tensor empty(const Shape& size, const TensorOptions& o) {
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  if (o.dtype == DType::Bool) fill_(t, Scalar::from_int(0));
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

Tensor full(const Shape& size, Scalar value, const TensorOptions& o) {
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  fill_(t, value);
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

Tensor zeros(const Shape& size, const TensorOptions& o) { return full(size, Scalar::from_int(0), o); }
Tensor ones(const Shape& size, const TensorOptions& o) { return full(size, Scalar::from_int(1), o); }

Tensor from_host(const void* data, const Shape& size, DType dtype, const TensorOptions& o) {
  Device dev = resolve_device(o.device);
  Tensor t = empty_on(size, dtype, dev);
  std::vector<unsigned char> bools;  // Note [Valid bools]
  if (dtype == DType::Bool) {
    const auto* b = static_cast<const unsigned char*>(data);
    bools.assign(b, b + t.numel());
    for (auto& v : bools) v = v != 0;
    data = bools.data();
  }
  copy_bytes(t.data_ptr(), dev, data, Device(Device::CPU), size_t(t.numel()) * itemsize(dtype));
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

Tensor scalar_tensor(Scalar v, DType dtype, Device d) {
  Tensor t = empty_on({}, dtype, d);
  fill_(t, v);
  return t;
}

Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<DType> dtype, const TensorOptions& o) {
  const bool any_float = start.kind == Scalar::Float || end.kind == Scalar::Float || step.kind == Scalar::Float;
  DType dt = dtype ? *dtype : (any_float ? default_dtype() : DType::Int64);
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  GL_CHECK(st != 0, "step must be nonzero");
  GL_CHECK(std::isfinite(s) && std::isfinite(e), "unsupported range: ", s, " -> ", e);
  GL_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), "upper bound and lower bound inconsistent with step sign");
  // The count in a type that cannot overflow (huge bounds are refused below).
  const double nd = any_float ? std::ceil((e - s) / st)
                              : double((__int128(end.i) - start.i + step.i + (step.i > 0 ? -1 : 1)) / step.i);
  GL_CHECK(nd < double(int64_t(1) << 40), "arange: too many elements (", nd, ")");
  const int64_t n = nd > 0 ? int64_t(nd) : 0;
  // Values are computed in double on the host (int64 ones exactly), then
  // stored in the dtype; the tensor is made first, so a count too large for
  // memory fails as an allocation does (as in linspace).
  Tensor host;
  if (!any_float && dt == DType::Int64) {
    host = empty_on({n}, DType::Int64, Device(Device::CPU));
    int64_t* iv = host.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) iv[i] = start.i + i * step.i;
  } else {
    host = empty_on({n}, DType::Float64, Device(Device::CPU));
    double* vals = host.data<double>();
    for (int64_t i = 0; i < n; ++i) vals[i] = any_float ? s + double(i) * st : double(start.i + i * step.i);
  }
  Tensor out = to(host, resolve_device(o.device), dt);
  if (out.is_same(host)) out = clone(host);
  if (o.requires_grad) requires_grad_at_creation(out);
  return out;
}

Tensor linspace(double start, double end, int64_t steps, const TensorOptions& o) {
  GL_CHECK(steps >= 0, "number of steps must be non-negative");
  // The tensor first: its size is checked, and an allocation too large fails
  // as one (a std::vector of `steps` doubles failed as a length_error, or
  // aborted under AddressSanitizer: the fuzzer's torch.logspace(a, b, torch.seed())).
  // PyTorch fills the first half from the start and the second from the end,
  // in the result's float type with fused multiply-adds (its CPU kernel as
  // compiled for AVX2/AVX-512): linspace(-1, 1, 7)'s middle value is
  // -2.9802e-08 there, not 0. (Its vector path, for 32 floats or 16 doubles
  // and more, groups the values otherwise: they may differ in the last bit.)
  const DType dt = o.dtype;
  const int64_t half = steps / 2;
  auto fill = [&](auto zero) {
    using T = decltype(zero);
    Tensor host = empty_on({steps}, dt == DType::Float32 ? DType::Float32 : DType::Float64, Device(Device::CPU));
    T* vals = host.data<T>();
    const T a = T(start), b = T(end), step = steps > 1 ? (b - a) / T(steps - 1) : T(0);
    for (int64_t i = 0; i < steps; ++i)
      vals[i] = i < half ? std::fma(step, T(i), a) : std::fma(-step, T(steps - i - 1), b);
    if (steps == 1) vals[0] = a;  // one step is the start, as in PyTorch
    return to(host, resolve_device(o.device), o.dtype, true);
  };
  return dt == DType::Float32 ? fill(0.0f) : fill(0.0);
}

Tensor eye(int64_t n, int64_t m, const TensorOptions& o) {
  GL_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  GL_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  Tensor t = zeros({n, m}, o);
  const int64_t k = std::min(n, m);
  if (k > 0) {
    Tensor diag = make_view(t, {k}, {m + 1}, t.offset());
    fill_(diag, Scalar::from_int(1));
  }
  return t;
}

}  // namespace gl
