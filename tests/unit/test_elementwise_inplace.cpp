// Elementwise ops in place, where and clamp: the results, and the errors
// PyTorch gives for them. Each op runs on the CPU and on the virtual cuda:1.
#include <doctest/doctest.h>
#include <cmath>
#include <functional>
#include <limits>
#include "elementwise_util.h"
#include "tensor/ops/op_table.h"
#include "unit_util.h"

using namespace gl;
using namespace gl::ew_test;
using ut::error_of;
using ut::vals;

TEST_CASE("elementwise: in-place ops and their errors") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ut::tens({1, 2, 3}, {}, DType::Float32, d);
    auto storage = x.storage();
    binary_(BinaryOp::Add, x, ut::tens({1, 1, 1}, {}, DType::Float64, d));  // float64 -> float32 is allowed
    CHECK(x.storage() == storage);
    CHECK(x.dtype() == DType::Float32);
    CHECK(vals(x) == std::vector<double>{2, 3, 4});
    binary_(BinaryOp::Mul, x, ut::sf(0.5));
    CHECK(vals(x) == std::vector<double>{1, 1.5, 2});
    unary_(UnaryOp::Neg, x);
    CHECK(vals(x) == std::vector<double>{-1, -1.5, -2});
    Tensor i = ut::tens({1, 2, 3}, {}, DType::Int64, d);
    CHECK(error_of([&] { binary_(BinaryOp::Add, i, ut::sf(0.5)); }) ==
          "result type Float can't be cast to the desired output type Long");
    CHECK(error_of([&] { binary_(BinaryOp::Div, i, ut::si(2)); }) ==
          "result type Float can't be cast to the desired output type Long");
    CHECK(error_of([&] { unary_(UnaryOp::Sqrt, i); }) ==
          "result type Float can't be cast to the desired output type Long");
    binary_(BinaryOp::FloorDivide, i, ut::si(2));
    CHECK(vals(i) == std::vector<double>{0, 1, 1});
    Tensor small = ut::tens({1, 2}, {2, 1}, DType::Float32, d);
    CHECK(error_of([&] {
            binary_(BinaryOp::Add, small, ut::tens({1, 2, 3}, {}, DType::Float32, d));
          }) == "output with shape [2, 1] doesn't match the broadcast shape [2, 3]");
    // In place through a view writes the base.
    Tensor m = zeros({2, 3}, ut::opts(DType::Float32, d));
    Tensor row = select(m, 0, 1);
    binary_(BinaryOp::Add, row, ut::si(5));
    CHECK(vals(m) == std::vector<double>{0, 0, 0, 5, 5, 5});
    Tensor leaf = ut::tens({1}, {}, DType::Float32, d);
    leaf.set_requires_grad(true);
    CHECK(error_of([&] { binary_(BinaryOp::Add, leaf, ut::si(1)); }) ==
          "a leaf Variable that requires grad is being used in an in-place operation.");
  }
}

TEST_CASE("elementwise: where and clamp") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor c = ut::tens({1, 0, 1}, {}, DType::Bool, d);
    Tensor a = ut::tens({1, 2, 3}, {}, DType::Float32, d);
    Tensor b = ut::tens({-1}, {1}, DType::Int64, d);
    Tensor w = where(c, a, b);
    CHECK(w.dtype() == DType::Float32);
    CHECK(vals(w) == std::vector<double>{1, -1, 3});
    Tensor wb = where(ut::tens({1, 0}, {2, 1}, DType::Bool, d), a, b);
    CHECK(wb.sizes() == Shape{2, 3});
    CHECK(vals(wb) == std::vector<double>{1, 2, 3, -1, -1, -1});
    CHECK(error_of([&] { where(a, a, b); }) ==
          "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
    Tensor x = ut::tens({-2, -0.5, 0.5, 2, NAN}, {}, DType::Float32, d);
    auto cl = vals(clamp(x, -1.0, 1.0));
    CHECK(cl[0] == -1);
    CHECK(cl[1] == -0.5);
    CHECK(cl[3] == 1);
    CHECK(std::isnan(cl[4]));
    CHECK(vals(clamp(x, 0.0, std::nullopt))[0] == 0);
    CHECK(vals(clamp(x, std::nullopt, 0.0))[3] == 0);
    CHECK(clamp(ut::tens({-3, 5}, {}, DType::Int64, d), -1.0, 1.0).dtype() == DType::Int64);
    CHECK(vals(clamp(ut::tens({-3, 5}, {}, DType::Int64, d), -1.0, 1.0)) == std::vector<double>{-1, 1});
    CHECK(error_of([&] { clamp(x, std::nullopt, std::nullopt); }) ==
          "torch.clamp: At least one of 'min' or 'max' must not be None");
  }
}
