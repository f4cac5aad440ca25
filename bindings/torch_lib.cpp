// torch.* functions that are not tensor methods: creation, joins, seeding,
// grad mode, printing options.
#include <cmath>
#include <limits>
#include "bindings/luaT.h"
#include "tensor/core/warning.h"
#include "bindings/registry.h"
#include "bindings/tensor_data.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

int tensor(lua_State* L) {
  Args a(L, 1, "tensor");
  GL_CHECK_T(TypeError, a.n() >= 1, "tensor() missing 1 required positional argument: \"data\"");
  auto dt = a.dtype(-1, "dtype");
  Device dev = resolve_device(a.device(-1, "device").value_or(Device(Device::CPU)));
  bool rg = a.boolean(-1, "requires_grad", false);
  Tensor t;
  if (a.n() == 1) {
    const int data = a.at(0);  // 0 for torch.tensor(nil, {...}): lua_type(L, 0) is undefined
    GL_CHECK_T(TypeError, data != 0, "tensor(): argument 'data' must be a number, boolean, table or Tensor, not nil");
    if (to_tensor(L, data))
      warn(
          "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
          "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).");
    t = tensor_from_lua(L, data, dt, dev);
  } else {  // torch.tensor{1, 2, 3, device=...}: the positionals are the data
    lua_createtable(L, a.n(), 0);
    for (int i = 0; i < a.n(); ++i) {
      if (int idx = a.at(i)) lua_pushvalue(L, idx);
      else lua_pushnil(L);  // a hole in the data: the walk reports it
      lua_rawseti(L, -2, i + 1);
    }
    t = tensor_from_lua(L, lua_gettop(L), dt, dev);
  }
  a.finish(a.n());
  if (rg) requires_grad_at_creation(t);
  push_tensor(L, t);
  return 1;
}

template <int Kind>  // 0 empty, 1 zeros, 2 ones, 3 rand, 4 randn
int creator(lua_State* L) {
  static const char* names[] = {"empty", "zeros", "ones", "rand", "randn"};
  Args a(L, 1, names[Kind]);
  Shape s = a.shape_from(0, "size");
  TensorOptions o = a.tensor_options(default_dtype());
  a.finish(a.n());
  Tensor t;
  switch (Kind) {
    case 0: t = empty(s, o); break;
    case 1:
      // torch.zeros alone has its own wording in PyTorch (the others come from empty).
      for (int64_t v : s) GL_CHECK(v >= 0, "zeros: Dimension size must be non-negative.");
      t = zeros(s, o);
      break;
    case 2: t = ones(s, o); break;
    case 3: t = rand(s, o); break;
    default: t = randn(s, o); break;
  }
  push_tensor(L, a.created(t));
  return 1;
}

template <int Kind>  // like versions
int creator_like(lua_State* L) {
  static const char* names[] = {"empty_like", "zeros_like", "ones_like", "rand_like", "randn_like"};
  Args a(L, 1, names[Kind]);
  Tensor& src = a.tensor(0, "input");
  TensorOptions o{a.dtype(-1, "dtype").value_or(src.dtype()), a.device(-1, "device").value_or(src.device()),
                  a.boolean(-1, "requires_grad", false)};
  Tensor t;
  switch (Kind) {
    case 0: t = empty(src.sizes(), o); break;
    case 1: t = zeros(src.sizes(), o); break;
    case 2: t = ones(src.sizes(), o); break;
    case 3: t = rand(src.sizes(), o); break;
    default: t = randn(src.sizes(), o); break;
  }
  push_tensor(L, t);
  return 1;
}

int full(lua_State* L) {
  Args a(L, 1, "full");
  Shape s = a.int_list(0, "size");
  Scalar v = a.scalar(1, "fill_value");
  DType d = scalar_default_dtype(v);
  push_tensor(L, a.created(gl::full(s, v, a.tensor_options(d))));
  return 1;
}
int full_like(lua_State* L) {
  Args a(L, 1, "full_like");
  Tensor& src = a.tensor(0, "input");
  TensorOptions o{a.dtype(-1, "dtype").value_or(src.dtype()), a.device(-1, "device").value_or(src.device()),
                  a.boolean(-1, "requires_grad", false)};
  push_tensor(L, gl::full(src.sizes(), a.scalar(1, "fill_value"), o));
  return 1;
}

