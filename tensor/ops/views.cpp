// Views (no data moves: new shape/strides/offset over the same storage),
// split and chunk (whose pieces are views), and sum_to, the inverse of expand
// that gradients of broadcasts use.
#include <algorithm>
#include <numeric>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

std::string legacy_type_str(const Tensor& x) {
  const bool cuda = x.device().is_cuda();
  if (x.dtype() == DType::Bool || x.dtype() == DType::BFloat16)
    return cat(cuda ? "CUDA" : "CPU", dtype_legacy_name(x.dtype()), "Type");
  return cat(cuda ? "torch.cuda." : "torch.", dtype_legacy_name(x.dtype()), "Tensor");
}

namespace {

Shape infer_size(Shape size, int64_t numel) {
  int64_t known = 1, infer = -1;
  bool zero = false, overflow = false;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == -1) {
      GL_CHECK(infer < 0, "only one dimension can be inferred");
      infer = int64_t(i);
    } else {
      GL_CHECK(size[i] >= 0, "invalid shape dimension ", size[i], " at index ", i, " of shape ", shape_str(size));
      zero = zero || size[i] == 0;
      overflow = overflow || __builtin_mul_overflow(known, size[i], &known);
    }
  }
  // A product past int64 holds no tensor of `numel` elements; with a zero dim
  // PyTorch gets further and fails computing the view's numel.
  GL_CHECK(!overflow || zero, "shape '", shape_str(size), "' is invalid for input of size ", numel);
  GL_CHECK(!overflow, "numel: integer multiplication overflow");
  if (infer >= 0) {
    GL_CHECK(known != 0 || numel != 0, "cannot reshape tensor of 0 elements into shape ", shape_str(size),
             " because the unspecified dimension size -1 can be any value and is ambiguous");
    GL_CHECK(known != 0 && numel % known == 0, "shape '", shape_str(size), "' is invalid for input of size ", numel);
    size[size_t(infer)] = numel / known;
  }
  GL_CHECK(numel_of(size) == numel, "shape '", shape_str(size), "' is invalid for input of size ", numel);
  return size;
}

