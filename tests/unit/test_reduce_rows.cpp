// The reduction table (tensor/ops/reduce_rows.def): what follows from each
// row, the result dtypes, the values over no elements, the grad_fn names and
// the trace names, on the CPU and cuda:1.
#include <doctest/doctest.h>
#include <string>
#include "tensor/ops/reduce_table.h"
#include "unit_util.h"

using namespace gl;

TEST_CASE("reduce rows: dtype policy, names and empty values follow from the rows") {
  CHECK(std::string(row(ReduceOp::Max).name) == "amax");
  CHECK(std::string(row(ReduceOp::Max).trace_name) == "max");
  CHECK(row(ReduceOp::ArgMin).arg);
  CHECK(!row(ReduceOp::Sum).arg);
  CHECK(reduce_result_dtype(ReduceOp::Sum, DType::Int32) == DType::Int64);
  CHECK(reduce_result_dtype(ReduceOp::Prod, DType::Bool) == DType::Int64);
  CHECK(reduce_result_dtype(ReduceOp::Sum, DType::Float16) == DType::Float16);
  CHECK(reduce_result_dtype(ReduceOp::Max, DType::UInt8) == DType::UInt8);
  CHECK(reduce_result_dtype(ReduceOp::ArgMax, DType::Float32) == DType::Int64);
  CHECK(reduce_result_dtype(ReduceOp::All, DType::Float32) == DType::Bool);
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor e = ut::tens({}, {0, 3}, DType::Int32, d);
    Tensor s = sum(e, {0}, false), p = prod(e, 0, false);
    CHECK(s.dtype() == DType::Int64);
    CHECK(ut::ivals(s) == std::vector<int64_t>{0, 0, 0});
    CHECK(ut::ivals(p) == std::vector<int64_t>{1, 1, 1});
    CHECK(ut::ivals(to_dtype(all(e, 0, false), DType::Int64)) == std::vector<int64_t>{1, 1, 1});
    CHECK(ut::ivals(to_dtype(any(e, 0, false), DType::Int64)) == std::vector<int64_t>{0, 0, 0});
    CHECK(ut::error_of([&] { amax(e, 0, false); }) == "amax(): Expected reduction dim 0 to have non-zero size.");
  }
}

TEST_CASE("reduce rows: grad_fn names and derivatives") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ut::tens({1, 4, 4, 2, 3, 5}, {2, 3}, DType::Float32, d);
    x.set_requires_grad(true);
    CHECK(sum(x, {}, false).grad_fn()->name == "SumBackward0");
    CHECK(sum(x, {1}, false).grad_fn()->name == "SumBackward1");
    CHECK(prod(x, std::nullopt, false).grad_fn()->name == "ProdBackward0");
    CHECK(prod(x, 0, false).grad_fn()->name == "ProdBackward1");
    CHECK(amax(x, 1, false).grad_fn()->name == "AmaxBackward0");
    CHECK(max_all(x).grad_fn()->name == "MaxBackward1");
    CHECK(!argmax(x, 1, false).grad_fn());
    CHECK(!any(x, 1, false).grad_fn());
    // amax's row splits the gradient among ties: row 0 has two 4s.
    Tensor m = amax(x, 1, false);
    ut::backward(sum(m, {}, false));
    CHECK(ut::vals(x.grad()) == std::vector<double>{0, 0.5, 0.5, 0, 0, 1});
  }
}