int arange(lua_State* L) {
  Args a(L, 1, "arange");
  Scalar start = Scalar::from_int(0), end, step = Scalar::from_int(1);
  if (a.has(1, "end")) {
    start = a.scalar(0, "start");
    end = a.scalar(1, "end");
    if (a.has(2, "step")) step = a.scalar(2, "step");
  } else {
    end = a.scalar(0, "end");
  }
  TensorOptions o = a.tensor_options(default_dtype());
  push_tensor(L, a.created(gl::arange(start, end, step, a.dtype(-1, "dtype"), o)));
  return 1;
}
int linspace(lua_State* L) {
  Args a(L, 1, "linspace");
  push_tensor(L, a.created(gl::linspace(a.number(0, "start"), a.number(1, "end"), a.integer(2, "steps"),
                                        a.tensor_options(default_dtype()))));
  return 1;
}
int eye(lua_State* L) {
  Args a(L, 1, "eye");
  int64_t n = a.integer(0, "n");
  int64_t m = a.opt_integer(1, "m").value_or(n);
  push_tensor(L, a.created(gl::eye(n, m, a.tensor_options(default_dtype()))));
  return 1;
}
int randint_like(lua_State* L) {
  Args a(L, 1, "randint_like");
  Tensor& src = a.tensor(0, "input");
  int64_t low = 0, high = a.integer(1, "high");
  if (a.has(2, "high")) {
    low = high;
    high = a.integer(2, "high");
  }
  push_tensor(L, gl::randint(low, high, src.sizes(), {src.dtype(), src.device()}));
  return 1;
}

std::vector<Tensor> list_arg(Args& a) { return a.tensor_list(0, "tensors"); }
// The tensors are read first, so that torch.cat(x, y) is about argument 1, as in PyTorch.
int cat(lua_State* L) {
  Args a(L, 1, "cat");
  const std::vector<Tensor> ts = list_arg(a);
  push_tensor(L, gl::cat(ts, a.opt_integer(1, "dim").value_or(0)));
  return 1;
}
int stack(lua_State* L) {
  Args a(L, 1, "stack");
  const std::vector<Tensor> ts = list_arg(a);
  push_tensor(L, gl::stack(ts, a.opt_integer(1, "dim").value_or(0)));
  return 1;
}

int manual_seed(lua_State* L) {
  Args a(L, 1, "manual_seed");
  int64_t s = a.integer(0, "seed");
  manual_seed_all_devices(uint64_t(s));
  push_default_generator(L);  // as PyTorch's, which returns torch.default_generator
  return 1;
}

int is_tensor(lua_State* L) {
  lua_pushboolean(L, to_tensor(L, 1) != nullptr);
  return 1;
}
int numel(lua_State* L) {
  lua_pushinteger(L, check_tensor(L, 1, "input").numel());
  return 1;
}

int is_grad_enabled(lua_State* L) {
  lua_pushboolean(L, GradMode::enabled());
  return 1;
}
int set_grad_enabled(lua_State* L) {
  GL_CHECK_T(TypeError, lua_type(L, 1) == LUA_TBOOLEAN, "set_grad_enabled(): argument 'mode' must be bool");
  GradMode::set(lua_toboolean(L, 1));
  return 0;
}

