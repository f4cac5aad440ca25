// Sorting and selection along a dim: the dim is moved last and the data
// copied into contiguous lines, a device's sort kernel (kernels/sort.h) works
// on the lines, and the results are moved back. Gradients scatter the
// incoming gradient back to the places the values came from.
#include "tensor/ops/sort_ops.h"

#include <algorithm>
#include <cmath>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/kernels/sort.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

// The dims of t with d moved last.
Shape last_perm(int64_t ndim, int64_t d) {
  Shape p;
  for (int64_t i = 0; i < ndim; ++i)
    if (i != d) p.push_back(i);
  p.push_back(d);
  return p;
}

// A fresh contiguous copy of t (0-d as [1]) with dim d last: the lines.
Tensor lines_of(const Tensor& t, int64_t d) {
  NoGradGuard ng;
  Tensor v = t.dim() == 0 ? reshape(t, {1}) : permute(t, last_perm(t.dim(), d));
  Tensor out = empty_on(v.sizes(), v.dtype(), v.device());
  copy_(out, v);
  return out;
}

// Lines (dim d last) back to t's dim order, contiguous; `ndim` 0 gives a 0-d result.
Tensor from_lines(const Tensor& r, int64_t ndim, int64_t d) {
  NoGradGuard ng;
  if (ndim == 0) return reshape(r, {});
  Shape perm = last_perm(ndim, d), inv(size_t(ndim), 0);
  for (int64_t i = 0; i < ndim; ++i) inv[size_t(perm[size_t(i)])] = i;
  return contiguous(permute(r, inv));
}

int64_t line_len(const Tensor& lines) { return lines.dim() ? lines.size(-1) : 1; }
int64_t line_count(const Tensor& lines) {
  const int64_t n = line_len(lines);
  if (n) return lines.numel() / n;
  int64_t c = 1;
  for (int64_t i = 0; i + 1 < lines.dim(); ++i) c *= lines.size(i);
  return c;
}

void run(const char* name, const Tensor& on, const SortSpec& s) {
  const DeviceSlot& sl = slot_of(on);
  trace::op(name, on.device());
  sl.kernels->sort(sl.exec, s);
}

SortSpec spec(SortOp op, const Tensor& lines) {
  SortSpec s;
  s.op = op;
  s.dtype = lines.dtype();
  s.values = lines.numel() ? lines.data_ptr() : nullptr;
  s.lines = line_count(lines);
  s.len = line_len(lines);
  return s;
}

void record_selection(Tensor& values, const char* node, const Tensor& t, const Tensor& indices, int64_t d,
                      bool squeezed) {
  if (!any_requires_grad({&t})) return;
  record(values, node, {t}, SelectionBackward{indices, t.sizes(), d, squeezed});
}

int64_t dim_size(const Tensor& t, int64_t d) { return t.dim() ? t.size(d) : 1; }

void check_nonempty(const char* name, const Tensor& t, int64_t d) {
  if (dim_size(t, d) == 0 && t.numel() == 0)
    throw IndexError(cat(name, "(): Expected reduction dim ", d, " to have non-zero size."));
}

// A one-per-line selection (kthvalue, median, mode): values and indices with
// dim d of size 1, or without it.
std::pair<Tensor, Tensor> select_one(SortOp op, const char* name, const char* node, const Tensor& t, int64_t d,
                                     bool keepdim, int64_t k = 0) {
  Tensor v = lines_of(t, d);
  Shape os = v.sizes();
  os.back() = 1;
  Tensor scratch = empty_on(v.sizes(), DType::Int64, t.device());
  Tensor out = empty_on(os, t.dtype(), t.device()), oi = empty_on(os, DType::Int64, t.device());
  SortSpec s = spec(op, v);
  s.k = k;
  s.indices = scratch.numel() ? scratch.data<int64_t>() : nullptr;
  s.out = out.numel() ? out.data_ptr() : nullptr;
  s.out_indices = oi.numel() ? oi.data<int64_t>() : nullptr;
  if (out.numel()) run(name, t, s);
  Tensor values = from_lines(out, t.dim(), d), indices = from_lines(oi, t.dim(), d);
  if (!keepdim && t.dim()) {
    values = squeeze(values, d);
    indices = squeeze(indices, d);
  }
  record_selection(values, node, t, indices, d, !keepdim);
  return {values, indices};
}

