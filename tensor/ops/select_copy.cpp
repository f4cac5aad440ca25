// Selections that copy out rather than view: masked_select, assignment through
// a bool mask, index_select.
#include <algorithm>
#include <cstring>
#include <numeric>
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

namespace {
size_t count_true(const std::vector<char>& mask_bytes) {
  return size_t(std::count_if(mask_bytes.begin(), mask_bytes.end(), [](char c) { return c != 0; }));
}
}  // namespace

Tensor masked_select(const Tensor& x, const Tensor& mask) {
  GL_CHECK(mask.dtype() == DType::Bool, "masked_select: expected BoolTensor for mask");
  common_device({&x, &mask});
  Shape shape = broadcast_shapes(mask.sizes(), x.sizes());  // mask first: PyTorch's "tensor a" in the error
  Tensor xs = contiguous(expand(x, shape)), ms = contiguous(expand(mask, shape));
  auto xb = to_host_bytes(xs);
  auto mb = to_host_bytes(ms);
  const size_t isz = itemsize(x.dtype());
  // Sized from the count, then each selected element copied into place:
  // growing the output by one element's bytes at a time was most of a large
  // selection's time.
  const size_t count = count_true(mb);
  std::vector<int64_t> picked;
  picked.reserve(count);
  std::vector<char> out(count * isz);
  for (size_t i = 0; i < mb.size(); ++i) {
    if (!mb[i]) continue;
    std::memcpy(out.data() + picked.size() * isz, xb.data() + i * isz, isz);
    picked.push_back(int64_t(i));
  }
  Tensor r = from_host(out.data(), {int64_t(picked.size())}, x.dtype(), {x.dtype(), x.device()});
  if (any_requires_grad({&x})) { record(r, {x}, MaskedSelectBackward0{x.sizes(), shape, picked}); }
  return r;
}

void masked_assign_(Tensor& t, const Tensor& mask, const Tensor& value) {
  Mutation written(t);  // Note [Version counter]
  GL_CHECK(mask.dtype() == DType::Bool && mask.dim() <= t.dim(),
           "masked_assign_: expected a bool mask over leading dims");
  std::vector<char> mb = to_host_bytes(mask);
  const int64_t count = int64_t(count_true(mb));
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
           dtype_legacy_name(t.dtype()), " for the destination and ", dtype_legacy_name(value.dtype()),
           " for the source.");
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
  check_args_device(wrapper("_index_select", {&x, &index}), {{"self", &x}, {"index", &index}},
                    "move the index to the tensor's device: index:to(x.device)");
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
