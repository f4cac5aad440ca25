// The out= keyword of torch functions (Note [out=] in tensor/ops/out.cpp):
// which functions take it, and the call that writes their result into it.
#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/signatures.h"
#include "tensor/autocast/autocast.h"
#include "tensor/core/error.h"
#include "tensor/ops/out.h"

namespace gl::lt {

namespace {

// The torch functions bound in C++ that have an out= variant in PyTorch 2.15
// (its schemas: an `out` keyword-only argument), as torch.f only: methods and
// in-place forms take none.
const std::unordered_set<std::string>& out_functions() {
  static const std::unordered_set<std::string> s = {
      "abs",        "acos",        "acosh",     "add",         "addcdiv",      "addcmul",
      "addmm",      "all",         "amax",      "amin",        "any",          "arange",
      "argmax",     "argmin",      "argsort",   "asin",        "asinh",        "atan",
      "atan2",      "atanh",       "bernoulli", "bitwise_and", "bitwise_or",   "bitwise_xor",
      "bmm",        "cat",         "ceil",      "clamp",       "clip",         "concat",
      "cos",        "cosh",        "cumprod",   "cumsum",      "diag",         "div",
      "dot",        "empty",       "eq",        "erf",         "erfinv",       "exp",
      "exp2",       "expm1",       "eye",       "floor",       "floor_divide", "fmod",
      "full",       "gather",      "ge",        "gt",          "index_add",    "index_select",
      "isinf",      "isnan",       "le",        "lerp",        "linspace",     "log",
      "log10",      "log1p",       "log2",      "log_softmax", "logical_and",  "logical_not",
      "logical_or", "logical_xor", "logspace",  "logsumexp",   "lt",           "masked_select",
      "matmul",     "max",         "maximum",   "mean",        "median",       "min",
      "minimum",    "mm",          "mul",       "multinomial", "mv",           "ne",
      "neg",        "negative",    "nonzero",   "norm",        "normal",       "ones",
      "outer",      "pow",         "prod",      "rand",        "randint",      "randn",
      "randperm",   "reciprocal",  "remainder", "round",       "rsqrt",        "sigmoid",
      "sign",       "sin",         "sinh",      "softmax",     "sqrt",         "square",
      "stack",      "std",         "sub",       "sum",         "take",         "tan",
      "tanh",       "tril",        "triu",      "true_divide", "trunc",        "var",
      "zeros",      "kthvalue",    "mode",      "sort",        "topk"};
  return s;
}

// The out tensors a call gave: one tensor, or a table (tuple) of them.
std::vector<Tensor> out_tensors(lua_State* L, int idx, const std::string& fname) {
  std::vector<Tensor> outs;
  if (Tensor* t = to_tensor(L, idx)) {
    outs.push_back(*t);
    return outs;
  }
  if (lua_type(L, idx) == LUA_TTABLE) {
    for (lua_Integer i = 1;; ++i) {
      if (lua_rawgeti(L, idx, i) == LUA_TNIL) {
        lua_pop(L, 1);
        break;
      }
      Tensor* t = to_tensor(L, -1);
      if (!t) type_error(fname.c_str(), "out", "tuple of Tensors", type_name(L, -1));
      outs.push_back(*t);
      lua_pop(L, 1);
    }
    if (!outs.empty()) return outs;
  }
  type_error(fname.c_str(), "out", "Tensor", type_name(L, idx));
}

}  // namespace

bool takes_out(const std::string& key) { return out_functions().count(key) != 0; }

// Runs fn with out= taken from its keywords (a copy of the table without it,
// so the caller's table is untouched) and writes the results into out.
int call_with_out(lua_State* L, Fn fn, const Signature& sig, const CallShape& shape) {
  const int kw = shape.kw;
  const bool one_table = shape.one_table;  // f{x, y, out=t}: the positionals are the table's items
  if (kw == 0) return fn(L);
  if (lua_getfield(L, kw, "out") == LUA_TNIL) {
    lua_pop(L, 1);
    return fn(L);
  }
  std::vector<Tensor> outs = out_tensors(L, -1, sig.name);
  lua_pop(L, 1);
  // PyTorch's autocast kernels are its functional overloads': an out= call
  // runs as called (Note [Autocast]); the trampoline's Entry restores the op after.
  autocast::state().entry = autocast::Op::none;
  // The keywords but out, in a new table (the caller's stays as it was); for
  // the one-table form, its items become the call's positionals.
  const lua_Integer items = one_table ? lua_Integer(lua_rawlen(L, kw)) : 0;
  // lua_checkstack, not luaL_checkstack: no Lua error may cross the C++ objects alive here
  if (items > 1000000 || !lua_checkstack(L, int(items) + 8)) throw RuntimeError("too many arguments");
  lua_newtable(L);
  bool any = false;
  lua_pushnil(L);
  while (lua_next(L, kw)) {
    const bool skip = (lua_type(L, -2) == LUA_TSTRING && std::strcmp(lua_tostring(L, -2), "out") == 0) ||
                      (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= items);
    if (skip) {
      lua_pop(L, 1);
      continue;
    }
    any = true;
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  // A factory makes out's dtype on out's device unless told otherwise, as
  // PyTorch's factories with out= do (torch.rand into a float64 out draws
  // float64 numbers).
  static const std::unordered_set<std::string> factories = {"zeros", "ones",   "full",     "empty",
                                                            "eye",   "arange", "linspace", "logspace",
                                                            "rand",  "randn",  "randint",  "randperm"};
  // Sums and products accumulate in out's dtype (PyTorch's sum_out takes its
  // dtype from the result): a float sum into a long out is a long sum.
  static const std::unordered_set<std::string> accumulators = {"sum", "prod", "cumsum", "cumprod"};
  const bool factory = factories.count(sig.name) != 0;
  if ((factory || accumulators.count(sig.name)) && outs.size() == 1) {
    for (const char* key : {"dtype", "device"}) {
      if (!factory && key[1] == 'e') continue;
      if (lua_getfield(L, -1, key) == LUA_TNIL) {
        if (key[1] == 't') push_dtype(L, outs[0].dtype());
        else push_device(L, outs[0].device());
        lua_setfield(L, -3, key);
        any = true;
      }
      lua_pop(L, 1);
    }
  }
  if (one_table) {
    const int copy = lua_gettop(L);
    for (lua_Integer i = 1; i <= items; ++i) lua_rawgeti(L, kw, i);
    if (any) lua_pushvalue(L, copy);
    lua_remove(L, copy);
    lua_remove(L, kw);
  } else {
    lua_replace(L, kw);
  }
  int nres;
  {
    // Note [out= written in place]: the call's tensor arguments, in order
    std::vector<Tensor> args;
    for (int i = 1; i <= lua_gettop(L); ++i)
      if (Tensor* t = to_tensor(L, i)) args.push_back(*t);
    std::optional<OutScope> in_place;
    if (outs.size() == 1) in_place.emplace(sig.name, outs[0], std::move(args));
    nres = fn(L);
  }
  const int first = lua_gettop(L) - nres + 1;
  std::vector<Tensor> results;
  for (int i = 0; i < nres; ++i)
    if (Tensor* t = to_tensor(L, first + i)) results.push_back(*t);
  if (results.size() != outs.size() || int(results.size()) != nres)
    throw TypeError(cat(sig.name, "(): out= must be ", nres == 1 ? "a Tensor" : cat("a tuple of ", nres, " Tensors"),
                        " for this call, not ", outs.size() == 1 ? "a Tensor" : cat(outs.size(), " Tensors")));
  for (size_t i = 0; i < outs.size(); ++i) assign_out(outs[i], results[i], sig.name);
  // The named tuple of max(x, 0) and the like labels the out pair too.
  std::string name, f1, f2;
  if (nres == 2 && push_named_tuple_record(L, first)) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_rawgeti(L, -3, 3);
    name = lua_tostring(L, -3);
    f1 = lua_tostring(L, -2);
    f2 = lua_tostring(L, -1);
    lua_pop(L, 4);
  }
  lua_settop(L, first - 1);
  for (const Tensor& o : outs) push_tensor(L, o);
  if (!name.empty())
    mark_named_tuple(L, (name + "_out").c_str(), f1.c_str(), f2.c_str());  // torch.return_types.max_out
  return nres;
}

}  // namespace gl::lt
