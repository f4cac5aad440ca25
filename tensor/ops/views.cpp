// Views (no data moves: new shape/strides/offset over the same storage) and
// the joins and splits built from them.
#include <algorithm>
#include <numeric>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

namespace {

// How PyTorch names a tensor's type in some errors: the legacy name where one
// exists (torch.FloatTensor, torch.cuda.LongTensor), else the dispatch name
// (CPUBoolType, CUDABFloat16Type).
std::string legacy_type_str(const Tensor& x) {
  const bool cuda = x.device().is_cuda();
  if (x.dtype() == DType::Bool || x.dtype() == DType::BFloat16)
    return cat(cuda ? "CUDA" : "CPU", dtype_legacy_name(x.dtype()), "Type");
  return cat(cuda ? "torch.cuda." : "torch.", dtype_legacy_name(x.dtype()), "Tensor");
}

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

// A view of `t` recording `name` whose backward is `bw`.
Tensor tracked_view(const Tensor& t, Shape sizes, Shape strides, int64_t offset, const char* name,
                    std::function<Tensor(const Tensor&)> bw) {
  Tensor out = make_view(t, std::move(sizes), std::move(strides), offset);
  if (any_requires_grad({&t}))
    record(out, name, {t}, [bw = std::move(bw)](const Tensor& g) -> std::vector<Tensor> { return {bw(g)}; });
  return out;
}

// Gradient of a view into `t`: zeros of t's shape with g written where the view was.
std::function<Tensor(const Tensor&)> scatter_back(const Tensor& t, std::function<Tensor(Tensor&)> region) {
  Shape sz = t.sizes();
  DType dt = t.dtype();
  Device dev = t.device();
  return [sz, dt, dev, region](const Tensor& g) {
    Tensor z = zeros(sz, {dt, dev});
    Tensor r = region(z);
    copy_(r, g);
    return z;
  };
}

}  // namespace

Tensor view(const Tensor& t, Shape size) {
  Shape sz = infer_size(std::move(size), t.numel());
  auto st = view_strides(t.sizes(), t.strides(), sz);
  GL_CHECK(st.has_value(),
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.");
  Shape in = t.sizes();
  return tracked_view(t, sz, *st, t.offset(), "ViewBackward0", [in](const Tensor& g) { return reshape(g, in); });
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
  if (any_requires_grad({&t}))
    record(out, "UnsafeViewBackward0", {t}, [in](const Tensor& g) -> std::vector<Tensor> { return {reshape(g, in)}; });
  return out;
}

Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
  const int64_t n = t.dim();
  d0 = wrap_dim(d0, n);
  d1 = wrap_dim(d1, n);
  if (n == 0) return tracked_view(t, {}, {}, t.offset(), "TransposeBackward0", [](const Tensor& g) { return g; });
  Shape sz = t.sizes(), st = t.strides();
  std::swap(sz[d0], sz[d1]);
  std::swap(st[d0], st[d1]);
  return tracked_view(t, sz, st, t.offset(), "TransposeBackward0", [d0, d1](const Tensor& g) { return transpose(g, d0, d1); });
}

