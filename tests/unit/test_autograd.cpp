// Autograd: gradients of every differentiable op against central finite
// differences in float64, on the CPU and on the virtual cuda:1; grad_fn names,
// accumulation, retain_graph, no_grad, broadcasting.
#include <doctest/doctest.h>
#include <cmath>
#include <functional>
#include "gradcheck.h"
#include "tensor/ops/op_table.h"

using namespace gl;
using ut::error_of;
using ut::gradcheck;
using ut::leaf;
using ut::vals;

namespace {
const std::vector<double> kX = {0.3, -0.7, 1.2, 0.9, -1.4, 0.45};  // 2x3
const std::vector<double> kY = {0.8, 1.1, -0.6, 0.35, 0.6, -1.3};  // 2x3
const std::vector<double> kPos = {0.3, 0.7, 1.2, 0.9, 1.4, 0.45};  // positive, 2x3
}  // namespace

// Every differentiable row of op_rows.def, taken from the rows themselves (a new
// row is checked without an edit here), on the first of these inputs where it
// is finite: the general one, then positive values, then inside (-1, 1)
// (asin, erfinv, atanh), then above 1 (acosh).
TEST_CASE("autograd: every unary row matches finite differences") {
  const std::vector<std::vector<double>> domains = {
      kX, kPos, {0.3, -0.7, 0.2, 0.9, -0.4, 0.45}, {1.3, 1.7, 2.2, 1.9, 2.4, 1.45}};
  int checked = 0;
  for (size_t k = 0; k < std::size(kUnaryRows); ++k) {
    const UnaryOp op = UnaryOp(k);
    if (!kUnaryRows[k].node) continue;  // no autograd (predicates)
    CAPTURE(std::string(kUnaryRows[k].name));
    const std::vector<double>* in = nullptr;
    for (const auto& d : domains) {
      bool finite = true;
      for (double v : vals(unary(op, ut::tens(d, {2, 3}, DType::Float64)))) finite = finite && std::isfinite(v);
      if (finite) {
        in = &d;
        break;
      }
    }
    REQUIRE_MESSAGE(in != nullptr, "no input domain where the op is finite");
    for (Device d : ut::test_devices()) {
      CAPTURE(d.str());
      gradcheck(kUnaryRows[k].name, [op](const std::vector<Tensor>& v) { return unary(op, v[0]); },
                {leaf(*in, {2, 3}, d)});
    }
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("autograd: binary ops, scalars on either side, broadcasting") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Maximum,
                        BinaryOp::Minimum, BinaryOp::Atan2}) {
      CAPTURE(int(op));
      gradcheck("binary", [op](const std::vector<Tensor>& v) { return binary(op, v[0], v[1]); },
                {leaf(kX, {2, 3}, d), leaf(kY, {2, 3}, d)});
      // Broadcast: [2,3] op [3] and [2,1]: gradients reduced to the input shapes.
      gradcheck("binary bcast", [op](const std::vector<Tensor>& v) { return binary(op, v[0], v[1]); },
                {leaf(kX, {2, 3}, d), leaf({0.5, -0.25, 2.0}, {3}, d)});
      gradcheck("binary bcast2", [op](const std::vector<Tensor>& v) { return binary(op, v[0], v[1]); },
                {leaf({1.5, -2.0}, {2, 1}, d), leaf(kY, {2, 3}, d)});
      for (bool first : {false, true}) {
        if (op == BinaryOp::Atan2) break;  // torch has no atan2(tensor, number)
        CAPTURE(first);
        gradcheck("binary scalar",
                  [op, first](const std::vector<Tensor>& v) { return binary(op, v[0], ut::sf(0.6), first); },
                  {leaf(kX, {2, 3}, d)});
      }
    }
    gradcheck("pow tensor", [](const std::vector<Tensor>& v) { return binary(BinaryOp::Pow, v[0], v[1]); },
              {leaf(kPos, {2, 3}, d), leaf(kY, {2, 3}, d)});
    gradcheck("pow 3", [](const std::vector<Tensor>& v) { return binary(BinaryOp::Pow, v[0], ut::si(3)); },
              {leaf(kX, {2, 3}, d)});
    gradcheck("pow 0.5", [](const std::vector<Tensor>& v) { return binary(BinaryOp::Pow, v[0], ut::sf(0.5)); },
              {leaf(kPos, {2, 3}, d)});
    gradcheck("2 ** x", [](const std::vector<Tensor>& v) { return binary(BinaryOp::Pow, v[0], ut::sf(2), true); },
              {leaf(kX, {2, 3}, d)});
    gradcheck("add alpha", [](const std::vector<Tensor>& v) { return add(v[0], v[1], ut::sf(-2.5)); },
              {leaf(kX, {2, 3}, d), leaf(kY, {2, 3}, d)});
    Tensor cond = ut::tens({1, 0, 0, 1, 1, 0}, {2, 3}, DType::Bool, d);
    gradcheck("where", [cond](const std::vector<Tensor>& v) { return where(cond, v[0], v[1]); },
              {leaf(kX, {2, 3}, d), leaf({0.1, 0.2, 0.3}, {3}, d)});
    gradcheck("clamp", [](const std::vector<Tensor>& v) { return clamp(v[0], -0.5, 1.0); }, {leaf(kX, {2, 3}, d)});
    gradcheck("clamp min", [](const std::vector<Tensor>& v) { return clamp(v[0], 0.0, std::nullopt); },
              {leaf(kX, {2, 3}, d)});
  }
}

