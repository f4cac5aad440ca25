// Joins: cat and stack (copies into one new tensor, with the grad_fn that
// splits the gradient back).
#include <algorithm>
#include <numeric>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) {
  if (autocast::Scope ac{autocast::Op::cat, ts}) return cat(ac(ts), dim);  // Note [Autocast]
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
  // PyTorch's generated check: the first tensor's device is the common one.
  Device dev = ts.empty() ? Device(Device::CPU) : ts[0].device();
  for (const Tensor* t : ptrs)
    if (t->device() != dev)  // one of the two is a CUDA tensor, so PyTorch's wrapper is CUDA's
      check_args_device(wrapper("cat", {&ts[0], t}), {{"tensors", &ts[0]}, {"tensors", t}},
                        "move them to one device first, e.g. x:to(y.device)");
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
        GL_CHECK(t.sizes()[size_t(d)] == ref->sizes()[size_t(d)], "Sizes of tensors must match except in dimension ",
                 dim, ". Expected size ", ref->sizes()[size_t(d)], " but got size ", t.sizes()[size_t(d)],
                 " for tensor number ", i, " in the list.");
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
    CatBackward0 node{{}, {}, starts, dim};
    for (const Tensor& t : ts) {
      node.sizes.push_back(t.sizes());
      node.dtypes.push_back(t.dtype());
    }
    record(out, ts, std::move(node));
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& ts, int64_t dim) {
  if (autocast::Scope ac{autocast::Op::stack, ts}) return stack(ac(ts), dim);  // Note [Autocast]
  GL_CHECK(!ts.empty(), "stack expects a non-empty TensorList");
  dim = wrap_dim(dim, ts[0].dim() + 1);
  for (size_t i = 1; i < ts.size(); ++i)
    GL_CHECK(ts[i].sizes() == ts[0].sizes(), "stack expects each tensor to be equal size, but got ",
             shape_str(ts[0].sizes()), " at entry 0 and ", shape_str(ts[i].sizes()), " at entry ", i);
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
    StackBackward0 node{{}, dim};
    for (const Tensor& t : ts) node.dtypes.push_back(t.dtype());
    record(out, ts, std::move(node));
  }
  return out;
}

}  // namespace gl
