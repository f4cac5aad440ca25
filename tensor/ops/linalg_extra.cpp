// Norms, logsumexp and one_hot composed from reductions and elementwise ops,
// with the gradients PyTorch records for them.
#include "tensor/autocast/autocast.h"
#include "tensor/ops/linalg_extra.h"

#include <algorithm>
#include <cmath>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/ops/shape_ops.h"

namespace gl {

namespace {

std::vector<int64_t> wrap_all(const Tensor& t, const std::vector<int64_t>& dims) {
  std::vector<int64_t> w;
  for (int64_t d : dims) w.push_back(wrap_dim(d, std::max<int64_t>(t.dim(), 1)));
  if (w.empty() || t.dim() == 0) {
    w.clear();
    for (int64_t i = 0; i < t.dim(); ++i) w.push_back(i);
  }
  std::sort(w.begin(), w.end());
  return w;
}

Tensor zero_like_scalar(const Tensor& t) { return scalar_tensor(Scalar::from_int(0), t.dtype(), t.device()); }

}  // namespace

Tensor logsumexp(const Tensor& t0, const std::vector<int64_t>& dims0, bool keepdim) {
  if (autocast::Scope ac{autocast::Op::logsumexp, {&t0}}) return logsumexp(ac(t0), dims0, keepdim);  // Note [Autocast]
  // Integers give the default float dtype, as PyTorch.
  const Tensor t = is_floating(t0.dtype()) ? t0 : to_dtype(t0, default_dtype());
  const std::vector<int64_t> dims = wrap_all(t, dims0);
  Tensor out;
  {
    NoGradGuard ng;
    if (t.numel() == 0) {
      out = unary(UnaryOp::Log, sum(unary(UnaryOp::Exp, t), dims, keepdim));
    } else {
      // Shift by the max (0 where it is infinite, so that -inf rows stay -inf).
      Tensor m = amax_dims(t, dims, true);
      m = where(unary(UnaryOp::IsInf, m), zero_like_scalar(m), m);
      out = add(unary(UnaryOp::Log, sum(unary(UnaryOp::Exp, sub(t, m)), dims, true)), m);
      if (!keepdim) out = squeeze_dims(out, dims);
    }
  }
  if (any_requires_grad({&t})) { record(out, {t}, LogsumexpBackward0{t, detach(out), dims, keepdim}); }
  return out;
}

Tensor vector_norm(const Tensor& t, double ord, const std::vector<int64_t>& dims0, bool keepdim) {
  if (autocast::Scope ac{autocast::Op::vector_norm, {&t}})
    return vector_norm(ac(t), ord, dims0, keepdim);  // Note [Autocast]
  GL_CHECK_T(NotImplementedError, is_floating(t.dtype()),
             "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(t.dtype()));
  const std::vector<int64_t> dims = wrap_all(t, dims0);
  Tensor out;
  {
    NoGradGuard ng;
    if (ord == 0) out = sum(to_dtype(binary(BinaryOp::Ne, t, Scalar::from_int(0)), t.dtype()), dims, keepdim);
    else if (std::isinf(ord) && dims.size() > 1) {  // over several dims: the extreme of |t|
      for (int64_t d : dims)
        GL_CHECK(t.size(d) > 0, "linalg.vector_norm cannot compute the ", ord > 0 ? "inf" : "-inf",
                 " norm on the dimension ", d,
                 "because this dimension is empty and the operation does not have an identity");
      Tensor a = unary(UnaryOp::Abs, t);
      out = ord > 0 ? amax_dims(a, dims, keepdim) : amin_dims(a, dims, keepdim);
    } else out = norm(t, ord, dims0, keepdim);
  }
  if (any_requires_grad({&t}) && ord != 0) {
    record(out, {t}, LinalgVectorNormBackward0{t, detach(out), ord, dims, keepdim});
  }
  return out;
}

Tensor matrix_norm(const Tensor& t, const std::string& ord, std::optional<double> num, std::vector<int64_t> dims,
                   bool keepdim) {
  GL_CHECK(t.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  if (dims.empty()) dims = {-2, -1};
  GL_CHECK(dims.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got ", dims.size(), " dims");
  int64_t d0 = wrap_dim(dims[0], t.dim()), d1 = wrap_dim(dims[1], t.dim());
  GL_CHECK(d0 != d1, "linalg.matrix_norm: dims must be different. Got (", dims[0], ", ", dims[1], ")");
  // ord 'nuc', 2 and -2: the sum, largest and smallest singular value, over
  // the two dims moved last (as PyTorch's); keepdim puts size 1 back at both.
  auto from_svd = [&](int kind) {
    Shape perm;
    for (int64_t i = 0; i < t.dim(); ++i)
      if (i != d0 && i != d1) perm.push_back(i);
    perm.push_back(d0);
    perm.push_back(d1);
    Tensor s = linalg_svdvals(permute(t, perm));
    Tensor r = kind == 0 ? sum(s, {-1}, false) : kind > 0 ? amax_dims(s, {-1}, false) : amin_dims(s, {-1}, false);
    if (keepdim)
      for (int64_t d : {std::min(d0, d1), std::max(d0, d1)}) r = unsqueeze(r, d);
    return r;
  };
  if (!num) {
    if (ord == "fro") return vector_norm(t, 2, {d0, d1}, keepdim);
    GL_CHECK(ord == "nuc", "linalg.matrix_norm: Order ", ord, " not supported.");
    return from_svd(0);
  }
  const double o = *num;
  if (o == 2 || o == -2) return from_svd(o > 0 ? 1 : -1);
  // (a double as C++ streams it: 3, 2.5, 1e+30, as PyTorch's message; int64_t(o) was undefined past its range)
  GL_CHECK(o == 1 || o == -1 || std::isinf(o), "linalg.matrix_norm: Order ", o, " not supported.");
  // ord +-1: the extreme column sum of |A|; +-inf: the extreme row sum.
  const bool cols = std::abs(o) == 1;
  const int64_t sum_dim = cols ? d0 : d1, ext_dim = cols ? d1 : d0;
  Tensor s = sum(unary(UnaryOp::Abs, t), {sum_dim}, keepdim);
  const int64_t ext = !keepdim && sum_dim < ext_dim ? ext_dim - 1 : ext_dim;
  return o > 0 ? amax_dims(s, {ext}, keepdim) : amin_dims(s, {ext}, keepdim);
}

Tensor linalg_norm(const Tensor& t, const std::optional<std::string>& sord, std::optional<double> nord,
                   const std::vector<int64_t>& dims, bool keepdim) {
  if (sord || nord) {
    if (dims.empty())
      GL_CHECK(t.dim() == 1 || t.dim() == 2,
               "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ", t.dim(), "D.");
    const bool matrix = sord || dims.size() == 2 || (dims.empty() && t.dim() == 2);
    if (matrix) return matrix_norm(t, sord.value_or(""), sord ? std::nullopt : nord, dims, keepdim);
    return vector_norm(t, *nord, dims, keepdim);
  }
  if (dims.size() == 2) return matrix_norm(t, "fro", std::nullopt, dims, keepdim);
  return vector_norm(t, 2, dims, keepdim);
}

Tensor one_hot(const Tensor& t, int64_t num_classes) {
  GL_CHECK(t.dtype() == DType::Int64, "one_hot is only applicable to index tensor of type LongTensor.");
  if (num_classes == -1) { GL_CHECK(t.numel() > 0, "Can not infer total number of classes from empty tensor."); }
  if (t.numel() > 0) {
    GL_CHECK(item(amin(t, std::nullopt, false)).to_int() >= 0, "Class values must be non-negative.");
    const int64_t mx = item(amax(t, std::nullopt, false)).to_int();
    if (num_classes == -1) num_classes = mx + 1;
    else GL_CHECK(mx < num_classes, "Class values must be smaller than num_classes.");
  }
  GL_CHECK(num_classes >= 0, "num_classes should be positive");  // not reached by PyTorch's own inputs
  Tensor classes = arange(Scalar::from_int(0), Scalar::from_int(num_classes), Scalar::from_int(1), DType::Int64,
                          {DType::Int64, t.device()});
  return to_dtype(binary(BinaryOp::Eq, unsqueeze(t, t.dim()), classes), DType::Int64);
}

}  // namespace gl
