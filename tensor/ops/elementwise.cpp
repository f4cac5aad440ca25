// Elementwise ops: unary and binary (tensor/tensor and tensor/scalar),
// driven by the rows of op_rows.def, and their in-place forms (whose rules
// are in inplace.cpp), with autograd.
#include <array>
#include <cmath>
#include <functional>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/inplace.h"
#include "tensor/ops/op_table.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/out.h"
#include "tensor/ops/promote.h"
#include "tensor/ops/unary_reads.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

bool differentiable(BinaryOp op) { return row(op).node != nullptr; }

// Integer division and modulo by zero are errors on the CPU, as in PyTorch.
void check_int_division(BinaryOp op, DType compute, const Tensor* b, const Scalar* s) {
  if (is_floating(compute) || !(op == BinaryOp::Remainder || op == BinaryOp::FloorDivide || op == BinaryOp::Fmod))
    return;
  if (s) {
    GL_CHECK(s->to_int() != 0, "ZeroDivisionError");
    return;
  }
  if (!slot_of(*b).host_memory) return;
  Tensor z = any(binary(BinaryOp::Eq, *b, Scalar::from_int(0)), std::nullopt, false);
  GL_CHECK(!item(z).i, "ZeroDivisionError");
}

// Subtraction with a bool operand is refused, as in PyTorch (a bool scalar
// counts as bool).
void check_bool_sub(BinaryOp op, bool a_bool, bool b_bool) {
  if (op != BinaryOp::Sub || !(a_bool || b_bool)) return;
  if (a_bool && b_bool)
    throw NotImplementedError(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
        "`logical_xor()` operator instead.");
  throw NotImplementedError(
      "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
      "invert a mask, use the `~` or `logical_not()` operator instead.");
}

DType binary_compute_dtype(BinaryOp op, DType rt) {
  if (binary_to_float(op) && !is_floating(rt)) return default_dtype();
  return rt;
}

// The derivatives of the rows: {grad of a, grad of b}, before sum_to.
std::vector<Tensor> binary_grad(BinaryOp op, const Tensor& g, const Tensor& a, const Tensor& b) {
  switch (op) {
// clang-format off
#define GL_BINARY(E, name, policy, bind, inplace, node, scalar_node, saves, doc, ...) \
  case BinaryOp::E: __VA_ARGS__
#include "tensor/ops/op_rows.def"
    // clang-format on
  }
  return {};
}

void record_binary(Tensor& out, BinaryOp op, const Tensor& a, const Tensor& b) {
  if (!differentiable(op) || !any_requires_grad({&a, &b})) return;
  // A derivative that reads neither input keeps neither (Note [In-place autograd]).
  const bool saves = row(op).saves;
  Shape as = a.sizes(), bs = b.sizes();
  DType ad = a.dtype(), bd = b.dtype();
  // What PyTorch would keep, for the version checks (Note [Version counter]):
  // a product keeps each factor for the other's gradient; a quotient always
  // keeps the divisor, and the dividend for the divisor's gradient.
  Tensor va = saves ? a : Tensor(), vb = saves ? b : Tensor();
  if (op == BinaryOp::Mul && !b.requires_grad()) va = Tensor();
  if (op == BinaryOp::Mul && !a.requires_grad()) vb = Tensor();
  if (op == BinaryOp::Div && !b.requires_grad()) va = Tensor();
  record(out, row(op).node, {a, b},
         [op, sa = saves ? a : Tensor(), sb = saves ? b : Tensor(), as, bs, ad,
          bd](const Tensor& g) -> std::vector<Tensor> {
           std::vector<Tensor> r = binary_grad(op, g, sa, sb);
           return {to_dtype(sum_to(r[0], as), ad), to_dtype(sum_to(r[1], bs), bd)};
         },
         {va, vb});
}

