// Convolution, pooling and normalisation ops: the host's two convolution
// paths (oneDNN and im2col + BLAS) agree on forward and both backwards over
// strides, padding, dilation and groups; conv2d, the poolings and the norms
// pass finite-difference gradient checks in float64 (im2col, composed norms).
// Values against PyTorch itself: tests/lua/test_nn_conv.lua.
#include <doctest/doctest.h>
#include <cmath>
#include "gradcheck.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/nn_conv.h"

using namespace gl;
using ut::gradcheck;
using ut::leaf;

namespace {

std::vector<float> ramp(int64_t n, int seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = float(std::sin(0.37 * double(i) + seed));
  return v;
}

double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, double(std::fabs(a[i] - b[i])));
  return m;
}

ConvGeom geom(int64_t N, int64_t C, int64_t H, int64_t W, int64_t K, int64_t R, int64_t S, int64_t s, int64_t p,
              int64_t d, int64_t g) {
  ConvGeom c;
  c.N = N;
  c.C = C;
  c.H = H;
  c.W = W;
  c.K = K;
  c.R = R;
  c.S = S;
  c.sh = c.sw = s;
  c.ph = c.pw = p;
  c.dh = c.dw = d;
  c.groups = g;
  c.P = (H + 2 * p - d * (R - 1) - 1) / s + 1;
  c.Q = (W + 2 * p - d * (S - 1) - 1) / s + 1;
  return c;
}

}  // namespace

TEST_CASE("conv: oneDNN and im2col + BLAS agree (forward, backward data, backward weights)") {
  const ConvGeom cases[] = {geom(2, 3, 9, 7, 4, 3, 3, 1, 1, 1, 1), geom(2, 4, 11, 10, 6, 3, 2, 2, 1, 1, 2),
                            geom(1, 6, 12, 12, 6, 3, 3, 1, 2, 2, 3), geom(3, 1, 8, 8, 5, 5, 5, 1, 2, 1, 1),
                            geom(2, 8, 7, 7, 8, 3, 3, 2, 0, 1, 8)};
  const DnnKernels& dnnl = cpu_dnn_kernels();
  const DnnKernels& im2col = im2col_dnn_kernels();
  for (const ConvGeom& g : cases) {
    CAPTURE(g.C);
    CAPTURE(g.groups);
    CAPTURE(g.sh);
    CAPTURE(g.dh);
    const int64_t nx = g.N * g.C * g.H * g.W, nw = g.K * g.C / g.groups * g.R * g.S, ny = g.N * g.K * g.P * g.Q;
    auto x = ramp(nx, 1), w = ramp(nw, 2), b = ramp(g.K, 3), gy = ramp(ny, 4);
    const auto zeros = [](int64_t n) { return std::vector<float>(static_cast<size_t>(n)); };
    auto y1 = zeros(ny), y2 = zeros(ny), gx1 = zeros(nx), gx2 = zeros(nx), gw1 = zeros(nw), gw2 = zeros(nw),
         gb1 = zeros(g.K), gb2 = zeros(g.K);
    // Forcing a path: a one-channel input takes im2col in both, so oneDNN is reached only for C > 1.
    dnnl.conv_fwd(nullptr, g, x.data(), w.data(), b.data(), y1.data());
    im2col.conv_fwd(nullptr, g, x.data(), w.data(), b.data(), y2.data());
    CHECK(max_diff(y1, y2) < 1e-4);
    dnnl.conv_bwd_data(nullptr, g, gy.data(), w.data(), gx1.data());
    im2col.conv_bwd_data(nullptr, g, gy.data(), w.data(), gx2.data());
    CHECK(max_diff(gx1, gx2) < 1e-4);
    dnnl.conv_bwd_weight(nullptr, g, x.data(), gy.data(), gw1.data(), gb1.data());
    im2col.conv_bwd_weight(nullptr, g, x.data(), gy.data(), gw2.data(), gb2.data());
    CHECK(max_diff(gw1, gw2) < 1e-3);
    CHECK(max_diff(gb1, gb2) < 1e-3);
  }
}

