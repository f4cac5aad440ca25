// Batch norm by the device's library where it takes the call (float32: oneDNN
// on the host, cuDNN on a GPU where PyTorch uses it); otherwise, and layer norm always, from reductions and elementwise
// ops (so every device runs them), each one node with the closed-form
// backward PyTorch's native kernels use: with xhat = (x - mean) * invstd over n values,
//   dx = invstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)), dxhat = g * weight.
#include <cmath>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/trace.h"

namespace gl {
namespace {

Tensor scalar_mul(const Tensor& t, double v) { return binary(BinaryOp::Mul, t, Scalar::from_double(v)); }
Tensor scalar_add(const Tensor& t, double v) { return binary(BinaryOp::Add, t, Scalar::from_double(v)); }
Tensor rsqrt(const Tensor& t) { return unary(UnaryOp::Rsqrt, t); }

// The running stats take the batch's mean and unbiased variance.
void update_running(Tensor& running_mean, Tensor& running_var, const Tensor& mean, const Tensor& var, double momentum,
                    int64_t n) {
  Tensor rm = scalar_mul(mean, momentum);
  Tensor rv = scalar_mul(var, momentum * double(n) / double(std::max<int64_t>(n - 1, 1)));
  copy_(running_mean, add(scalar_mul(running_mean, 1 - momentum), to(rm, running_mean.device(), running_mean.dtype())));
  copy_(running_var, add(scalar_mul(running_var, 1 - momentum), to(rv, running_var.device(), running_var.dtype())));
}

// PyTorch's _select_batch_norm_backend: the CUDA batch norms it gives to
// cuDNN, and so names CudnnBatchNormBackward0 (whichever kernels gpulab runs).
bool pytorch_picks_cudnn(const Tensor& x, const Tensor* weight, const Tensor* bias, const Tensor& running_mean,
                         const Tensor& running_var, bool training, double eps) {
  if (!x.device().is_cuda() || !weight || !bias || x.dim() < 3 || eps < 0) return false;
  const DType t = x.dtype(), w = weight->dtype();
  if (t == DType::BFloat16 || w == DType::BFloat16 || (t == DType::Float16 && w != DType::Float32)) return false;
  const bool stats = running_mean.defined() && running_var.defined();
  if (!stats && !(training && !running_mean.defined() && !running_var.defined())) return false;
  return x.size(0) <= (training ? 880801 : 65535) && x.numel() < INT32_MAX;
}

// The library's kernels (oneDNN on the host, cuDNN on a GPU), float32,
// forward and backward. The library either updates the running stats itself
// (cuDNN, as PyTorch's cudnn_batch_norm) or leaves them to update_running.
// Undefined where the library declines the call (Note [cuDNN batch norm declines]).
// `grad`: whether x, weight or bias wants a gradient (a node is recorded).
Tensor batch_norm_library(const DnnKernels& lib, const NormGeom& g, const char* node, const Tensor& x,
                          Tensor& running_mean, Tensor& running_var, const Tensor* weight, const Tensor* bias,
                          bool training, bool grad) {
  const Device dev = x.device();
  Tensor xc = contiguous(detach(x)), y = empty_on(x.sizes(), DType::Float32, dev), mean, var;
  const size_t reserve_bytes = training && lib.batch_norm_reserve ? lib.batch_norm_reserve(dnn_exec_for(dev), g) : 0;
  Tensor reserve = reserve_bytes ? empty_on({int64_t(reserve_bytes)}, DType::UInt8, dev) : Tensor();
  {
    NoGradGuard ng;
    if (training) {
      mean = empty_on({g.C}, DType::Float32, dev);
      var = empty_on({g.C}, DType::Float32, dev);
    } else {
      mean = contiguous(to(detach(running_mean), dev, DType::Float32));
      var = contiguous(to(detach(running_var), dev, DType::Float32));
    }
    // The library writes the running stats in place (batch_norm_updates_running).
    const bool lib_updates = training && lib.batch_norm_updates_running && running_mean.defined();
    Tensor sc = weight ? contiguous(detach(*weight)) : Tensor(), sh = bias ? contiguous(detach(*bias)) : Tensor();
    trace::op("batch_norm", dev);
    if (!lib.batch_norm_fwd(dnn_exec_for(dev), g, training, xc.data_ptr(), weight ? sc.data_ptr() : nullptr,
                            bias ? sh.data_ptr() : nullptr, y.data_ptr(), mean.data_ptr(), var.data_ptr(),
                            lib_updates ? running_mean.data_ptr() : nullptr,
                            lib_updates ? running_var.data_ptr() : nullptr,
                            reserve.defined() ? reserve.data_ptr() : nullptr))
      return Tensor();
    if (training && running_mean.defined() && !lib.batch_norm_updates_running)
      update_running(running_mean, running_var, mean, var, g.momentum, g.N * g.S);
  }
  if (grad) {
    Tensor sc = weight ? contiguous(detach(*weight)) : Tensor();
    record(y, node, {x, weight ? *weight : Tensor(), bias ? *bias : Tensor()},
           BatchNormLibraryBackward{g, xc, sc, mean, var, reserve, training, weight && weight->requires_grad(),
                                    bias && bias->requires_grad()});
  }
  return y;
}

}  // namespace

// dx for normalisation over `dims` (n values each), in training mode.
Tensor norm_backward(const Tensor& dxhat, const Tensor& xhat, const Tensor& invstd, const std::vector<int64_t>& dims) {
  Tensor m1 = mean(dxhat, dims, true), m2 = mean(mul(dxhat, xhat), dims, true);
  return mul(invstd, sub(sub(dxhat, m1), mul(xhat, m2)));
}

// The training backward from x itself, where the library declined its own
// (Note [cuDNN batch norm declines]): the batch's statistics again, then the
// closed form above, over x seen as [N, C, S].
std::vector<Tensor> batch_norm_backward_from_input(const Tensor& grad, const NormGeom& g, const Tensor& xc,
                                                   const Tensor& sc, bool need_w, bool need_b) {
  const std::vector<int64_t> dims{0, 2};
  const Tensor x3 = reshape(xc, {g.N, g.C, g.S}), g3 = reshape(grad, {g.N, g.C, g.S});
  const Tensor centred = sub(x3, mean(x3, dims, true));
  const Tensor invstd = rsqrt(scalar_add(mean(mul(centred, centred), dims, true), g.eps));
  const Tensor xhat = mul(centred, invstd);
  const Tensor dxhat = sc.defined() ? mul(g3, reshape(sc, {1, g.C, 1})) : g3;
  Tensor gx = reshape(norm_backward(dxhat, xhat, invstd, dims), xc.sizes());
  Tensor gw = need_w ? reshape(sum(mul(g3, xhat), dims, false), {g.C}) : Tensor();
  Tensor gb = need_b ? reshape(sum(g3, dims, false), {g.C}) : Tensor();
  return {gx, gw, gb};
}

std::vector<Tensor> batch_norm_library_backward(const Tensor& grad, const NormGeom& g, bool training, const Tensor& xc,
                                                const Tensor& sc, const Tensor& mean, const Tensor& var,
                                                const Tensor& reserve, bool need_w, bool need_b) {
  const Device dev = xc.device();
  Tensor gy = contiguous(grad), gx = empty_on(xc.sizes(), DType::Float32, dev);
  Tensor gw = need_w ? empty_on({g.C}, DType::Float32, dev) : Tensor();
  Tensor gb = need_b ? empty_on({g.C}, DType::Float32, dev) : Tensor();
  // The library may write to its reserve, and a graph kept for a second backward needs it unchanged.
  Tensor r = reserve.defined() ? clone(reserve) : Tensor();
  trace::op("batch_norm_backward", dev);
  if (!dnn_kernels_for(dev).batch_norm_bwd(dnn_exec_for(dev), g, training, xc.data_ptr(), gy.data_ptr(),
                                           sc.defined() ? sc.data_ptr() : nullptr, mean.data_ptr(), var.data_ptr(),
                                           r.defined() ? r.data_ptr() : nullptr, gx.data_ptr(),
                                           need_w ? gw.data_ptr() : nullptr, need_b ? gb.data_ptr() : nullptr)) {
    GL_CHECK(training, "gpulab: a batch norm library declined an evaluation-mode backward");
    return batch_norm_backward_from_input(gy, g, xc, sc, need_w, need_b);
  }
  return {gx, gw, gb};
}

Tensor batch_norm(const Tensor& x, Tensor running_mean, Tensor running_var, const Tensor* weight0, const Tensor* bias0,
                  bool training, double momentum, double eps) {
  GL_CHECK(x.dim() >= 2, "batch_norm(): expected input to have at least 2 dimensions, got ", x.dim());
  const int64_t C = x.size(1);
  const Tensor* weight = weight0 && weight0->defined() ? weight0 : nullptr;
  const Tensor* bias = bias0 && bias0->defined() ? bias0 : nullptr;
  // Note [Same-device rule]: the model's statistics and parameters with the input.
  check_args_device(wrapper("_native_batch_norm", {&x, weight, bias, &running_mean, &running_var}),
                    {{"input", &x},
                     {"weight", weight},
                     {"bias", bias},
                     {"running_mean", &running_mean},
                     {"running_var", &running_var}});
  for (auto [t, name] : {std::pair{&running_mean, "running_mean"}, std::pair{&running_var, "running_var"}})
    if (t->defined()) GL_CHECK(t->numel() == C, name, " should contain ", C, " elements not ", t->numel());
  for (auto [t, name] : {std::pair{weight, "weight"}, std::pair{bias, "bias"}})
    if (t) GL_CHECK(t->numel() == C, name, " should contain ", C, " elements not ", t->numel());
  GL_CHECK_T(NotImplementedError, is_floating(x.dtype()), "\"batch_norm\" not implemented for '",
             dtype_legacy_name(x.dtype()), "'");
  if (training) {
    const int64_t per_channel = x.numel() / std::max<int64_t>(C, 1);
    GL_CHECK_T(ValueError, per_channel > 1, "Expected more than 1 value per channel when training, got input size ",
               "torch.Size(", shape_str(x.sizes()), ")");
  }
  GL_CHECK(training || (running_mean.defined() && running_var.defined()),
           "running_mean and running_var must be defined in evaluation mode");

  const char* node = pytorch_picks_cudnn(x, weight, bias, running_mean, running_var, training, eps)
                         ? "CudnnBatchNormBackward0"
                         : "NativeBatchNormBackward0";
  const bool grad = any_requires_grad(std::vector<Tensor>{x, weight ? *weight : Tensor(), bias ? *bias : Tensor()});
  const DnnKernels& lib = dnn_kernels_for(x.device());
  const auto f32 = [](const Tensor* t) { return !t || t->dtype() == DType::Float32; };
  const auto f32_contiguous = [](const Tensor& t) { return t.dtype() == DType::Float32 && t.is_contiguous(); };
  if (lib.batch_norm_fwd && x.numel() > 0 && x.dtype() == DType::Float32 && !weight == !bias && f32(weight) &&
      f32(bias) && (training || (running_mean.dtype() == DType::Float32 && running_var.dtype() == DType::Float32)) &&
      // a library that writes the running stats needs them as its float32 vectors
      (!lib.batch_norm_updates_running || !training ||
       (running_mean.defined() ? running_var.defined() && f32_contiguous(running_mean) && f32_contiguous(running_var)
                               : !running_var.defined()))) {
    NormGeom g;
    g.N = x.size(0);
    g.C = C;
    g.S = x.numel() / (g.N * g.C);
    g.dim = x.dim();
    g.eps = eps;
    g.momentum = momentum;
    if (lib.batch_norm_takes(g, training, weight != nullptr, grad)) {
      Tensor y = batch_norm_library(lib, g, node, x, running_mean, running_var, weight, bias, training, grad);
      if (y.defined()) return y;
    }
  }

  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
  Shape bshape(size_t(x.dim()), 1);  // [1, C, 1, ...]
  bshape[1] = C;
  const int64_t n = x.numel() / std::max<int64_t>(C, 1);
  // Note [Mixed-precision norms]: a float16 or bfloat16 input with float32
  // parameters or statistics (a convolution under autocast, then BatchNorm2d)
  // is normalised in float32 and the result rounded to the input's dtype, as
  // PyTorch's mixed-type kernels; the backward (derivatives_nn.cpp) alike.
  const bool mixed = is_reduced_float(x.dtype()) &&
                     ((weight && weight->dtype() == DType::Float32) || (bias && bias->dtype() == DType::Float32) ||
                      (running_mean.defined() && running_mean.dtype() == DType::Float32));
  Tensor xd = mixed ? to_dtype(detach(x), DType::Float32) : detach(x), mu, invstd, xhat, y;
  {
    NoGradGuard ng;
    if (training) {
      mu = mean(xd, dims, true);
      Tensor centered = sub(xd, mu);
      Tensor var = mean(mul(centered, centered), dims, true);  // biased, as the normalisation uses
      invstd = rsqrt(scalar_add(var, eps));
      xhat = mul(centered, invstd);
      if (running_mean.defined())
        update_running(running_mean, running_var, reshape(mu, {C}), reshape(var, {C}), momentum, n);
    } else {
      mu = reshape(to_dtype(running_mean, xd.dtype()), bshape);
      invstd = rsqrt(scalar_add(reshape(to_dtype(running_var, xd.dtype()), bshape), eps));
      xhat = mul(sub(xd, mu), invstd);
    }
    y = xhat;
    if (weight) y = mul(y, reshape(detach(*weight), bshape));
    if (bias) y = add(y, reshape(detach(*bias), bshape));
    if (!weight && !bias) y = clone(y);
    y = to_dtype(y, x.dtype());
  }
  if (grad) {
    record(y, node, {x, weight ? *weight : Tensor(), bias ? *bias : Tensor()},
           BatchNormBackward{xhat, invstd, weight ? detach(*weight) : Tensor(), dims, bshape, training,
                             weight && weight->requires_grad(), bias && bias->requires_grad(), C});
  }
  return y;
}

Tensor layer_norm(const Tensor& x, const std::vector<int64_t>& ns, const Tensor* weight0, const Tensor* bias0,
                  double eps) {
  if (autocast::Scope ac{autocast::Op::layer_norm, {&x, weight0, bias0}}) {  // Note [Autocast]
    const Tensor w = ac(weight0), b = ac(bias0);
    return layer_norm(ac(x), ns, weight0 ? &w : nullptr, bias0 ? &b : nullptr, eps);
  }
  const int64_t k = int64_t(ns.size());
  bool ok = k >= 1 && x.dim() >= k;
  for (int64_t i = 0; ok && i < k; ++i) ok = x.size(x.dim() - k + i) == ns[size_t(i)];
  if (!ok) {
    std::string want = "[*";
    for (int64_t v : ns) want += cat(", ", v);
    throw RuntimeError(cat("Given normalized_shape=", shape_str(ns), ", expected input with shape ", want,
                           "], but got input of size", shape_str(x.sizes())));
  }
  const Tensor* weight = weight0 && weight0->defined() ? weight0 : nullptr;
  const Tensor* bias = bias0 && bias0->defined() ? bias0 : nullptr;
  for (auto [t, name] : {std::pair{weight, "weight"}, std::pair{bias, "bias"}})
    if (t)
      GL_CHECK(t->sizes() == Shape(ns.begin(), ns.end()), "Expected ", name,
               " to be of same shape as normalized_shape, but got ", name, " of shape ", shape_str(t->sizes()),
               " and normalized_shape = ", shape_str(ns));
  check_args_device(wrapper("_native_layer_norm", {&x, weight, bias}),
                    {{"input", &x}, {"weight", weight}, {"bias", bias}});  // Note [Same-device rule]
  GL_CHECK_T(NotImplementedError, is_floating(x.dtype()), "\"LayerNormKernelImpl\" not implemented for '",
             dtype_legacy_name(x.dtype()), "'");
  std::vector<int64_t> dims;
  for (int64_t d = x.dim() - k; d < x.dim(); ++d) dims.push_back(d);
  const bool mixed = is_reduced_float(x.dtype()) &&
                     ((weight && weight->dtype() == DType::Float32) || (bias && bias->dtype() == DType::Float32));
  Tensor xd = mixed ? to_dtype(detach(x), DType::Float32) : detach(x), xhat, invstd, y;  // Note [Mixed-precision norms]
  {
    NoGradGuard ng;
    Tensor centered = sub(xd, mean(xd, dims, true));
    invstd = rsqrt(scalar_add(mean(mul(centered, centered), dims, true), eps));
    xhat = mul(centered, invstd);
    y = xhat;
    if (weight) y = mul(y, detach(*weight));
    if (bias) y = add(y, detach(*bias));
    y = to_dtype(y, x.dtype());
  }
  if (any_requires_grad(std::vector<Tensor>{x, weight ? *weight : Tensor(), bias ? *bias : Tensor()})) {
    record(y, {x, weight ? *weight : Tensor(), bias ? *bias : Tensor()},
           NativeLayerNormBackward0{xhat, invstd, weight ? detach(*weight) : Tensor(), dims,
                                    weight ? weight->sizes() : Shape{}, weight && weight->requires_grad(),
                                    bias && bias->requires_grad()});
  }
  return y;
}

}  // namespace gl