void record_binary_scalar(Tensor& out, BinaryOp op, const Tensor& a, Scalar s, bool scalar_first) {
  if (!differentiable(op) || !any_requires_grad({&a})) return;
  const char* name = row(op).scalar_node;
  if (scalar_first && op == BinaryOp::Sub) name = "RsubBackward1";
  if (scalar_first && op == BinaryOp::Pow) name = "PowBackward2";
  // (a number over a tensor never comes here: binary() makes it reciprocal and mul)
  if (op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul || op == BinaryOp::Div) {
    const DType ad = a.dtype();  // saves no values (Note [In-place autograd])
    // PyTorch wraps the number as a tensor input (add.Tensor, mul.Tensor...): its
    // edge is (None, 0) in next_functions; rsub.Scalar takes it as a number.
    std::vector<Tensor> inputs{a};
    if (!(scalar_first && op == BinaryOp::Sub)) inputs.emplace_back();
    record(out, name, inputs, [op, ad, s, scalar_first](const Tensor& g) -> std::vector<Tensor> {
      if (op == BinaryOp::Add) return {to_dtype(g, ad)};
      if (op == BinaryOp::Sub) return {to_dtype(scalar_first ? neg(g) : g, ad)};
      return {to_dtype(binary(op, g, s), ad)};
    });
    return;
  }
  record(out, name, {a}, [op, a, s, scalar_first](const Tensor& g) -> std::vector<Tensor> {
    const double v = s.to_double();
    switch (op) {
      case BinaryOp::Add: return {to_dtype(g, a.dtype())};
      case BinaryOp::Sub: return {to_dtype(scalar_first ? neg(g) : g, a.dtype())};
      case BinaryOp::Mul: return {to_dtype(binary(BinaryOp::Mul, g, s), a.dtype())};
      case BinaryOp::Pow:
        if (!scalar_first) {
          if (v == 0) return {zeros(a.sizes(), {a.dtype(), a.device()})};
          Tensor d =
              binary(BinaryOp::Mul, binary(BinaryOp::Pow, a, Scalar::from_double(v - 1)), Scalar::from_double(v));
          return {to_dtype(mul(g, d), a.dtype())};
        } else {  // s^a: s^a * ln s
          Tensor p = binary(BinaryOp::Pow, a, s, true);
          return {to_dtype(binary(BinaryOp::Mul, mul(g, p), Scalar::from_double(std::log(v))), a.dtype())};
        }
      default: {  // the row's derivative, with the number as a 0-d tensor
        Tensor st = scalar_tensor(s, a.dtype(), a.device());
        Tensor r = scalar_first ? binary_grad(op, g, st, a)[1] : binary_grad(op, g, a, st)[0];
        return {to_dtype(sum_to(r, a.sizes()), a.dtype())};
      }
    }
  });
  save_version(*out.grad_fn(), a, out, {a});  // Note [Version counter]
}

// The derivatives of the rows: the grad of the input.
Tensor unary_grad(UnaryOp op, const Tensor& g, const Tensor& a, const Tensor& out) {
  auto S = [](double v) { return Scalar::from_double(v); };
  switch (op) {
// clang-format off
#define GL_UNARY(E, name, policy, inplace, node, doc, ...) \
  case UnaryOp::E: return __VA_ARGS__;
#include "tensor/ops/op_rows.def"
    // clang-format on
  }
  return Tensor();
}

}  // namespace

Tensor grad_for(const Tensor& g, const Tensor& input) {
  Tensor r = sum_to(g, input.sizes());
  return to_dtype(r, input.dtype());
}

namespace {
// The autocast op of each row (Note [Autocast]), by the row's name.
template <class Row, size_t N> std::array<autocast::Op, N> autocast_ops(const Row (&rows)[N]) {
  std::array<autocast::Op, N> ops;
  for (size_t i = 0; i < N; ++i) ops[i] = autocast::op_named(rows[i].name);
  return ops;
}
autocast::Op autocast_op(UnaryOp op) {
  static const auto ops = autocast_ops(kUnaryRows);
  return ops[size_t(op)];
}
autocast::Op autocast_op(BinaryOp op) {
  static const auto ops = autocast_ops(kBinaryRows);
  return ops[size_t(op)];
}
}  // namespace

