// What the index ops share (index_ops.cpp, index_add_take.cpp, index_adv.cpp):
// index dtypes, the bounds check, and one call of the gather/scatter kernel.
#pragma once
#include <functional>
#include <initializer_list>
#include "tensor/autograd/node.h"
#include "tensor/core/tensor.h"
#include "tensor/kernels/index_spec.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/trace.h"

namespace gl::index_run {

// int32 indices are taken as int64; other dtypes are left for the op's own check.
Tensor as_long_index(const Tensor& t);
Tensor long_cpu(const Tensor& t);

// Throws `bad(v)` for the first index (in order) outside [lo, hi); returns
// the index with negatives wrapped by n when lo < 0.
template <class Bad> Tensor checked(const Tensor& idx, int64_t lo, int64_t hi, int64_t n, Bad bad) {
  if (idx.numel() == 0) return idx;
  NoGradGuard ng;
  // gpulab's own wait (PyTorch asserts on the device): named apart from the
  // learner's item()/tolist()/print in the trace the checkers read.
  trace::SyncReason why("bounds check");
  const int64_t mn = item(min_all(idx)).to_int(), mx = item(max_all(idx)).to_int();
  if (mn < lo || mx >= hi) {
    Tensor h = long_cpu(contiguous(idx));
    const int64_t* p = h.data<int64_t>();
    for (int64_t i = 0; i < h.numel(); ++i)
      if (p[i] < lo || p[i] >= hi) bad(p[i]);
  }
  if (mn >= 0) return idx;
  return where(binary(BinaryOp::Lt, idx, Scalar::from_int(0)), binary(BinaryOp::Add, idx, Scalar::from_int(n)), idx);
}

// Runs the kernel over `shape`: self indexed along one axis (self_strides 0
// there, self_step per index unit), index and other with their own strides;
// `other` null: `value` is written. Traced as `name` (by default "gather" or
// "scatter", after op).
void run(IndexOp op, const Tensor& self, const Shape& self_strides, int64_t self_step, const Tensor& index,
         const Shape& index_strides, const Tensor* other, const Shape& other_strides, const Shape& shape,
         const Scalar* value = nullptr, double alpha = 1, const char* name = nullptr);

// index checked against [0, n) along dim, with gather's and scatter's error.
Tensor bounded(const Tensor& index, int64_t dim, int64_t n);
// out (already the output) <- scatter by op along dim: src, or `value` where src is null.
void scatter_into(Tensor& out, int64_t dim, const Tensor& index, const Tensor* src, const Scalar* value, IndexOp op);

Shape with_zero(Shape strides, int64_t dim);  // strides with dim's set to 0
bool wants_grad(std::initializer_list<const Tensor*> ts);

// An in-place index op: `direct` where no autograd is needed, else through
// inplace_with_grad with the out-of-place form `f`.
template <class F> void in_place(Tensor& self, std::initializer_list<const Tensor*> others, F direct,
                                 const std::function<Tensor(const Tensor&)>& f) {
  bool any = self.requires_grad();
  for (auto* t : others) any = any || t->requires_grad();
  if (GradMode::enabled() && any) return inplace_with_grad(self, f);
  direct();
}

}  // namespace gl::index_run
