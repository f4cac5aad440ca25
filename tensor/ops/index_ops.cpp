// Index ops on the gather/scatter kernel (kernels/index_spec.h). Each op
// checks its arguments with PyTorch's wording, checks and wraps the index
// values (one min/max read; the offending value is looked up only on error),
// describes its loop as an IndexSpec and records its autograd node:
//   gather     <-> scatter_add (GatherBackward0)
//   scatter    : grad.scatter(index, 0) and grad.gather(index) (ScatterBackward0/1)
//   index_add  : grad and grad.index_select(index) * alpha (IndexAddBackward0)
//   take, x[i, j] (index): a zero tensor accumulating grad at the indices.
#include "tensor/ops/index_ops.h"

#include <algorithm>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

// int32 indices are taken as int64; other dtypes are left for the op's own check.
Tensor as_long_index(const Tensor& t) { return t.dtype() == DType::Int32 ? to_dtype(t, DType::Int64) : t; }

Tensor long_cpu(const Tensor& t) { return to(t, Device(Device::CPU), DType::Int64); }

// Throws `bad(v)` for the first index (in order) outside [lo, hi); returns
// the index with negatives wrapped by n when lo < 0.
template <class Bad> Tensor checked(const Tensor& idx, int64_t lo, int64_t hi, int64_t n, Bad bad) {
  if (idx.numel() == 0) return idx;
  NoGradGuard ng;
  // gpulab's own wait (PyTorch asserts on the device): named apart from the
  // learner's item()/tolist()/print in the trace the checkers read.
  trace::SyncReason why("bounds check");
  const int64_t mn = item(min_all(idx)).to_int(), mx = item(max_all(idx)).to_int();
  if (mn < lo || mx >= hi) {
    Tensor h = long_cpu(contiguous(idx));
    const int64_t* p = h.data<int64_t>();
    for (int64_t i = 0; i < h.numel(); ++i)
      if (p[i] < lo || p[i] >= hi) bad(p[i]);
  }
  if (mn >= 0) return idx;
  return where(binary(BinaryOp::Lt, idx, Scalar::from_int(0)), binary(BinaryOp::Add, idx, Scalar::from_int(n)), idx);
}

void fill_arg(ArgSpec& a, const Tensor& t, const Shape& strides) {
  a.data = t.data_ptr();
  a.dtype = t.dtype();
  for (size_t d = 0; d < strides.size(); ++d) a.strides[d] = strides[d];
}

// Runs the kernel over `shape`: self indexed along one axis (self_strides 0
// there, self_step per index unit), index and other with their own strides.
void run(IndexOp op, const Tensor& self, const Shape& self_strides, int64_t self_step, const Tensor& index,
         const Shape& index_strides, const Tensor* other, const Shape& other_strides, const Shape& shape,
         const Scalar* value = nullptr, double alpha = 1) {
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
  trace::op(op == IndexOp::Gather ? "gather" : "scatter", self.device());
  sl.kernels->index(sl.exec, s);
}

Shape with_zero(Shape strides, int64_t dim) {
  strides[size_t(dim)] = 0;
  return strides;
}

bool wants_grad(std::initializer_list<const Tensor*> ts) { return GradMode::enabled() && any_requires_grad(ts); }

// ---- gather / scatter ----

void check_gather_like(const char* fn, const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  GL_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32, fn,
           "(): Expected dtype int32/int64 for index");
  GL_CHECK(std::max<int64_t>(index.dim(), 1) == std::max<int64_t>(self.dim(), 1),
           "Index tensor must have the same number of dimensions as ", src ? "self" : "input", " tensor");
  if (src)
    GL_CHECK(std::max<int64_t>(index.dim(), 1) == std::max<int64_t>(src->dim(), 1),
             "Index tensor must have the same number of dimensions as src tensor");
  for (int64_t d = 0; d < index.dim(); ++d) {
    const bool over_self = d != dim && index.size(d) > self.size(d);
    const bool over_src = src && index.size(d) > src->size(d);
    if (!src)
      GL_CHECK(!over_self, "Size does not match at dimension ", d, " expected index ", shape_str(index.sizes()),
               " to be no larger than self ", shape_str(self.sizes()), " apart from dimension ", dim);
    else
      GL_CHECK(!over_self && !over_src, "Expected index ", shape_str(index.sizes()), " to be no larger than self ",
               shape_str(self.sizes()), " apart from dimension ", dim, " and to be no larger size than src ",
               shape_str(src->sizes()));
  }
}

