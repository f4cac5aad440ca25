// Max and average pooling on the device's library (tensor/kernels/dnn.h), with
// PyTorch's output sizes, checks and nodes; adaptive average pooling as two
// small matmuls (the averaging matrices over rows and columns), so it runs on
// every device and its backward is two more.
#include <algorithm>
#include <cmath>
#include <limits>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {
namespace {

std::vector<int64_t> pool_pair(const std::vector<int64_t>& v, const char* fn, const char* what) {
  if (v.size() == 1) return {v[0], v[0]};
  GL_CHECK(v.size() == 2, fn, ": ", what, " must either be a single int, or a tuple of two ints");
  return v;
}

// PyTorch's pooling_output_shape: with ceil_mode the last window must start
// inside the input or its left padding. In 128 bits: a kernel, dilation or
// stride near 2^63 (a fuzzer's) must end in the "too small" error, not overflow.
int64_t out_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  using W = __int128;
  const W num = W(in) + 2 * W(pad) - W(dil) * (W(k) - 1) - 1 + (ceil_mode ? W(stride) - 1 : 0);
  W out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;  // floor division
  if (ceil_mode && (out - 1) * stride >= W(in) + pad) --out;
  return int64_t(std::clamp<W>(out, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()));
}

// PyTorch's checks in its order, and the geometry they give.
PoolGeom pool_geom(const Tensor& input, const Pool2dOptions& o, bool is_max) {
  const char* fn = is_max ? "max_pool2d" : "avg_pool2d";
  const bool override_div = !is_max && o.divisor_override.has_value();
  GL_CHECK(!override_div || *o.divisor_override != 0, "divisor must be not zero");
  const auto k = pool_pair(o.kernel, fn, "kernel_size");
  const auto s = o.stride.empty() ? k : pool_pair(o.stride, fn, "stride");
  const auto p = pool_pair(o.padding, fn, "padding");
  const auto d = pool_pair(o.dilation, fn, "dilation");
  GL_CHECK(k[0] > 0 && k[1] > 0, "kernel size should be greater than zero, but got kH: ", k[0], " kW: ", k[1]);
  GL_CHECK(s[0] > 0 && s[1] > 0, "stride should be greater than zero, but got dH: ", s[0], " dW: ", s[1]);
  GL_CHECK(d[0] > 0 && d[1] > 0, "dilation should be greater than zero, but got dilationH: ", d[0],
           " dilationW: ", d[1]);
  GL_CHECK((input.dim() == 3 || input.dim() == 4) && input.numel() > 0,
           "non-empty 3D or 4D (batch mode) tensor expected for input");
  for (int i = 0; i < 2; ++i) {
    const __int128 eff = is_max ? __int128(k[size_t(i)] - 1) * d[size_t(i)] + 1 : k[size_t(i)];
    GL_CHECK(__int128(p[size_t(i)]) * 2 <= eff,
             "pad should be at most half of effective kernel size, but got pad=", p[size_t(i)],
             ", kernel_size=", k[size_t(i)], " and dilation=", is_max ? d[size_t(i)] : 1);
  }
  PoolGeom g;
  g.dtype = input.dtype();
  g.max = is_max;
  // An unbatched [C, H, W] is one image (and keeps PyTorch's node, no squeeze).
  const bool batched = input.dim() == 4;
  g.N = batched ? input.size(0) : 1;
  g.C = input.size(-3);
  g.H = input.size(-2);
  g.W = input.size(-1);
  g.kh = k[0];
  g.kw = k[1];
  g.sh = s[0];
  g.sw = s[1];
  g.ph = p[0];
  g.pw = p[1];
  g.dh = is_max ? d[0] : 1;
  g.dw = is_max ? d[1] : 1;
  g.count_include_pad = o.count_include_pad;
  g.P = out_size(g.H, g.kh, g.ph, g.sh, g.dh, o.ceil_mode);
  g.Q = out_size(g.W, g.kw, g.pw, g.sw, g.dw, o.ceil_mode);
  GL_CHECK(g.P > 0 && g.Q > 0, "Given input size: (", g.C, "x", g.H, "x", g.W, "). Calculated output size: (", g.C, "x",
           g.P, "x", g.Q, "). Output size is too small");
  // Integer pooling is composed (below): max of every integer dtype, and, as
  // PyTorch's CPU kernel (its CUDA kernel averages floats only), the average
  // of int64, each window's sum divided as C++ divides (truncating).
  const bool cuda = input.device().is_cuda();
  GL_CHECK_T(NotImplementedError,
             is_floating(g.dtype) || (is_max ? g.dtype != DType::Bool : g.dtype == DType::Int64 && !cuda), "\"",
             is_max ? "max_pool2d"
             : cuda ? "avg_pool2d_out_cuda_frame"
                    : "avg_pool2d",
             "\" not implemented for '", dtype_legacy_name(g.dtype), "'");
  // divisor_override: the window's sum over divisor, from the library's
  // average over the whole kernel (padding and any overhang count as zeros).
  if (override_div) g.count_include_pad = true;
  return g;
}

