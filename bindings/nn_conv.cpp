// torch.nn.functional's convolution, pooling and normalisation functions:
// each parses PyTorch's arguments and calls one op (tensor/ops/nn_conv.h).
#include "bindings/bindings.h"
#include "bindings/registry.h"
#include "tensor/ops/nn_conv.h"

namespace gl::lt {
namespace {

// An int or a table of ints; `dflt` when absent.
std::vector<int64_t> ints(Args& a, int i, const char* name, std::vector<int64_t> dflt) {
  if (!a.has(i, name)) return dflt;
  return a.int_list(i, name);
}

int f_conv2d(lua_State* L) {
  Args a(L, 1, "conv2d");
  Tensor& input = a.tensor(0, "input");
  Tensor& weight = a.tensor(1, "weight");
  Tensor* bias = to_tensor(L, a.at(2, "bias"));
  Conv2dOptions o;
  o.stride = ints(a, 3, "stride", {1, 1});
  if (int idx = a.at(4, "padding"); idx && lua_type(L, idx) == LUA_TSTRING) o.padding_mode = lua_tostring(L, idx);
  else o.padding = ints(a, 4, "padding", {0, 0});
  o.dilation = ints(a, 5, "dilation", {1, 1});
  o.groups = a.opt_integer(6, "groups").value_or(1);
  a.finish(7);
  push_tensor(L, conv2d(input, weight, bias, o));
  return 1;
}

int pool(lua_State* L, bool is_max) {
  Args a(L, 1, is_max ? "max_pool2d" : "avg_pool2d");
  Tensor& input = a.tensor(0, "input");
  Pool2dOptions o;
  o.kernel = a.int_list(1, "kernel_size");
  GL_CHECK_T(TypeError, !o.kernel.empty(), a.fname, "() missing required argument 'kernel_size' (pos 2)");
  o.stride = ints(a, 2, "stride", {});
  o.padding = ints(a, 3, "padding", {0, 0});
  if (is_max) {
    o.dilation = ints(a, 4, "dilation", {1, 1});
    o.ceil_mode = a.boolean(5, "ceil_mode", false);
    const bool with_indices = a.boolean(6, "return_indices", false);
    a.finish(7);
    if (with_indices) {
      auto [values, indices] = max_pool2d_with_indices(input, o);
      push_tensor(L, values);
      push_tensor(L, indices);
      return 2;
    }
  } else {
    o.ceil_mode = a.boolean(4, "ceil_mode", false);
    o.count_include_pad = a.boolean(5, "count_include_pad", true);
    o.divisor_override = a.opt_integer(6, "divisor_override");
    a.finish(7);
  }
  push_tensor(L, is_max ? max_pool2d(input, o) : avg_pool2d(input, o));
  return 1;
}
int f_max_pool2d(lua_State* L) { return pool(L, true); }
int f_avg_pool2d(lua_State* L) { return pool(L, false); }

int f_adaptive_avg_pool2d(lua_State* L) {
  Args a(L, 1, "adaptive_avg_pool2d");
  Tensor& input = a.tensor(0, "input");
  int idx = a.at(1, "output_size");
  GL_CHECK_T(TypeError, idx, "adaptive_avg_pool2d() missing required argument 'output_size' (pos 2)");
  std::vector<int64_t> os;
  if (lua_type(L, idx) == LUA_TTABLE) {  // {h, w}; a missing entry or -1 keeps that size (PyTorch's None)
    GL_CHECK(lua_rawlen(L, idx) <= 2, "adaptive_avg_pool2d: output_size must be 2");
    for (int k = 1; k <= 2; ++k) {
      lua_rawgeti(L, idx, k);
      os.push_back(lua_isnil(L, -1) ? -1 : int64_t(luaL_checkinteger(L, -1)));
      lua_pop(L, 1);
    }
  } else {
    os = {a.integer(1, "output_size")};
  }
  a.finish(2);
  push_tensor(L, adaptive_avg_pool2d(input, os));
  return 1;
}

int f_batch_norm(lua_State* L) {
  Args a(L, 1, "batch_norm");
  Tensor& input = a.tensor(0, "input");
  Tensor* rm = to_tensor(L, a.at(1, "running_mean"));
  Tensor* rv = to_tensor(L, a.at(2, "running_var"));
  Tensor* weight = to_tensor(L, a.at(3, "weight"));
  Tensor* bias = to_tensor(L, a.at(4, "bias"));
  const bool training = a.boolean(5, "training", false);
  const double momentum = a.opt_number(6, "momentum").value_or(0.1);
  const double eps = a.opt_number(7, "eps").value_or(1e-5);
  a.finish(8);
  push_tensor(L, batch_norm(input, rm ? *rm : Tensor(), rv ? *rv : Tensor(), weight, bias, training, momentum, eps));
  return 1;
}

int f_layer_norm(lua_State* L) {
  Args a(L, 1, "layer_norm");
  Tensor& input = a.tensor(0, "input");
  std::vector<int64_t> ns = a.int_list(1, "normalized_shape");
  Tensor* weight = to_tensor(L, a.at(2, "weight"));
  Tensor* bias = to_tensor(L, a.at(3, "bias"));
  const double eps = a.opt_number(4, "eps").value_or(1e-5);
  a.finish(5);
  push_tensor(L, layer_norm(input, ns, weight, bias, eps));
  return 1;
}

}  // namespace

const Reg kNnConv[] = {
    {"conv2d", f_conv2d,
     "F.conv2d(input, weight, bias=nil, stride=1, padding=0, dilation=1, groups=1): 2-d convolution (cross-correlation)\n"
     "of input [N, C, H, W] with weight [K, C/groups, R, S]; padding may also be 'same' or 'valid'.\n"
     "oneDNN on the CPU and virtual devices, cuDNN on a GPU."},
    {"max_pool2d", f_max_pool2d,
     "F.max_pool2d(input, kernel_size, stride=kernel_size, padding=0, dilation=1, ceil_mode=false)."},
    {"avg_pool2d", f_avg_pool2d,
     "F.avg_pool2d(input, kernel_size, stride=kernel_size, padding=0, ceil_mode=false, count_include_pad=true)."},
    {"adaptive_avg_pool2d", f_adaptive_avg_pool2d,
     "F.adaptive_avg_pool2d(input, output_size): average over PyTorch's windows to an output of output_size ({h, w} or one int)."},
    {"batch_norm", f_batch_norm,
     "F.batch_norm(input, running_mean, running_var, weight=nil, bias=nil, training=false, momentum=0.1, eps=1e-5): batch normalisation of each channel (dim 1):\n"
     "in training by the batch's statistics, updating the running ones in place; else by the running ones."},
    {"layer_norm", f_layer_norm,
     "F.layer_norm(input, normalized_shape, weight=nil, bias=nil, eps=1e-5): normalises over the last dims."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