Tensor bounded(const Tensor& index, int64_t dim, int64_t n) {
  return checked(index, 0, n, n, [&](int64_t v) {
    throw RuntimeError(cat("index ", v, " is out of bounds for dimension ", dim, " with size ", n));
  });
}

// self (already the output) <- scatter; src null for the value form.
void scatter_into(Tensor& out, int64_t dim, const Tensor& index, const Tensor* src, const Scalar* value, IndexOp op) {
  const Tensor& idx = bounded(index, dim, out.dim() ? out.size(dim) : 1);
  const Shape& shape = index.sizes();
  const Shape ss = out.dim() ? with_zero(out.strides(), dim) : Shape{};
  const int64_t step = out.dim() ? out.stride(dim) : 1;
  run(op, out, ss, step, idx, idx.strides(), src, src ? src->strides() : Shape{}, shape, value);
}

IndexOp reduce_op(const std::string& reduce, IndexOp plain) {
  if (reduce.empty()) return plain;
  if (reduce == "add") return IndexOp::ScatterAdd;
  if (reduce == "multiply") return IndexOp::ScatterMul;
  throw RuntimeError("reduce argument must be either add or multiply.");
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index_in) {
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  check_gather_like("gather", self, dim, index, nullptr);
  common_device({&self, &index});
  Tensor idx = bounded(index, dim, self.dim() ? self.size(dim) : 1);
  Tensor out = empty_on(index.sizes(), self.dtype(), self.device());
  const Shape ss = self.dim() ? with_zero(self.strides(), dim) : Shape{};
  run(IndexOp::Gather, self, ss, self.dim() ? self.stride(dim) : 1, idx, idx.strides(), &out, out.strides(),
      index.sizes());
  if (wants_grad({&self})) {
    Shape shape = self.sizes();
    record(out, "GatherBackward0", {self}, [shape, dim, idx](const Tensor& g) -> std::vector<Tensor> {
      Tensor z = zeros(shape, {g.dtype(), g.device()});
      scatter_add_(z, dim, idx, g);
      return {z};
    });
  }
  return out;
}

namespace {
// A copy of self with src scattered in by op, recording nothing: the checks
// and the kernel call scatter and scatter_add share.
Tensor scattered_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, IndexOp op) {
  GL_CHECK(self.dtype() == src.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
  check_gather_like("scatter", self, dim, index, &src);
  common_device({&self, &index, &src});
  NoGradGuard ng;
  Tensor out = clone(self);
  scatter_into(out, dim, index, &src, nullptr, op);
  return out;
}
}  // namespace

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src, const std::string& reduce) {
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const IndexOp op = reduce_op(reduce, IndexOp::Scatter);
  Tensor out = scattered_copy(self, dim, index, src, op);
  if (wants_grad({&self, &src})) {
    GL_CHECK_T(NotImplementedError, op == IndexOp::Scatter,
               "the derivative for 'scatter' with reduce= is not implemented (use scatter_reduce)");
    Tensor idx = index;
    Shape src_shape = src.sizes();
    record(out, "ScatterBackward0", {self, src}, [dim, idx, src_shape](const Tensor& g) -> std::vector<Tensor> {
      Tensor gs = scatter(g, dim, idx, Scalar::from_int(0));
      Tensor gsrc = gather(g, dim, idx);
      if (gsrc.sizes() != src_shape) {  // src larger than the index: the rest gets no gradient
        Tensor full = zeros(src_shape, {g.dtype(), g.device()});
        Tensor part = full;
        for (int64_t d = 0; d < gsrc.dim(); ++d) part = narrow(part, d, 0, gsrc.size(d));
        copy_(part, gsrc);
        gsrc = full;
      }
      return {gs, gsrc};
    });
  }
  return out;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index_in, Scalar value, const std::string& reduce) {
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const IndexOp op = reduce_op(reduce, IndexOp::Scatter);
  check_gather_like("scatter", self, dim, index, nullptr);
  common_device({&self, &index});
  Tensor out;
  {
    NoGradGuard ng;
    out = clone(self);
    scatter_into(out, dim, index, nullptr, &value, op);
  }
  if (wants_grad({&self})) {
    GL_CHECK_T(NotImplementedError, op == IndexOp::Scatter,
               "the derivative for 'scatter' with reduce= is not implemented (use scatter_reduce)");
    Tensor idx = index;
    record(out, "ScatterBackward1", {self},
           [dim, idx](const Tensor& g) -> std::vector<Tensor> { return {scatter(g, dim, idx, Scalar::from_int(0))}; });
  }
  return out;
}

