// Autograd, continued: cross_entropy's options, linear on 1-d and n-d inputs,
// in-place ops on tensors in a graph (Note [In-place autograd]), retain_grad,
// the layout of a transposed weight's gradient, and more grad_fn names as
// PyTorch 2.x prints them. Gradients are checked against finite differences
// on the CPU and on the virtual cuda:1.
#include <doctest/doctest.h>
#include "gradcheck.h"

using namespace gl;
using ut::error_of;
using ut::gradcheck;
using ut::leaf;
using ut::vals;

namespace {
const std::vector<double> kL = {0.3, -0.7, 1.2, 0.9, -1.4, 0.45, 0.1, 0.2, -0.3, 1.5, -0.2, 0.8};  // 3x4 logits
std::string name_of(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name : std::string("<none>"); }
}  // namespace

TEST_CASE("autograd: cross_entropy with weight, ignore_index, label_smoothing, probability targets") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor target = ut::tens({2, -100, 0}, {}, DType::Int64, d);
    Tensor weight = ut::tens({0.5, 1.5, 2.0, 1.0}, {}, DType::Float64, d);
    Tensor probs =
        ut::tens({0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.25, 0.25, 0.7, 0.1, 0.1, 0.1}, {3, 4}, DType::Float64, d);
    for (const char* red : {"mean", "sum", "none"}) {
      CAPTURE(std::string(red));
      for (double eps : {0.0, 0.2}) {
        CAPTURE(eps);
        CrossEntropyOptions o;
        o.reduction = red;
        o.label_smoothing = eps;
        gradcheck("ce ignore", [&](const std::vector<Tensor>& v) { return cross_entropy(v[0], target, o); },
                  {leaf(kL, {3, 4}, d)});
        o.weight = &weight;
        gradcheck("ce weight", [&](const std::vector<Tensor>& v) { return cross_entropy(v[0], target, o); },
                  {leaf(kL, {3, 4}, d)});
        gradcheck("ce probs", [&](const std::vector<Tensor>& v) { return cross_entropy(v[0], probs, o); },
                  {leaf(kL, {3, 4}, d)});
      }
    }
    // Values from PyTorch 2.x: F.cross_entropy(x, t, weight=w, ignore_index=-100) with the tensors above.
    CrossEntropyOptions o;
    o.weight = &weight;
    Tensor x = ut::tens(kL, {3, 4}, DType::Float64, d);
    CHECK(vals(cross_entropy(x, target, o))[0] == doctest::Approx(1.1477169784634509));
    o.reduction = "none";
    CHECK(vals(cross_entropy(x, target, o)) ==
          std::vector<double>{vals(cross_entropy(x, target, o))[0], 0.0, vals(cross_entropy(x, target, o))[2]});
    o.ignore_index = 2;
    if (slot_for(d).host_memory) {
      CHECK(error_of([&] { cross_entropy(x, target, o); }) == "Target -100 is out of bounds.");
    } else {  // a real GPU does not wait to check: the sample's loss is NaN (Note [Cross-entropy on the device])
      CHECK(std::isnan(vals(cross_entropy(x, target, o))[1]));
    }
  }
}

TEST_CASE("autograd: linear folds 1-d and n-d inputs into addmm") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    const std::vector<double> w = {0.2, -0.4, 1.0, 0.7, -0.9, 0.1};  // 2x3
    gradcheck("linear 3d", [](const std::vector<Tensor>& v) { return linear(v[0], v[1], &v[2]); },
              {leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45, 0.1, 0.2, -0.3, 1.5, -0.2, 0.8}, {2, 2, 3}, d),
               leaf(w, {2, 3}, d), leaf({1, -1}, {2}, d)});
    gradcheck("linear 1d", [](const std::vector<Tensor>& v) { return linear(v[0], v[1], &v[2]); },
              {leaf({0.3, -0.7, 1.2}, {3}, d), leaf(w, {2, 3}, d), leaf({1, -1}, {2}, d)});
    gradcheck("linear 3d nobias", [](const std::vector<Tensor>& v) { return linear(v[0], v[1], nullptr); },
              {leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45}, {2, 1, 3}, d), leaf(w, {2, 3}, d)});
  }
  Tensor x = leaf({1, 2, 3, 4, 5, 6}, {1, 2, 3}, ut::cpu()), w = leaf({1, 0, 0, 0, 1, 0}, {2, 3}, ut::cpu()),
         b = leaf({1, 2}, {2}, ut::cpu());
  Tensor y = linear(x, w, &b);
  CHECK(y.sizes() == Shape{1, 2, 2});
  CHECK(vals(y) == std::vector<double>{2, 4, 5, 7});
  CHECK(name_of(y) == "UnsafeViewBackward0");
  CHECK(name_of(linear(select(x, 0, 0), w, &b)) == "AddmmBackward0");
}

TEST_CASE("autograd: dropout's gradient is its mask, scaled") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    // The same mask on every call: the generator is reseeded inside f.
    gradcheck("dropout",
              [](const std::vector<Tensor>& v) {
                manual_seed_all_devices(7);
                return dropout(v[0], 0.3, true);
              },
              {leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45, 0.1, 0.2, -0.3, 1.5, -0.2, 0.8}, {3, 4}, d)});
  }
}

