// index_add, take and nonzero, on the gather/scatter kernel as index_ops.cpp's
// ops are (the shared pieces: index_run.h).
#include <algorithm>
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/index_run.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

using namespace index_run;

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
    record(out, {self, source}, IndexAddBackward0{dim, index, source.sizes(), alpha});
  }
  return out;
}

void index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha) {
  Mutation written(self);  // Note [Version counter]
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
  if (wants_grad({&self})) { record(out, {self}, TakeBackward0{self.sizes(), idx}); }
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