// ceil_mode's last window may pass the padding: PyTorch then divides by the
// window cut at the padding's end, which the libraries cannot express (they
// count the whole kernel, or only the input, and cuDNN refuses the window).
bool passes_padding(const PoolGeom& g) {
  return (g.P - 1) * g.sh + g.kh > g.H + 2 * g.ph || (g.Q - 1) * g.sw + g.kw > g.W + 2 * g.pw;
}

// Pooling composed from index ops, for what the libraries lack: max pooling's
// indices as PyTorch gives them (h * W + w in each input plane), and dtypes
// oneDNN does not pool (float64). Each output's window is gathered from the
// flattened planes by a map of input positions built on the host; a position
// in the padding points at the window's first input position instead, which
// leaves the max and its first index as PyTorch's. Average pooling gathers
// with the padding as zeros and divides by PyTorch's count. Autograd runs
// through the gather and the reduction.
Tensor composed_pool(const Tensor& input, const PoolGeom& g, const Pool2dOptions& o, Tensor* indices) {
  const int64_t K = g.kh * g.kw, HW = g.H * g.W;
  std::vector<int64_t> map(size_t(g.P * g.Q * K));
  std::vector<double> count(size_t(g.P * g.Q));
  for (int64_t p = 0; p < g.P; ++p)
    for (int64_t q = 0; q < g.Q; ++q) {
      const int64_t h0 = p * g.sh - g.ph, w0 = q * g.sw - g.pw;
      int64_t first = -1, n = 0;
      for (int64_t i = 0; i < g.kh && first < 0; ++i)
        for (int64_t j = 0; j < g.kw && first < 0; ++j) {
          const int64_t h = h0 + i * g.dh, w = w0 + j * g.dw;
          if (h >= 0 && h < g.H && w >= 0 && w < g.W) first = h * g.W + w;
        }
      for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j) {
          const int64_t h = h0 + i * g.dh, w = w0 + j * g.dw;
          const bool in = h >= 0 && h < g.H && w >= 0 && w < g.W;
          n += in;
          // max: a padded position repeats the first input one; average: the zero slot at HW.
          map[size_t((p * g.Q + q) * K + i * g.kw + j)] = in ? h * g.W + w : g.max ? first : HW;
        }
      // PyTorch's divisor: the window cut at the padding's end, or only the input.
      const int64_t hend = std::min(h0 + g.kh, g.H + g.ph), wend = std::min(w0 + g.kw, g.W + g.pw);
      const double padded = double((hend - h0) * (wend - w0));
      count[size_t(p * g.Q + q)] = o.divisor_override    ? double(*o.divisor_override)
                                   : o.count_include_pad ? padded
                                                         : double(n);
    }
  const Device dev = input.device();
  const TensorOptions io{DType::Int64, Device(Device::CPU)};
  Tensor index = to(from_host(map.data(), {int64_t(map.size())}, DType::Int64, io), dev, DType::Int64);
  Shape lead(input.sizes().begin(), input.sizes().end() - 2);
  Shape flat = lead, win = lead, out = lead;
  flat.push_back(HW);
  win.insert(win.end(), {g.P, g.Q, K});
  out.insert(out.end(), {g.P, g.Q});
  const int64_t last = int64_t(lead.size());
  Tensor x = reshape(input, flat);
  if (!g.max) {
    Shape z = lead;
    z.push_back(1);
    x = cat({x, zeros(z, {input.dtype(), dev})}, last);
  }
  Tensor windows = reshape(index_select(x, last, index), win);
  if (g.max) {
    auto [values, arg] = max_dim(windows, last + 2, false);
    rename_grad_fn(values, "MaxPool2DWithIndicesBackward0");
    if (indices) {  // arg is the place in each window: its map entry is the input position
      Tensor start = reshape(arange(Scalar::from_int(0), Scalar::from_int(g.P * g.Q * K), Scalar::from_int(K),
                                    DType::Int64, {DType::Int64, dev}),
                             {g.P, g.Q});
      *indices = reshape(index_select(index, 0, reshape(add(arg, start, Scalar::from_int(1)), {-1})), out);
    }
    return values;
  }
  Tensor div = to(from_host(count.data(), {g.P, g.Q}, DType::Float64, {DType::Float64, Device(Device::CPU)}), dev,
                  input.dtype());
  Tensor y = is_floating(input.dtype()) ? binary(BinaryOp::Div, sum(windows, {last + 2}, false), div)
                                        : gl::div(sum(windows, {last + 2}, false), div, std::string("trunc"));
  rename_grad_fn(y, "AvgPool2DBackward0");
  return y;
}

