// Convolution and pooling on the host by oneDNN (the library PyTorch's CPU
// convolutions use). Pooling works in the callers' NCHW; convolutions in the
// layouts oneDNN picks (ConvDescs). oneDNN
// keeps its own cache of compiled primitives, so building the descriptors
// per call costs microseconds. float32 runs here; float64 and one-channel
// inputs go to im2col + BLAS (im2col_conv.cpp; see use_im2col).
#include <dnnl.hpp>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/runtime/registry.h"

namespace gl {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

struct Env {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
};
Env& env() {
  static Env e;
  return e;
}

// oneDNN, except float64 (which it lacks) and a single input channel, where
// im2col + BLAS measured twice as fast on LeNet's first layer (bench/conv.sh;
// oneDNN's blocked layouts do not fit C = 1). GPULAB_CPU_CONV=im2col or
// =onednn forces one path for float32 (the benchmark compares them).
bool use_im2col(const ConvGeom& g) {
  static const int forced = [] {
    const char* v = std::getenv("GPULAB_CPU_CONV");
    if (v && std::strcmp(v, "im2col") == 0) return 1;
    if (v && std::strcmp(v, "onednn") == 0) return 0;
    return -1;
  }();
  if (g.dtype != DType::Float32) return true;
  if (forced >= 0) return forced == 1;
  return g.C == 1 && g.groups == 1;
}

memory::desc nchw(int64_t n, int64_t c, int64_t h, int64_t w) { return {{n, c, h, w}, dt::f32, tag::nchw}; }
memory::desc weights(const ConvGeom& g) {
  if (g.groups == 1) return {{g.K, g.C, g.R, g.S}, dt::f32, tag::oihw};
  return {{g.groups, g.K / g.groups, g.C / g.groups, g.R, g.S}, dt::f32, tag::goihw};
}
memory mem(const memory::desc& d, const void* p) { return memory(d, env().eng, const_cast<void*>(p)); }

// The layouts are oneDNN's choice (format_tag::any): its direct AVX2/AVX-512
// kernels want blocked layouts (nChw16c) and are about twice as fast as the
// gemm path plain NCHW gets; tensors are reordered in and out where needed.
struct ConvDescs {
  memory::desc x, w, b, y;  // the caller's plain layouts
  memory::desc ax, aw, ay;  // any layout
  memory::dims stride, dil, pad;
  explicit ConvDescs(const ConvGeom& g)
      : x(nchw(g.N, g.C, g.H, g.W)),
        w(weights(g)),
        b({g.K}, dt::f32, tag::x),
        y(nchw(g.N, g.K, g.P, g.Q)),
        ax(x.dims(), dt::f32, tag::any),
        aw(w.dims(), dt::f32, tag::any),
        ay(y.dims(), dt::f32, tag::any),
        stride{g.sh, g.sw},
        dil{g.dh - 1, g.dw - 1},
        pad{g.ph, g.pw} {}  // oneDNN counts dilation from 0
  dnnl::convolution_forward::primitive_desc fwd(bool bias) const {
    using F = dnnl::convolution_forward;
    const auto pk = dnnl::prop_kind::forward_training;
    const auto al = dnnl::algorithm::convolution_direct;
    F::desc d = bias ? F::desc(pk, al, ax, aw, b, ay, stride, dil, pad, pad)
                     : F::desc(pk, al, ax, aw, ay, stride, dil, pad, pad);
    return {d, env().eng};
  }
};

// The blocked copies live in blocks of the host allocator, which keeps them
// from one step to the next (Note [Large host blocks]); memory(desc, engine)
// would map fresh ones, and a 26 MB reorder into one took 5 ms, not 1.
struct Scratch {
  Allocator& alloc = allocator_for(Device(Device::CPU));
  std::vector<std::pair<void*, size_t>> blocks;
  memory make(const memory::desc& d) {
    const size_t n = d.get_size();
    blocks.emplace_back(alloc.allocate(n), n);
    return memory(d, env().eng, blocks.back().first);
  }
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    for (auto& [p, n] : blocks) alloc.deallocate(p, n);
  }
};

