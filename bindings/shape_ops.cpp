// Bound matrix-shape and layout ops (tensor/ops/shape_ops.h). Those taking a
// tensor first serve as method and torch function; squeeze, amax and amin
// here replace the one-dim bindings with ones that also take a table of dims.
#include <cstdio>
#include <string>
#include "bindings/args.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/reduce_table.h"
#include "tensor/ops/shape_ops.h"

namespace gl::lt {

namespace {

int l_tril(lua_State* L) {
  Args a(L, 1, "tril");
  push_tensor(L, gl::tril(a.tensor(0, "input"), a.opt_integer(1, "diagonal").value_or(0)));
  return 1;
}
int l_triu(lua_State* L) {
  Args a(L, 1, "triu");
  push_tensor(L, gl::triu(a.tensor(0, "input"), a.opt_integer(1, "diagonal").value_or(0)));
  return 1;
}
int l_diag(lua_State* L) {
  Args a(L, 1, "diag");
  push_tensor(L, gl::diag(a.tensor(0, "input"), a.opt_integer(1, "diagonal").value_or(0)));
  return 1;
}
int l_repeat_interleave(lua_State* L) {
  Args a(L, 1, "repeat_interleave");
  Tensor& x = a.tensor(0, "input");
  auto dim = a.opt_integer(2, "dim");
  if (!a.has(1, "repeats")) {
    push_tensor(L, gl::repeat_interleave(x));
    return 1;
  }
  if (Tensor* r = to_tensor(L, a.at(1, "repeats"))) push_tensor(L, gl::repeat_interleave(x, *r, dim));
  else push_tensor(L, gl::repeat_interleave(x, a.integer(1, "repeats"), dim));
  return 1;
}
int l_unflatten(lua_State* L) {
  Args a(L, 1, "unflatten");
  push_tensor(L, gl::unflatten(a.tensor(0, "input"), a.integer(1, "dim"), a.int_list(2, "sizes")));
  return 1;
}
int l_swapaxes(lua_State* L) {
  Args a(L, 1, "swapaxes");
  push_tensor(L, gl::transpose(a.tensor(0, "input"), a.integer(1, "axis0"), a.integer(2, "axis1")));
  return 1;
}
int l_swapdims(lua_State* L) {
  Args a(L, 1, "swapdims");
  push_tensor(L, gl::transpose(a.tensor(0, "input"), a.integer(1, "dim0"), a.integer(2, "dim1")));
  return 1;
}
int l_squeeze(lua_State* L) {
  Args a(L, 1, "squeeze");
  Tensor& x = a.tensor(0, "input");
  if (is_list(a, 1, "dim")) push_tensor(L, gl::squeeze_dims(x, a.int_list(1, "dim")));
  else push_tensor(L, gl::squeeze(x, a.opt_integer(1, "dim")));
  return 1;
}
int extreme(lua_State* L, bool is_max) {
  Args a(L, 1, is_max ? "amax" : "amin");
  Tensor& x = a.tensor(0, "input");
  const bool keepdim = a.boolean(2, "keepdim", false);
  if (is_list(a, 1, "dim")) {
    auto dims = a.int_list(1, "dim");
    push_tensor(L, is_max ? gl::amax_dims(x, dims, keepdim) : gl::amin_dims(x, dims, keepdim));
  } else {
    auto dim = a.opt_integer(1, "dim");
    push_tensor(L, is_max ? gl::amax(x, dim, keepdim) : gl::amin(x, dim, keepdim));
  }
  return 1;
}
int l_amax(lua_State* L) { return extreme(L, true); }
int l_amin(lua_State* L) { return extreme(L, false); }

int l_logspace(lua_State* L) {
  Args a(L, 1, "logspace");
  TensorOptions o;
  o.dtype = a.dtype(-1, "dtype").value_or(default_dtype());
  o.device = a.device(-1, "device").value_or(Device(Device::CPU));
  o.requires_grad = a.boolean(-1, "requires_grad", false);
  const double base = a.has(3, "base") ? a.number(3, "base") : 10.0;
  push_tensor(L, gl::logspace(a.number(0, "start"), a.number(1, "end"), a.integer(2, "steps"), base, o));
  return 1;
}
// meshgrid(t1, t2, ..., {indexing='ij'}) or meshgrid({t1, t2, ...}): one result per tensor.
int l_meshgrid(lua_State* L) {
  Args a(L, 1, "meshgrid");
  std::vector<Tensor> ts;
  if (a.n() == 1 && is_list(a, 0, nullptr)) ts = a.tensor_list(0, "tensors");
  else
    for (int i = 0; i < a.n(); ++i) ts.push_back(a.tensor(i, "tensors"));
  if (!a.has(-1, "indexing")) {  // PyTorch warns once, then uses 'ij'
    static bool warned = false;
    if (!warned)
      std::fputs(
          "UserWarning: torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.\n",
          stderr);
    warned = true;
  }
  const std::string indexing = a.string(-1, "indexing", "ij");
  std::vector<Tensor> out = gl::meshgrid(ts, indexing);
  for (const auto& t : out) push_tensor(L, t);
  return int(out.size());
}

}  // namespace

const Reg kShapeOps[] = {
    {"tril", l_tril, "tril(input, diagonal=0): the lower triangle of the last two dims, the rest zero."},
    {"triu", l_triu, "triu(input, diagonal=0): the upper triangle of the last two dims, the rest zero."},
    {"diag", l_diag, "diag(input, diagonal=0): a 1-d input on a matrix's diagonal, or a matrix's diagonal as 1-d."},
    GL_TENSOR_OP1(trace, "trace(input): the sum of a matrix's diagonal."),
    GL_TENSOR_OP2(outer, vec2, "outer(input, vec2): the outer product of two vectors."),
    GL_TENSOR_OP2(mv, vec, "mv(input, vec): matrix times vector."),
    {"repeat_interleave", l_repeat_interleave,
     "repeat_interleave(input, repeats, dim=None): each element repeated (repeats an int or one per element)."},
    {"unflatten", l_unflatten, "unflatten(input, dim, sizes): dim split into sizes (one may be -1)."},
    {"swapaxes", l_swapaxes, "swapaxes(input, axis0, axis1): transpose's alias."},
    {"swapdims", l_swapdims, "swapdims(input, dim0, dim1): transpose's alias."},
    {"squeeze", l_squeeze, "squeeze(input, dim=None): drop size-1 dims (all, one, or those in a table)."},
    {"amax", l_amax, row(ReduceOp::Max).doc},
    {"amin", l_amin, row(ReduceOp::Min).doc},
    {nullptr, nullptr, nullptr}};

// torch functions only (no method).
const Reg kShapeFunctions[] = {
    {"logspace", l_logspace,
     "logspace(start, end, steps, base=10.0): steps values base^x for x evenly from start to end."},
    {"meshgrid", l_meshgrid,
     "meshgrid(*tensors, indexing='ij'): one grid per 1-d tensor, each expanded over the others."},
    {nullptr, nullptr, nullptr}};

extern const char* const kShapeOpSignatures[][2];
const char* const kShapeOpSignatures[][2] = {
    {"tril", "tril(input, diagonal=0)"},
    {"triu", "triu(input, diagonal=0)"},
    {"diag", "diag(input, diagonal=0)"},
    {"trace", "trace(input)"},
    {"outer", "outer(input, vec2)"},
    {"mv", "mv(input, vec)"},
    {"repeat_interleave", "repeat_interleave(input, repeats=None, dim=None, *, output_size=None)"},
    {"unflatten", "unflatten(input, dim, sizes)"},
    {"swapaxes", "swapaxes(input, axis0, axis1)"},
    {"swapdims", "swapdims(input, dim0, dim1)"},
    {"logspace", "logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False)"},
    {"meshgrid", "meshgrid(*tensors, indexing=None)"},
    {nullptr, nullptr}};

}  // namespace gl::lt

namespace gl::lt {

// PyTorch has these tensor methods as torch functions too (torch.transpose(x,
// 0, 1) is x.transpose(0, 1)). The bound method reads the tensor first either
// way, so the same C function is registered into the torch table on the stack,
// checked as a function (the tensor counts as a positional).
void open_method_functions(lua_State* L) {
  static const char* const names[] = {
      "transpose", "unsqueeze", "flatten", "t",      "permute",           "reshape",   "narrow",
      "select",    "chunk",     "split",   "unbind", "masked_select",     "clone",     "detach",
      "equal",     "allclose",  "fill_",   "zero_",  "is_floating_point", "get_device"};
  for (const char* name : names) {
    if (lua_getfield(L, -1, name) != LUA_TNIL) {  // torch has it already
      lua_pop(L, 1);
      continue;
    }
    lua_pop(L, 1);
    for (const Reg* table : {kTensorMethods, kTensorViewMethods})
      for (const Reg* r = table; r->name; ++r) {
        if (std::string(r->name) != name) continue;
        push_checked(L, r->fn, r->doc, name, false);
        lua_setfield(L, -2, name);
        break;
      }
  }
}

}  // namespace gl::lt
