// Neural-network functions built from the primitives, each recording the
// node PyTorch records (so grad_fn prints the same name).
#include <cmath>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/random_ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {
Tensor linear_without_hint(const Tensor& x, const Tensor& w, const Tensor* b) {
  const bool bias = b && b->defined();
  if (x.dim() == 2 && bias) return addmm(*b, x, t(w));
  // As PyTorch: a 1-d or contiguous n-d input is folded into one addmm and
  // viewed back (UnsafeViewBackward0).
  if (bias && w.dim() == 2 && (x.dim() == 1 || (x.dim() >= 3 && x.is_contiguous()))) {
    Shape shape = x.sizes();
    shape.back() = w.size(0);
    Tensor r = reshape(addmm(*b, reshape(x, {-1, x.size(-1)}), t(w)), shape);
    rename_grad_fn(r, "UnsafeViewBackward0");
    return r;
  }
  Tensor out = matmul(x, t(w));
  if (bias) out = add(out, *b);
  return out;
}
}  // namespace

Tensor linear(const Tensor& x, const Tensor& w, const Tensor* b) {
  if (autocast::Scope ac{autocast::Op::linear, {&x, &w, b}}) {  // Note [Autocast]
    const Tensor bias = ac(b);
    return linear(ac(x), ac(w), b ? &bias : nullptr);
  }
  try {
    return linear_without_hint(x, w, b);
  } catch (const RuntimeError& e) {
    // PyTorch's text names mat1 and mat2 (or m1 and m2): gpulab's line says
    // they are the input and the weight, and how to convert one.
    if (x.dtype() == w.dtype() || !e.hint().empty()) throw;
    throw RuntimeError(e.what(), dtype_mismatch_hint(x.dtype(), w.dtype()));
  }
}

namespace {
// PyTorch's softmax kernels take floating types only; the error names the
// kernel that would run (on the CPU the last dim has its own).
void check_softmax_dtype(const Tensor& x, int64_t dim, const char* base) {
  if (is_floating(x.dtype())) return;
  const bool last = x.dim() == 0 || dim == x.dim() - 1;
  const std::string kernel =
      x.device().is_cuda() ? std::string("host_softmax") : cat(base, last ? "_lastdim" : "", "_kernel_impl");
  throw NotImplementedError(cat("\"", kernel, "\" not implemented for '", dtype_legacy_name(x.dtype()), "'"));
}
}  // namespace

Tensor softmax(const Tensor& x0, int64_t dim) {
  if (autocast::Scope ac{autocast::Op::softmax, {&x0}}) return softmax(ac(x0), dim);  // Note [Autocast]
  const Tensor& x = x0;
  dim = wrap_dim(dim, std::max<int64_t>(x.dim(), 1));
  if (x.dim() == 0) dim = 0;
  check_softmax_dtype(x, dim, "softmax");
  Tensor y;
  {
    NoGradGuard ng;
    if (x.dim() == 0) return ones({}, {x.dtype(), x.device()});
    if (x.numel() == 0) return empty_on(x.sizes(), x.dtype(), x.device());  // nothing to normalise
    // float16/bfloat16 accumulate in float32 and round once, as PyTorch's kernels
    const Tensor xf = is_reduced_float(x.dtype()) ? to_dtype(x, DType::Float32) : x;
    Tensor m = amax(xf, dim, true);
    Tensor e = unary(UnaryOp::Exp, sub(xf, m));
    y = to_dtype(div(e, sum(e, {dim}, true)), x.dtype());
  }
  if (any_requires_grad({&x0})) record(y, {x0}, SoftmaxBackward0{detach(y), dim});
  return y;
}

Tensor log_softmax(const Tensor& x0, int64_t dim) {
  if (autocast::Scope ac{autocast::Op::log_softmax, {&x0}}) return log_softmax(ac(x0), dim);  // Note [Autocast]
  const Tensor& x = x0;
  dim = wrap_dim(dim, std::max<int64_t>(x.dim(), 1));
  check_softmax_dtype(x, dim, "log_softmax");
  Tensor y;
  {
    NoGradGuard ng;
    if (x.dim() == 0) return zeros({}, {x.dtype(), x.device()});
    if (x.numel() == 0) return empty_on(x.sizes(), x.dtype(), x.device());
    const Tensor xf = is_reduced_float(x.dtype()) ? to_dtype(x, DType::Float32) : x;  // as softmax
    Tensor m = amax(xf, dim, true);
    Tensor shifted = sub(xf, m);
    y = to_dtype(sub(shifted, unary(UnaryOp::Log, sum(unary(UnaryOp::Exp, shifted), {dim}, true))), x.dtype());
  }
  if (any_requires_grad({&x0})) record(y, {x0}, LogSoftmaxBackward0{detach(y), dim});
  return y;
}

