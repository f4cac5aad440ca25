// torch.unique(input, dim=d): the distinct slices along d, in lexicographic
// order, with the inverse and the counts. Built from ops that exist on every
// device: the slices as rows, ordered by one stable sort per column from the
// last to the first (an LSD radix sort over columns), then runs of equal rows.
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/sort_ops.h"

namespace gl {

UniqueResult unique_dim(const Tensor& t, int64_t dim, bool return_inverse, bool return_counts) {
  GL_CHECK_T(IndexError, t.dim() > 0, "Dimension specified as ", dim, " but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, t.dim());
  int64_t zero_dims = 0;
  for (int64_t i = 0; i < t.dim(); ++i) zero_dims += t.size(i) == 0;
  GL_CHECK(zero_dims <= 1, "Number of zero sized dimensions is more than one, so unique cannot be applied ");
  GL_CHECK(zero_dims == 0 || t.size(d) == 0,
           "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  const Device dev = t.device();
  const int64_t n = t.size(d);
  UniqueResult r;
  {
    NoGradGuard ng;
    if (n == 0) {
      r.values = empty_on(t.sizes(), t.dtype(), dev);
      r.inverse = empty_on({0}, DType::Int64, dev);
      r.counts = empty_on({0}, DType::Int64, dev);
    } else {
      Shape order_dims{d};
      for (int64_t i = 0; i < t.dim(); ++i)
        if (i != d) order_dims.push_back(i);
      const Tensor rows = reshape(contiguous(permute(t, order_dims)), {n, -1});
      const TensorOptions lo{DType::Int64, dev};
      Tensor order = arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64, lo);
      for (int64_t c = rows.size(1) - 1; c >= 0; --c) {
        const Tensor col = index_select(select(rows, 1, c), 0, order);
        order = index_select(order, 0, argsort(col, 0, false, true));
      }
      const Tensor sorted = index_select(rows, 0, order);
      Tensor starts = ones({1}, {DType::Bool, dev});
      if (n > 1)
        starts = cat(
            {starts, any(binary(BinaryOp::Ne, slice(sorted, 0, 1, n, 1), slice(sorted, 0, 0, n - 1, 1)), 1, false)}, 0);
      r.values = index_select(t, d, masked_select(order, starts));
      if (return_inverse) {
        const Tensor group = binary(BinaryOp::Sub, cumsum(starts, 0, DType::Int64), Scalar::from_int(1));
        r.inverse = scatter(zeros({n}, lo), 0, order, group);
      } else {
        r.inverse = empty_on({0}, DType::Int64, dev);
      }
      if (return_counts) {
        const Tensor pos = masked_select(
            arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64, lo), starts);
        const int64_t u = pos.numel();
        r.counts = sub(cat({slice(pos, 0, 1, u, 1), full({1}, Scalar::from_int(n), lo)}, 0), pos);
      } else {
        r.counts = empty_on({0}, DType::Int64, dev);
      }
    }
  }
  if (any_requires_grad({&t}))  // PyTorch records the node but has no derivative for it
    record(r.values, {t}, UniqueDimBackward0{});
  return r;
}

}  // namespace gl