TEST_CASE("conv2d, pooling and norms: gradients by finite differences (float64)") {
  const Device cpu(Device::CPU);
  auto vec = [](int64_t n, int seed) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[size_t(i)] = std::sin(0.61 * double(i) + seed);
    return v;
  };
  // A fresh input per check: gradients accumulate in .grad.
  auto input = [&] { return leaf(vec(2 * 4 * 5 * 6, 1), {2, 4, 5, 6}, cpu); };
  Tensor x = input();
  Tensor w = leaf(vec(6 * 2 * 3 * 2, 2), {6, 2, 3, 2}, cpu);
  Tensor b = leaf(vec(6, 3), {6}, cpu);
  Conv2dOptions o;
  o.stride = {2, 1};
  o.padding = {1, 1};
  o.dilation = {1, 2};
  o.groups = 2;
  gradcheck("conv2d", [&](const std::vector<Tensor>& in) { return conv2d(in[0], in[1], &in[2], o); }, {x, w, b});
  Conv2dOptions same;
  same.padding_mode = "same";
  Tensor w2 = leaf(vec(3 * 4 * 2 * 2, 4), {3, 4, 2, 2}, cpu);
  gradcheck("conv2d same", [&](const std::vector<Tensor>& in) { return conv2d(in[0], in[1], nullptr, same); },
            {input(), w2});
  gradcheck("adaptive_avg_pool2d",
            [&](const std::vector<Tensor>& in) {
              return adaptive_avg_pool2d(in[0], {3, 4});
            },
            {input()});
  Tensor g = leaf(vec(4, 5), {4}, cpu), s = leaf(vec(4, 6), {4}, cpu);
  gradcheck("batch_norm",
            [&](const std::vector<Tensor>& in) {
              return batch_norm(in[0], Tensor(), Tensor(), &in[1], &in[2], true, 0.1, 1e-5);
            },
            {input(), g, s});
  Tensor lg = leaf(vec(6, 7), {6}, cpu), ls = leaf(vec(6, 8), {6}, cpu);
  gradcheck("layer_norm", [&](const std::vector<Tensor>& in) { return layer_norm(in[0], {6}, &in[1], &in[2], 1e-5); },
            {input(), lg, ls});
}

TEST_CASE("batch norm: the backward from the input (a declined library's) is autograd's") {
  for (Shape shape : {Shape{4, 3, 5}, Shape{2, 3, 2, 2}}) {
    CAPTURE(shape_str(shape));
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<double> xv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) xv[size_t(i)] = 3.0 * std::sin(0.7 * double(i)) + 0.1 * double(i);
    Tensor x = leaf(xv, shape, Device(Device::CPU)), w = leaf({0.5, 1.5, -2.0}, {3}, Device(Device::CPU));
    Tensor b = leaf({0.1, 0.2, 0.3}, {3}, Device(Device::CPU));
    // float64: the composed form, whose node is differentiated by the closed form independently
    Tensor y = batch_norm(x, Tensor(), Tensor(), &w, &b, true, 0.1, 1e-5);
    Tensor gy = ut::tens(ut::weights(n), shape, DType::Float64, Device(Device::CPU));
    run_backward(y, gy, false);
    NormGeom g;
    g.N = shape[0];
    g.C = 3;
    g.S = n / (g.N * g.C);
    g.dim = int64_t(shape.size());
    g.eps = 1e-5;
    const auto r = batch_norm_backward_from_input(gy, g, detach(x), detach(w), true, true);
    for (auto [got, want] : {std::pair{r[0], x.grad()}, std::pair{r[1], w.grad()}, std::pair{r[2], b.grad()}}) {
      REQUIRE(got.sizes() == want.sizes());
      const auto a = ut::vals(got), e = ut::vals(want);
      for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(e[i]).epsilon(1e-9));
    }
  }
}
