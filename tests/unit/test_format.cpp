// Printing: a few hand-checked cases; the full table against PyTorch is in
// tests/golden/print_cases (generated with PyTorch, see tests/golden/README.md).
#include <doctest/doctest.h>
#include <cmath>
#include "tensor/core/format.h"
#include "tensor/ops/ops.h"

using namespace gl;

namespace {
Tensor f32(std::vector<float> v) { return from_host(v.data(), {int64_t(v.size())}, DType::Float32, {}); }
Tensor i64(std::vector<int64_t> v) { return from_host(v.data(), {int64_t(v.size())}, DType::Int64, {DType::Int64}); }
}  // namespace

TEST_CASE("format: integer, float, sci and int modes") {
  CHECK(tensor_repr(i64({1, 2, 3})) == "tensor([1, 2, 3])");
  CHECK(tensor_repr(i64({1, -2, 3})) == "tensor([ 1, -2,  3])");
  CHECK(tensor_repr(f32({1, 2, 3})) == "tensor([1., 2., 3.])");
  CHECK(tensor_repr(f32({1.5f, 2})) == "tensor([1.5000, 2.0000])");
  CHECK(tensor_repr(f32({1e-5f, 1e5f})) == "tensor([1.0000e-05, 1.0000e+05])");
  CHECK(tensor_repr(f32({1.5f, NAN})) == "tensor([1.5000,    nan])");
}

TEST_CASE("format: 0-d, empty, dtype suffix") {
  CHECK(tensor_repr(scalar_tensor(Scalar::from_double(3), DType::Float32, Device())) == "tensor(3.)");
  CHECK(tensor_repr(empty({0}, {})) == "tensor([])");
  CHECK(tensor_repr(empty({0, 3}, {})) == "tensor([], size=(0, 3))");
  CHECK(tensor_repr(empty({0}, {DType::Int64})) == "tensor([], dtype=torch.int64)");
  CHECK(tensor_repr(ones({2}, {DType::Float64})) == "tensor([1., 1.], dtype=torch.float64)");
}

TEST_CASE("format: summarised arange(2000.)") {
  Tensor t = arange(Scalar::from_double(0), Scalar::from_double(2000), Scalar::from_double(1), std::nullopt, {});
  CHECK(tensor_repr(t) ==
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03])");
}
