// Index ops and samplers composed in tensor/ops (index_ops.cpp, index_adv.cpp,
// random_ops.cpp), on the CPU and an emulated CUDA device. Expected values
// are worked by hand; tests/lua/test_b1_*.lua compare with PyTorch's output.
#include <doctest/doctest.h>
#include "tensor/ops/index_ops.h"
#include "tensor/ops/random_ops.h"
#include "unit_util.h"

using namespace gl;
using ut::ivals;
using ut::tens;
using ut::vals;

namespace {
Tensor longs(const std::vector<double>& v, Shape shape, Device d) { return tens(v, shape, DType::Int64, d); }
}  // namespace

TEST_CASE("index ops: gather, scatter_add, index_add, take on every device") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = tens({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32, d);
    Tensor g = gather(x, 1, longs({2, 0, 1, 1}, {2, 2}, d));
    CHECK(vals(g) == std::vector<double>{2, 0, 4, 4});
    Tensor s = scatter_add(tens({0, 0, 0}, {3}, DType::Float32, d), 0, longs({2, 2, 0}, {3}, d),
                           tens({1, 2, 3}, {3}, DType::Float32, d));
    CHECK(vals(s) == std::vector<double>{3, 0, 3});
    Tensor ia = index_add(tens({0, 0, 0}, {3}, DType::Int64, d), 0, longs({1, 1}, {2}, d),
                          tens({5, 6}, {2}, DType::Int64, d), Scalar::from_int(2));
    CHECK(ivals(ia) == std::vector<int64_t>{0, 22, 0});
    CHECK(vals(take(x, longs({-1, 0}, {2}, d))) == std::vector<double>{5, 0});
    CHECK(ut::error_of([&] {
            gather(x, 1, longs({3}, {1, 1}, d));
          }) == "index 3 is out of bounds for dimension 1 with size 3");
  }
}

TEST_CASE("index ops: advanced indexing places the broadcast dims as PyTorch does") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x =
        arange(Scalar::from_int(0), Scalar::from_int(24), Scalar::from_int(1), DType::Int64, ut::opts(DType::Int64, d));
    x = view(x, {2, 3, 4});
    Tensor i = longs({1, 0}, {2}, d), j = longs({1, 3}, {2}, d);
    Tensor adj = index(x, {Tensor(), i, j});  // x[:, i, j]: adjacent, stays in place
    CHECK(adj.sizes() == Shape{2, 2});
    CHECK(ivals(adj) == std::vector<int64_t>{5, 3, 17, 15});
    Tensor split = index(x, {i, Tensor(), j});  // x[i, :, j]: split, the broadcast dims come first
    CHECK(split.sizes() == Shape{2, 3});
    CHECK(ivals(split) == std::vector<int64_t>{13, 17, 21, 3, 7, 11});
    Tensor y = zeros({3}, ut::opts(DType::Float32, d));
    index_put_(y, {longs({0, 0, 2}, {3}, d)}, tens({1, 2, 3}, {3}, DType::Float32, d), true);
    CHECK(vals(y) == std::vector<double>{3, 0, 3});
    CHECK(ivals(nonzero(tens({0, 1, 0, 2}, {2, 2}, DType::Float32, d))) == std::vector<int64_t>{0, 1, 1, 1});
  }
}

TEST_CASE("index ops: gather's gradient is a scatter_add") {
  Tensor x = tens({1, 2, 3}, {3});
  x.set_requires_grad(true);
  Tensor y = gather(x, 0, longs({2, 2, 0}, {3}, Device(Device::CPU)));
  CHECK(y.grad_fn()->name == "GatherBackward0");
  run_backward(y, ones({3}, ut::opts(DType::Float32)), false);
  CHECK(vals(x.grad()) == std::vector<double>{1, 0, 2});
}

TEST_CASE("random ops: a generator's own stream, multinomial and bernoulli") {
  Generator g{Device(Device::CPU)};
  g.manual_seed(7);
  Tensor a = rand({3}, ut::opts(DType::Float32), &g);
  CHECK(g.initial_seed() == 7);
  g.manual_seed(7);
  CHECK(vals(rand({3}, ut::opts(DType::Float32), &g)) == vals(a));
  Tensor st = g.get_state();
  CHECK(st.numel() == 5056);
  Tensor b = rand({2}, ut::opts(DType::Float32), &g);
  g.set_state(st);
  CHECK(vals(rand({2}, ut::opts(DType::Float32), &g)) == vals(b));
  // A certain category, and probabilities 0 and 1.
  Tensor m = multinomial(tens({0, 0, 1}, {3}), 5, true, &g);
  CHECK(ivals(m) == std::vector<int64_t>{2, 2, 2, 2, 2});
  CHECK(vals(bernoulli(tens({0, 1, 1, 0}, {4}), &g)) == std::vector<double>{0, 1, 1, 0});
  CHECK(ut::error_of([&] { rand({2}, ut::opts(DType::Float32, ut::cuda(0)), &g); }) ==
        "Expected a 'cuda' device type for generator but found 'cpu'");
}
