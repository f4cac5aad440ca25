// The derivatives of slice, select and diagonal (and of a split piece, a
// slice of step 1, and of trace) as ops that record a node of their own:
// zeros of the input's shape with the gradient written where the view was. Written unrecorded, they
// broke create_graph: the gradient of x[1:4] ** 2 came back without a
// grad_fn, and its own gradient failed.
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/node.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {
template <class Region>
Tensor into_zeros(const Tensor& grad, const Shape& sizes, const TensorOptions& o, Region region) {
  Tensor z;
  {
    NoGradGuard ng;
    z = zeros(sizes, o);
    Tensor r = region(z);
    copy_(r, grad);
  }
  return z;
}
}  // namespace

Tensor slice_backward(const Tensor& grad, const Shape& self_sizes, const TensorOptions& o, int64_t dim, int64_t start,
                      int64_t end, int64_t step) {
  Tensor z = into_zeros(grad, self_sizes, o, [&](Tensor& t) { return slice(t, dim, start, end, step); });
  if (any_requires_grad({&grad})) record(z, {grad}, SliceBackwardBackward0{dim, start, end, step});
  return z;
}

Tensor select_backward(const Tensor& grad, const Shape& self_sizes, const TensorOptions& o, int64_t dim,
                       int64_t index) {
  Tensor z = into_zeros(grad, self_sizes, o, [&](Tensor& t) { return select(t, dim, index); });
  if (any_requires_grad({&grad})) record(z, {grad}, SelectBackwardBackward0{dim, index});
  return z;
}

Tensor diagonal_backward(const Tensor& grad, const Shape& self_sizes, int64_t offset) {
  Tensor z =
      into_zeros(grad, self_sizes, {grad.dtype(), grad.device()}, [&](Tensor& t) { return diagonal_view(t, offset); });
  if (any_requires_grad({&grad})) record(z, {grad}, DiagonalBackwardBackward0{offset});
  return z;
}

}  // namespace gl