int set_printoptions(lua_State* L) {
  Args a(L, 1, "set_printoptions");
  PrintOptions& o = print_options();
  if (int idx = a.at(-1, "profile")) {
    GL_CHECK_T(ValueError, lua_type(L, idx) == LUA_TSTRING && set_print_profile(lua_tostring(L, idx)),
               "profile must be 'default', 'short' or 'full'");
  }
  if (auto v = a.opt_integer(0, "precision")) o.precision = int(std::clamp<int64_t>(*v, 0, 30));
  // threshold=float('inf') is PyTorch's way to print everything
  if (const int idx = a.at(1, "threshold"); idx && lua_type(L, idx) == LUA_TNUMBER && lua_tonumber(L, idx) == HUGE_VAL)
    o.threshold = std::numeric_limits<int64_t>::max();
  else if (auto v = a.opt_integer(1, "threshold")) o.threshold = *v;
  // Python's ints do not overflow: past 2^31 these print as PyTorch's would,
  // and the printer's arithmetic on them (2 * edgeitems, linewidth - indent) stays in range.
  constexpr int64_t kBig = int64_t(1) << 31;
  if (auto v = a.opt_integer(2, "edgeitems")) o.edgeitems = std::clamp<int64_t>(*v, 0, kBig);
  if (auto v = a.opt_integer(3, "linewidth")) o.linewidth = std::clamp<int64_t>(*v, -kBig, kBig);
  // As PyTorch: every call sets sci_mode, so leaving it out returns to automatic.
  std::optional<bool> sci;
  if (int idx = a.at(-1, "sci_mode")) {
    GL_CHECK_T(TypeError, lua_type(L, idx) == LUA_TBOOLEAN || lua_isnil(L, idx),
               "set_printoptions(): argument 'sci_mode' must be bool or nil");
    if (lua_type(L, idx) == LUA_TBOOLEAN) sci = lua_toboolean(L, idx);
  }
  o.sci_mode = sci;
  a.finish(4);
  return 0;
}

int get_default_dtype(lua_State* L) {
  push_dtype(L, default_dtype());
  return 1;
}
int set_default_dtype(lua_State* L) {
  Args a(L, 1, "set_default_dtype");
  const int idx = a.at(0, "d");
  // a dtype object only (to_dtype would also read "float64")
  const std::optional<DType> d = idx && lua_type(L, idx) == LUA_TUSERDATA ? to_dtype_or_null(L, idx) : std::nullopt;
  GL_CHECK_T(TypeError, d, "invalid dtype object: only floating-point types are supported as the default type");
  GL_CHECK_T(TypeError, is_floating(*d), "only floating-point types are supported as the default type");
  gl::set_default_dtype(*d);
  return 0;
}

int promote_types(lua_State* L) {
  auto a = to_dtype(L, 1), b = to_dtype(L, 2);
  GL_CHECK_T(TypeError, a && b, "promote_types(): arguments must be dtypes");
  push_dtype(L, gl::promote_types(*a, *b));
  return 1;
}

// Functional forms of nn layers (torch.nn.functional).
int f_linear(lua_State* L) {
  Args a(L, 1, "linear");
  Tensor* b = to_tensor(L, a.at(2, "bias"));
  Tensor& input = a.tensor(0, "input");
  Tensor& weight = a.tensor(1, "weight");
  a.finish(3);
  push_tensor(L, linear(input, weight, b));
  return 1;
}
int f_mse_loss(lua_State* L) {
  Args a(L, 1, "mse_loss");
  push_tensor(L, mse_loss(a.tensor(0, "input"), a.tensor(1, "target"), a.string(-1, "reduction", "mean")));
  return 1;
}
int f_cross_entropy(lua_State* L) {
  Args a(L, 1, "cross_entropy");
  CrossEntropyOptions o;
  o.weight = to_tensor(L, a.at(2, "weight"));
  o.ignore_index = a.opt_integer(-1, "ignore_index").value_or(-100);
  o.reduction = a.string(-1, "reduction", "mean");
  o.label_smoothing = a.opt_number(-1, "label_smoothing").value_or(0.0);
  Tensor& input = a.tensor(0, "input");
  Tensor& target = a.tensor(1, "target");
  a.finish(3);
  push_tensor(L, cross_entropy(input, target, o));
  return 1;
}
int f_dropout(lua_State* L) {
  Args a(L, 1, "dropout");
  push_tensor(L, dropout(a.tensor(0, "input"), a.opt_number(1, "p").value_or(0.5), a.boolean(2, "training", true)));
  return 1;
}

int linalg_qr(lua_State* L) {
  Args a(L, 1, "linalg_qr");
  Tensor& A = a.tensor(0, "A");
  std::string mode = a.string(1, "mode", "reduced");
  a.finish(2);
  auto [q, r] = gl::linalg_qr(A, mode);
  push_tensor(L, q);
  push_tensor(L, r);
  mark_named_tuple(L, "linalg_qr", "Q", "R");
  return 2;
}
int linalg_svdvals(lua_State* L) {
  Args a(L, 1, "linalg_svdvals");
  push_tensor(L, gl::linalg_svdvals(a.tensor(0, "A")));
  return 1;
}

}  // namespace