Tensor unary(UnaryOp op, const Tensor& a0) {
  if (autocast::Scope ac{autocast_op(op), {&a0}}) return unary(op, ac(a0));
  Tensor a = a0;
  if (unary_to_float(op) && !is_floating(a.dtype())) a = to_dtype(a, default_dtype());
  if (a.dtype() == DType::Bool) {
    if (op == UnaryOp::Relu) throw NotImplementedError("Boolean inputs not supported for relu");
    const char* k = op == UnaryOp::Abs     ? "abs"
                    : op == UnaryOp::Floor ? "floor"
                    : op == UnaryOp::Ceil  ? "ceil"
                    : op == UnaryOp::Round ? "round"
                    : op == UnaryOp::Trunc ? "trunc"
                                           : nullptr;
    if (k)
      throw NotImplementedError(cat('"', k,
                                    !a.device().is_cpu() ? "_cuda"
                                    : op == UnaryOp::Abs ? "_cpu"
                                                         : "_vml_cpu",
                                    "\" not implemented for 'Bool'"));
    if (op == UnaryOp::Square) a = to_dtype(a, DType::Int64);  // square is pow(x, 2): bool gives int64
  }
  if (op == UnaryOp::Neg && a.dtype() == DType::Bool)
    throw NotImplementedError(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  const DType out_dt = unary_returns_bool(op) ? DType::Bool : a.dtype();
  const Tensor* given = claim_out(trace::op_name(op), a.sizes(), out_dt, a.device(), {&a0});
  Tensor out = given ? *given : empty_on(a.sizes(), out_dt, a.device());
  const DeviceSlot& sl = slot_of(a);
  trace::op(trace::op_name(op), a.device());
  sl.kernels->unary(sl.exec, op, make_loop(a.sizes(), {&out, &a}));
  if (const char* name = row(op).node; name && any_requires_grad({&a0})) {
    Tensor in = a0;
    const UnaryReads reads = kUnaryReads[size_t(op)];
    // A dropped output is computed again from the input, which must then be
    // as it was (Note [Version counter]).
    SavedVersion av = saved_version(a, nullptr, Tensor());
    record(out, name, {a0},
           [op, in, ow = std::weak_ptr<TensorImpl>(out.impl), a, av](const Tensor& g) -> std::vector<Tensor> {
             Tensor o(ow.lock());
             if (!o.defined()) {
               check_saved_version(av);
               o = unary(op, a);
             }
             return {to_dtype(unary_grad(op, g, a, o), in.dtype())};
           },
           {reads.input ? a : Tensor(), reads.output ? out : Tensor()});
    out.grad_fn()->saves_output = true;  // the backward reads `out` (Note [In-place autograd])
  }
  return out;
}

Tensor neg(const Tensor& a) { return unary(UnaryOp::Neg, a); }

namespace {
// The kernel call shared by the out-of-place ops and the in-place fast path:
// writes a op b into `into` when given (right shape, dtype and device), else
// into a new tensor.
// `name`: the function this op is (Note [out= written in place]).
Tensor binary_tt(BinaryOp op, const Tensor& a0, const Tensor& b0, Tensor* into, double alpha = 1,
                 const char* name = nullptr) {
  check_bool_sub(op, a0.dtype() == DType::Bool, b0.dtype() == DType::Bool);
  const Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());  // Note [Shapes before devices]
  Device dev = common_device({&a0, &b0});
  Tensor a = a0, b = b0;
  // A zero-dim CPU operand of a device op travels to the device (as PyTorch
  // passes CPU scalars to CUDA kernels).
  if (a.device() != dev) a = to(a, dev, std::nullopt);
  if (b.device() != dev) b = to(b, dev, std::nullopt);
  ResultType rt;
  rt.add(a0);
  rt.add(b0);
  const DType compute = binary_compute_dtype(op, rt.get());
  check_int_division(op, compute, &b, nullptr);
  a = to_dtype(a, compute);
  b = to_dtype(b, compute);
  const DType out_dt = is_comparison(op) ? DType::Bool : compute;
  const Tensor* given = into ? into : claim_out(name ? name : trace::op_name(op), shape, out_dt, dev, {&a0, &b0});
  Tensor out = given && given->sizes() == shape && given->dtype() == out_dt && given->device() == dev
                   ? *given
                   : empty_on(shape, out_dt, dev);
  BinarySpec s;
  s.op = op;
  s.compute = compute;
  s.alpha = alpha;
  s.loop = make_loop(shape, {&out, &a, &b});
  const DeviceSlot& sl = slot_for(dev);
  trace::op(trace::op_name(op), dev);
  sl.kernels->binary(sl.exec, s);
  return out;
}

Tensor binary_ts(BinaryOp op, const Tensor& a0, Scalar sc, bool scalar_first, Tensor* into) {
  check_bool_sub(op, a0.dtype() == DType::Bool, sc.kind == Scalar::Bool);
  ResultType rt;
  rt.add(a0);
  rt.add(sc);
  const DType compute = binary_compute_dtype(op, rt.get());
  if (!scalar_first) check_int_division(op, compute, nullptr, &sc);
  else check_int_division(op, compute, &a0, nullptr);
  if (op == BinaryOp::Pow && !is_floating(compute) && !scalar_first && sc.kind != Scalar::Float && sc.i < 0)
    throw RuntimeError("Integers to negative integer powers are not allowed.");
  Tensor a = to_dtype(a0, compute);
  const DType out_dt = is_comparison(op) ? DType::Bool : compute;
  const Tensor* given = into ? into : claim_out(trace::op_name(op), a.sizes(), out_dt, a.device(), {&a0});
  Tensor out = given && given->dtype() == out_dt ? *given : empty_on(a.sizes(), out_dt, a.device());
  BinarySpec s;
  s.op = op;
  s.compute = compute;
  s.b_is_scalar = true;
  s.scalar_first = scalar_first;
  s.b_f = sc.to_double();
  s.b_i = sc.to_int();
  s.loop = make_loop(a.sizes(), {&out, &a});
  const DeviceSlot& sl = slot_of(a);
  trace::op(trace::op_name(op), a.device());
  sl.kernels->binary(sl.exec, s);
  return out;
}
}  // namespace