// An input in the layout the primitive wants: the caller's memory, or a reordered copy.
memory input(Scratch& s, const memory::desc& want, const memory::desc& have, const void* p) {
  memory user = mem(have, p);
  if (want == have) return user;
  memory m = s.make(want);
  dnnl::reorder(user, m).execute(env().strm, user, m);
  return m;
}
// An output: the caller's memory, or a scratch that finish() reorders into it.
struct Output {
  memory user, m;
  Output(Scratch& s, const memory::desc& want, const memory::desc& have, void* p)
      : user(mem(have, p)), m(want == have ? user : s.make(want)) {}
  void finish() {
    if (m.get_data_handle() != user.get_data_handle()) dnnl::reorder(m, user).execute(env().strm, m, user);
  }
};

// oneDNN reports errors as dnnl::error; gpulab's callers expect its own.
template <class F> void guarded(const char* what, F&& f) {
  try {
    f();
  } catch (const dnnl::error& e) { throw RuntimeError(cat("oneDNN ", what, " failed: ", e.what())); }
}

void conv_fwd(void* exec, const ConvGeom& g, const void* x, const void* w, const void* b, void* y) {
  if (use_im2col(g)) return im2col_dnn_kernels().conv_fwd(exec, g, x, w, b, y);
  guarded("convolution", [&] {
    Scratch s;
    ConvDescs d(g);
    auto pd = d.fwd(b != nullptr);
    Output out(s, pd.dst_desc(), d.y, y);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, input(s, pd.src_desc(), d.x, x)},
                                         {DNNL_ARG_WEIGHTS, input(s, pd.weights_desc(), d.w, w)},
                                         {DNNL_ARG_DST, out.m}};
    if (b) args.emplace(DNNL_ARG_BIAS, mem(d.b, b));
    dnnl::convolution_forward(pd).execute(env().strm, args);
    out.finish();
    env().strm.wait();
  });
}

void conv_bwd_data(void* exec, const ConvGeom& g, const void* gy, const void* w, void* gx) {
  if (use_im2col(g)) return im2col_dnn_kernels().conv_bwd_data(exec, g, gy, w, gx);
  guarded("convolution backward (data)", [&] {
    Scratch s;
    ConvDescs d(g);
    using B = dnnl::convolution_backward_data;
    B::desc bd(dnnl::algorithm::convolution_direct, d.ax, d.aw, d.ay, d.stride, d.dil, d.pad, d.pad);
    B::primitive_desc pd(bd, env().eng, d.fwd(false));
    Output out(s, pd.diff_src_desc(), d.x, gx);
    B(pd).execute(env().strm, {{DNNL_ARG_DIFF_DST, input(s, pd.diff_dst_desc(), d.y, gy)},
                               {DNNL_ARG_WEIGHTS, input(s, pd.weights_desc(), d.w, w)},
                               {DNNL_ARG_DIFF_SRC, out.m}});
    out.finish();
    env().strm.wait();
  });
}

void conv_bwd_weight(void* exec, const ConvGeom& g, const void* x, const void* gy, void* gw, void* gb) {
  if (use_im2col(g)) return im2col_dnn_kernels().conv_bwd_weight(exec, g, x, gy, gw, gb);
  guarded("convolution backward (weights)", [&] {
    Scratch s;
    ConvDescs d(g);
    using B = dnnl::convolution_backward_weights;
    const auto al = dnnl::algorithm::convolution_direct;
    B::desc bd = gb ? B::desc(al, d.ax, d.aw, d.b, d.ay, d.stride, d.dil, d.pad, d.pad)
                    : B::desc(al, d.ax, d.aw, d.ay, d.stride, d.dil, d.pad, d.pad);
    B::primitive_desc pd(bd, env().eng, d.fwd(gb != nullptr));
    Output out(s, pd.diff_weights_desc(), d.w, gw);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, input(s, pd.src_desc(), d.x, x)},
                                         {DNNL_ARG_DIFF_DST, input(s, pd.diff_dst_desc(), d.y, gy)},
                                         {DNNL_ARG_DIFF_WEIGHTS, out.m}};
    if (gb) args.emplace(DNNL_ARG_DIFF_BIAS, mem(d.b, gb));
    B(pd).execute(env().strm, args);
    out.finish();
    env().strm.wait();
  });
}

