// Neural-network functions built from the primitives, each recording the
// node PyTorch records (so grad_fn prints the same name).
#include <cmath>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl {

Tensor linear(const Tensor& x, const Tensor& w, const Tensor* b) {
  if (x.dim() == 2 && b && b->defined()) return addmm(*b, x, t(w));
  Tensor out = matmul(x, t(w));
  if (b && b->defined()) out = add(out, *b);
  return out;
}

Tensor softmax(const Tensor& x0, int64_t dim) {
  Tensor x = is_floating(x0.dtype()) ? x0 : to_dtype(x0, DType::Float32);
  dim = wrap_dim(dim, std::max<int64_t>(x.dim(), 1));
  if (x.dim() == 0) dim = 0;
  Tensor y;
  {
    NoGradGuard ng;
    if (x.dim() == 0) return ones({}, {x.dtype(), x.device()});
    Tensor m = amax(x, dim, true);
    Tensor e = unary(UnaryOp::Exp, sub(x, m));
    y = div(e, sum(e, {dim}, true));
  }
  if (any_requires_grad({&x0})) {
    Tensor yd = detach(y);
    record(y, "SoftmaxBackward0", {x0}, [yd, dim](const Tensor& g) -> std::vector<Tensor> {
      return {mul(yd, sub(g, sum(mul(g, yd), {dim}, true)))};
    });
  }
  return y;
}

Tensor log_softmax(const Tensor& x0, int64_t dim) {
  Tensor x = is_floating(x0.dtype()) ? x0 : to_dtype(x0, DType::Float32);
  dim = wrap_dim(dim, std::max<int64_t>(x.dim(), 1));
  Tensor y;
  {
    NoGradGuard ng;
    if (x.dim() == 0) return zeros({}, {x.dtype(), x.device()});
    Tensor m = amax(x, dim, true);
    Tensor shifted = sub(x, m);
    y = sub(shifted, unary(UnaryOp::Log, sum(unary(UnaryOp::Exp, shifted), {dim}, true)));
  }
  if (any_requires_grad({&x0})) {
    Tensor yd = detach(y);
    record(y, "LogSoftmaxBackward0", {x0}, [yd, dim](const Tensor& g) -> std::vector<Tensor> {
      return {sub(g, mul(unary(UnaryOp::Exp, yd), sum(g, {dim}, true)))};
    });
  }
  return y;
}

namespace {
Tensor reduce_loss(const Tensor& per_elem, const std::string& reduction) {
  if (reduction == "mean") return mean(per_elem, {}, false);
  if (reduction == "sum") return sum(per_elem, {}, false);
  if (reduction == "none") return per_elem;
  throw ValueError(cat(reduction, " is not a valid value for reduction"));
}
}  // namespace

Tensor mse_loss(const Tensor& a, const Tensor& b, const std::string& reduction) {
  Tensor out;
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  {
    NoGradGuard ng;
    Tensor d = sub(a, b);
    out = reduce_loss(mul(d, d), reduction);
  }
  if (any_requires_grad({&a, &b})) {
    const double n = reduction == "mean" ? double(numel_of(shape)) : 1.0;
    record(out, "MseLossBackward0", {a, b}, [a, b, n, shape](const Tensor& g) -> std::vector<Tensor> {
      Tensor d = binary(BinaryOp::Mul, sub(a, b), Scalar::from_double(2.0 / n));
      Tensor ga = mul(d, g);
      return {sum_to(ga, a.sizes()), sum_to(neg(ga), b.sizes())};
    });
  }
  return out;
}

Tensor cross_entropy(const Tensor& logits, const Tensor& target, const std::string& reduction) {
  GL_CHECK(logits.dim() == 1 || logits.dim() == 2, "gpulab: cross_entropy expects input of shape (C) or (N, C), got ",
        shape_str(logits.sizes()));
  GL_CHECK(!is_floating(target.dtype()) && target.dtype() != DType::Bool,
        "expected scalar type Long but found ", dtype_legacy_name(target.dtype()));
  common_device({&logits, &target});
  Tensor x = logits.dim() == 1 ? unsqueeze(logits, 0) : logits;
  Tensor tg = target.dim() == 0 ? unsqueeze(target, 0) : target;
  GL_CHECK(tg.dim() == 1 && tg.size(0) == x.size(0), "Expected input batch_size (", x.size(0), ") to match target batch_size (",
        tg.dim() ? tg.size(0) : 1, ").");
  const int64_t C = x.size(1);
  {
    Tensor th = to(tg, Device(Device::CPU), DType::Int64);
    const int64_t* p = th.data<int64_t>();
    for (int64_t i = 0; i < th.numel(); ++i)
      GL_CHECK_T(IndexError, p[i] >= 0 && p[i] < C, "Target ", p[i], " is out of bounds.");
  }
  Tensor lp = log_softmax(x, 1);
  Tensor classes = arange(Scalar::from_int(0), Scalar::from_int(C), Scalar::from_int(1), DType::Int64, {DType::Int64, x.device()});
  Tensor onehot = to_dtype(binary(BinaryOp::Eq, unsqueeze(to_dtype(tg, DType::Int64), 1), unsqueeze(classes, 0)), lp.dtype());
  Tensor out;
  {
    NoGradGuard ng;
    out = reduce_loss(neg(sum(mul(lp, onehot), {1}, false)), reduction);
    if (logits.dim() == 1 && reduction == "none") out = squeeze(out, 0);
  }
  if (any_requires_grad({&lp})) {
    const double n = reduction == "mean" ? double(x.size(0)) : 1.0;
    const bool none = reduction == "none";
    record(out, "NllLossBackward0", {lp}, [onehot, n, none](const Tensor& g) -> std::vector<Tensor> {
      Tensor gg = none ? unsqueeze(reshape(g, {-1}), 1) : g;
      return {binary(BinaryOp::Mul, mul(onehot, gg), Scalar::from_double(-1.0 / n))};
    });
  }
  return out;
}

Tensor dropout(const Tensor& x, double p, bool training) {
  GL_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!training || p == 0) return x;
  if (p == 1) return mul(x, zeros({}, {x.dtype(), x.device()}));
  Tensor keep = binary(BinaryOp::Lt, rand(x.sizes(), {x.dtype(), x.device()}), Scalar::from_double(1 - p));
  Tensor scale = binary(BinaryOp::Mul, to_dtype(keep, x.dtype()), Scalar::from_double(1.0 / (1 - p)));
  Tensor out;
  {
    NoGradGuard ng;
    out = mul(x, scale);
  }
  if (any_requires_grad({&x}))
    record(out, "NativeDropoutBackward0", {x}, [scale](const Tensor& g) -> std::vector<Tensor> { return {mul(g, scale)}; });
  return out;
}

}  // namespace gl