void no_bool(const Tensor& t, const char* kernel) {
  if (t.dtype() == DType::Bool)
    throw NotImplementedError(
        cat("\"", kernel, "_", t.device().is_cpu() ? "cpu" : "cuda", "\" not implemented for 'Bool'"));
}

}  // namespace

// The gradient of a selection: g (the selection's shape, dim d of size k, or
// without dim d when `squeezed`) placed at `idx` along d in zeros of in_shape.
Tensor selection_backward(const Tensor& g0, const Tensor& idx0, const Shape& in_shape, int64_t d, bool squeezed) {
  const int64_t nd = int64_t(in_shape.size());
  Tensor g = squeezed && nd ? unsqueeze(g0, d) : g0;
  Tensor idx = squeezed && nd ? unsqueeze(idx0, d) : idx0;
  Tensor gl = lines_of(g, d), il = lines_of(idx, d);
  Shape moved = gl.sizes();
  if (nd) moved.back() = in_shape[size_t(d)];
  Tensor out = zeros(moved.empty() ? Shape{1} : moved, {g.dtype(), g.device()});
  SortSpec s = spec(SortOp::Scatter, gl);
  s.k = s.len;
  s.len = line_len(out);
  s.out = out.numel() ? out.data_ptr() : nullptr;
  s.out_indices = il.numel() ? il.data<int64_t>() : nullptr;
  if (out.numel()) run("scatter", g, s);
  return from_lines(out, nd, d);
}

std::pair<Tensor, Tensor> sort(const Tensor& t, int64_t dim, bool descending, bool /*stable: always*/) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  Tensor v = lines_of(t, d);
  Tensor idx = empty_on(v.sizes(), DType::Int64, t.device());
  SortSpec s = spec(SortOp::Sort, v);
  s.indices = idx.numel() ? idx.data<int64_t>() : nullptr;
  s.descending = descending;
  if (v.numel()) run("sort", t, s);
  Tensor values = from_lines(v, t.dim(), d), indices = from_lines(idx, t.dim(), d);
  record_selection(values, "SortBackward0", t, indices, d, false);
  return {values, indices};
}

Tensor argsort(const Tensor& t, int64_t dim, bool descending, bool stable) {
  NoGradGuard ng;
  return sort(t, dim, descending, stable).second;
}

std::pair<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  GL_CHECK(k >= 0 && k <= dim_size(t, d), "selected index k out of range");
  if (t.dtype() == DType::Bool)
    throw NotImplementedError(cat("topk does not support bool dtypes on ", t.device().is_cpu() ? "CPU" : "CUDA"));
  Tensor v = lines_of(t, d);
  Shape os = v.sizes();
  os.back() = k;
  Tensor scratch = empty_on(v.sizes(), DType::Int64, t.device());
  Tensor out = empty_on(os, t.dtype(), t.device()), oi = empty_on(os, DType::Int64, t.device());
  SortSpec s = spec(SortOp::TopK, v);
  s.k = k;
  s.descending = largest;
  s.sorted = sorted;
  s.indices = scratch.numel() ? scratch.data<int64_t>() : nullptr;
  s.out = out.numel() ? out.data_ptr() : nullptr;
  s.out_indices = oi.numel() ? oi.data<int64_t>() : nullptr;
  if (out.numel()) run("topk", t, s);
  Tensor values = from_lines(out, t.dim(), d), indices = from_lines(oi, t.dim(), d);
  record_selection(values, "TopkBackward0", t, indices, d, false);
  return {values, indices};
}