Tensor pool2d(const Tensor& input, const Pool2dOptions& o, bool is_max) {
  const char* fn = is_max ? "max_pool2d" : "avg_pool2d";
  const bool override_div = !is_max && o.divisor_override.has_value();
  PoolGeom g = pool_geom(input, o, is_max);
  // Composed: what oneDNN (float32 only) and cuDNN (floating types, no
  // dilation) do not pool, and windows past the padding.
  const bool host = slot_of(input).host_memory;
  if (passes_padding(g) || (host ? g.dtype != DType::Float32 : !is_floating(g.dtype) || g.dh != 1 || g.dw != 1))
    return composed_pool(input, g, o, nullptr);
  const bool batched = input.dim() == 4;
  const double scale = override_div ? double(g.kh * g.kw) / double(*o.divisor_override) : 1.0;
  const Device dev = input.device();
  const DnnKernels& kern = dnn_kernels_for(dev);
  Tensor x = contiguous(detach(input));
  Tensor y = empty_on(batched ? Shape{g.N, g.C, g.P, g.Q} : Shape{g.C, g.P, g.Q}, g.dtype, dev);
  const size_t ws_bytes = kern.pool_workspace(dnn_exec_for(dev), g);
  Tensor ws = ws_bytes ? empty_on({int64_t(ws_bytes)}, DType::UInt8, dev) : Tensor();
  trace::op(fn, dev);
  kern.pool_fwd(dnn_exec_for(dev), g, x.data_ptr(), y.data_ptr(), ws_bytes ? ws.data_ptr() : nullptr);
  if (override_div) {
    NoGradGuard ng;
    y = binary(BinaryOp::Mul, y, Scalar::from_double(scale));
  }
  if (any_requires_grad({&input})) {
    record(y, is_max ? "MaxPool2DWithIndicesBackward0" : "AvgPool2DBackward0", {input},
           Pool2dBackward{g, x, detach(y), ws, scale});
  }
  return y;
}

}  // namespace

Tensor max_pool2d(const Tensor& input, const Pool2dOptions& o) { return pool2d(input, o, true); }
std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, const Pool2dOptions& o) {
  Tensor indices;
  Tensor values = composed_pool(input, pool_geom(input, o, true), o, &indices);
  return {values, indices};
}
Tensor avg_pool2d(const Tensor& input, const Pool2dOptions& o) { return pool2d(input, o, false); }

namespace {
// A[i, h] = 1 / |window i| for h in PyTorch's window i: [floor(i*in/out), ceil((i+1)*in/out)).
Tensor averaging_matrix(int64_t out, int64_t in, DType dtype, Device dev) {
  std::vector<double> a(size_t(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    const int64_t lo = (i * in) / out, hi = ((i + 1) * in + out - 1) / out;
    for (int64_t h = lo; h < hi; ++h) a[size_t(i * in + h)] = 1.0 / double(hi - lo);
  }
  return to(from_host(a.data(), {out, in}, DType::Float64, {DType::Float64, Device(Device::CPU)}), dev, dtype);
}
}  // namespace

Tensor adaptive_avg_pool2d(const Tensor& input, std::vector<int64_t> os) {
  GL_CHECK(input.dim() == 3 || input.dim() == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ",
           shape_str(input.sizes()));
  if (os.size() == 1) os = {os[0], os[0]};
  GL_CHECK(os.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  GL_CHECK(os[0] >= -1 && os[1] >= -1,
           "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {", os[0],
           ", ", os[1], "}");
  for (int i = 0; i < 2; ++i) {
    if (os[size_t(i)] < 0) os[size_t(i)] = input.size(input.dim() - 2 + i);  // None: keep
    GL_CHECK(
        input.size(input.dim() - 2 + i) > 0,
        "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
        shape_str(input.sizes()), " with dimension ", input.dim() - 2 + i, " being empty");
  }
  GL_CHECK_T(NotImplementedError, is_floating(input.dtype()), "\"adaptive_avg_pool2d\" not implemented for '",
             dtype_legacy_name(input.dtype()), "'");
  // PyTorch's CPU and CUDA kernels take a global average as a mean (MeanBackward1).
  if (os[0] == 1 && os[1] == 1) return mean(input, {-2, -1}, true);
  const Device dev = input.device();
  Tensor ah = averaging_matrix(os[0], input.size(-2), input.dtype(), dev);
  Tensor aw = averaging_matrix(os[1], input.size(-1), input.dtype(), dev);
  Tensor y;
  {
    NoGradGuard ng;
    y = contiguous(matmul(matmul(ah, input), t(aw)));
  }
  if (any_requires_grad({&input})) record(y, {input}, AdaptiveAvgPool2DBackward0{ah, aw});
  return y;
}

Tensor pool2d_backward(const Tensor& grad, const PoolGeom& g, const Tensor& x, const Tensor& y, const Tensor& ws) {
  const Device dev = x.device();
  Tensor gy = contiguous(grad);
  Tensor gx = empty_on(x.sizes(), g.dtype, dev);
  trace::op(g.max ? "max_pool2d_backward" : "avg_pool2d_backward", dev);
  dnn_kernels_for(dev).pool_bwd(dnn_exec_for(dev), g, x.data_ptr(), y.data_ptr(), gy.data_ptr(),
                                ws.defined() ? ws.data_ptr() : nullptr, gx.data_ptr());
  return gx;
}

}  // namespace gl
