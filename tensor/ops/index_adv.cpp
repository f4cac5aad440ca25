// Advanced indexing, x[{i, j}] and x[{i, j}] = v (PyTorch's index and
// index_put_): the index tensors (bool ones as their nonzero coordinates)
// broadcast to one shape B, and each position of B picks the element at
// sum_k i_k * stride(d_k), an offset into self. The gather/scatter kernel
// then runs over B and the dims no tensor indexes. Where the indexed dims are
// adjacent, B takes their place in the result; otherwise B comes first.
#include <algorithm>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/index_run.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

struct Plan {
  Shape b;                   // the broadcast shape of the index tensors
  std::vector<int64_t> adv;  // the dims of self the tensors index, in order
  std::vector<Tensor> idx;   // per indexed dim: int64, broadcast to b, wrapped
  Tensor offset;             // int64 over b: the element offset into self
  Shape shape;               // the result's shape
  Shape self_strides;        // self's strides over `shape` (0 on b's dims)
  Shape index_strides;       // offset's strides over `shape` (0 elsewhere)
};

std::vector<Tensor> expand_masks(const Tensor& self, const std::vector<Tensor>& indices) {
  std::vector<Tensor> out;
  for (const Tensor& t : indices) {
    if (t.defined() && (t.dtype() == DType::Bool || t.dtype() == DType::UInt8)) {
      const int64_t at = int64_t(out.size());
      for (int64_t d = 0; d < t.dim(); ++d)
        if (at + d >= self.dim() || t.size(d) != self.size(at + d))
          throw IndexError(cat("The shape of the mask ", shape_str(t.sizes()), " at index ", d,
                               " does not match the shape of the indexed tensor ", shape_str(self.sizes()),
                               " at index ", at + d));
      std::vector<Tensor> cols = nonzero_tuple(t.dim() ? t : reshape(t, {1}));
      for (Tensor& c : cols) out.push_back(c);
    } else {
      out.push_back(t);
    }
  }
  return out;
}

Plan plan(const Tensor& self, const std::vector<Tensor>& given) {
  std::vector<Tensor> indices = expand_masks(self, given);
  GL_CHECK_T(IndexError, int64_t(indices.size()) <= self.dim(), "too many indices for tensor of dimension ",
             self.dim());
  Plan p;
  std::string shapes;
  bool ok = true;
  for (size_t d = 0; d < indices.size(); ++d) {
    const Tensor& t = indices[d];
    if (!t.defined()) continue;
    GL_CHECK_T(IndexError, t.dtype() == DType::Int64 || t.dtype() == DType::Int32,
               "tensors used as indices must be long, int, byte or bool tensors");
    GL_CHECK(t.device().type == Device::CPU || t.device() == self.device(),
             "indices should be either on cpu or on the same device as the indexed tensor (", self.device().str(), ")");
    p.adv.push_back(int64_t(d));
    shapes += (shapes.empty() ? "" : ", ") + shape_str(t.sizes());
    if (ok) {
      try {
        p.b = p.adv.size() == 1 ? t.sizes() : broadcast_shapes(p.b, t.sizes());
      } catch (const Error&) { ok = false; }
    }
  }
  GL_CHECK_T(IndexError, ok, "shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
  Tensor offset = zeros(p.b, {DType::Int64, self.device()});
  for (int64_t d : p.adv) {
    const int64_t n = self.size(d);
    Tensor t = to(indices[size_t(d)], self.device(), DType::Int64);
    t = index_run::checked(t, -n, n, n, [&](int64_t v) {
      throw IndexError(cat("index ", v, " is out of bounds for dimension ", d, " with size ", n));
    });
    p.idx.push_back(expand(t, p.b));
    offset = binary(BinaryOp::Add, offset, binary(BinaryOp::Mul, t, Scalar::from_int(self.stride(d))));
  }
  p.offset = contiguous(expand(offset, p.b));
  const bool adjacent = p.adv.empty() || p.adv.back() - p.adv.front() + 1 == int64_t(p.adv.size());
  auto is_adv = [&](int64_t d) { return std::find(p.adv.begin(), p.adv.end(), d) != p.adv.end(); };
  auto push_b = [&] {
    for (size_t k = 0; k < p.b.size(); ++k) {
      p.shape.push_back(p.b[k]);
      p.self_strides.push_back(0);
      p.index_strides.push_back(p.offset.stride(int64_t(k)));
    }
  };
  if (!adjacent) push_b();
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (is_adv(d)) {
      if (adjacent && d == p.adv.front()) push_b();  // p.adv is not empty here
      continue;
    }
    p.shape.push_back(self.size(d));
    p.self_strides.push_back(self.stride(d));
    p.index_strides.push_back(0);
  }
  return p;
}