std::pair<Tensor, Tensor> kthvalue(const Tensor& t, int64_t k, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  check_nonempty("kthvalue", t, d);
  GL_CHECK(k >= 1 && k <= dim_size(t, d), "kthvalue(): selected number k out of range for dimension ", d);
  no_bool(t, "kthvalue");
  return select_one(SortOp::Kth, "kthvalue", "KthvalueBackward0", t, d, keepdim, k);
}

std::pair<Tensor, Tensor> median_dim(const Tensor& t, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  if (t.dtype() == DType::Bool) throw NotImplementedError("\"median_out\" not implemented for 'Bool'");
  check_nonempty("median", t, d);
  return select_one(SortOp::Median, "median", "MedianBackward1", t, d, keepdim);
}

Tensor median(const Tensor& t) {
  no_bool(t, "median");
  if (t.numel() == 0) return full({}, Scalar::from_double(NAN), {t.dtype(), t.device()});
  Tensor flat;
  {
    NoGradGuard ng;
    flat = reshape(t, {-1});
  }
  Tensor out = select_one(SortOp::Median, "median", "MedianBackward0", flat, 0, false).first;
  if (any_requires_grad({&t})) {
    // Evenly among the elements equal to the median (PyTorch's evenly_distribute_backward).
    record(out, {t}, MedianBackward0{t, detach(out)});
  }
  return out;
}

std::pair<Tensor, Tensor> mode(const Tensor& t, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(t.dim(), 1));
  check_nonempty("mode", t, d);
  return select_one(SortOp::Mode, "mode", "ModeBackward0", t, d, keepdim);
}

namespace {
UniqueResult unique_raw(const Tensor& t, bool return_inverse, bool return_counts) {
  UniqueResult r;
  const Device dev = t.device();
  const int64_t n = t.numel();
  NoGradGuard ng;
  if (n == 0) {
    r.values = empty_on({0}, t.dtype(), dev);
    r.inverse = empty_on(t.sizes(), DType::Int64, dev);
    r.counts = empty_on({0}, DType::Int64, dev);
    return r;
  }
  auto [s, perm] = sort(reshape(t, {-1}), 0, false, true);
  // starts[j]: s[j] begins a run of equal values (NaNs differ, so each is its own).
  Tensor starts =
      n == 1
          ? ones({1}, {DType::Bool, dev})
          : cat({ones({1}, {DType::Bool, dev}), binary(BinaryOp::Ne, slice(s, 0, 1, n, 1), slice(s, 0, 0, n - 1, 1))},
                0);
  r.values = masked_select(s, starts);
  if (return_inverse) {
    Tensor group = binary(BinaryOp::Sub, cumsum(starts, 0, DType::Int64), Scalar::from_int(1));
    Tensor inv = empty_on({n}, DType::Int64, dev);
    SortSpec sp = spec(SortOp::Scatter, group);
    sp.k = n;
    sp.out = inv.data_ptr();
    sp.out_indices = perm.data<int64_t>();
    run("scatter", t, sp);
    r.inverse = reshape(inv, t.sizes());
  } else {
    r.inverse = empty_on({0}, DType::Int64, dev);
  }
  if (return_counts) {
    Tensor pos = masked_select(
        arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64, {DType::Int64, dev}),
        starts);
    const int64_t u = pos.numel();
    Tensor ends = cat({slice(pos, 0, 1, u, 1), full({1}, Scalar::from_int(n), {DType::Int64, dev})}, 0);
    r.counts = sub(ends, pos);
  } else {
    r.counts = empty_on({0}, DType::Int64, dev);
  }
  return r;
}
}  // namespace

UniqueResult unique(const Tensor& t, bool return_inverse, bool return_counts) {
  UniqueResult r = unique_raw(t, return_inverse, return_counts);
  if (any_requires_grad({&t}))  // PyTorch records the node but has no derivative for it
    record(r.values, {t}, Unique2Backward0{});
  return r;
}

}  // namespace gl