// ---- pooling ----
struct PoolDescs {
  memory::desc x, y;
  memory::dims stride, kernel, dil, pad_l, pad_r;
  dnnl::algorithm alg;
  explicit PoolDescs(const PoolGeom& g)
      : x(nchw(g.N, g.C, g.H, g.W)),
        y(nchw(g.N, g.C, g.P, g.Q)),
        stride{g.sh, g.sw},
        kernel{g.kh, g.kw},
        dil{g.dh - 1, g.dw - 1},
        pad_l{g.ph, g.pw},
        // ceil_mode's last window may reach past the padding: oneDNN wants that as right padding.
        pad_r{std::max(g.ph, (g.P - 1) * g.sh + (g.kh - 1) * g.dh + 1 - g.H - g.ph),
              std::max(g.pw, (g.Q - 1) * g.sw + (g.kw - 1) * g.dw + 1 - g.W - g.pw)},
        alg(g.max                 ? dnnl::algorithm::pooling_max
            : g.count_include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                  : dnnl::algorithm::pooling_avg_exclude_padding) {}
  dnnl::pooling_v2_forward::primitive_desc fwd() const {
    dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_training, alg, x, y, stride, kernel, dil, pad_l, pad_r);
    return {d, env().eng};
  }
};

void check_pool_dtype(const PoolGeom& g) {
  GL_CHECK(g.dtype == DType::Float32, "gpulab: pooling on the CPU supports float32 only (oneDNN), got ",
           dtype_name(g.dtype));
}

size_t pool_workspace(void*, const PoolGeom& g) {
  check_pool_dtype(g);
  size_t n = 0;
  guarded("pooling", [&] { n = PoolDescs(g).fwd().workspace_desc().get_size(); });
  return n;
}

void pool_fwd(void*, const PoolGeom& g, const void* x, void* y, void* ws) {
  check_pool_dtype(g);
  guarded("pooling", [&] {
    PoolDescs d(g);
    auto pd = d.fwd();
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, mem(d.x, x)}, {DNNL_ARG_DST, mem(d.y, y)}};
    if (pd.workspace_desc().get_size() > 0) args.emplace(DNNL_ARG_WORKSPACE, mem(pd.workspace_desc(), ws));
    dnnl::pooling_v2_forward(pd).execute(env().strm, args);
    env().strm.wait();
  });
}

void pool_bwd(void*, const PoolGeom& g, const void*, const void*, const void* gy, const void* ws, void* gx) {
  check_pool_dtype(g);
  guarded("pooling backward", [&] {
    PoolDescs d(g);
    auto fpd = d.fwd();
    using B = dnnl::pooling_v2_backward;
    B::desc bd(d.alg, d.x, d.y, d.stride, d.kernel, d.dil, d.pad_l, d.pad_r);
    B::primitive_desc pd(bd, env().eng, fpd);
    std::unordered_map<int, memory> args{{DNNL_ARG_DIFF_DST, mem(d.y, gy)}, {DNNL_ARG_DIFF_SRC, mem(d.x, gx)}};
    if (fpd.workspace_desc().get_size() > 0) args.emplace(DNNL_ARG_WORKSPACE, mem(fpd.workspace_desc(), ws));
    B(pd).execute(env().strm, args);
    env().strm.wait();
  });
}

// ---- batch norm ----
// [N, C, S] as NCHW with W = 1; scale and shift as oneDNN's separate vectors.
// With S = 1 (BatchNorm1d on [N, C]) the same bytes are also NHWC, where
// oneDNN has JIT kernels; its plain-NCHW kernels are generic C++.
memory::desc bn_data(const NormGeom& g) {
  if (g.S == 1) return {{g.N, g.C, 1, 1}, dt::f32, tag::nhwc};
  return nchw(g.N, g.C, g.S, 1);
}
dnnl::normalization_flags bn_flags(bool training, bool affine) {
  auto f = dnnl::normalization_flags::none;
  if (!training) f |= dnnl::normalization_flags::use_global_stats;
  if (affine) f |= dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  return f;
}

