// Index ops on the gather/scatter kernel (kernels/index_spec.h). Each op
// checks its arguments with PyTorch's wording, checks and wraps the index
// values (one min/max read; the offending value is looked up only on error),
// describes its loop as an IndexSpec and records its autograd node:
//   gather     <-> scatter_add (GatherBackward0)
//   scatter    : grad.scatter(index, 0) and grad.gather(index) (ScatterBackward0/1)
//   index_add  : grad and grad.index_select(index) * alpha (IndexAddBackward0)
//   take, x[i, j] (index): a zero tensor accumulating grad at the indices.
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/saved.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/index_run.h"

#include <algorithm>
#include <utility>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

using namespace index_run;

namespace {

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
  if (wants_grad({&self})) { record(out, {self}, GatherBackward0{self.sizes(), dim, idx}); }
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
// scatter with reduce= has no derivative in PyTorch: a NotImplemented node
// that fails only when backward reaches it.
void record_no_derivative(Tensor& out, std::vector<Tensor> inputs) { record(out, inputs, NotImplemented{}); }
}  // namespace

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src, const std::string& reduce) {
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const IndexOp op = reduce_op(reduce, IndexOp::Scatter);
  if (op != IndexOp::Scatter) {
    static bool warned = false;  // PyTorch's TORCH_WARN_ONCE: once a process
    if (!std::exchange(warned, true))
      warn(
          "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
          "PyTorch release. Use torch.scatter_reduce instead for more reduction options.");
  }
  Tensor out = scattered_copy(self, dim, index, src, op);
  if (wants_grad({&self, &src}) && op != IndexOp::Scatter) {
    record_no_derivative(out, {self, src});
  } else if (wants_grad({&self, &src})) {
    record(out, {self, src}, ScatterBackward0{dim, index, src.sizes()});
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
  if (wants_grad({&self}) && op != IndexOp::Scatter) {
    record_no_derivative(out, {self});
  } else if (wants_grad({&self})) {
    record(out, {self}, ScatterBackward1{dim, index});
  }
  return out;
}

void scatter_(Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src, const std::string& reduce) {
  Mutation written(self);  // Note [Version counter]
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
  Mutation written(self);  // Note [Version counter]
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
  if (autocast::Scope ac{autocast::Op::scatter_add, {&self, &src}})
    return scatter_add(ac(self), dim, index_in, ac(src));  // Note [Autocast]
  const Tensor index = as_long_index(index_in);
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  Tensor out = scattered_copy(self, dim, index, src, IndexOp::ScatterAdd);
  if (wants_grad({&self, &src})) { record(out, {self, src}, ScatterAddBackward0{dim, index}); }
  return out;
}

void scatter_add_(Tensor& self, int64_t dim, const Tensor& index_in, const Tensor& src) {
  Mutation written(self);  // Note [Version counter]
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

}  // namespace gl