// PyTorch's computeStride: strides for viewing (shape, stride) as newshape, if any.
std::optional<Shape> view_strides(const Shape& oldshape, const Shape& oldstride, const Shape& newshape) {
  Shape newstride(newshape.size(), 1);
  if (oldshape.empty()) return newstride;
  if (numel_of(oldshape) == 0) return contiguous_strides(newshape);
  int64_t view_d = int64_t(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = int64_t(oldshape.size()) - 1; d >= 0; --d) {
    tensor_numel *= oldshape[d];
    if (d == 0 || (oldshape[d - 1] != 1 && oldstride[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = oldstride[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

// A view of `t` recording `node` (a row of derivatives.h), under `name`.
template <class Derivative> Tensor tracked_view(const Tensor& t, Shape sizes, Shape strides, int64_t offset,
                                                Derivative node, const char* name = Derivative::kName) {
  Tensor out = make_view(t, std::move(sizes), std::move(strides), offset);
  if (any_requires_grad({&t})) record(out, name, {t}, std::move(node));
  return out;
}

TensorOptions options_of(const Tensor& t) { return {t.dtype(), t.device()}; }

}  // namespace

Tensor view(const Tensor& t, Shape size) {
  Shape sz = infer_size(std::move(size), t.numel());
  auto st = view_strides(t.sizes(), t.strides(), sz);
  GL_CHECK(st.has_value(),
           "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
           "contiguous subspaces). Use .reshape(...) instead.");
  return tracked_view(t, sz, *st, t.offset(), ViewBackward0{t.sizes()});
}

Tensor reshape(const Tensor& t, Shape size) {
  Shape sz = infer_size(std::move(size), t.numel());
  if (view_strides(t.sizes(), t.strides(), sz)) return view(t, sz);
  Tensor c;
  {
    NoGradGuard ng;
    c = clone(t);
  }
  Shape in = t.sizes();
  Tensor out = make_view(c, sz, contiguous_strides(sz), 0);
  if (any_requires_grad({&t})) record(out, {t}, UnsafeViewBackward0{in});
  return out;
}

Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
  const int64_t n = t.dim();
  d0 = wrap_dim(d0, n);
  d1 = wrap_dim(d1, n);
  if (n == 0) return tracked_view(t, {}, {}, t.offset(), TransposeBackward0{0, 0});
  Shape sz = t.sizes(), st = t.strides();
  std::swap(sz[d0], sz[d1]);
  std::swap(st[d0], st[d1]);
  return tracked_view(t, sz, st, t.offset(), TransposeBackward0{d0, d1});
}

Tensor t(const Tensor& x) {
  GL_CHECK(x.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", x.dim(), "D");
  if (x.dim() < 2) return tracked_view(x, x.sizes(), x.strides(), x.offset(), TBackward0{});
  Shape sz{x.size(1), x.size(0)}, st{x.stride(1), x.stride(0)};
  return tracked_view(x, sz, st, x.offset(), TBackward0{});
}

Tensor permute(const Tensor& x, Shape dims) {
  const int64_t n = x.dim();
  GL_CHECK(
      int64_t(dims.size()) == n,
      "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ",
      n, " is not equal to len(dims) = ", dims.size());
  std::vector<bool> seen(static_cast<size_t>(n), false);
  Shape sz(static_cast<size_t>(n)), st(static_cast<size_t>(n)), inverse(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t d = wrap_dim(dims[size_t(i)], n);
    GL_CHECK(!seen[size_t(d)], "permute(): duplicate dims are not allowed.");
    seen[size_t(d)] = true;
    sz[size_t(i)] = x.sizes()[size_t(d)];
    st[size_t(i)] = x.strides()[size_t(d)];
    inverse[size_t(d)] = i;
  }
  return tracked_view(x, sz, st, x.offset(), PermuteBackward0{inverse});
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  dim = wrap_dim(dim, x.dim() + 1);
  Shape sz = x.sizes(), st = x.strides();
  int64_t s = dim < x.dim() ? sz[size_t(dim)] * st[size_t(dim)] : 1;
  sz.insert(sz.begin() + dim, 1);
  st.insert(st.begin() + dim, s);
  return tracked_view(x, sz, st, x.offset(), UnsqueezeBackward0{dim});
}

Tensor squeeze(const Tensor& x, std::optional<int64_t> dim) {
  Shape sz, st;
  std::optional<int64_t> d;
  if (dim) d = wrap_dim(*dim, x.dim());
  for (int64_t i = 0; i < x.dim(); ++i) {
    bool drop = x.sizes()[size_t(i)] == 1 && (!d || *d == i);
    if (!drop) {
      sz.push_back(x.sizes()[size_t(i)]);
      st.push_back(x.strides()[size_t(i)]);
    }
  }
  return tracked_view(x, sz, st, x.offset(), SqueezeBackward{x.sizes()}, dim ? "SqueezeBackward1" : "SqueezeBackward0");
}

Tensor expand(const Tensor& x, Shape size0) {
  GL_CHECK(size0.size() >= size_t(x.dim()), "expand(", legacy_type_str(x), "{", shape_str(x.sizes()),
           "}, size=", shape_str(size0), "): the number of sizes provided (", size0.size(),
           ") must be greater or equal to the number of dimensions in the tensor (", x.dim(), ")");
  // Last dim first, as PyTorch's inferExpandGeometry, so the same error is the one reported.
  const size_t n = size0.size(), off = n - size_t(x.dim());
  Shape size = size0, st(n, 0);
  for (size_t i = n; i-- > 0;) {
    if (i < off) {
      GL_CHECK(size[i] != -1,
               "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      continue;
    }
    int64_t have = x.sizes()[i - off];
    if (size[i] == -1) size[i] = have;
    if (have == size[i]) st[i] = x.strides()[i - off];
    else
      GL_CHECK(have == 1, "The expanded size of the tensor (", size[i], ") must match the existing size (", have,
               ") at non-singleton dimension ", i, ".  Target sizes: ", shape_str(size0),
               ".  Tensor sizes: ", shape_str(x.sizes()));
  }
  // Other negative sizes pass the loop in PyTorch too, and fail counting elements.
  for (int64_t v : size) GL_CHECK(v >= 0, "numel: integer multiplication overflow");
  return tracked_view(x, size, st, x.offset(), ExpandBackward0{x.sizes()});
}

Tensor slice(const Tensor& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step) {
  GL_CHECK(x.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, x.dim());
  GL_CHECK_T(ValueError, step > 0, "step must be greater than zero");
  const int64_t n = x.sizes()[size_t(dim)];
  auto clampi = [n](int64_t v) {
    if (v < 0) v += n;
    return std::clamp<int64_t>(v, 0, n);
  };
  int64_t s = start ? clampi(*start) : 0, e = stop ? clampi(*stop) : n;
  if (e < s) e = s;
  Shape sz = x.sizes(), st = x.strides();
  sz[size_t(dim)] = (e - s + step - 1) / step;
  st[size_t(dim)] *= step;
  int64_t off = x.offset() + s * x.strides()[size_t(dim)];
  return tracked_view(x, sz, st, off, SliceBackward0{x.sizes(), options_of(x), dim, s, e, step});
}

Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  GL_CHECK(x.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  GL_CHECK(length >= 0, "narrow(): length must be non-negative.");  // checked first, as in PyTorch
  dim = wrap_dim(dim, x.dim());
  const int64_t n = x.sizes()[size_t(dim)];
  GL_CHECK_T(IndexError, start >= -n && start <= n, "start out of range (expected to be in range of [", -n, ", ", n,
             "], but got ", start, ")");
  if (start < 0) start += n;
  // length <= n - start: start + length overflows for a length near 2^63
  GL_CHECK(length <= n - start, "start (", start, ") + length (", length, ") exceeds dimension size (", n, ").");
  return slice(x, dim, start, start + length, 1);
}

Tensor select(const Tensor& x, int64_t dim, int64_t index) {
  GL_CHECK_T(IndexError, x.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, x.dim());
  const int64_t n = x.sizes()[size_t(dim)];
  GL_CHECK_T(IndexError, index >= -n && index < n, "select(): index ", index, " out of range for tensor of size ",
             shape_str(x.sizes()), " at dimension ", dim);
  if (index < 0) index += n;
  Shape sz = x.sizes(), st = x.strides();
  int64_t off = x.offset() + index * st[size_t(dim)];
  sz.erase(sz.begin() + dim);
  st.erase(st.begin() + dim);
  return tracked_view(x, sz, st, off, SelectBackward0{x.sizes(), options_of(x), dim, index});
}

Tensor flatten(const Tensor& x, int64_t start_dim, int64_t end_dim) {
  if (x.dim() == 0) {  // dims still checked, as for a 1-d tensor
    wrap_dim(start_dim, 1);
    wrap_dim(end_dim, 1);
    return reshape(x, {1});
  }
  start_dim = wrap_dim(start_dim, x.dim());
  end_dim = wrap_dim(end_dim, x.dim());
  GL_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (start_dim == end_dim) return x;  // PyTorch returns the tensor itself (no ViewBackward0)
  Shape sz;
  for (int64_t i = 0; i < start_dim; ++i) sz.push_back(x.sizes()[size_t(i)]);
  int64_t m = 1;
  for (int64_t i = start_dim; i <= end_dim; ++i) m *= x.sizes()[size_t(i)];
  sz.push_back(m);
  for (int64_t i = end_dim + 1; i < x.dim(); ++i) sz.push_back(x.sizes()[size_t(i)]);
  return reshape(x, sz);
}

namespace {
std::vector<Tensor> split_named(const Tensor& x, const Shape& sizes, int64_t dim, const char* node) {
  GL_CHECK(x.dim() > 0, "split expects at least a 1-dimensional tensor");
  dim = wrap_dim(dim, x.dim());
  int64_t total = 0;
  for (auto s : sizes) {
    GL_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
             shape_str(sizes));
    GL_CHECK(!__builtin_add_overflow(total, s, &total), "split_with_sizes expects split_sizes to sum exactly to ",
             x.sizes()[size_t(dim)], " (input tensor's size at dimension ", dim,
             "), but got split_sizes=", shape_str(sizes));
  }
  GL_CHECK(total == x.sizes()[size_t(dim)], "split_with_sizes expects split_sizes to sum exactly to ",
           x.sizes()[size_t(dim)], " (input tensor's size at dimension ", dim,
           "), but got split_sizes=", shape_str(sizes));
  std::vector<Tensor> out;
  int64_t start = 0;
  for (auto s : sizes) {
    Tensor piece;
    {
      NoGradGuard ng;
      piece = narrow(x, dim, start, s);
    }
    if (any_requires_grad({&x})) record(piece, node, {x}, SplitPieceBackward{x.sizes(), options_of(x), dim, start, s});
    out.push_back(piece);
    start += s;
  }
  return out;
}
}  // namespace

std::vector<Tensor> split_sizes(const Tensor& x, const Shape& sizes, int64_t dim) {
  return split_named(x, sizes, dim, "SplitWithSizesBackward0");
}

std::vector<Tensor> split(const Tensor& x, int64_t size, int64_t dim) {
  GL_CHECK(x.dim() > 0, "split expects at least a 1-dimensional tensor");
  GL_CHECK(size >= 0, "split expects split_size be non-negative, but got split_size=", size);
  GL_CHECK(size > 0 || (size == 0 && x.size(dim) == 0),
           "split_size can only be 0 if dimension size is 0, but got dimension size of ", x.size(dim));
  const int64_t n = x.size(dim);
  Shape sizes;
  for (int64_t s = 0; s < n; s += size) sizes.push_back(std::min(size, n - s));
  if (sizes.empty()) sizes.push_back(0);
  return split_named(x, sizes, dim, "SplitBackward0");
}

std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim) {
  GL_CHECK(x.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  GL_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t n = x.size(dim);
  const int64_t each = n / chunks + (n % chunks != 0);  // ceil, without n + chunks - 1 overflowing
  return split(x, each == 0 ? 1 : each, dim);
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
  if (g.sizes() == shape) return g;
  const int64_t lead = g.dim() - int64_t(shape.size());
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < g.dim(); ++i)
    if (i < lead || (shape[size_t(i - lead)] == 1 && g.sizes()[size_t(i)] != 1)) dims.push_back(i);
  Tensor r = dims.empty() ? g : sum(g, dims, true);
  return reshape(r, shape);
}

}  // namespace gl