// The running stats are the op's to update (batch_norm_updates_running is
// false), so this forward ignores them.
bool batch_norm_fwd(void*, const NormGeom& g, bool training, const void* x, const void* scale, const void* shift,
                    void* y, void* mean, void* var, void*, void*, void*) {
  guarded("batch norm", [&] {
    const memory::desc d = bn_data(g), v({g.C}, dt::f32, tag::x);
    const auto pk = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    dnnl::batch_normalization_forward::desc bd(pk, d, float(g.eps), bn_flags(training, scale != nullptr));
    dnnl::batch_normalization_forward::primitive_desc pd(bd, env().eng);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, mem(d, x)},
                                         {DNNL_ARG_DST, mem(d, y)},
                                         {DNNL_ARG_MEAN, mem(v, mean)},
                                         {DNNL_ARG_VARIANCE, mem(v, var)}};
    if (scale) {
      args.emplace(DNNL_ARG_SCALE, mem(v, scale));
      args.emplace(DNNL_ARG_SHIFT, mem(v, shift));
    }
    dnnl::batch_normalization_forward(pd).execute(env().strm, args);
    env().strm.wait();
  });
  return true;
}

bool batch_norm_bwd(void*, const NormGeom& g, bool training, const void* x, const void* gy, const void* scale,
                    const void* mean, const void* var, void*, void* gx, void* gscale, void* gshift) {
  guarded("batch norm backward", [&] {
    const memory::desc d = bn_data(g), v({g.C}, dt::f32, tag::x);
    const auto flags = bn_flags(training, scale != nullptr);
    const auto pk = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    dnnl::batch_normalization_forward::primitive_desc fpd({pk, d, float(g.eps), flags}, env().eng);
    using B = dnnl::batch_normalization_backward;
    B::desc bd(scale ? dnnl::prop_kind::backward : dnnl::prop_kind::backward_data, d, d, float(g.eps), flags);
    B::primitive_desc pd(bd, env().eng, fpd);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, mem(d, x)},
                                         {DNNL_ARG_DIFF_DST, mem(d, gy)},
                                         {DNNL_ARG_MEAN, mem(v, mean)},
                                         {DNNL_ARG_VARIANCE, mem(v, var)},
                                         {DNNL_ARG_DIFF_SRC, mem(d, gx)}};
    // The library's weight gradients are always computed with an affine
    // forward; a caller that needs neither passes scratch.
    std::vector<float> scratch;
    if (scale) {
      if (!gscale || !gshift) scratch.resize(size_t(2 * g.C));
      args.emplace(DNNL_ARG_SCALE, mem(v, scale));
      // oneDNN checks that the shift is passed; the backward does not read it.
      args.emplace(DNNL_ARG_SHIFT, mem(v, scale));
      args.emplace(DNNL_ARG_DIFF_SCALE, mem(v, gscale ? gscale : scratch.data()));
      args.emplace(DNNL_ARG_DIFF_SHIFT, mem(v, gshift ? gshift : scratch.data() + g.C));
    }
    B(pd).execute(env().strm, args);
    env().strm.wait();
  });
  return true;
}

// oneDNN takes every float32 batch norm the op offers it.
bool batch_norm_takes(const NormGeom&, bool, bool, bool) { return true; }

}  // namespace

const DnnKernels& cpu_dnn_kernels() {
  static const DnnKernels k{conv_fwd,
                            conv_bwd_data,
                            conv_bwd_weight,
                            pool_workspace,
                            pool_fwd,
                            pool_bwd,
                            batch_norm_fwd,
                            batch_norm_bwd,
                            nullptr,
                            batch_norm_takes,
                            /*batch_norm_updates_running=*/false};
  return k;
}

}  // namespace gl
