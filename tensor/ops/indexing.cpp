// x[key] and x[key] = value (tensor/ops/indexing.h). Integers count from 0 and
// slices are Python's start:stop:step, so PyTorch code reads the same.
#include "tensor/ops/indexing.h"
#include <algorithm>
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {

bool is_index_tensor(const Tensor& t) {
  const DType d = t.dtype();
  return d == DType::Int64 || d == DType::Int32 || (d == DType::Bool && t.dim() > 0);
}

bool has_tensor(const std::vector<IndexItem>& items) {
  return std::any_of(items.begin(), items.end(), [](const IndexItem& it) { return it.kind == IndexItem::Tensor; });
}

// A value as setitem takes it: its leading 1s dropped (PyTorch's setitem does
// so before broadcasting it to the target).
Tensor without_leading_ones(const Tensor& v) {
  Shape s = v.sizes();
  while (!s.empty() && s.front() == 1) s.erase(s.begin());
  return reshape(v, s);
}

// Whether the key goes to index()/index_put_(): index tensors, bare or among its items.
bool advanced(const IndexKey& key) {
  return key.bare ? is_index_tensor(key.items.at(0).tensor) : has_tensor(key.items);
}

}  // namespace

// Integers, slices, '...' and None: a view of t.
Tensor basic_index(const Tensor& t, const std::vector<IndexItem>& items) {
  int64_t consumed = 0, ellipses = 0;
  for (auto& it : items) {
    if (it.kind == IndexItem::Int || it.kind == IndexItem::Slice) ++consumed;
    if (it.kind == IndexItem::Ellipsis) ++ellipses;
  }
  GL_CHECK_T(IndexError, t.dim() > 0 || consumed == 0,
             "invalid index of a 0-dim tensor. Use `tensor:item()` to convert a 0-dim tensor to a number");
  GL_CHECK_T(IndexError, ellipses <= 1, "an index can only have a single ellipsis ('...')");
  GL_CHECK_T(IndexError, consumed <= t.dim(), "too many indices for tensor of dimension ", t.dim());
  Tensor r = t;
  int64_t dim = 0, orig = 0;  // dim in r, and the dim of t it came from (for errors)
  for (auto& it : items) {
    switch (it.kind) {
      case IndexItem::Int: {
        const int64_t n = r.size(dim);
        GL_CHECK_T(IndexError, it.i >= -n && it.i < n, "index ", it.i, " is out of bounds for dimension ", orig,
                   " with size ", n);
        r = select(r, dim, it.i);
        ++orig;
        break;
      }
      case IndexItem::Slice:
        r = slice(r, dim, it.start, it.stop, it.step);
        ++dim;
        ++orig;
        break;
      case IndexItem::NewAxis:
        r = unsqueeze(r, dim);
        ++dim;
        break;
      case IndexItem::Ellipsis:
        dim += t.dim() - consumed;
        orig += t.dim() - consumed;
        break;
      case IndexItem::Tensor: break;  // not here: has_tensor sends such keys to index()
    }
  }
  // Python indexing always returns a new tensor object, even for x[...].
  if (r.is_same(t)) r = make_view(t, t.sizes(), t.strides(), t.offset()), r.impl->requires_grad = false;
  return r;
}

