// flip, fliplr, flipud, roll, tile and unfold (shape_extras.h). flip and roll
// read each dim through one gather of a host-computed index and record a
// node of their own, whose derivative is the same op undone; tile is
// PyTorch's repeat; unfold is a strided view.
#include <algorithm>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_extras.h"

namespace gl {

Tensor pick_along(const Tensor& x, int64_t dim, const std::vector<int64_t>& idx) {
  const int64_t n = int64_t(idx.size());
  Tensor i = from_host(idx.data(), {n}, DType::Int64, {DType::Int64, x.device()});
  Shape lone(size_t(x.dim()), 1), big = x.sizes();
  lone[size_t(dim)] = big[size_t(dim)] = n;
  // gather wants the index at the result's shape: the one index, broadcast
  return gather(x, dim, expand(view(i, lone), big));
}

Tensor unpick_along(const Tensor& grad, int64_t dim, const std::vector<int64_t>& idx, int64_t size) {
  Tensor i = from_host(idx.data(), {int64_t(idx.size())}, DType::Int64, {DType::Int64, grad.device()});
  Shape shape = grad.sizes();
  shape[size_t(dim)] = size;
  return index_add(zeros(shape, {grad.dtype(), grad.device()}), dim, i, grad, Scalar::from_int(1));
}

namespace {

// The dims wrapped (a 0-d tensor takes 0 and -1), each at most once, PyTorch's words.
std::vector<int64_t> wrapped_once(const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<int64_t> w;
  for (int64_t d : dims) {
    const int64_t x = wrap_dim(d, std::max<int64_t>(ndim, 1));
    GL_CHECK(std::find(w.begin(), w.end(), x) == w.end(), "dim ", x, " appears multiple times in the list of dims");
    w.push_back(x);
  }
  return w;
}

// x with dim read in the order idx_of(j) for each output position j.
template <class F> Tensor reindexed(const Tensor& x, int64_t dim, F idx_of) {
  const int64_t n = x.size(dim);
  std::vector<int64_t> idx(size_t(n), 0);
  for (int64_t j = 0; j < n; ++j) idx[size_t(j)] = idx_of(j, n);
  return pick_along(x, dim, idx);
}

}  // namespace

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims_in) {
  const std::vector<int64_t> dims = wrapped_once(dims_in, x.dim());
  Tensor out;
  {
    NoGradGuard no_grad;
    out = clone(x);  // new memory even when nothing flips, as PyTorch's
    if (x.dim() > 0 && x.numel() > 0)
      for (int64_t d : dims) out = reindexed(out, d, [](int64_t j, int64_t n) { return n - 1 - j; });
  }
  if (any_requires_grad({&x})) record(out, {x}, FlipBackward0{dims});
  return out;
}

Tensor fliplr(const Tensor& x) {
  GL_CHECK(x.dim() >= 2, "Input must be >= 2-d.");
  return flip(x, {1});
}

Tensor flipud(const Tensor& x) {
  GL_CHECK(x.dim() >= 1, "Input must be >= 1-d.");
  return flip(x, {0});
}

Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims_in) {
  GL_CHECK(!shifts.empty(), "`shifts` required");
  if (dims_in.empty() && shifts.size() == 1) {  // the flattened tensor, rolled
    Tensor out;
    {
      NoGradGuard no_grad;
      out = reshape(roll(reshape(x, {-1}), shifts, {0}), x.sizes());
    }
    const int64_t n = x.numel();
    if (any_requires_grad({&x})) record(out, {x}, RollBackward0{{n ? (shifts[0] % n + n) % n : 0}, {}});
    return out;
  }
  GL_CHECK(shifts.size() == dims_in.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
           ", dims:", dims_in.size());
  std::vector<int64_t> dims;
  for (int64_t d : dims_in) {
    GL_CHECK_T(IndexError, x.dim() > 0, "Dimension specified as ", d, " but tensor has no dimensions");
    dims.push_back(wrap_dim(d, x.dim()));
  }
  Tensor out;
  {
    NoGradGuard no_grad;
    out = clone(x);
    if (x.numel() > 0)
      for (size_t k = 0; k < dims.size(); ++k) {
        const int64_t s = shifts[k];
        // output j reads input j - s, modulo n (s may be any int64)
        out = reindexed(out, dims[k], [s](int64_t j, int64_t n) { return ((j - s % n) % n + n) % n; });
      }
  }
  // saved modulo each size, so that the derivative's negation cannot overflow
  std::vector<int64_t> saved(shifts.size(), 0);
  for (size_t k = 0; k < dims.size(); ++k)
    if (const int64_t n = x.size(dims[k])) saved[k] = (shifts[k] % n + n) % n;
  if (any_requires_grad({&x})) record(out, {x}, RollBackward0{saved, dims});
  return out;
}

Tensor tile(const Tensor& x, std::vector<int64_t> dims) {
  if (int64_t(dims.size()) < x.dim()) dims.insert(dims.begin(), size_t(x.dim() - int64_t(dims.size())), 1);
  return repeat(x, dims);
}

Tensor unfold(const Tensor& x, int64_t dimension, int64_t size, int64_t step) {
  const int64_t nd = x.dim();
  const int64_t d = wrap_dim(dimension, std::max<int64_t>(nd, 1));
  const int64_t max_size = nd == 0 ? 1 : x.size(d);
  GL_CHECK(size <= max_size, "maximum size for tensor at dimension ", d, " is ", max_size, " but size is ", size);
  GL_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  GL_CHECK(step > 0, "step is ", step, " but must be > 0");
  Shape sizes = x.sizes(), strides = x.strides();
  sizes.push_back(size);
  strides.push_back(nd == 0 ? 1 : x.stride(d));
  if (nd > 0) {
    sizes[size_t(d)] = (x.size(d) - size) / step + 1;
    // step * stride as PyTorch's; past int64 there is one window, whose stride is never used
    if (__builtin_mul_overflow(step, x.stride(d), &strides[size_t(d)])) strides[size_t(d)] = x.stride(d);
  }
  Tensor out = make_view(x, std::move(sizes), std::move(strides), x.offset());
  if (any_requires_grad({&x})) record(out, {x}, UnfoldBackward0{x.sizes(), d, size, step});
  return out;
}

}  // namespace gl