TEST_CASE("autograd: reductions") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    auto X = [&] { return leaf(kX, {2, 3}, d); };
    gradcheck("sum", [](const std::vector<Tensor>& v) { return sum(v[0], {}, false); }, {X()});
    gradcheck("sum dim", [](const std::vector<Tensor>& v) { return sum(v[0], {-1}, true); }, {X()});
    gradcheck("mean", [](const std::vector<Tensor>& v) { return mean(v[0], {}, false); }, {X()});
    gradcheck("mean dim", [](const std::vector<Tensor>& v) { return mean(v[0], {0}, false); }, {X()});
    gradcheck("prod", [](const std::vector<Tensor>& v) { return prod(v[0], std::nullopt, false); }, {X()});
    gradcheck("prod dim", [](const std::vector<Tensor>& v) { return prod(v[0], 1, true); }, {X()});
    gradcheck("amax", [](const std::vector<Tensor>& v) { return amax(v[0], std::nullopt, false); }, {X()});
    gradcheck("amax dim", [](const std::vector<Tensor>& v) { return amax(v[0], 1, false); }, {X()});
    gradcheck("amin dim", [](const std::vector<Tensor>& v) { return amin(v[0], 0, true); }, {X()});
    gradcheck("max_dim", [](const std::vector<Tensor>& v) { return max_dim(v[0], 1, false).first; }, {X()});
    gradcheck("min_dim", [](const std::vector<Tensor>& v) { return min_dim(v[0], 0, true).first; }, {X()});
    gradcheck("norm", [](const std::vector<Tensor>& v) { return norm(v[0], 2, {}, false); }, {X()});
    gradcheck("norm dim", [](const std::vector<Tensor>& v) { return norm(v[0], 2, {1}, false); }, {X()});
    gradcheck("var", [](const std::vector<Tensor>& v) { return var(v[0], {1}, false, 1); }, {X()});
  }
}