namespace {
// Note [Cross-entropy on the device]
// PyTorch raises "Target 10 is out of bounds." for a class index outside
// [0, C) (other than ignore_index). Where the data are host memory (the CPU
// and virtual devices) gpulab checks the same way, one any() read back, and
// only on failure looks for the first bad target to name it. On a real GPU it
// never waits for the device here: PyTorch's kernel asserts asynchronously
// there, and gpulab instead gives such a sample a NaN loss, which the next
// read of the loss shows. Everything else is computed on the device.
void check_targets(const Tensor& tg, int64_t C, int64_t ignore_index) {
  if (!slot_of(tg).host_memory || tg.numel() == 0) return;
  Tensor bad = binary(BinaryOp::LogicalAnd, binary(BinaryOp::Ne, tg, Scalar::from_int(ignore_index)),
                      binary(BinaryOp::LogicalOr, binary(BinaryOp::Lt, tg, Scalar::from_int(0)),
                             binary(BinaryOp::Ge, tg, Scalar::from_int(C))));
  // gpulab's own wait, named apart from the learner's reads in the trace (as index_ops.cpp's bounds check).
  trace::SyncReason why("target check");
  if (!item(any(bad, std::nullopt, false)).i) return;
  Tensor th = contiguous(to(tg, Device(Device::CPU), DType::Int64));
  const int64_t* p = th.data<int64_t>();
  for (int64_t i = 0; i < th.numel(); ++i)
    GL_CHECK_T(IndexError, p[i] == ignore_index || (p[i] >= 0 && p[i] < C), "Target ", p[i], " is out of bounds.");
}

Tensor reduce_loss(const Tensor& per_elem, const std::string& reduction) {
  if (reduction == "mean") return mean(per_elem, {}, false);
  if (reduction == "sum") return sum(per_elem, {}, false);
  if (reduction == "none") return per_elem;
  throw ValueError(cat(reduction, " is not a valid value for reduction"));
}
}  // namespace

Tensor mse_loss(const Tensor& a, const Tensor& b, const std::string& reduction) {
  if (autocast::Scope ac{autocast::Op::mse_loss, {&a, &b}})
    return mse_loss(ac(a), ac(b), reduction);  // Note [Autocast]
  // PyTorch's F.mse_loss warns before it broadcasts: a (n, 1) prediction
  // against an (n,) target, d2l's linear-regression slip, trains on n^2 pairs.
  if (a.sizes() != b.sizes())
    warn(cat("Using a target size (", size_repr(b.sizes()), ") that is different to the input size (",
             size_repr(a.sizes()),
             "). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same "
             "size."));
  Tensor out;
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  {
    NoGradGuard ng;
    Tensor d = sub(a, b);
    out = reduce_loss(mul(d, d), reduction);
  }
  if (any_requires_grad({&a, &b})) {
    const double n = reduction == "mean" ? double(numel_of(shape)) : 1.0;
    record(out, {a, b}, MseLossBackward0{a, b, n});
  }
  return out;
}