Tensor binary(BinaryOp op, const Tensor& a0, const Tensor& b0) {
  if (autocast::Scope ac{autocast_op(op), {&a0, &b0}}) return binary(op, ac(a0), ac(b0));
  Tensor out = binary_tt(op, a0, b0, nullptr);
  record_binary(out, op, a0, b0);
  return out;
}

Tensor binary(BinaryOp op, const Tensor& a0, Scalar sc, bool scalar_first) {
  // Python's 2 / x is x.reciprocal() * 2 (Tensor.__rtruediv__): its values
  // and its graph (MulBackward0 over ReciprocalBackward0) are those.
  // Under autocast the reciprocal is an op of its own, as Python's call of it
  // (float32 on CUDA: Note [Autocast]) when the division is what was called.
  if (op == BinaryOp::Div && scalar_first) {
    Tensor r;
    {
      autocast::Entry entered(autocast::state().entry == autocast::Op::div ? autocast::Op::reciprocal
                                                                           : autocast::state().entry);
      r = unary(UnaryOp::Reciprocal, a0);
    }
    return binary(BinaryOp::Mul, r, sc);
  }
  if (autocast::Scope ac{autocast_op(op), {&a0}}) return binary(op, ac(a0), sc, scalar_first);
  Tensor out = binary_ts(op, a0, sc, scalar_first, nullptr);
  record_binary_scalar(out, op, a0, sc, scalar_first);
  return out;
}

namespace {
bool needs_inplace_grad(const Tensor& self, const Tensor* b) {
  return GradMode::enabled() && (self.requires_grad() || (b && b->requires_grad()));
}

// self op= b outside autograd (write_in_place), in the op's result dtype.
template <class B> void inplace(BinaryOp op, Tensor& self, const B& b, std::function<Tensor(Tensor*)> compute) {
  ResultType rt;
  rt.add(self);
  rt.add(b);
  const DType want = is_comparison(op) ? DType::Bool : binary_compute_dtype(op, rt.get());
  if constexpr (std::is_same_v<B, Tensor>) write_in_place(self, {&b}, want, compute);
  else write_in_place(self, {}, want, compute);
}
}  // namespace

void binary_(BinaryOp op, Tensor& self, const Tensor& b) {
  Mutation written(self);  // Note [Version counter]
  if (needs_inplace_grad(self, &b) && differentiable(op)) {
    if (b.is_same(self)) return inplace_with_grad(self, [&](const Tensor& old) { return binary(op, old, old); });
    return inplace_with_grad(self, [&](const Tensor& old) { return binary(op, old, b); });
  }
  check_no_grad_inplace(self);
  inplace(op, self, b, [&](Tensor* into) { return binary_tt(op, self, b, into); });
}

void binary_(BinaryOp op, Tensor& self, Scalar b) {
  Mutation written(self);  // Note [Version counter]
  if (needs_inplace_grad(self, nullptr) && differentiable(op))
    return inplace_with_grad(self, [&](const Tensor& old) { return binary(op, old, b); });
  check_no_grad_inplace(self);
  inplace(op, self, b, [&](Tensor* into) { return binary_ts(op, self, b, false, into); });
}

// Note [Add with alpha]: op Add or Sub, the kernel's Add with alpha or -alpha.
Tensor add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha) {
  const double al = op == BinaryOp::Sub ? -alpha : alpha;
  Tensor out = binary_tt(BinaryOp::Add, a, b, nullptr, al, trace::op_name(op));
  if (any_requires_grad({&a, &b})) {
    record(out, row(op).node, {a, b}, AddAlphaBackward{a.sizes(), b.sizes(), a.dtype(), b.dtype(), al});
  }
  return out;
}

void add_scaled_(BinaryOp op, Tensor& self, const Tensor& b, double alpha) {
  Mutation written(self);  // Note [Version counter]
  if (needs_inplace_grad(self, &b)) {
    if (b.is_same(self))
      return inplace_with_grad(self, [&](const Tensor& old) { return add_scaled(op, old, old, alpha); });
    return inplace_with_grad(self, [&](const Tensor& old) { return add_scaled(op, old, b, alpha); });
  }
  check_no_grad_inplace(self);
  const double al = op == BinaryOp::Sub ? -alpha : alpha;
  inplace(BinaryOp::Add, self, b, [&](Tensor* into) { return binary_tt(BinaryOp::Add, self, b, into, al); });
}

void unary_(UnaryOp op, Tensor& self) {
  Mutation written(self);  // Note [Version counter]
  if (needs_inplace_grad(self, nullptr) && row(op).node)
    return inplace_with_grad(self, [&](const Tensor& old) { return unary(op, old); });
  check_no_grad_inplace(self);
  Tensor r;
  {
    NoGradGuard ng;
    r = unary(op, self);
  }
  write_back(self, r, r.dtype());
}

}  // namespace gl