TEST_CASE("autograd: views and joins") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    auto X = [&] { return leaf(kX, {2, 3}, d); };
    gradcheck("view", [](const std::vector<Tensor>& v) { return view(v[0], {3, 2}); }, {X()});
    gradcheck("reshape t", [](const std::vector<Tensor>& v) { return reshape(t(v[0]), {-1}); }, {X()});
    gradcheck("transpose", [](const std::vector<Tensor>& v) { return transpose(v[0], 0, 1); }, {X()});
    gradcheck("permute", [](const std::vector<Tensor>& v) { return permute(unsqueeze(v[0], 0), {2, 0, 1}); }, {X()});
    gradcheck("squeeze", [](const std::vector<Tensor>& v) { return squeeze(unsqueeze(v[0], 1), 1); }, {X()});
    gradcheck("expand", [](const std::vector<Tensor>& v) { return expand(unsqueeze(v[0], 0), {4, 2, 3}); }, {X()});
    gradcheck("narrow", [](const std::vector<Tensor>& v) { return narrow(v[0], 1, 1, 2); }, {X()});
    gradcheck("select", [](const std::vector<Tensor>& v) { return select(v[0], 1, -1); }, {X()});
    gradcheck("slice", [](const std::vector<Tensor>& v) { return slice(v[0], 1, 0, std::nullopt, 2); }, {X()});
    gradcheck("flatten", [](const std::vector<Tensor>& v) { return flatten(v[0], 0, -1); }, {X()});
    gradcheck("contiguous", [](const std::vector<Tensor>& v) { return contiguous(t(v[0])); }, {X()});
    gradcheck("clone", [](const std::vector<Tensor>& v) { return clone(v[0]); }, {X()});
    gradcheck("index_select",
              [&](const std::vector<Tensor>& v) {
                return index_select(v[0], 1, ut::tens({2, 0, 2}, {}, DType::Int64, d));
              },
              {X()});
    gradcheck("masked_select",
              [&](const std::vector<Tensor>& v) {
                return masked_select(v[0], ut::tens({1, 0, 1, 1, 0, 0}, {2, 3}, DType::Bool, d));
              },
              {X()});
    gradcheck("cat", [](const std::vector<Tensor>& v) { return cat({v[0], v[1]}, 1); }, {X(), leaf({1, 2}, {2, 1}, d)});
    gradcheck("stack",
              [](const std::vector<Tensor>& v) {
                return stack({v[0], v[1]}, -1);
              },
              {X(), leaf(kY, {2, 3}, d)});
    gradcheck("split",
              [](const std::vector<Tensor>& v) {
                auto p = split(v[0], 2, 1);
                return mul(p[0], sum(p[1], {}, false));
              },
              {X()});
    gradcheck("chunk",
              [](const std::vector<Tensor>& v) {
                auto p = chunk(v[0], 2, 0);
                return sub(p[1], mul(p[0], p[0]));
              },
              {X()});
    gradcheck("split_sizes", [](const std::vector<Tensor>& v) { return split_sizes(v[0], {1, 2}, 1)[1]; }, {X()});
  }
}