// PyTorch's cross_entropy: class-index targets (with weight, ignore_index and
// label_smoothing) or class-probability targets of the input's shape. Every
// case is -sum_c coef[i, c] * log_softmax(x)[i, c], reduced; the backward is
// -coef * g (over the mean's denominator), recorded on the log-softmax.
namespace {
// (N, C, d1, ...), a class score per position (segmentation): PyTorch's
// nll_loss_nd as the (N d1 ..., C) problem, the class dim moved last and the
// rest flattened (the same sums, weights and mean); its node names.
Tensor cross_entropy_nd(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o) {
  const int64_t C = logits.size(1);
  Shape perm{0}, rest{logits.size(0)};
  for (int64_t d = 2; d < logits.dim(); ++d) {
    perm.push_back(d);
    rest.push_back(logits.size(d));
  }
  perm.push_back(1);
  const bool probs = target.sizes() == logits.sizes();
  Tensor t;
  if (probs) {
    t = reshape(permute(target, perm), {-1, C});
  } else {
    if (logits.dim() == 4) {
      GL_CHECK(target.dim() == 3,
               "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
      GL_CHECK(target.sizes() == rest, "size mismatch (got input: ", shape_str(logits.sizes()),
               " , target: ", shape_str(target.sizes()));
    } else {
      GL_CHECK(target.sizes() == rest, "Expected target size ", shape_str(rest), ", got ", shape_str(target.sizes()));
    }
    t = reshape(target, {-1});
  }
  Tensor r = cross_entropy(reshape(permute(logits, perm), {-1, C}), t, o);
  if (o.reduction == "none") r = reshape(r, rest);  // ViewBackward0, as PyTorch's past 4 dims
  if (!probs && o.label_smoothing == 0 && (o.reduction != "none" || logits.dim() == 4))
    rename_grad_fn(r, "NllLoss2DBackward0");
  return r;
}
}  // namespace

Tensor cross_entropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o) {
  if (autocast::Scope ac{autocast::Op::cross_entropy, {&logits, &target, o.weight}}) {  // Note [Autocast]
    const Tensor weight = ac(o.weight);
    CrossEntropyOptions cast = o;
    cast.weight = o.weight ? &weight : nullptr;
    return cross_entropy(ac(logits), ac(target), cast);
  }
  GL_CHECK(logits.dim() >= 1, "gpulab: cross_entropy expects input of shape (C), (N, C) or (N, C, d1, ...), got ",
           shape_str(logits.sizes()));
  if (logits.dim() > 2) return cross_entropy_nd(logits, target, o);
  // PyTorch reads a target of the input's own shape as class probabilities,
  // any other as class indices, and checks the logits' dtype (log_softmax's) first.
  const bool probs = target.sizes() == logits.sizes();
  if (probs)
    GL_CHECK(is_floating(target.dtype()), "Expected floating point type for target with class probabilities, got ",
             dtype_legacy_name(target.dtype()));
  check_softmax_dtype(logits, logits.dim() - 1, "log_softmax");
  common_device({&logits, &target});
  Tensor x = logits.dim() == 1 ? unsqueeze(logits, 0) : logits;
  const int64_t C = x.size(1);
  const TensorOptions fo{x.dtype(), x.device()};
  Tensor wrow;  // per-class weights (none: all 1)
  if (o.weight && o.weight->defined()) {
    GL_CHECK(o.weight->numel() == C, "weight tensor should be defined either for all ", C,
             " classes or no classes but got weight tensor of shape: ", shape_str(o.weight->sizes()));
    wrow = to(reshape(*o.weight, {C}), x.device(), x.dtype());
  }
  const double eps = o.label_smoothing;
  GL_CHECK(eps >= 0 && eps <= 1, "label_smoothing must be between 0.0 and 1.0. Got: ", eps);
  Tensor coef, denom;  // coef: [N, C]; denom: what "mean" divides by
  Tensor nan_rows;     // on a real GPU: NaN for samples with an out-of-range target
  {
    NoGradGuard ng;
    if (probs) {
      Tensor t = to_dtype(logits.dim() == 1 ? unsqueeze(target, 0) : target, x.dtype());
      if (eps > 0)
        t = binary(BinaryOp::Add, binary(BinaryOp::Mul, t, Scalar::from_double(1 - eps)), Scalar::from_double(eps / C));
      coef = wrow.defined() ? mul(t, unsqueeze(wrow, 0)) : t;
      denom = full({}, Scalar::from_int(x.size(0)), fo);
    } else {
      // PyTorch's order: batch size, then target rank, then target dtype.
      const int64_t tn = target.dim() == 0 ? 1 : target.size(0);
      GL_CHECK_T(ValueError, tn == x.size(0), "Expected input batch_size (", x.size(0),
                 ") to match target batch_size (", tn, ").");
      GL_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
      GL_CHECK(target.dtype() == DType::Int64 || target.dtype() == DType::UInt8,
               "expected target dtype to be Long or Byte, but got ", dtype_legacy_name(target.dtype()));
      Tensor tg = to_dtype(target.dim() == 0 ? unsqueeze(target, 0) : target, DType::Int64);
      check_targets(tg, C, o.ignore_index);
      // The coefficients are built on the device (Note [Cross-entropy on the
      // device]): row i is (1-eps) w[t_i] at column t_i plus eps/C w_c, or 0
      // for an ignored sample. An out-of-range target gives a zero row (its
      // loss is made NaN below), never a read outside the logits.
      const Tensor classes = arange(Scalar::from_int(0), Scalar::from_int(C), Scalar::from_int(1), DType::Int64,
                                    {DType::Int64, x.device()});
      Tensor valid = to_dtype(binary(BinaryOp::Ne, tg, Scalar::from_int(o.ignore_index)), x.dtype());     // [N]
      Tensor hot = to_dtype(binary(BinaryOp::Eq, unsqueeze(tg, 1), classes), x.dtype());                  // [N, C]
      Tensor wt = wrow.defined() ? sum(mul(hot, unsqueeze(wrow, 0)), {1}, false) : sum(hot, {1}, false);  // w[t_i]
      Tensor wv = mul(wt, valid);  // w[t_i] for the samples that count
      coef = mul(hot, unsqueeze(binary(BinaryOp::Mul, wv, Scalar::from_double(1 - eps)), 1));
      if (eps > 0) {
        Tensor smooth = wrow.defined() ? binary(BinaryOp::Mul, unsqueeze(wrow, 0), Scalar::from_double(eps / double(C)))
                                       : full({1, C}, Scalar::from_double(eps / double(C)), fo);
        coef = add(coef, mul(smooth, unsqueeze(valid, 1)), Scalar::from_int(1));
      }
      denom = sum(wv, {}, false);
      if (!slot_of(tg).host_memory) {
        // Real GPU: no host check; a sample whose target is out of range gets a NaN loss.
        Tensor bad = binary(BinaryOp::LogicalAnd, binary(BinaryOp::Ne, tg, Scalar::from_int(o.ignore_index)),
                            binary(BinaryOp::LogicalOr, binary(BinaryOp::Lt, tg, Scalar::from_int(0)),
                                   binary(BinaryOp::Ge, tg, Scalar::from_int(C))));
        nan_rows = where(bad, full({}, Scalar::from_double(NAN), fo), zeros({}, fo));
      }
    }
  }
  Tensor lp = log_softmax(x, 1);
  const std::string& red = o.reduction;
  GL_CHECK_T(ValueError, red == "mean" || red == "sum" || red == "none", red, " is not a valid value for reduction");
  Tensor out;
  {
    NoGradGuard ng;
    // 0 - s rather than -s: ignored samples give +0, as in PyTorch.
    out = binary(BinaryOp::Sub, sum(mul(lp, coef), {1}, false), Scalar::from_double(0.0), true);  // per sample, [N]
    if (nan_rows.defined()) out = add(out, nan_rows, Scalar::from_int(1));
    if (red == "sum") out = sum(out, {}, false);
    else if (red == "mean") out = div(sum(out, {}, false), denom);
    else if (logits.dim() == 1) out = squeeze(out, 0);
  }
  if (any_requires_grad({&lp})) {
    const bool none = red == "none";
    Tensor scale = red == "mean" ? denom : Tensor();
    const char* name = probs     ? (red == "mean" ? "DivBackward1" : "NegBackward0")
                       : eps > 0 ? "AddBackward0"
                                 : "NllLossBackward0";
    record(out, name, {lp}, CrossEntropyBackward{coef, scale, none});
  }
  return out;
}