TEST_CASE("autograd: in-place ops on tensors in a graph") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    gradcheck("relu_",
              [](const std::vector<Tensor>& v) {
                Tensor h = mm(v[0], v[1]);
                unary_(UnaryOp::Relu, h);
                return h;
              },
              {leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45}, {2, 3}, d), leaf({0.2, -0.4, 1.0, 0.7, -0.9, 0.1}, {3, 2}, d)});
    gradcheck("mul_ by a leaf, then add_ scalar",
              [](const std::vector<Tensor>& v) {
                Tensor h = mul(v[0], v[0]);
                binary_(BinaryOp::Mul, h, v[1]);
                binary_(BinaryOp::Add, h, ut::sf(2.5));
                return h;
              },
              {leaf({0.3, -0.7, 1.2}, {3}, d), leaf({2.0, -1.0, 0.5}, {3}, d)});
    gradcheck("self-product and clamp",
              [](const std::vector<Tensor>& v) {
                Tensor h = add(v[0], v[0]);
                binary_(BinaryOp::Mul, h, h);
                inplace_with_grad(h, [](const Tensor& old) { return clamp(old, 0.5, 4.0); });
                return h;
              },
              {leaf({0.3, -0.7, 1.2}, {3}, d)});
    gradcheck("a plain tensor accumulating a graph",
              [&](const std::vector<Tensor>& v) {
                Tensor acc = zeros({3}, {DType::Float64, d});
                binary_(BinaryOp::Add, acc, mul(v[0], v[0]));
                binary_(BinaryOp::Sub, acc, v[0]);
                return acc;
              },
              {leaf({0.3, -0.7, 1.2}, {3}, d)});
  }
  Tensor x = leaf({1, 2, 3}, {3}, ut::cpu());
  Tensor h = mul(x, x);
  unary_(UnaryOp::Relu, h);
  CHECK(name_of(h) == "ReluBackward0");
  CHECK_FALSE(h.is_leaf());
  Tensor acc = zeros({3}, {DType::Float64, ut::cpu()});
  binary_(BinaryOp::Add, acc, x);
  CHECK(name_of(acc) == "AddBackward0");
  // Leaves and views are refused; a value a node reads may change, and that
  // node's backward then fails (Note [Version counter]): never silently wrong.
  CHECK(error_of([&] { binary_(BinaryOp::Add, x, ut::sf(1)); }) ==
        "a leaf Variable that requires grad is being used in an in-place operation.");
  Tensor s = unary(UnaryOp::Sigmoid, mul(x, x));
  binary_(BinaryOp::Mul, s, ut::sf(2));  // SigmoidBackward0 reads s
  CHECK(name_of(s) == "MulBackward0");
  CHECK(error_of([&] { ut::backward(sum(s, {}, false)); })
            .find("[torch.DoubleTensor [3]], which is output 0 of Sigmoid, "
                  "is at version 1; expected version 0 instead.") != std::string::npos);
  Tensor v = mul(x, x), row = select(v, 0, 1);
  CHECK(error_of([&] { binary_(BinaryOp::Add, v, ut::sf(1)); }).find("gpulab cannot record") == 0);
  CHECK(error_of([&] { binary_(BinaryOp::Add, row, ut::sf(1)); }).find("gpulab cannot record") == 0);
  Tensor m = mul(x, x), saved = mul(m, x);  // MulBackward0 keeps m itself
  const Tensor alias = detach(m);
  binary_(BinaryOp::Add, m, ut::sf(1));
  CHECK(vals(alias) == std::vector<double>{2, 5, 10});  // written in place: aliases see it
  CHECK(error_of([&] {
          ut::backward(sum(saved, {}, false), true);
        }).find("which is output 0 of Add, is at version 1; expected version 0 instead.") != std::string::npos);
  x.set_grad(Tensor());
  ut::backward(sum(m, {}, false));  // m's own graph is whole: d(x^2 + 1)/dx
  CHECK(vals(x.grad()) == std::vector<double>{2, 4, 6});
  x.set_grad(Tensor());
  Tensor c = mul(x, x);  // no derivative: refused rather than changing a graph's values
  CHECK(error_of([&] { binary_(BinaryOp::Gt, c, ut::sf(1)); }).find("gpulab does not record this in-place operation") ==
        0);
  CHECK(error_of([&] { binary_(BinaryOp::FloorDivide, c, ut::sf(2)); }).find("gpulab does not record") == 0);
  Tensor a = mul(x, x), kept = binary(BinaryOp::Mul, a, ut::sf(3.0));  // a scalar product keeps no value
  binary_(BinaryOp::Mul, a, ut::sf(2.0));
  ut::backward(sum(add(a, kept), {}, false));
  CHECK(vals(x.grad()) == std::vector<double>{10, 20, 30});  // d/dx (2x^2 + 3x^2)
  {
    NoGradGuard ng;  // under no_grad, leaves are updated in place as usual (optimizers)
    binary_(BinaryOp::Add, x, ut::sf(1));
  }
  CHECK(vals(x) == std::vector<double>{2, 3, 4});
}