namespace {

// Index tensors among the items: the view the other items select (integers
// select first, as PyTorch's basic indexing does), and one entry of `idx` per
// dim of it for index()/index_put_() (undefined: the whole dim).
Tensor advanced_view(const Tensor& t, const std::vector<IndexItem>& items, std::vector<Tensor>& idx) {
  int64_t consumed = 0;
  for (auto& it : items) {
    if (it.kind == IndexItem::Tensor)
      consumed += it.tensor.dtype() == DType::Bool ? std::max<int64_t>(it.tensor.dim(), 1) : 1;
    else if (it.kind != IndexItem::Ellipsis) ++consumed;
  }
  GL_CHECK_T(IndexError, consumed <= t.dim(), "too many indices for tensor of dimension ", t.dim());
  Tensor view = t;
  int64_t dim = 0;
  for (auto& it : items) {
    switch (it.kind) {
      case IndexItem::Tensor:
        idx.push_back(it.tensor);
        dim += it.tensor.dtype() == DType::Bool ? std::max<int64_t>(it.tensor.dim(), 1) : 1;  // a mask covers its dims
        break;
      case IndexItem::Int: {
        const int64_t size = view.size(dim);
        GL_CHECK_T(IndexError, it.i >= -size && it.i < size, "index ", it.i, " is out of bounds for dimension ", dim,
                   " with size ", size);
        view = select(view, dim, it.i);
        break;
      }
      case IndexItem::Ellipsis:
        for (int64_t e = 0; e < t.dim() - consumed; ++e, ++dim) idx.push_back(Tensor());
        break;
      case IndexItem::Slice:
        view = slice(view, dim, it.start, it.stop, it.step);
        idx.push_back(Tensor());
        ++dim;
        break;
      case IndexItem::NewAxis:
        throw IndexError(
            "gpulab: with index tensors, the other items must be integers, slices like ':' or '1:3', or '...'");
    }
  }
  return view;
}

// A bool mask indexes the leading mask.dim() dims of t; its shape must match
// them (PyTorch's rule). Returns the mask with size-1 dims for the rest of t.
Tensor leading_mask(const Tensor& t, const Tensor& mask) {
  for (int64_t d = 0; d < mask.dim(); ++d)
    if (d >= t.dim() || mask.size(d) != t.size(d))
      throw IndexError(cat("The shape of the mask ", shape_str(mask.sizes()), " at index ", d,
                           " does not match the shape of the indexed tensor ", shape_str(t.sizes()), " at index ", d));
  Tensor m = mask;
  while (m.dim() < t.dim()) m = unsqueeze(m, m.dim());
  return m;
}

// The bool mask a uint8 index stands for. PyTorch still takes one (nonzero =
// true) but warns that this is deprecated; a 0-d one is a plain condition in
// PyTorch (it never reaches the deprecated mask path), so it does not warn.
Tensor uint8_mask(const Tensor& k) {
  if (k.dim() > 0)  // Note [Warnings]: once per call site
    warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
  return to_dtype(k, DType::Bool);
}

// Note [Assignment with autograd]: x[key] = value where x or value needs a
// gradient is written out of place and made x's new value and node
// (inplace_with_grad), with PyTorch's node: CopySlices for integers and
// slices, MaskedFillBackward0 for a mask and a number, IndexPutBackward0 for
// a mask and a tensor (and for index tensors, through index_put_).
Tensor copy_slices(const Tensor& old, const std::vector<IndexItem>& items, const Tensor& value) {
  Tensor out;
  {
    NoGradGuard ng;
    out = clone(old);
    Tensor view = basic_index(out, items);
    copy_(view, expand(value, view.sizes()));
  }
  if (any_requires_grad({&old, &value})) { record(out, {old, value}, CopySlices{items, value.sizes()}); }
  return out;
}
}  // namespace

Tensor getitem(const Tensor& t, const IndexKey& key) {
  const Tensor* bare = key.bare ? &key.items.at(0).tensor : nullptr;
  if (advanced(key)) {
    std::vector<Tensor> idx;
    if (bare) idx.push_back(*bare);
    Tensor view = bare ? t : advanced_view(t, key.items, idx);
    return index(view, idx);
  }
  if (bare) {
    GL_CHECK_T(IndexError, bare->dtype() == DType::Bool || bare->dtype() == DType::UInt8,
               "tensors used as indices must be long, int, byte or bool tensors");
    // x[mask]: the selected rows of the leading dims, each with the trailing dims.
    const Tensor mask = bare->dtype() == DType::UInt8 ? uint8_mask(*bare) : *bare;
    Tensor r = masked_select(t, leading_mask(t, mask));
    Shape rest{-1};
    for (int64_t d = mask.dim(); d < t.dim(); ++d) rest.push_back(t.size(d));
    return rest.size() > 1 ? reshape(r, rest) : r;
  }
  return basic_index(t, key.items);
}