TEST_CASE("autograd: matmul family and nn functions") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    auto A = [&] { return leaf(kX, {2, 3}, d); };
    auto B = [&] { return leaf({0.2, -0.4, 1.0, 0.7, -0.9, 0.1}, {3, 2}, d); };
    gradcheck("mm", [](const std::vector<Tensor>& v) { return mm(v[0], v[1]); }, {A(), B()});
    gradcheck("mm t", [](const std::vector<Tensor>& v) { return mm(t(v[1]), t(v[0])); }, {A(), B()});
    gradcheck("addmm", [](const std::vector<Tensor>& v) { return addmm(v[2], v[0], v[1], 0.5, 2); },
              {A(), B(), leaf({1, -1}, {2}, d)});
    gradcheck("bmm", [](const std::vector<Tensor>& v) { return bmm(v[0], v[1]); },
              {leaf(kX, {2, 1, 3}, d), leaf({0.2, -0.4, 1.0, 0.7, -0.9, 0.1}, {2, 3, 1}, d)});
    gradcheck("matmul bcast", [](const std::vector<Tensor>& v) { return matmul(v[0], v[1]); },
              {leaf(kX, {2, 1, 3}, d), B()});
    gradcheck("matmul mv", [](const std::vector<Tensor>& v) { return matmul(v[0], v[1]); },
              {A(), leaf({1, 2, -3}, {3}, d)});
    gradcheck("matmul vm", [](const std::vector<Tensor>& v) { return matmul(v[0], v[1]); },
              {leaf({1, 2, -3}, {3}, d), B()});
    gradcheck("dot", [](const std::vector<Tensor>& v) { return dot(v[0], v[1]); },
              {leaf({1, 2, -3}, {3}, d), leaf({0.5, 0.1, 2}, {3}, d)});
    gradcheck("linear", [](const std::vector<Tensor>& v) { return linear(v[0], v[1], &v[2]); },
              {A(), leaf(kY, {2, 3}, d), leaf({0.1, 0.2}, {2}, d)});
    gradcheck("linear nobias", [](const std::vector<Tensor>& v) { return linear(v[0], v[1], nullptr); },
              {A(), leaf(kY, {2, 3}, d)});
    gradcheck("softmax", [](const std::vector<Tensor>& v) { return softmax(v[0], 1); }, {A()});
    gradcheck("softmax0", [](const std::vector<Tensor>& v) { return softmax(v[0], 0); }, {A()});
    gradcheck("log_softmax", [](const std::vector<Tensor>& v) { return log_softmax(v[0], -1); }, {A()});
    for (const char* red : {"mean", "sum", "none"}) {
      CAPTURE(std::string(red));
      gradcheck("mse_loss", [red](const std::vector<Tensor>& v) { return mse_loss(v[0], v[1], red); },
                {A(), leaf(kY, {2, 3}, d)});
      Tensor target = ut::tens({2, 0}, {}, DType::Int64, d);
      gradcheck("cross_entropy",
                [red, target](const std::vector<Tensor>& v) { return cross_entropy(v[0], target, red); }, {A()});
    }
  }
}

TEST_CASE("autograd: to() across devices and dtypes sends gradients back") {
  Tensor x = leaf(kX, {2, 3}, ut::cpu());
  gradcheck("to cuda:1",
            [](const std::vector<Tensor>& v) {
              Tensor g = to(v[0], ut::cuda(1), std::nullopt);
              return mul(g, g);
            },
            {x});
  CHECK(x.grad().device() == ut::cpu());
  Tensor y = leaf(kX, {2, 3}, ut::cuda(1));
  gradcheck("to cpu",
            [](const std::vector<Tensor>& v) { return unary(UnaryOp::Exp, to(v[0], ut::cpu(), std::nullopt)); }, {y});
  Tensor z = leaf(kX, {2, 3}, ut::cuda(0));
  gradcheck("cuda:0 -> cuda:1",
            [](const std::vector<Tensor>& v) { return unary(UnaryOp::Sin, to(v[0], ut::cuda(1), std::nullopt)); }, {z});
  // Through float32 and back: the gradient arrives as float64 on the leaf's device.
  Tensor w = leaf(kX, {2, 3}, ut::cuda(1));
  Tensor out = sum(to(to(w, ut::cpu(), DType::Float32), std::nullopt, DType::Float64), {}, false);
  CHECK(out.grad_fn()->name == "SumBackward0");
  ut::backward(out);
  CHECK(w.grad().dtype() == DType::Float64);
  CHECK(w.grad().device() == ut::cuda(1));
  CHECK(vals(w.grad()) == std::vector<double>(6, 1.0));
  Tensor f = to(w, ut::cpu(), DType::Float32);
  CHECK(f.grad_fn()->name == "ToCopyBackward0");
  CHECK(to(w, ut::cuda(1), DType::Float64).is_same(w));  // nothing changes: same tensor, no node
}