const Reg kTorchFunctions[] = {
    {"tensor", tensor,
     "torch.tensor(data, {dtype=, device=, requires_grad=}): a tensor from nested tables. Lua integers give int64, floats float32, booleans bool."},
    {"empty", creator<0>, "torch.empty(size..., {dtype=, device=}): uninitialised values."},
    {"zeros", creator<1>, "torch.zeros(2, 3, {device='cuda'}) or torch.zeros{2, 3, device='cuda'}."},
    {"ones", creator<2>, "torch.ones(size..., {dtype=, device=})."},
    {"empty_like", creator_like<0>, "torch.empty_like(t)."},
    {"zeros_like", creator_like<1>, "torch.zeros_like(t)."},
    {"ones_like", creator_like<2>, "torch.ones_like(t)."},
    {"rand_like", creator_like<3>, "torch.rand_like(t)."},
    {"randn_like", creator_like<4>, "torch.randn_like(t)."},
    {"full", full, "torch.full(size, value, {dtype=, device=})."},
    {"full_like", full_like, "torch.full_like(t, value)."},
    {"arange", arange, "torch.arange(end) or torch.arange(start, end, step): end excluded."},
    {"linspace", linspace, "torch.linspace(start, end, steps): evenly spaced, both ends included."},
    {"eye", eye, "torch.eye(n, m): identity matrix."},
    {"randint_like", randint_like, "torch.randint_like(t, low=0, high)."},
    {"cat", cat, "torch.cat({a, b, ...}, dim=0): join along an existing dim."},
    {"concat", cat, "alias of torch.cat."},
    {"stack", stack, "torch.stack({a, b, ...}, dim=0): join along a new dim."},
    {"manual_seed", manual_seed,
     "torch.manual_seed(seed): seed the CPU and every CUDA device; returns torch.default_generator."},
    {"is_tensor", is_tensor, "torch.is_tensor(x)."},
    {"numel", numel, "torch.numel(t)."},
    {"is_grad_enabled", is_grad_enabled, "torch.is_grad_enabled()."},
    {"set_grad_enabled", set_grad_enabled, "torch.set_grad_enabled(bool)."},
    {"set_printoptions", set_printoptions,
     "torch.set_printoptions{precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=nil, profile='default'|'short'|'full'}."},
    {"get_default_dtype", get_default_dtype,
     "torch.get_default_dtype() -> the floating dtype of factories and of tensors made from Lua floats (torch.float32 "
     "unless torch.set_default_dtype changed it)."},
    {"set_default_dtype", set_default_dtype,
     "torch.set_default_dtype(d): the floating dtype (torch.float32, float64, float16 or bfloat16) that factories, "
     "tensors made from Lua floats and integers promoted to float take from now on, as PyTorch's."},
    {"promote_types", promote_types, "torch.promote_types(a, b) -> dtype."},
    {nullptr, nullptr, nullptr}};

const Reg kFunctional[] = {
    {"linear", f_linear, "F.linear(input, weight, bias): input @ weight^T + bias."},
    {"mse_loss", f_mse_loss, "F.mse_loss(input, target, {reduction='mean'})."},
    {"cross_entropy", f_cross_entropy,
     "F.cross_entropy(logits, target, {weight=, ignore_index=-100, reduction='mean', label_smoothing=0}): target holds class indices, or class probabilities (float, logits' shape)."},
    {"dropout", f_dropout, "F.dropout(input, p=0.5, training=true)."},
    {nullptr, nullptr, nullptr}};

const Reg kLinalg[] = {
    {"qr", linalg_qr,
     "torch.linalg.qr(A, mode='reduced') -> Q, R: A = Q @ R with Q's columns orthonormal and R upper\n"
     "triangular, by LAPACK's geqrf/orgqr as PyTorch on the CPU (float32/float64; batches of matrices).\n"
     "mode 'complete' gives a square Q; mode 'r' only R (Q empty). No backward yet."},
    {"svdvals", linalg_svdvals, nullptr},  // doc: 93_doc_b2_ops.lua
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
