// Copies and conversions: to(device, dtype), copy_, clone, contiguous,
// detach, fill_, and reading values back to the host.
#include <cfloat>
#include <cmath>
#include <cstring>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/registry.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {
// Same-device strided copy with cast; dst and src already share shape (src may broadcast).
void copy_same_device(Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  const DeviceSlot& sl = slot_of(dst);
  trace::op("copy", dst.device());
  sl.kernels->copy(sl.exec, make_loop(dst.sizes(), {&dst, &src}));
}
}  // namespace

void copy_(Tensor& dst, const Tensor& src0) {
  Tensor src = src0;
  if (src.sizes() != dst.sizes()) {
    Shape b = broadcast_shapes(dst.sizes(), src.sizes());
    GL_CHECK(b == dst.sizes(), "output with shape ", shape_str(dst.sizes()), " doesn't match the broadcast shape ",
             shape_str(b));
  }
  if (dst.numel() == 0) return;
  assert_no_internal_overlap(dst);
  assert_no_partial_overlap(dst, src);
  if (src.device() == dst.device()) return copy_same_device(dst, src);
  // Across devices: make the source dense in the destination's dtype on its own
  // device, move the bytes, then scatter into dst if it is not dense itself.
  if (src.sizes() != dst.sizes()) src = contiguous(expand(src, dst.sizes()));
  Tensor dense = contiguous(to_dtype(src, dst.dtype()));
  if (dst.is_contiguous()) {
    copy_bytes(dst.data_ptr(), dst.device(), dense.data_ptr(), dense.device(),
               size_t(dense.numel()) * itemsize(dst.dtype()));
    return;
  }
  Tensor staged = empty_on(dst.sizes(), dst.dtype(), dst.device());
  copy_bytes(staged.data_ptr(), staged.device(), dense.data_ptr(), dense.device(),
             size_t(dense.numel()) * itemsize(dst.dtype()));
  copy_same_device(dst, staged);
}

namespace {
// PyTorch refuses a scalar that does not fit the dtype (c10::checked_convert):
// integers must be in range (unsigned ones also take negatives down to -max,
// which wrap), NaN fits no integer, and a finite float32 must stay finite.
void check_fits(Scalar v, DType dt) {
  double lo = 0, hi = 0;  // the accepted range, hi exclusive
  const char* name = nullptr;
  switch (dt) {
    case DType::Int64:
      lo = -0x1p63;
      hi = 0x1p63;
      name = "int64_t";
      break;
    case DType::Int32:
      lo = -0x1p31;
      hi = 0x1p31;
      name = "int";
      break;
    case DType::Int16:
      lo = -0x1p15;
      hi = 0x1p15;
      name = "int16_t";
      break;
    case DType::Int8:
      lo = -0x1p7;
      hi = 0x1p7;
      name = "int8_t";
      break;
    case DType::UInt8:
      lo = -255;
      hi = 256;
      name = "uint8_t";
      break;
    case DType::Float32:
    case DType::Float16:
    case DType::BFloat16: {
      // Finite values beyond the type's largest are refused; inf and NaN pass.
      // (PyTorch skips this for one-element half tensors, a quirk not copied.)
      const double f = v.to_double();
      const double top = dt == DType::Float32 ? double(FLT_MAX) : dt == DType::Float16 ? 65504.0 : 0x1.fep127;
      const char* fname = dt == DType::Float32 ? "float" : dt == DType::Float16 ? "c10::Half" : "c10::BFloat16";
      GL_CHECK(!std::isfinite(f) || std::fabs(f) <= top, "value cannot be converted to type ", fname,
               " without overflow");
      return;
    }
    default: return;
  }
  bool ok;
  if (v.kind == Scalar::Float) ok = v.f >= lo && v.f < hi;  // false for NaN
  else ok = dt == DType::Int64 || (double(v.i) >= lo && double(v.i) < hi);
  GL_CHECK(ok, "value cannot be converted to type ", name, " without overflow");
}
}  // namespace

void fill_(Tensor& dst, Scalar v) {
  check_fits(v, dst.dtype());
  if (dst.numel() == 0) return;
  const DeviceSlot& sl = slot_of(dst);
  trace::op("fill", dst.device());
  sl.kernels->fill(sl.exec, make_loop(dst.sizes(), {&dst}), v);
}

Tensor to_dtype(const Tensor& t, DType d) {
  if (t.dtype() == d) return t;
  return to(t, std::nullopt, d);
}

Tensor to(const Tensor& self, std::optional<Device> device, std::optional<DType> dtype, bool force_copy) {
  Device dev = device ? resolve_device(*device) : self.device();
  DType dt = dtype ? *dtype : self.dtype();
  if (dev == self.device() && dt == self.dtype() && !force_copy) return self;  // Note [Tensor identity]
  Tensor out = empty_on(self.sizes(), dt, dev);
  {
    NoGradGuard ng;
    trace::SyncReason why("cpu");  // counted only when the host waits, i.e. dev is the CPU
    if (dev == self.device()) copy_same_device(out, self);
    else copy_(out, self);
  }
  if (any_requires_grad({&self}) && is_floating(dt)) {
    record(out, {self}, ToCopyBackward0{self.device(), self.dtype()});
  }
  return out;
}

Tensor clone(const Tensor& self) {
  Tensor out = empty_on(self.sizes(), self.dtype(), self.device());
  copy_same_device(out, self);
  if (any_requires_grad({&self})) record(out, {self}, CloneBackward0{});
  return out;
}

Tensor contiguous(const Tensor& self) { return self.is_contiguous() ? self : clone(self); }

bool is_pinned(const Tensor& self) {
  return self.device().is_cpu() && self.storage() && is_pinned_allocator(self.storage()->alloc);
}

Tensor pin_memory(const Tensor& self) {
  GL_CHECK(self.device().is_cpu(), "cannot pin '", legacy_type_str(self), "' only dense CPU tensors can be pinned");
  if (is_pinned(self)) return self;
  Tensor out = empty_from(self.sizes(), self.dtype(), self.device(), pinned_allocator());
  {
    NoGradGuard ng;
    copy_same_device(out, self);
  }
  if (any_requires_grad({&self}))  // PyTorch: _pin_memory's node
    record(out, {self}, PinMemoryBackward0{});
  return out;
}

Tensor detach(const Tensor& self) { return make_view(self, self.sizes(), self.strides(), self.offset()); }

Tensor variable_data(const Tensor& self) {
  Tensor d = detach(self);
  d.impl->version_untracked = true;
  return d;
}

std::vector<char> to_host_bytes(const Tensor& t0) {
  Tensor t = contiguous(t0);
  std::vector<char> out(size_t(t.numel()) * itemsize(t.dtype()));
  if (!out.empty()) copy_bytes(out.data(), Device(Device::CPU), t.data_ptr(), t.device(), out.size());
  return out;
}

Scalar item(const Tensor& t) {
  GL_CHECK(t.numel() == 1, "a Tensor with ", t.numel(), " elements cannot be converted to Scalar");
  trace::SyncReason why("item");
  char buf[8] = {};
  copy_bytes(buf, Device(Device::CPU), t.data_ptr(), t.device(), itemsize(t.dtype()));
  return dispatch_dtype(t.dtype(), [&](auto v) -> Scalar {
    using T = decltype(v);
    T x;
    std::memcpy(&x, buf, sizeof(T));
    if constexpr (std::is_same_v<T, bool>) return Scalar::from_bool(x);
    else if constexpr (std::is_integral_v<T>) return Scalar::from_int(int64_t(x));
    else return Scalar::from_double(double(x));
  });
}

}  // namespace gl
