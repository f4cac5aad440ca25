// The index ops' shared pieces (index_run.h).
#include "tensor/ops/index_run.h"
#include "tensor/core/error.h"
#include "tensor/ops/promote.h"

namespace gl::index_run {

Tensor as_long_index(const Tensor& t) { return t.dtype() == DType::Int32 ? to_dtype(t, DType::Int64) : t; }

Tensor long_cpu(const Tensor& t) { return to(t, Device(Device::CPU), DType::Int64); }

namespace {
void fill_arg(ArgSpec& a, const Tensor& t, const Shape& strides) {
  a.data = t.data_ptr();
  a.dtype = t.dtype();
  for (size_t d = 0; d < strides.size(); ++d) a.strides[d] = strides[d];
}
}  // namespace

void run(IndexOp op, const Tensor& self, const Shape& self_strides, int64_t self_step, const Tensor& index,
         const Shape& index_strides, const Tensor* other, const Shape& other_strides, const Shape& shape,
         const Scalar* value, double alpha, const char* name) {
  IndexSpec s;
  s.op = op;
  s.ndim = int(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) s.shape[d] = shape[d];
  s.numel = numel_of(shape);
  if (s.numel == 0) return;
  fill_arg(s.self, self, self_strides);
  s.self_step = self_step;
  fill_arg(s.index, index, index_strides);
  if (other) {
    fill_arg(s.other, *other, other_strides);
  } else {
    s.other_is_scalar = true;
    s.value_f = value->to_double();
    s.value_i = value->to_int();
  }
  s.alpha = alpha;
  const DeviceSlot& sl = slot_of(self);
  trace::op(name ? name : op == IndexOp::Gather ? "gather" : "scatter", self.device());
  sl.kernels->index(sl.exec, s);
}

Shape with_zero(Shape strides, int64_t dim) {
  strides[size_t(dim)] = 0;
  return strides;
}

Tensor bounded(const Tensor& index, int64_t dim, int64_t n) {
  return checked(index, 0, n, n, [&](int64_t v) {
    throw RuntimeError(cat("index ", v, " is out of bounds for dimension ", dim, " with size ", n));
  });
}

void scatter_into(Tensor& out, int64_t dim, const Tensor& index, const Tensor* src, const Scalar* value, IndexOp op) {
  const Tensor& idx = bounded(index, dim, out.dim() ? out.size(dim) : 1);
  const Shape& shape = index.sizes();
  const Shape ss = out.dim() ? with_zero(out.strides(), dim) : Shape{};
  const int64_t step = out.dim() ? out.stride(dim) : 1;
  run(op, out, ss, step, idx, idx.strides(), src, src ? src->strides() : Shape{}, shape, value);
}

bool wants_grad(std::initializer_list<const Tensor*> ts) { return GradMode::enabled() && any_requires_grad(ts); }

}  // namespace gl::index_run