Tensor cross_entropy(const Tensor& logits, const Tensor& target, const std::string& reduction) {
  CrossEntropyOptions o;
  o.reduction = reduction;
  return cross_entropy(logits, target, o);
}

Tensor dropout(const Tensor& x, double p, bool training) {
  GL_CHECK_T(ValueError, p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!training || p == 0) return x;
  if (p == 1) return mul(x, zeros({}, {x.dtype(), x.device()}));
  // PyTorch's CPU dropout: noise = empty_like(x).bernoulli_(1 - p) / (1 - p),
  // drawn as its bernoulli_ draws, so seeded programs drop the same elements.
  // On a GPU, its fused kernel: u < keep with four consecutive elements a
  // draw, keep and scale = 1 / keep in float (Note [PyTorch's CUDA draws]).
  Tensor scale;
  {
    NoGradGuard ng;
    if (on_real_gpu(x) && x.is_contiguous()) {
      const float keep = float(1 - p), s = float(1.0 / double(keep));
      // PyTorch's vector width: 16 bytes, halved until the address and the
      // element count are multiples of it (Note [PyTorch's CUDA draws]).
      const int64_t item = int64_t(itemsize(x.dtype()));
      int group = int(16 / item);
      const auto address = reinterpret_cast<uintptr_t>(x.data_ptr());
      while (group > 1 && (address % uintptr_t(group * item) != 0 || x.numel() % group != 0)) group /= 2;
      Tensor u = gpu_uniforms4(x.sizes(), x.device(), false, group);
      scale = binary(BinaryOp::Mul, to_dtype(binary(BinaryOp::Lt, u, Scalar::from_double(keep)), x.dtype()),
                     Scalar::from_double(s));
    } else {
      scale = empty_on(x.sizes(), x.dtype(), x.device());
      bernoulli_(scale, 1 - p, nullptr);
      scale = binary(BinaryOp::Div, scale, Scalar::from_double(1 - p));
    }
  }
  Tensor out;
  {
    NoGradGuard ng;
    out = mul(x, scale);
  }
  if (any_requires_grad({&x}))
    // PyTorch's CPU dropout is input * mask (MulBackward0); CUDA's is fused.
    record(out, x.device().is_cuda() ? "NativeDropoutBackward0" : "MulBackward0", {x}, DropoutBackward{scale});
  return out;
}

}  // namespace gl