namespace {
template <class F> void in_place(Tensor& self, std::initializer_list<const Tensor*> others, F direct,
                                 const std::function<Tensor(const Tensor&)>& f) {
  std::vector<const Tensor*> all{&self};
  for (auto* t : others) all.push_back(t);
  bool grad = GradMode::enabled();
  bool any = false;
  for (auto* t : all) any = any || t->requires_grad();
  if (grad && any) return inplace_with_grad(self, f);
  direct();
}
}  // namespace

void scatter_(Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src, const std::string& reduce) {
  const Tensor index = as_long_index(index_in);
  in_place(
      self, {&src},
      [&] {
        const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
        const IndexOp op = reduce_op(reduce, IndexOp::Scatter);
        GL_CHECK(self.dtype() == src.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
        check_gather_like("scatter", self, d, index, &src);
        common_device({&self, &index, &src});
        scatter_into(self, d, index, &src, nullptr, op);
      },
      [&](const Tensor& old) { return scatter(old, dim, index, src, reduce); });
}

void scatter_(Tensor& self, int64_t dim, const Tensor& index_in, Scalar value, const std::string& reduce) {
  const Tensor index = as_long_index(index_in);
  in_place(
      self, {},
      [&] {
        const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
        const IndexOp op = reduce_op(reduce, IndexOp::Scatter);
        check_gather_like("scatter", self, d, index, nullptr);
        common_device({&self, &index});
        scatter_into(self, d, index, nullptr, &value, op);
      },
      [&](const Tensor& old) { return scatter(old, dim, index, value, reduce); });
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src) {
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  Tensor out = scattered_copy(self, dim, index, src, IndexOp::ScatterAdd);
  if (wants_grad({&self, &src})) {
    Tensor idx = index;
    record(out, "ScatterAddBackward0", {self, src}, [dim, idx](const Tensor& g) -> std::vector<Tensor> {
      return {g, gather(g, dim, idx)};
    });
  }
  return out;
}

void scatter_add_(Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src) {
  const Tensor index = as_long_index(index_in);
  in_place(
      self, {&src},
      [&] {
        const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
        GL_CHECK(self.dtype() == src.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
        check_gather_like("scatter", self, d, index, &src);
        common_device({&self, &index, &src});
        scatter_into(self, d, index, &src, nullptr, IndexOp::ScatterAdd);
      },
      [&](const Tensor& old) { return scatter_add(old, dim, index, src); });
}

// ---- index_add ----

namespace {
void index_add_into(Tensor& out, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha) {
  GL_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32,
           "index_add_(): Expected dtype int32/int64 for index but got: ", dtype_legacy_name(index.dtype()));
  GL_CHECK_T(IndexError, index.dim() <= 1, "index_add_(): Index is supposed to be a vector, but got dim: ", index.dim(),
             " with type: ", dtype_legacy_name(index.dtype()), " and size: ", shape_str(index.sizes()));
  GL_CHECK(out.dtype() == source.dtype(), "index_add_(): self (", dtype_legacy_name(out.dtype()), ") and source (",
           dtype_legacy_name(source.dtype()), ") must have the same scalar type");
  common_device({&out, &index, &source});
  const int64_t n_src = source.dim() ? source.size(dim) : 1;
  GL_CHECK(index.numel() == n_src, "index_add_(): Number of indices (", index.numel(),
           ") should be equal to source.size(dim): (", n_src, "), for dim: ", dim);
  Shape src_shape = source.sizes();
  if (source.dim() == 0) src_shape = {1};
  GL_CHECK(int64_t(src_shape.size()) == std::max<int64_t>(out.dim(), 1),
           "index_add_(): Source/destination tensor must have same slice shapes");
  for (int64_t d = 0; d < out.dim(); ++d)
    GL_CHECK(
        d == dim || out.size(d) == src_shape[size_t(d)],
        "index_add_(): Source/destination tensor must have same slice shapes. Destination slice shape: ", out.size(d),
        " at dimension ", d, " and source slice shape: ", src_shape[size_t(d)], " at dimension ", d, ".");
  const int64_t n = out.dim() ? out.size(dim) : 1;
  Tensor idx = checked(to_dtype(reshape(index, {-1}), DType::Int64), 0, n, n,
                       [](int64_t) { throw IndexError("index out of range in self"); });
  Tensor src = reshape(source, src_shape);
  Shape is(src_shape.size(), 0);
  is[size_t(dim)] = idx.stride(0);
  const Shape ss = out.dim() ? with_zero(out.strides(), dim) : Shape{0};
  const double a = is_floating(out.dtype()) ? alpha.to_double() : double(alpha.to_int());
  run(IndexOp::ScatterAdd, out, ss, out.dim() ? out.stride(dim) : 1, idx, is, &src, src.strides(), src_shape, nullptr,
      a);
}
}  // namespace

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha) {
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  Tensor out;
  {
    NoGradGuard ng;
    out = clone(self);
    index_add_into(out, dim, index, source, alpha);
  }
  if (wants_grad({&self, &source})) {
    Tensor idx = index;
    Shape src_shape = source.sizes();
    record(out, "IndexAddBackward0", {self, source},
           [dim, idx, src_shape, alpha](const Tensor& g) -> std::vector<Tensor> {
             Tensor gs = g.dim() ? index_select(g, dim, idx) : reshape(g, {1});
             gs = binary(BinaryOp::Mul, gs, alpha);
             return {g, reshape(gs, src_shape)};
           });
  }
  return out;
}

