// Bound reductions and scans (sum, mean, max/min, the rows of
// tensor/ops/reduce_rows.def, norm, var/std, cumsum/cumprod): like
// tensor_ops.cpp's, each takes the tensor first and serves as both x:name(...)
// and torch.name(x, ...).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/reduce_table.h"

namespace gl::lt {

namespace {
std::vector<int64_t> dims_arg(Args& a, int i) { return a.int_list(i, "dim"); }

int sum(lua_State* L) {
  Args a(L, 1, "sum");
  push_tensor(L, gl::sum(a.tensor(0, "input"), dims_arg(a, 1), a.boolean(2, "keepdim", false), a.dtype(-1, "dtype")));
  return 1;
}
int mean(lua_State* L) {
  Args a(L, 1, "mean");
  Tensor x = a.tensor(0, "input");
  if (auto d = a.dtype(-1, "dtype")) x = to_dtype(x, *d);
  push_tensor(L, gl::mean(x, dims_arg(a, 1), a.boolean(2, "keepdim", false)));
  return 1;
}
// max(x) -> tensor; max(x, dim) -> values, indices; max(x, y) -> elementwise.
int extreme(lua_State* L, bool is_max) {
  Args a(L, 1, is_max ? "max" : "min");
  Tensor& x = a.tensor(0, "input");
  if (Tensor* y = to_tensor(L, a.at(1, "other"))) {
    push_tensor(L, binary(is_max ? BinaryOp::Maximum : BinaryOp::Minimum, x, *y));
    return 1;
  }
  auto dim = a.opt_integer(1, "dim");
  if (!dim) {
    push_tensor(L, is_max ? max_all(x) : min_all(x));
    return 1;
  }
  auto [v, i] =
      is_max ? max_dim(x, *dim, a.boolean(2, "keepdim", false)) : min_dim(x, *dim, a.boolean(2, "keepdim", false));
  push_tensor(L, v);
  push_tensor(L, i);
  mark_named_tuple(L, is_max ? "max" : "min", "values", "indices");
  return 2;
}
int max(lua_State* L) { return extreme(L, true); }
int min(lua_State* L) { return extreme(L, false); }
// The generated bindings of the rows of tensor/ops/reduce_rows.def:
// name(input, dim=None, keepdim=False) calls gl::name.
// clang-format off
#define GL_REDUCE(E, name, trace, kind, flag, result, empty, bind, ...) GL_RBIND_##bind(name)
#define GL_RBIND_Custom(name)
#define GL_RBIND_DimOpt(name)                                                                            \
  int reduce_##name(lua_State* L) {                                                                      \
    Args a(L, 1, #name);                                                                                 \
    push_tensor(L, gl::name(a.tensor(0, "input"), a.opt_integer(1, "dim"), a.boolean(2, "keepdim", false))); \
    return 1;                                                                                            \
  }
#include "tensor/ops/reduce_rows.def"
// clang-format on
#undef GL_RBIND_DimOpt
int norm(lua_State* L) {
  Args a(L, 1, "norm");
  double p = 2;
  int pidx = a.at(1, "p");
  if (pidx && lua_type(L, pidx) == LUA_TSTRING) {
    std::string s = lua_tostring(L, pidx);
    GL_CHECK(s == "fro", "gpulab: norm supports p = number or 'fro'");
  } else if (pidx) {
    p = a.number(1, "p");
  }
  push_tensor(L, gl::norm(a.tensor(0, "input"), p, dims_arg(a, 2), a.boolean(3, "keepdim", false)));
  return 1;
}
// var/std(input, dim=None, unbiased=True, keepdim=False, *, correction=None),
// and var_mean/std_mean: unbiased is correction 1 (true) or 0 (false), also
// given alone in dim's place (PyTorch's overload (input, unbiased)). PyTorch
// has them in separate overloads, so both in one call is its "invalid
// combination" TypeError (var and std list an `out` keyword; the _mean forms
// have none).
[[noreturn]] void var_overloads(Args& a, bool with_out) {
  auto py_type = [&](int idx) {
    const std::string t = type_name(a.L, idx);
    if (t == "boolean") return std::string("bool");
    if (t == "table") return std::string("tuple");
    return t == "nothing" ? std::string("NoneType") : t;
  };
  std::string got;
  for (int i = 0; i < a.n(); ++i) got += (i ? ", " : "") + py_type(a.at(i));
  // PyTorch lists the keywords in the reverse of the call's order; a Lua table
  // has none, so they come as a call in alphabetical order would show them.
  for (const char* k : {"unbiased", "keepdim", "input", "dim", "correction"}) {
    if (int idx = a.at(-1, k)) got += cat(got.empty() ? "" : ", ", k, "=", py_type(idx));
  }
  const char* out = with_out ? ", *, Tensor out = None" : "";
  const char* out_kw = with_out ? ", Tensor out = None" : "";
  throw TypeError(cat(a.fname, "() received an invalid combination of arguments - got (", got,
                      "), but expected one of:\n",
                      " * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False", out, ")\n",
                      " * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
                      out_kw, ")\n", " * (Tensor input, bool unbiased = True)\n"));
}
struct Moments {
  std::vector<int64_t> dims;
  bool keepdim = false;
  double correction = 1;
};
Moments moments_args(Args& a, bool with_out) {
  Moments m;
  if (const int idx = a.at(1, "dim"); idx && lua_type(a.L, idx) == LUA_TBOOLEAN) {  // (input, unbiased)
    if (a.n() > 2 || a.has(-1, "correction") || a.has(-1, "unbiased") || a.has(-1, "keepdim"))
      var_overloads(a, with_out);
    m.correction = lua_toboolean(a.L, idx) ? 1 : 0;
    return m;
  }
  if (a.has(2, "unbiased") && a.has(-1, "correction")) var_overloads(a, with_out);
  m.dims = dims_arg(a, 1);
  m.keepdim = a.boolean(3, "keepdim", false);
  if (auto c = a.opt_number(-1, "correction")) m.correction = *c;
  else m.correction = a.boolean(2, "unbiased", true) ? 1 : 0;
  return m;
}
int var(lua_State* L) {
  Args a(L, 1, "var");
  Tensor& x = a.tensor(0, "input");
  const Moments m = moments_args(a, true);
  push_tensor(L, gl::var(x, m.dims, m.keepdim, m.correction));
  return 1;
}
int l_std(lua_State* L) {
  Args a(L, 1, "std");
  Tensor& x = a.tensor(0, "input");
  const Moments m = moments_args(a, true);
  push_tensor(L, gl::stddev(x, m.dims, m.keepdim, m.correction));
  return 1;
}
// torch.var_mean / torch.std_mean -> (var or std, mean), two results.
template <bool Std> int var_mean(lua_State* L) {
  Args a(L, 1, Std ? "std_mean" : "var_mean");
  Tensor& x = a.tensor(0, "input");
  const Moments m = moments_args(a, false);
  auto [v, mean] = gl::var_mean(x, m.dims, m.keepdim, m.correction, Std);
  refuse_indexed_pair(L, Std ? "std_mean" : "var_mean", Std ? "std" : "var", "mean", false);
  push_tensor(L, v);
  push_tensor(L, mean);
  return 2;
}

// cumsum(input, dim, {dtype=}) and cumprod: dim is required, dtype keyword-only.
int scan(lua_State* L, const char* name, Tensor (*f)(const Tensor&, int64_t, std::optional<DType>)) {
  Args a(L, 1, name);
  Tensor& x = a.tensor(0, "input");
  GL_CHECK_T(TypeError, a.at(1, "dim"), name, "() missing 1 required positional arguments: \"dim\"");
  const int64_t dim = a.integer(1, "dim");
  const auto dt = a.dtype(-1, "dtype");
  a.finish(2);
  push_tensor(L, f(x, dim, dt));
  return 1;
}
int cumsum(lua_State* L) { return scan(L, "cumsum", gl::cumsum); }
int cumprod(lua_State* L) { return scan(L, "cumprod", gl::cumprod); }

}  // namespace

// clang-format off
#define GL_IF_DimOpt(...) __VA_ARGS__
#define GL_IF_Custom(...)
const Reg kTensorReduceOps[] = {
#define GL_REDUCE(E, name, trace, kind, flag, result, empty, bind, ...) GL_IF_##bind({#name, reduce_##name, row(ReduceOp::E).doc},)
#include "tensor/ops/reduce_rows.def"
    // clang-format on
    {"sum", sum, row(ReduceOp::Sum).doc},
    {"mean", mean, "mean(input, dim, keepdim): mean of a floating tensor, overall or over dim."},
    {"max", max,
     "max(input) -> Tensor; max(input, dim, keepdim) -> values, indices; max(input, other) -> elementwise."},
    {"min", min,
     "min(input) -> Tensor; min(input, dim, keepdim) -> values, indices; min(input, other) -> elementwise."},
    {"norm", norm, "norm(input, p=2, dim, keepdim): vector p-norm (Frobenius for matrices by default)."},
    {"var", var,
     "var(input, dim, unbiased=true, keepdim=false, {correction=1}): variance, the squared deviations "
     "summed and divided by N - correction (unbiased=false is correction=0)."},
    {"std", l_std,
     "std(input, dim, unbiased=true, keepdim=false, {correction=1}): standard deviation, the square root "
     "of var."},
    {"cumsum", cumsum,
     "cumsum(input, dim, {dtype=}) -> Tensor: running sums along dim (integer and bool inputs give int64; dtype= casts the input first)."},
    {"cumprod", cumprod,
     "cumprod(input, dim, {dtype=}) -> Tensor: running products along dim (integer and bool inputs give int64)."},
    {nullptr, nullptr, nullptr}};

const Reg kMomentFunctions[] = {{"var_mean", var_mean<false>, nullptr},  // docs: 93_doc_learner_apis.lua
                                {"std_mean", var_mean<true>, nullptr},
                                {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