TEST_CASE("autograd: grad_fn names") {
  Tensor a = leaf(kX, {2, 3}, ut::cpu()), b = leaf(kY, {3, 2}, ut::cpu()), bias = leaf({1, 2}, {2}, ut::cpu());
  auto name = [](const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name : std::string("<none>"); };
  CHECK(name(addmm(bias, a, b)) == "AddmmBackward0");
  CHECK(name(linear(a, t(b), &bias)) == "AddmmBackward0");
  CHECK(name(mm(a, b)) == "MmBackward0");
  CHECK(name(sum(a, {}, false)) == "SumBackward0");
  CHECK(name(sum(a, {1}, false)) == "SumBackward1");
  CHECK(name(mean(a, {}, false)) == "MeanBackward0");
  CHECK(name(mse_loss(a, a, "mean")) == "MseLossBackward0");
  CHECK(name(cross_entropy(a, ut::tens({0, 1}, {}, DType::Int64), "mean")) == "NllLossBackward0");
  CHECK(name(to(a, std::nullopt, DType::Float32)) == "ToCopyBackward0");
  CHECK(name(add(a, a)) == "AddBackward0");
  CHECK(name(binary(BinaryOp::Add, a, ut::si(1))) == "AddBackward0");  // torch: (x + 1).grad_fn is AddBackward0
  CHECK(name(binary(BinaryOp::Sub, a, ut::si(1), true)) == "RsubBackward1");
  CHECK(name(mul(a, a)) == "MulBackward0");
  CHECK(name(unary(UnaryOp::Relu, a)) == "ReluBackward0");
  CHECK(name(view(a, {6})) == "ViewBackward0");
  CHECK(name(t(a)) == "TBackward0");
  CHECK(name(cat({a, a}, 0)) == "CatBackward0");
  CHECK(name(stack({a, a}, 0)) == "StackBackward0");
  CHECK(name(softmax(a, 1)) == "SoftmaxBackward0");
  CHECK(name(log_softmax(a, 1)) == "LogSoftmaxBackward0");
  CHECK(name(where(ut::tens({1}, {}, DType::Bool), a, a)) == "WhereBackward0");
  CHECK(name(bmm(unsqueeze(a, 0), unsqueeze(b, 0))) == "BmmBackward0");
  CHECK(name(detach(a)) == "<none>");
  CHECK(a.is_leaf());
  CHECK_FALSE(add(a, a).is_leaf());
}

TEST_CASE("autograd: accumulation, retain_graph, no_grad, errors") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = leaf({1, 2, 3}, {3}, d);
    Tensor y = sum(mul(x, x), {}, false);
    ut::backward(y, true);
    Tensor g = x.grad();
    CHECK(vals(g) == std::vector<double>{2, 4, 6});
    ut::backward(y, false);  // retained graph: second pass accumulates into the same tensor
    CHECK(x.grad().is_same(g));
    CHECK(vals(x.grad()) == std::vector<double>{4, 8, 12});
    CHECK(error_of([&] { ut::backward(y); }) ==
          "Trying to backward through the graph a second time (or directly access saved tensors after they have "
          "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
          "if you need to access saved tensors after calling backward.");
    // A new graph accumulates as well.
    ut::backward(sum(x, {}, false));
    CHECK(vals(x.grad()) == std::vector<double>{5, 9, 13});
    {
      NoGradGuard ng;
      Tensor z = mul(x, x);
      CHECK(z.grad_fn() == nullptr);
      CHECK_FALSE(z.requires_grad());
      CHECK_FALSE(GradMode::enabled());
    }
    CHECK(GradMode::enabled());
    CHECK(mul(x, x).requires_grad());
    Tensor plain = ut::tens({1, 2}, {}, DType::Float64, d);
    CHECK(error_of([&] { ut::backward(sum(plain, {}, false)); }) ==
          "element 0 of tensors does not require grad and does not have a grad_fn");
    CHECK_THROWS(add(x, x).set_requires_grad(false));
    // Broadcast gradients are reduced to the input's shape.
    Tensor b = leaf({1, 2, 3}, {3}, d), m = leaf({1, 2, 3, 4, 5, 6}, {2, 3}, d), s = leaf({2}, {1, 1}, d);
    ut::backward(sum(mul(add(m, b), s), {}, false));
    CHECK(b.grad().sizes() == Shape{3});
    CHECK(vals(b.grad()) == std::vector<double>{4, 4, 4});
    CHECK(s.grad().sizes() == Shape{1, 1});
    CHECK(vals(s.grad()) == std::vector<double>{33});
    CHECK(vals(m.grad()) == std::vector<double>(6, 2.0));
  }
}