void index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha) {
  in_place(
      self, {&source},
      [&] { index_add_into(self, wrap_dim(dim, std::max<int64_t>(self.dim(), 1)), index, source, alpha); },
      [&](const Tensor& old) { return index_add(old, dim, index, source, alpha); });
}

// ---- take ----

Tensor take(const Tensor& self, const Tensor& index) {
  GL_CHECK(index.dtype() == DType::Int64, "take(): Expected a long tensor for index, but got ",
           dtype_legacy_name(index.dtype()));
  common_device({&self, &index});
  const int64_t n = self.numel();
  Tensor idx = checked(index, -n, n, n, [n](int64_t v) {
    throw IndexError(cat("out of range: tried to access index ", v, " on a tensor of ", n, " elements."));
  });
  Tensor flat = contiguous(self);
  Tensor out = empty_on(index.sizes(), self.dtype(), self.device());
  run(IndexOp::Gather, flat, Shape(size_t(index.dim()), 0), 1, idx, idx.strides(), &out, out.strides(), index.sizes());
  if (wants_grad({&self})) {
    Shape shape = self.sizes();
    record(out, "TakeBackward0", {self}, [shape, idx](const Tensor& g) -> std::vector<Tensor> {
      Tensor z = zeros({numel_of(shape)}, {g.dtype(), g.device()});
      scatter_add_(z, 0, reshape(idx, {-1}), reshape(contiguous(g), {-1}));
      return {reshape(z, shape)};
    });
  }
  return out;
}

// ---- nonzero ----

Tensor nonzero(const Tensor& self) {
  NoGradGuard ng;
  const int64_t n = self.numel(), nd = self.dim();
  Tensor mask = reshape(contiguous(to_dtype(self, DType::Bool)), {n});
  Tensor pos = cumsum(mask, 0, DType::Int64);
  trace::SyncReason why("nonzero");  // PyTorch waits here too: the result's size
  const int64_t count = n ? item(narrow(pos, 0, n - 1, 1)).to_int() : 0;
  // Element p (true) goes to slot pos[p] - 1; the false ones all go to a spare slot at `count`.
  Tensor slot = where(mask, binary(BinaryOp::Sub, pos, Scalar::from_int(1)),
                      full({n}, Scalar::from_int(count), {DType::Int64, self.device()}));
  Tensor lin = empty_on({count + 1}, DType::Int64, self.device());
  Tensor ar = arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64,
                     {DType::Int64, self.device()});
  if (n) scatter_into(lin, 0, slot, &ar, nullptr, IndexOp::Scatter);
  lin = narrow(lin, 0, 0, count);
  std::vector<Tensor> cols;
  int64_t stride = 1;
  Shape strides(size_t(nd), 1);
  for (int64_t d = nd - 1; d >= 0; --d) strides[size_t(d)] = stride, stride *= self.size(d);
  for (int64_t d = 0; d < nd; ++d) {
    Tensor c = binary(BinaryOp::FloorDivide, lin, Scalar::from_int(strides[size_t(d)]));
    cols.push_back(unsqueeze(binary(BinaryOp::Remainder, c, Scalar::from_int(self.size(d))), 1));
  }
  if (cols.empty()) return empty_on({count, 0}, DType::Int64, self.device());
  return cols.size() == 1 ? contiguous(cols[0]) : cat(cols, int64_t(1));
}

std::vector<Tensor> nonzero_tuple(const Tensor& self) {
  if (self.dim() == 0) return {reshape(nonzero(reshape(self, {1})), {-1})};
  Tensor nz = nonzero(self);
  std::vector<Tensor> r;
  for (int64_t d = 0; d < self.dim(); ++d) r.push_back(contiguous(select(nz, 1, d)));
  return r;
}

}  // namespace gl
