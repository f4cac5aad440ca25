// 2-d convolution: PyTorch's checks and output shape, the device library's
// kernels (tensor/kernels/dnn.h), and ConvolutionBackward0.
#include <algorithm>
#include <limits>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/conv_types.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/trace.h"

namespace gl {

std::vector<int64_t> pair_of(const std::vector<int64_t>& v, const char* what) {
  if (v.size() == 1) return {v[0], v[0]};
  GL_CHECK(v.size() == 2, "expected ", what,
           " to be a single integer value or a list of 2 values to match the convolution dimensions, but got ", what,
           "=", shape_str(v));
  return v;
}

namespace {

// PyTorch's checks, in its order (ConvUtils.h: check_shape_forward).
void check_conv(const Tensor& x, const Tensor& w, const Tensor* b, const Conv2dOptions& o, int64_t ph, int64_t pw) {
  for (int64_t p : o.padding) GL_CHECK(p >= 0, "negative padding is not supported");
  for (int64_t s : o.stride) GL_CHECK(s > 0, "non-positive stride is not supported");
  for (int64_t d : o.dilation) GL_CHECK(d > 0, "non-positive dilation is not supported");
  GL_CHECK(w.dim() == 4, "expected stride to be a single integer value or a list of ", w.dim() - 2,
           " values to match the convolution dimensions, but got stride=", shape_str(o.stride));
  GL_CHECK(o.groups > 0, "non-positive groups is not supported");
  GL_CHECK(w.size(0) >= o.groups, "Given groups=", o.groups, ", expected weight to be at least ", o.groups,
           " at dimension 0, but got weight of size ", shape_str(w.sizes()), " instead");
  // (PyTorch's own text has the shape in two brackets)
  GL_CHECK(w.size(0) % o.groups == 0, "Given groups=", o.groups, ", expected weight to be divisible by ", o.groups,
           " at dimension 0, but got weight of size [", shape_str(w.sizes()), "] instead");
  GL_CHECK(x.size(1) == w.size(1) * o.groups, "Given groups=", o.groups, ", weight of size ", shape_str(w.sizes()),
           ", expected input", shape_str(x.sizes()), " to have ", w.size(1) * o.groups, " channels, but got ",
           x.size(1), " channels instead");
  if (b && b->defined())
    GL_CHECK(b->dim() == 1 && b->size(0) == w.size(0), "Given weight of size ", shape_str(w.sizes()),
             ", expected bias to be 1-dimensional with ", w.size(0), " elements, but got bias of size ",
             shape_str(b->sizes()), " instead");
  // In 128 bits: a padding or dilation near 2^63 (a fuzzer's) must be an error, not an overflow.
  using W128 = __int128;
  const W128 H = x.size(2) + 2 * W128(ph), W = x.size(3) + 2 * W128(pw);
  const W128 R = W128(w.size(2) - 1) * o.dilation[0] + 1, S = W128(w.size(3) - 1) * o.dilation[1] + 1;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  GL_CHECK(H <= kMax && W <= kMax, "gpulab: conv2d padding too large: (", ph, ", ", pw, ")");
  auto i64 = [&](W128 v) { return int64_t(std::min<W128>(v, kMax)); };
  GL_CHECK(H >= R && W >= S, "Calculated padded input size per channel: (", i64(H), " x ", i64(W), "). Kernel size: (",
           i64(R), " x ", i64(S), "). Kernel size can't be greater than actual input size");
  // (PyTorch's CPU kernel's check; an empty kernel left the product with no inner dimension)
  GL_CHECK(w.size(2) > 0 && w.size(3) > 0,
           "kernel size should be greater than zero, but got kernel_height: ", w.size(2), " kernel_width: ", w.size(3));
}

// Zeros after the last row and column: 'same' with an even kernel pads one
// more on the right (PyTorch pads the input, then convolves symmetrically).
Tensor pad_right(const Tensor& x, int64_t rows, int64_t cols) {
  Tensor out = x;
  if (rows) {
    Shape s = out.sizes();
    s[2] = rows;
    out = cat({out, zeros(s, {x.dtype(), x.device()})}, 2);
  }
  if (cols) {
    Shape s = out.sizes();
    s[3] = cols;
    out = cat({out, zeros(s, {x.dtype(), x.device()})}, 3);
  }
  return out;
}

}  // namespace

Tensor conv2d(const Tensor& input0, const Tensor& weight, const Tensor* bias, const Conv2dOptions& o0) {
  if (autocast::Scope ac{autocast::Op::conv2d, {&input0, &weight, bias}}) {  // Note [Autocast]
    const Tensor b = ac(bias);
    return conv2d(ac(input0), ac(weight), bias ? &b : nullptr, o0);
  }
  const Tensor* b = bias && bias->defined() ? bias : nullptr;
  check_conv_bias_dtype(input0, b);  // Note [Convolution type errors]
  GL_CHECK(
      input0.dim() == 3 || input0.dim() == 4,
      "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: ", shape_str(input0.sizes()));
  if (input0.dim() == 3) return squeeze(conv2d(unsqueeze(input0, 0), weight, bias, o0), 0);
  Conv2dOptions o = o0;
  Tensor input = input0;
  if (o.padding_mode == "valid") {
    o.padding = {0, 0};
  } else if (o.padding_mode == "same") {
    for (int64_t s : o.stride) GL_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
    GL_CHECK(weight.dim() == 4, "expected weight to be 4-dimensional for conv2d, got ", shape_str(weight.sizes()));
    const auto dil = pair_of(o.dilation, "dilation");
    int64_t extra[2];
    for (int i = 0; i < 2; ++i) {
      const int64_t total = int64_t(
          std::min<__int128>(__int128(dil[size_t(i)]) * (weight.size(2 + i) - 1), std::numeric_limits<int64_t>::max()));
      o.padding.resize(2);
      o.padding[size_t(i)] = total / 2;
      extra[i] = total - 2 * (total / 2);
    }
    if (extra[0] || extra[1]) input = pad_right(input, extra[0], extra[1]);
  } else {
    GL_CHECK(o.padding_mode.empty(), "Invalid padding string: '", o.padding_mode, "'");
  }
  o.stride = pair_of(o.stride, "stride");
  o.padding = pair_of(o.padding, "padding");
  o.dilation = pair_of(o.dilation, "dilation");
  check_conv(input, weight, b, o, o.padding[0], o.padding[1]);
  check_conv_types(input, weight, b, o);
  // Note [Integer convolution]: PyTorch's CPU kernel convolves integers too,
  // in the integer type (wrapping). Here they convolve in float64, exact while
  // a sum stays below 2^53, and wrap on the way back through int64. (What a
  // GPU does with them is not known here: they stay refused there.)
  const bool integral = !is_floating(input.dtype());
  GL_CHECK(!integral || !input.device().is_cuda(),
           "gpulab: conv2d supports floating-point inputs on CUDA devices, got ", dtype_name(input.dtype()));

  // Note [Reduced-precision convolution]: cuDNN convolves float16 and
  // bfloat16 (autocast's dtypes) itself; the host's libraries take float32 and
  // float64 only, so there those convolve in float32 and the result is rounded
  // to the input's dtype, as PyTorch's CPU kernels accumulate in float. The
  // backward computes in the same dtype and rounds its gradients alike.
  const Device dev = input.device();
  const DnnKernels& lib = dnn_kernels_for(dev);
  ConvGeom g;
  g.dtype = integral                                                    ? DType::Float64
            : is_reduced_float(input.dtype()) && !lib.reduced_precision ? DType::Float32
                                                                        : input.dtype();
  g.N = input.size(0);
  g.C = input.size(1);
  g.H = input.size(2);
  g.W = input.size(3);
  g.K = weight.size(0);
  g.R = weight.size(2);
  g.S = weight.size(3);
  g.sh = o.stride[0];
  g.sw = o.stride[1];
  g.ph = o.padding[0];
  g.pw = o.padding[1];
  g.dh = o.dilation[0];
  g.dw = o.dilation[1];
  g.groups = o.groups;
  g.P = (g.H + 2 * g.ph - g.dh * (g.R - 1) - 1) / g.sh + 1;
  g.Q = (g.W + 2 * g.pw - g.dw * (g.S - 1) - 1) / g.sw + 1;

  // No input channels: PyTorch's empty convolution gives (N, 0, P, Q), whatever K
  Tensor y = empty_on({g.N, g.C == 0 ? 0 : g.K, g.P, g.Q}, g.dtype, dev);
  Tensor xc = contiguous(to_dtype(detach(input), g.dtype)), wc = contiguous(to_dtype(detach(weight), g.dtype));
  Tensor bc = b ? contiguous(to_dtype(detach(*b), g.dtype)) : Tensor();
  if (y.numel() > 0) {
    trace::op("conv2d", dev);
    lib.conv_fwd(dnn_exec_for(dev), g, xc.data_ptr(), wc.data_ptr(), b ? bc.data_ptr() : nullptr, y.data_ptr());
  }
  y = to_dtype(integral ? to_dtype(y, DType::Int64) : y, input.dtype());
  if (any_requires_grad(std::vector<Tensor>{input, weight, b ? *b : Tensor()})) {
    record(y, {input, weight, b ? *b : Tensor()},
           ConvolutionBackward0{g, xc, wc, input.requires_grad(), weight.requires_grad(), b && b->requires_grad()});
  }
  return y;
}

std::vector<Tensor> convolution_backward(const Tensor& grad, const ConvGeom& g, const Tensor& xc, const Tensor& wc,
                                         bool need_x, bool need_w, bool need_b) {
  const Device dev = xc.device();
  Tensor gy = contiguous(to_dtype(grad, g.dtype));  // Note [Reduced-precision convolution]
  Tensor gx, gw, gb;
  const DnnKernels& k = dnn_kernels_for(dev);
  if (need_x) {
    gx = empty_on(xc.sizes(), g.dtype, dev);
    if (gx.numel() > 0) {
      trace::op("conv2d_backward_data", dev);
      if (gy.numel() > 0) k.conv_bwd_data(dnn_exec_for(dev), g, gy.data_ptr(), wc.data_ptr(), gx.data_ptr());
      else fill_(gx, Scalar::from_int(0));
    }
  }
  if (need_w || need_b) {
    gw = empty_on(wc.sizes(), g.dtype, dev);
    if (need_b) gb = empty_on({g.K}, g.dtype, dev);
    trace::op("conv2d_backward_weight", dev);
    if (gy.numel() > 0) {
      k.conv_bwd_weight(dnn_exec_for(dev), g, xc.data_ptr(), gy.data_ptr(), gw.data_ptr(),
                        need_b ? gb.data_ptr() : nullptr);
    } else {
      fill_(gw, Scalar::from_int(0));
      if (need_b) fill_(gb, Scalar::from_int(0));
    }
    if (!need_w) gw = Tensor();
  }
  auto rounded = [&](const Tensor& t) { return t.defined() ? to_dtype(t, grad.dtype()) : t; };
  return {rounded(gx), rounded(gw), rounded(gb)};
}

}  // namespace gl