TEST_CASE("autograd: retain_grad keeps a non-leaf's gradient") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = leaf({1, 2, 3}, {3}, d);
    Tensor h = mul(x, x);
    retain_grad(h);
    CHECK(h.impl->retains_grad);
    Tensor y = sum(mul(h, h), {}, false);
    retain_grad(y);
    ut::backward(y, true);
    CHECK(vals(h.grad()) == std::vector<double>{2, 8, 18});  // dy/dh = 2h
    CHECK(vals(y.grad()) == std::vector<double>{1});
    ut::backward(y);
    CHECK(vals(h.grad()) == std::vector<double>{4, 16, 36});  // accumulates, like a leaf
    CHECK(vals(x.grad()) == std::vector<double>{8, 64, 216});
    retain_grad(x);  // a no-op on leaves
    CHECK_FALSE(x.impl->retains_grad);
  }
  CHECK(error_of([] { retain_grad(ut::f64({1})); }) == "can't retain_grad on Tensor that has requires_grad=False");
}

TEST_CASE("autograd: a transposed weight's gradient arrives contiguous") {
  // nn.Linear computes addmm(b, x, w.t()); PyTorch forms w's gradient as
  // (g^T x) so that w.grad is contiguous, not a transposed copy.
  Tensor x = leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45}, {2, 3}, ut::cpu());
  Tensor w = ut::tens({0.2, -0.4, 1.0, 0.7, -0.9, 0.1}, {2, 3}, DType::Float64);
  Tensor w2 = leaf({0.2, -0.4, 1.0, 0.7, -0.9, 0.1}, {2, 3}, ut::cpu());
  Tensor b = leaf({1, -1}, {2}, ut::cpu());
  ut::backward(sum(linear(x, w2, &b), {}, false));
  CHECK(w2.grad().is_contiguous());
  auto g = vals(w2.grad());
  const std::vector<double> want = {1.2, -2.1, 1.65, 1.2, -2.1, 1.65};  // PyTorch 2.x
  for (size_t i = 0; i < want.size(); ++i) CHECK(g[i] == doctest::Approx(want[i]));
  Tensor xt = leaf({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}, ut::cpu());
  ut::backward(sum(mm(t(xt), w), {}, false));  // a transposed first operand
  CHECK(xt.grad().is_contiguous());
  auto gx = vals(xt.grad());  // row k: the sum of w's row k
  for (size_t i = 0; i < 8; ++i) CHECK(gx[i] == doctest::Approx(i < 4 ? 0.8 : -0.1));
}

TEST_CASE("autograd: more grad_fn names as PyTorch prints them") {
  Tensor a = leaf({0.3, -0.7, 1.2, 0.9, -1.4, 0.45}, {2, 3}, ut::cpu());
  Tensor v = leaf({1, 2, 3}, {3}, ut::cpu());
  Tensor w = leaf({1, 2, 3, 4, 5, 6}, {3, 2}, ut::cpu());
  CHECK(name_of(binary(BinaryOp::Div, a, ut::sf(2), true)) == "MulBackward0");  // 2 / x
  CHECK(name_of(binary(BinaryOp::Pow, a, ut::sf(2), true)) == "PowBackward2");  // 2 ** x
  CHECK(name_of(squeeze(unsqueeze(a, 0), 0)) == "SqueezeBackward1");
  CHECK(name_of(squeeze(unsqueeze(a, 0), std::nullopt)) == "SqueezeBackward0");
  CHECK(name_of(var(a, {}, false, 1)) == "VarBackward0");
  CHECK(name_of(matmul(a, v)) == "MvBackward0");
  CHECK(name_of(matmul(v, w)) == "SqueezeBackward4");
  CHECK(name_of(matmul(unsqueeze(a, 0), w)) == "UnsafeViewBackward0");
  CHECK(name_of(index_select(a, 1, ut::tens({0, 2}, {}, DType::Int64))) == "IndexSelectBackward0");
  CHECK(name_of(split_sizes(a, {1, 2}, 1)[1]) == "SplitWithSizesBackward0");
  CHECK(name_of(split(a, 2, 1)[1]) == "SplitBackward0");
  CHECK(name_of(dropout(a, 0.5, true)) == "MulBackward0");  // CPU; CUDA's is NativeDropoutBackward0
  CHECK(name_of(dropout(to(a, ut::cuda(1), std::nullopt), 0.5, true)) == "NativeDropoutBackward0");
  CHECK(name_of(cross_entropy(a, ut::tens({0.2, 0.3, 0.5, 0.1, 0.1, 0.8}, {2, 3}, DType::Float64), "mean")) ==
        "DivBackward1");
  CrossEntropyOptions smooth;
  smooth.label_smoothing = 0.1;
  CHECK(name_of(cross_entropy(a, ut::tens({0, 1}, {}, DType::Int64), smooth)) == "AddBackward0");
}
