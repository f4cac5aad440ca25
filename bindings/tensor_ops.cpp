// Bound tensor ops. Each takes the tensor first, so one C function serves as
// both the method (x:sum(0)) and the torch function (torch.sum(x, 0)).
#include <cmath>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/op_table.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"

namespace gl::lt {

namespace {

// torch.add(x, {other=y}), x:mul{other=y}: the operands named in a keywords
// table are put at 1 and 2, where the binary ops read them (x + y, the common
// case, has no table and is left alone).
void place_operands(lua_State* L, const char* name, const char* first) {
  const int top = lua_gettop(L);
  if (top < 2 || lua_type(L, top) != LUA_TTABLE || lua_getmetatable(L, top)) {
    if (top >= 2 && lua_type(L, top) == LUA_TTABLE) lua_pop(L, 1);  // the metatable lua_getmetatable pushed
    return;
  }
  bool named = false;  // x + {} stays a (wrong) operand, not an empty options table
  for (lua_pushnil(L); !named && lua_next(L, top); lua_pop(L, 1)) named = lua_type(L, -2) == LUA_TSTRING;
  lua_settop(L, top);
  if (!named) return;
  Args a(L, 1, name);
  if (!a.kw_index()) return;
  const int ia = a.at(0, first), ib = a.at(1, "other");
  ia ? lua_pushvalue(L, ia) : lua_pushnil(L);
  ib ? lua_pushvalue(L, ib) : lua_pushnil(L);
  const int now = lua_gettop(L);
  lua_copy(L, now - 1, 1);
  lua_copy(L, now, 2);
  lua_settop(L, 2);
}

// a op b where either side may be a number (x + 1, 2 * x, 1 - x).
int binop(lua_State* L, BinaryOp op, const char* name) {
  place_operands(L, name, "input");
  Tensor* a = to_tensor(L, 1);
  Tensor* b = to_tensor(L, 2);
  if (a && b) {
    push_tensor(L, binary(op, *a, *b));
    return 1;
  }
  if (a) {
    auto s = to_scalar(L, 2);
    if (!s) type_error(name, "other", "Tensor", type_name(L, 2));
    push_tensor(L, binary(op, *a, *s));
    return 1;
  }
  if (b) {
    auto s = to_scalar(L, 1);
    if (!s) type_error(name, "input", "Tensor", type_name(L, 1));
    push_tensor(L, binary(op, *b, *s, true));
    return 1;
  }
  type_error(name, "input", "Tensor", type_name(L, 1));
}

int binop_(lua_State* L, BinaryOp op, const char* name) {
  place_operands(L, name, "self");
  Tensor& a = check_tensor(L, 1, "self");
  if (Tensor* b = to_tensor(L, 2)) binary_(op, a, *b);
  else if (auto s = to_scalar(L, 2)) binary_(op, a, *s);
  else type_error(name, "other", "Tensor", type_name(L, 2));
  lua_settop(L, 1);
  return 1;
}

// Anything after (input, other) is refused: an ignored keyword such as
// div's rounding_mode would silently give another result.
int binop_checked(lua_State* L, BinaryOp op, const char* name, bool inplace) {
  if (lua_gettop(L) > 2) Args(L, 1, name).finish(2);
  return inplace ? binop_(L, op, name) : binop(L, op, name);
}

// The bindings of the rows of tensor/ops/op_rows.def: fn and fn_.
template <BinaryOp OP> int binop_row(lua_State* L) { return binop_checked(L, OP, row(OP).name, false); }
template <BinaryOp OP> int binop_row_(lua_State* L) { return binop_checked(L, OP, row(OP).inplace_name, true); }
template <UnaryOp OP> int unop_row(lua_State* L) {
  push_tensor(L, unary(OP, check_tensor(L, 1, "input")));
  return 1;
}
template <UnaryOp OP> int unop_row_(lua_State* L) {
  unary_(OP, check_tensor(L, 1, "self"));
  lua_settop(L, 1);
  return 1;
}
// round's row takes one option, PyTorch's round(input, *, decimals): given
// (0 included), it is gl::round(x, decimals), PyTorch's round.decimals.
template <> int unop_row<UnaryOp::Round>(lua_State* L) {
  Args a(L, 1, "round");
  Tensor& x = a.tensor(0, "input");
  auto decimals = a.opt_integer(-1, "decimals");
  push_tensor(L, decimals ? gl::round(x, *decimals) : unary(UnaryOp::Round, x));
  return 1;
}
template <> int unop_row_<UnaryOp::Round>(lua_State* L) {
  Args a(L, 1, "round_");
  Tensor& x = a.tensor(0, "self");
  if (auto decimals = a.opt_integer(-1, "decimals")) gl::round_(x, *decimals);
  else unary_(UnaryOp::Round, x);
  lua_settop(L, 1);
  return 1;
}

// div(input, other, {rounding_mode=nil|'trunc'|'floor'}) and div_.
std::optional<std::string> rounding_mode(Args& a) {
  const int idx = a.at(2, "rounding_mode");
  a.finish(3);
  if (!idx || lua_isnil(a.L, idx)) return std::nullopt;
  if (lua_type(a.L, idx) == LUA_TTABLE) {  // {rounding_mode=nil} arrives as an empty options table
    lua_pushnil(a.L);
    if (!lua_next(a.L, idx)) return std::nullopt;
    lua_pop(a.L, 2);
  }
  std::string m = type_name(a.L, idx);
  if (lua_type(a.L, idx) == LUA_TSTRING) m = lua_tostring(a.L, idx);
  check_rounding_mode(m);
  return m;
}
Tensor operand(lua_State* L, int idx, const char* fname, const char* arg) {
  if (Tensor* t = to_tensor(L, idx)) return *t;
  auto s = to_scalar(L, idx);
  if (!s) type_error(fname, arg, "Tensor", type_name(L, idx));
  return scalar_tensor(*s, scalar_default_dtype(*s), Device());
}
// `other` as a tensor or a number (a type error otherwise).
Other other_arg(lua_State* L, int idx, const char* fname) {
  if (Tensor* t = to_tensor(L, idx)) return Other::of(*t);
  auto s = to_scalar(L, idx);
  if (!s) type_error(fname, "other", "Tensor", type_name(L, idx));
  return Other::of(*s);
}
int div(lua_State* L) {
  if (lua_gettop(L) <= 2) return binop(L, BinaryOp::Div, "div");
  Args a(L, 1, "div");
  auto mode = rounding_mode(a);
  if (!mode) {
    lua_settop(L, 2);
    return binop(L, BinaryOp::Div, "div");
  }
  push_tensor(
      L, gl::div(operand(L, a.at(0, "input"), "div", "input"), operand(L, a.at(1, "other"), "div", "other"), mode));
  return 1;
}
int div_(lua_State* L) {
  if (lua_gettop(L) <= 2) return binop_(L, BinaryOp::Div, "div_");
  Args a(L, 1, "div_");
  auto mode = rounding_mode(a);
  Tensor& x = a.tensor(0, "self");
  if (!mode) {
    lua_settop(L, 2);
    return binop_(L, BinaryOp::Div, "div_");
  }
  gl::div_(x, other_arg(L, a.at(1, "other"), "div_"), mode);
  lua_settop(L, 1);
  return 1;
}

// add/sub(x, y, {alpha=}) and their in-place forms, as in PyTorch: x + alpha * y.
// Without alpha they are the plain binary ops.
int alpha_op(lua_State* L, BinaryOp op, bool inplace, const char* name) {
  if (lua_gettop(L) <= 2) return inplace ? binop_(L, op, name) : binop(L, op, name);  // x + y: the fast path
  Args a(L, 1, name);
  if (!a.has(2, "alpha")) return inplace ? binop_(L, op, name) : binop(L, op, name);
  Tensor& x = a.tensor(0, inplace ? "self" : "input");
  Scalar alpha = a.scalar(2, "alpha");
  Other y = other_arg(L, a.at(1, "other"), name);
  if (inplace) {
    op == BinaryOp::Add ? gl::add_(x, y, alpha) : gl::sub_(x, y, alpha);
    lua_settop(L, 1);
  } else {
    push_tensor(L, op == BinaryOp::Add ? gl::add(x, y, alpha) : gl::sub(x, y, alpha));
  }
  return 1;
}
int add_alpha(lua_State* L) { return alpha_op(L, BinaryOp::Add, false, "add"); }
int sub_alpha(lua_State* L) { return alpha_op(L, BinaryOp::Sub, false, "sub"); }
int add_alpha_(lua_State* L) { return alpha_op(L, BinaryOp::Add, true, "add_"); }
int sub_alpha_(lua_State* L) { return alpha_op(L, BinaryOp::Sub, true, "sub_"); }

// A tensor among clamp's bounds selects PyTorch's clamp.Tensor overload;
// the other bound may then be a number. Numbers alone: clamp.Scalar.
struct ClampBounds {
  bool tensors = false;
  std::optional<Other> lo, hi;
};
ClampBounds clamp_bounds(lua_State* L, Args& a, const char* name) {
  ClampBounds b;
  const int il = a.at(1, "min"), ih = a.at(2, "max");
  b.tensors = to_tensor(L, il) || to_tensor(L, ih);
  auto one = [&](int idx, const char* arg) -> std::optional<Other> {
    if (!idx || lua_isnil(L, idx)) return std::nullopt;
    if (Tensor* t = to_tensor(L, idx)) return Other::of(*t);
    if (auto s = to_scalar(L, idx)) return Other::of(*s);
    type_error(name, arg, "Tensor", type_name(L, idx));
  };
  if (b.tensors) {
    b.lo = one(il, "min");
    b.hi = one(ih, "max");
  }
  return b;
}
int clamp(lua_State* L) {
  Args a(L, 1, "clamp");
  const Tensor& x = a.tensor(0, "input");
  if (ClampBounds b = clamp_bounds(L, a, "clamp"); b.tensors) push_tensor(L, gl::clamp_tensor(x, b.lo, b.hi));
  else push_tensor(L, gl::clamp(x, a.opt_number(1, "min"), a.opt_number(2, "max")));
  return 1;
}
int clamp_(lua_State* L) {
  Args a(L, 1, "clamp_");
  Tensor& t = a.tensor(0, "self");
  if (ClampBounds b = clamp_bounds(L, a, "clamp_"); b.tensors) gl::clamp_tensor_(t, b.lo, b.hi);
  else gl::clamp_(t, a.opt_number(1, "min"), a.opt_number(2, "max"));
  lua_settop(L, 1);
  return 1;
}

int where(lua_State* L) {
  Args a(L, 1, "where");
  Tensor& c = a.tensor(0, "condition");
  auto operand = [&](int i, const char* n) {
    if (Tensor* t = to_tensor(L, a.at(i, n))) return Other::of(*t);
    return Other::of(a.scalar(i, n));
  };
  push_tensor(L, gl::where(c, operand(1, "input"), operand(2, "other")));
  return 1;
}

int masked_fill(lua_State* L) {
  Args a(L, 1, "masked_fill");
  Tensor& t = a.tensor(0, "input");
  Tensor& m = a.tensor(1, "mask");
  Tensor* v = to_tensor(L, a.at(2, "value"));
  push_tensor(L, gl::masked_fill(t, m, v ? Other::of(*v) : Other::of(a.scalar(2, "value"))));
  return 1;
}

// torch.index_select(input, dim, index), also x:index_select(dim, index).
int index_select(lua_State* L) {
  Args a(L, 1, "index_select");
  push_tensor(L, gl::index_select(a.tensor(0, "input"), a.integer(1, "dim"), a.tensor(2, "index")));
  return 1;
}

}  // namespace

// Shared by the Tensor metatable (methods) and the torch table (functions).
#define GL_IF_0(...)
#define GL_IF_1(...) __VA_ARGS__
#define GL_IF_Custom(...)
#define GL_IF_Plain(...) __VA_ARGS__
const Reg kTensorOps[] = {
// clang-format off
#define GL_NN_UNARY(...)  // F.gelu, F.silu: bindings/nn_activation.cpp
#define GL_UNARY(E, name, policy, inplace, node, doc, ...)      \
  {#name, unop_row<UnaryOp::E>, doc},                           \
  GL_IF_##inplace({#name "_", unop_row_<UnaryOp::E>, "x:" #name "_(): in place; returns x."},)
#define GL_BINARY(E, name, policy, bind, inplace, node, scalar_node, saves, doc, ...) \
  GL_IF_##bind({#name, binop_row<BinaryOp::E>, doc},)                                \
  GL_IF_##bind(GL_IF_##inplace({#name "_", binop_row_<BinaryOp::E>, "x:" #name "_(other): in place; returns x."},))
#include "tensor/ops/op_rows.def"
    // clang-format on
    {"negative", unop_row<UnaryOp::Neg>, "negative(input): -input."},
    {"add", add_alpha, row(BinaryOp::Add).doc},
    {"sub", sub_alpha, row(BinaryOp::Sub).doc},
    {"div", div, row(BinaryOp::Div).doc},
    {"true_divide", div, "true_divide(input, other): same as div."},
    {"add_", add_alpha_, "x:add_(other, {alpha=1}): in-place x += alpha * other; returns x."},
    {"sub_", sub_alpha_, "x:sub_(other, {alpha=1}): in-place x -= alpha * other; returns x."},
    {"div_", div_, "x:div_(other, {rounding_mode=}): in-place divide; returns x."},
    {"clamp", clamp, "clamp(input, min, max) or clamp(input, {min=, max=}): limit values to [min, max]."},
    {"clip", clamp, "clip(input, min, max): alias of clamp."},
    {"clamp_", clamp_, "x:clamp_(min, max): in place."},
    {"where", where, "where(condition, input, other): input where condition, else other (numbers allowed)."},
    {"masked_fill", masked_fill, "masked_fill(input, mask, value): value where mask is true."},
    {"index_select", index_select,
     "index_select(input, dim, index) -> Tensor: the entries of index along dim (a 0-d index keeps dim, with size 1)."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