Tensor t(const Tensor& x) {
  GL_CHECK(x.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", x.dim(), "D");
  if (x.dim() < 2) return tracked_view(x, x.sizes(), x.strides(), x.offset(), "TBackward0", [](const Tensor& g) { return g; });
  Shape sz{x.size(1), x.size(0)}, st{x.stride(1), x.stride(0)};
  return tracked_view(x, sz, st, x.offset(), "TBackward0", [](const Tensor& g) { return t(g); });
}

Tensor permute(const Tensor& x, Shape dims) {
  const int64_t n = x.dim();
  GL_CHECK(int64_t(dims.size()) == n, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ",
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
  return tracked_view(x, sz, st, x.offset(), "PermuteBackward0", [inverse](const Tensor& g) { return permute(g, inverse); });
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  dim = wrap_dim(dim, x.dim() + 1);
  Shape sz = x.sizes(), st = x.strides();
  int64_t s = dim < x.dim() ? sz[size_t(dim)] * st[size_t(dim)] : 1;
  sz.insert(sz.begin() + dim, 1);
  st.insert(st.begin() + dim, s);
  return tracked_view(x, sz, st, x.offset(), "UnsqueezeBackward0", [dim](const Tensor& g) { return squeeze(g, dim); });
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
  Shape in = x.sizes();
  return tracked_view(x, sz, st, x.offset(), dim ? "SqueezeBackward1" : "SqueezeBackward0",
                      [in](const Tensor& g) { return reshape(g, in); });
}

Tensor expand(const Tensor& x, Shape size0) {
  GL_CHECK(size0.size() >= size_t(x.dim()), "expand(", legacy_type_str(x), "{", shape_str(x.sizes()), "}, size=", shape_str(size0),
        "): the number of sizes provided (", size0.size(), ") must be greater or equal to the number of dimensions in the tensor (",
        x.dim(), ")");
  // Last dim first, as PyTorch's inferExpandGeometry, so the same error is the one reported.
  const size_t n = size0.size(), off = n - size_t(x.dim());
  Shape size = size0, st(n, 0);
  for (size_t i = n; i-- > 0;) {
    if (i < off) {
      GL_CHECK(size[i] != -1, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      continue;
    }
    int64_t have = x.sizes()[i - off];
    if (size[i] == -1) size[i] = have;
    if (have == size[i]) st[i] = x.strides()[i - off];
    else
      GL_CHECK(have == 1, "The expanded size of the tensor (", size[i], ") must match the existing size (", have,
            ") at non-singleton dimension ", i, ".  Target sizes: ", shape_str(size0), ".  Tensor sizes: ", shape_str(x.sizes()));
  }
  // Other negative sizes pass the loop in PyTorch too, and fail counting elements.
  for (int64_t v : size) GL_CHECK(v >= 0, "numel: integer multiplication overflow");
  Shape in = x.sizes();
  return tracked_view(x, size, st, x.offset(), "ExpandBackward0", [in](const Tensor& g) { return sum_to(g, in); });
}

Tensor slice(const Tensor& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step) {
  GL_CHECK(x.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, x.dim());
  GL_CHECK_T(ValueError, step > 0, "step must be greater than zero");
  const int64_t n = x.sizes()[size_t(dim)];
  auto clampi = [n](int64_t v) { if (v < 0) v += n; return std::clamp<int64_t>(v, 0, n); };
  int64_t s = start ? clampi(*start) : 0, e = stop ? clampi(*stop) : n;
  if (e < s) e = s;
  Shape sz = x.sizes(), st = x.strides();
  sz[size_t(dim)] = (e - s + step - 1) / step;
  st[size_t(dim)] *= step;
  int64_t off = x.offset() + s * x.strides()[size_t(dim)];
  return tracked_view(x, sz, st, off, "SliceBackward0",
                      scatter_back(x, [dim, s, e, step](Tensor& z) { return slice(z, dim, s, e, step); }));
}

Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  GL_CHECK(x.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  GL_CHECK(length >= 0, "narrow(): length must be non-negative.");  // checked first, as in PyTorch
  dim = wrap_dim(dim, x.dim());
  const int64_t n = x.sizes()[size_t(dim)];
  GL_CHECK_T(IndexError, start >= -n && start <= n, "start out of range (expected to be in range of [", -n, ", ", n, "], but got ", start, ")");
  if (start < 0) start += n;
  GL_CHECK(start + length <= n, "start (", start, ") + length (", length, ") exceeds dimension size (", n, ").");
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
  return tracked_view(x, sz, st, off, "SelectBackward0",
                      scatter_back(x, [dim, index](Tensor& z) { return select(z, dim, index); }));
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
             x.sizes()[size_t(dim)], " (input tensor's size at dimension ", dim, "), but got split_sizes=", shape_str(sizes));
  }
  GL_CHECK(total == x.sizes()[size_t(dim)], "split_with_sizes expects split_sizes to sum exactly to ", x.sizes()[size_t(dim)],
        " (input tensor's size at dimension ", dim, "), but got split_sizes=", shape_str(sizes));
  std::vector<Tensor> out;
  int64_t start = 0;
  for (auto s : sizes) {
    Tensor piece;
    {
      NoGradGuard ng;
      piece = narrow(x, dim, start, s);
    }
    if (any_requires_grad({&x})) {
      auto bw = scatter_back(x, [dim, start, s](Tensor& z) { return narrow(z, dim, start, s); });
      record(piece, node, {x}, [bw](const Tensor& g) -> std::vector<Tensor> { return {bw(g)}; });
    }
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
  GL_CHECK(size > 0 || (size == 0 && x.size(dim) == 0), "split_size can only be 0 if dimension size is 0, but got dimension size of ", x.size(dim));
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
  const int64_t each = (n + chunks - 1) / chunks;
  return split(x, each == 0 ? 1 : each, dim);
}

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) {
  GL_CHECK_T(ValueError, !ts.empty(), "torch.cat(): expected a non-empty list of Tensors");
  std::vector<const Tensor*> ptrs;
  ResultType rt;
  const Tensor* ref = nullptr;
  for (auto& t : ts) {
    ptrs.push_back(&t);
    rt.add(t);
    // Legacy rule: 1-d empty tensors are skipped in cat.
    if (!(t.dim() == 1 && t.numel() == 0) && !ref) ref = &t;
  }
  Device dev = common_device(ptrs);
  for (auto& t : ts)
    if (t.device() != dev)
      throw RuntimeError(cat("Expected all tensors to be on the same device, but found at least two devices, ", dev.str(),
                             " and ", t.device().str(), "!"));
  if (!ref) return empty_on({0}, rt.get(), dev);
  const int64_t nd = ref->dim();
  GL_CHECK(nd > 0, "zero-dimensional tensor (at position 0) cannot be concatenated");
  dim = wrap_dim(dim, nd);
  Shape out_sz = ref->sizes();
  out_sz[size_t(dim)] = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    if (t.dim() == 1 && t.numel() == 0) continue;
    GL_CHECK(t.dim() == nd, "Tensors must have same number of dimensions: got ", nd, " and ", t.dim());
    for (int64_t d = 0; d < nd; ++d)
      if (d != dim)
        GL_CHECK(t.sizes()[size_t(d)] == ref->sizes()[size_t(d)], "Sizes of tensors must match except in dimension ", dim,
              ". Expected size ", ref->sizes()[size_t(d)], " but got size ", t.sizes()[size_t(d)], " for tensor number ", i,
              " in the list.");
    out_sz[size_t(dim)] += t.sizes()[size_t(dim)];
  }
  Tensor out = empty_on(out_sz, rt.get(), dev);
  std::vector<int64_t> starts;
  int64_t at = 0;
  {
    NoGradGuard ng;
    for (auto& t : ts) {
      starts.push_back(at);
      if (t.dim() == 1 && t.numel() == 0) continue;
      Tensor region = narrow(out, dim, at, t.sizes()[size_t(dim)]);
      copy_(region, t);
      at += t.sizes()[size_t(dim)];
    }
  }
  if (any_requires_grad(ts)) {
    std::vector<Tensor> inputs = ts;
    record(out, "CatBackward0", inputs, [inputs, starts, dim](const Tensor& g) {
      std::vector<Tensor> r;
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& t = inputs[i];
        if (t.dim() == 1 && t.numel() == 0) { r.emplace_back(); continue; }
        r.push_back(to_dtype(narrow(g, dim, starts[i], t.sizes()[size_t(dim)]), t.dtype()));
      }
      return r;
    });
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& ts, int64_t dim) {
  GL_CHECK(!ts.empty(), "stack expects a non-empty TensorList");
  dim = wrap_dim(dim, ts[0].dim() + 1);
  for (size_t i = 1; i < ts.size(); ++i)
    GL_CHECK(ts[i].sizes() == ts[0].sizes(), "stack expects each tensor to be equal size, but got ", shape_str(ts[0].sizes()),
          " at entry 0 and ", shape_str(ts[i].sizes()), " at entry ", i);
  std::vector<Tensor> us;
  {
    NoGradGuard ng;
    for (auto& t : ts) us.push_back(unsqueeze(t, dim));
  }
  Tensor out;
  {
    NoGradGuard ng;
    out = cat(us, dim);
  }
  if (any_requires_grad(ts)) {
    std::vector<Tensor> inputs = ts;
    record(out, "StackBackward0", inputs, [inputs, dim](const Tensor& g) {
      std::vector<Tensor> r;
      for (size_t i = 0; i < inputs.size(); ++i) r.push_back(to_dtype(select(g, dim, int64_t(i)), inputs[i].dtype()));
      return r;
    });
  }
  return out;
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

Tensor masked_select(const Tensor& x, const Tensor& mask) {
  GL_CHECK(mask.dtype() == DType::Bool, "masked_select: expected BoolTensor for mask");
  common_device({&x, &mask});
  Shape shape = broadcast_shapes(mask.sizes(), x.sizes());  // mask first: PyTorch's "tensor a" in the error
  Tensor xs = contiguous(expand(x, shape)), ms = contiguous(expand(mask, shape));
  auto xb = to_host_bytes(xs);
  auto mb = to_host_bytes(ms);
  const size_t isz = itemsize(x.dtype());
  std::vector<char> out;
  std::vector<int64_t> picked;
  for (size_t i = 0; i < mb.size(); ++i)
    if (mb[i]) {
      out.insert(out.end(), xb.begin() + long(i * isz), xb.begin() + long((i + 1) * isz));
      picked.push_back(int64_t(i));
    }
  Tensor r = from_host(out.data(), {int64_t(picked.size())}, x.dtype(), {x.dtype(), x.device()});
  if (any_requires_grad({&x})) {
    Tensor m = mask;
    record(r, "MaskedSelectBackward0", {x}, [x, m, shape, picked](const Tensor& g) -> std::vector<Tensor> {
      Tensor flat = zeros({numel_of(shape)}, {g.dtype(), g.device()});
      auto gb = to_host_bytes(g);
      auto fb = to_host_bytes(flat);
      const size_t isz = itemsize(g.dtype());
      for (size_t k = 0; k < picked.size(); ++k)
        std::copy_n(gb.begin() + long(k * isz), isz, fb.begin() + long(size_t(picked[k]) * isz));
      Tensor full = from_host(fb.data(), shape, g.dtype(), {g.dtype(), g.device()});
      return {sum_to(full, x.sizes())};
    });
  }
  return r;
}

void masked_assign_(Tensor& t, const Tensor& mask, const Tensor& value) {
  GL_CHECK(mask.dtype() == DType::Bool && mask.dim() <= t.dim(), "masked_assign_: expected a bool mask over leading dims");
  std::vector<char> mb = to_host_bytes(mask);
  const int64_t count = std::count_if(mb.begin(), mb.end(), [](char c) { return c != 0; });
  Shape res(t.sizes().begin() + mask.dim(), t.sizes().end());
  res.insert(res.begin(), count);
  // Leading 1s of the value are dropped first, as PyTorch's setitem does.
  Shape vsz = value.sizes();
  while (!vsz.empty() && vsz.front() == 1) vsz.erase(vsz.begin());
  bool fits = vsz.size() <= res.size();
  for (size_t i = 0; fits && i < vsz.size(); ++i) {
    const int64_t v = vsz[vsz.size() - 1 - i], r = res[res.size() - 1 - i];
    fits = v == 1 || v == r;
  }
  GL_CHECK(fits, "shape mismatch: value tensor of shape ", shape_str(value.sizes()),
           " cannot be broadcast to indexing result of shape ", shape_str(res));
  if (value.numel() == 1) {  // one value fills every selected place, whatever its dtype
    Tensor m = to(mask, t.device(), std::nullopt);
    while (m.dim() < t.dim()) m = unsqueeze(m, m.dim());
    Tensor v = to(reshape(value, {}), t.device(), t.dtype());
    copy_(t, where(m, v, t));
    return;
  }
  GL_CHECK(value.dtype() == t.dtype(), "Index put requires the source and destination dtypes match, got ",
           dtype_legacy_name(t.dtype()), " for the destination and ", dtype_legacy_name(value.dtype()), " for the source.");
  common_device({&t, &value});
  if (count == 0) return;
  // Row k of the value goes to the k-th selected place; done on the host, as
  // masked_select is.
  std::vector<char> vb = to_host_bytes(expand(reshape(value, vsz), res));
  std::vector<char> tb = to_host_bytes(t);
  const size_t row = size_t(numel_of(res) / count) * itemsize(t.dtype());
  size_t k = 0;
  for (size_t p = 0; p < mb.size(); ++p)
    if (mb[p]) std::copy_n(vb.begin() + long(k++ * row), row, tb.begin() + long(p * row));
  copy_(t, from_host(tb.data(), t.sizes(), t.dtype(), {t.dtype(), t.device()}));
}

Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index) {
  GL_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32,
        "index_select(): Expected dtype int32 or int64 for index");
  GL_CHECK_T(IndexError, index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  dim = wrap_dim(dim, std::max<int64_t>(x.dim(), 1));
  Tensor idx = to(index, Device(Device::CPU), DType::Int64);
  const int64_t* p = idx.data<int64_t>();
  if (x.dim() == 0) {
    // A scalar has one element, so PyTorch wants exactly one index, and it must
    // be 0; the result stays 0-d (a 0-d index is a one-element vector here).
    GL_CHECK(idx.numel() == 1, "index_select(): Index to scalar can have only 1 value, got ", idx.numel(), " value(s)");
    GL_CHECK_T(IndexError, p[0] == 0, "index out of range in self");
    Tensor out = clone(x);
    rename_grad_fn(out, "IndexSelectBackward0");
    return out;
  }
  std::vector<Tensor> parts;
  const int64_t n = x.dim() ? x.size(dim) : 1;
  for (int64_t i = 0; i < idx.numel(); ++i) {
    GL_CHECK_T(IndexError, p[i] >= -n && p[i] < n, "index out of range in self");
    parts.push_back(unsqueeze(select(x, dim, p[i]), dim));
  }
  if (parts.empty()) {
    Shape sz = x.sizes();
    sz[size_t(dim)] = 0;
    return empty_on(sz, x.dtype(), x.device());
  }
  Tensor out = cat(parts, dim);
  rename_grad_fn(out, "IndexSelectBackward0");
  return out;
}

}  // namespace gl