void setitem_(Tensor& t, const IndexKey& key, const Tensor* vt, const std::optional<Scalar>& vs,
              const std::string& value_type) {
  Mutation written(t);  // Note [Version counter]
  // Integers and slices write through a view of t: PyTorch names the view.
  if (!has_tensor(key.items) && GradMode::enabled() && t.requires_grad() && t.is_leaf())
    throw RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  check_inplace_leaf(t);
  const Tensor* bare = key.bare ? &key.items.at(0).tensor : nullptr;
  auto bad_value = [&] {
    return TypeError(cat("can't assign a ", value_type, " to a ", dtype_repr(t.dtype()), " tensor"));
  };
  // Index tensors (bool masks keep their own path, masked_assign_): one index_put_.
  if (advanced(key) && !(bare && bare->dtype() == DType::Bool)) {
    std::vector<Tensor> idx;
    if (bare) idx.push_back(*bare);
    Tensor view = bare ? t : advanced_view(t, key.items, idx);
    Tensor v;
    if (vt) {
      v = to(without_leading_ones(*vt), t.device(), t.dtype());
    } else if (vs) {
      v = empty_on({}, t.dtype(), t.device());
      fill_(v, *vs);
    } else {
      throw bad_value();
    }
    if (view.is_same(t)) {  // t itself: drop the second reference so autograd can record it
      view = Tensor();
      index_put_(t, idx, v, false);
    } else {
      index_put_(view, idx, v, false);
    }
    return;
  }
  if (!vt && !vs) throw bad_value();
  if (GradMode::enabled() && (t.requires_grad() || (vt && vt->requires_grad()))) {
    // Note [Assignment with autograd]
    Tensor v = vt ? to(without_leading_ones(*vt), t.device(), t.dtype()) : Tensor();
    if (bare) {
      GL_CHECK_T(IndexError, bare->dtype() == DType::Bool || bare->dtype() == DType::UInt8,
                 "tensors used as indices must be long, int, byte or bool tensors");
      const Tensor mask = bare->dtype() == DType::UInt8 ? uint8_mask(*bare) : *bare;
      const Tensor full = leading_mask(t, mask);
      if (vt) return index_put_(t, {mask}, v, false);
      return inplace_with_grad(t, [&](const Tensor& old) { return masked_fill(old, full, Other::of(*vs)); });
    }
    if (!vt) {
      v = empty_on({}, t.dtype(), t.device());
      fill_(v, *vs);
    }
    return inplace_with_grad(t, [&](const Tensor& old) { return copy_slices(old, key.items, v); });
  }
  if (bare && (bare->dtype() == DType::Bool || bare->dtype() == DType::UInt8)) {
    if (bare->dtype() == DType::UInt8 && bare->dim() > 0) {
      // PyTorch sends a one-element value on the CPU (a number too) to
      // masked_fill_, which checks the mask's shape and then refuses uint8;
      // any other value goes through index_put_, which takes it with a warning.
      if (!vt || (vt->numel() == 1 && vt->device().is_cpu())) {
        leading_mask(t, *bare);
        throw RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char");
      }
    }
    const Tensor mask = bare->dtype() == DType::UInt8 ? uint8_mask(*bare) : *bare;
    leading_mask(t, mask);  // PyTorch's mask shape check
    if (vt) return masked_assign_(t, mask, *vt);
    Tensor v = empty_on({}, t.dtype(), t.device());
    fill_(v, *vs);  // refuses a value the dtype cannot hold, as PyTorch does
    return masked_assign_(t, mask, v);
  }
  GL_CHECK_T(IndexError, !bare, "gpulab: assignment through an index tensor is not supported; use a mask");
  Tensor view = basic_index(t, key.items);
  if (!vt) return fill_(view, *vs);
  // Expanded to the target, so a wrong shape reports expand's error, then copied.
  copy_(view, expand(without_leading_ones(*vt), view.sizes()));
}

}  // namespace gl