// The tensors a backward pass indexes with again: int64, already wrapped,
// one per dim of self (undefined for the dims taken whole).
std::vector<Tensor> replay(const Plan& p, int64_t ndim) {
  std::vector<Tensor> r(static_cast<size_t>(ndim));
  for (size_t k = 0; k < p.adv.size(); ++k) r[size_t(p.adv[k])] = p.idx[k];
  return r;
}

// The index kernel over a plan: self's elements at the plan's offsets, and
// `other` (the values written, or the output read into) element by element;
// traced as `name`. Nothing runs for an empty plan.
void run_plan(const Tensor& self, const Plan& p, const Tensor& other, IndexOp op, const char* name) {
  index_run::run(op, self, p.self_strides, 1, p.offset, p.index_strides, &other, other.strides(), p.shape, nullptr, 1,
                 name);
}

void put_into(Tensor& self, const Plan& p, const Tensor& values, bool accumulate) {
  GL_CHECK(values.dtype() == self.dtype(), "Index put requires the source and destination dtypes match, got ",
           dtype_legacy_name(self.dtype()), " for the destination and ", dtype_legacy_name(values.dtype()),
           " for the source.");
  common_device({&self, &values});
  Shape vs = values.sizes();
  bool fits = vs.size() <= p.shape.size();
  for (size_t i = 0; fits && i < vs.size(); ++i) {
    const int64_t v = vs[vs.size() - 1 - i], r = p.shape[p.shape.size() - 1 - i];
    fits = v == 1 || v == r;
  }
  GL_CHECK(fits, "shape mismatch: value tensor of shape ", shape_str(vs),
           " cannot be broadcast to indexing result of shape ", shape_str(p.shape));
  run_plan(self, p, expand(values, p.shape), accumulate ? IndexOp::ScatterAdd : IndexOp::Scatter, "index_put");
}

}  // namespace

Tensor index(const Tensor& self, const std::vector<Tensor>& indices) {
  Plan p;
  {
    NoGradGuard ng;
    p = plan(self, indices);
  }
  Tensor out = empty_on(p.shape, self.dtype(), self.device());
  run_plan(self, p, out, IndexOp::Gather, "index");
  if (GradMode::enabled() && self.requires_grad()) {
    record(out, {self}, IndexBackward0{self.sizes(), replay(p, self.dim())});
  }
  return out;
}

Tensor index_put(const Tensor& self, const std::vector<Tensor>& indices, const Tensor& values, bool accumulate) {
  if (autocast::Scope ac{autocast::Op::index_put, {&self, &values}})
    return index_put(ac(self), indices, ac(values), accumulate);  // Note [Autocast]
  Tensor out;
  Plan p;
  {
    NoGradGuard ng;
    out = clone(self);
    p = plan(out, indices);
    put_into(out, p, values, accumulate);
  }
  if (GradMode::enabled() && (self.requires_grad() || values.requires_grad())) {
    record(out, {self, values}, IndexPutBackward0{replay(p, self.dim()), values.sizes(), accumulate});
  }
  return out;
}

void index_put_(Tensor& self, const std::vector<Tensor>& indices, const Tensor& values, bool accumulate) {
  Mutation written(self);  // Note [Version counter]
  if (GradMode::enabled() && (self.requires_grad() || values.requires_grad()))
    return inplace_with_grad(self, [&](const Tensor& old) { return index_put(old, indices, values, accumulate); });
  Plan p = plan(self, indices);
  put_into(self, p, values, accumulate);
}

}  // namespace gl
