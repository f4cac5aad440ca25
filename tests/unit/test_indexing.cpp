// x[key] and x[key] = value as C++ functions (tensor/ops/indexing.h), on the
// CPU and a virtual CUDA device; the Lua tests cover the parsing of keys.
#include <doctest/doctest.h>
#include "tensor/core/warning.h"
#include "tensor/ops/indexing.h"
#include "tensor/ops/ops.h"
#include "unit_util.h"
using namespace gl;
using ut::error_of;
using ut::ivals;
using ut::tens;
using ut::vals;

namespace {
using V = std::vector<double>;
IndexItem at(int64_t i) { return IndexItem{IndexItem::Int, i, {}, {}, 1, {}}; }
IndexItem sl(std::optional<int64_t> a, std::optional<int64_t> b, int64_t step = 1) {
  return IndexItem{IndexItem::Slice, 0, a, b, step, {}};
}
IndexItem ten(const Tensor& t) { return IndexItem{IndexItem::Tensor, 0, {}, {}, 1, t}; }
IndexItem kind(IndexItem::Kind k) { return IndexItem{k, 0, {}, {}, 1, {}}; }
IndexKey key(std::vector<IndexItem> items, bool bare = false) { return IndexKey{std::move(items), bare}; }
Tensor x34(Device d) {  // torch.arange(12.).reshape(3, 4)
  V v(12);
  for (int i = 0; i < 12; ++i) v[size_t(i)] = i;
  return tens(v, {3, 4}, DType::Float32, d);
}
}  // namespace

TEST_CASE("indexing: integers, slices, '...' and None give views") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = x34(d);
    Tensor r = getitem(x, key({at(-1)}));
    CHECK(vals(r) == V{8, 9, 10, 11});
    Tensor c = getitem(x, key({sl({}, {}), sl(1, {}, 2)}));  // x[:, 1::2]
    CHECK(c.sizes() == Shape{3, 2});
    CHECK(vals(c) == V{1, 3, 5, 7, 9, 11});
    CHECK(getitem(x, key({kind(IndexItem::Ellipsis), kind(IndexItem::NewAxis)})).sizes() == Shape{3, 4, 1});
    Tensor e = getitem(x, key({at(0), at(0)}));
    fill_(e, Scalar::from_int(100));  // a view: writes reach x
    CHECK(vals(x)[0] == 100);
    CHECK(error_of([&] { getitem(x, key({at(3)})); }) == "index 3 is out of bounds for dimension 0 with size 3");
    CHECK(error_of([&] { getitem(x, key({at(0), at(0), at(0)})); }) == "too many indices for tensor of dimension 2");
  }
}

TEST_CASE("indexing: a bool mask selects rows; a uint8 one too, with the deprecation warning") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = x34(d);
    Tensor m = to_dtype(tens({1, 0, 1}, {3}, DType::Float32, d), DType::Bool);
    Tensor r = getitem(x, key({ten(m)}, true));
    CHECK(r.sizes() == Shape{2, 4});
    CHECK(vals(r) == V{0, 1, 2, 3, 8, 9, 10, 11});
    static int warned;
    warned = 0;
    set_warn_handler([](const std::string&, void*) { ++warned; }, nullptr);
    IndexKey k8 = key({ten(to_dtype(m, DType::UInt8))}, true);
    CHECK(getitem(x, k8).sizes() == Shape{2, 4});
    set_warn_handler(nullptr, nullptr);
    CHECK(warned == 1);
    Tensor bad = to_dtype(tens({1, 0}, {2}, DType::Float32, d), DType::Bool);
    CHECK(error_of([&] { getitem(x, key({ten(bad)}, true)); }) ==
          "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0");
    CHECK(error_of([&] { getitem(x, key({ten(x)}, true)); }) ==
          "tensors used as indices must be long, int, byte or bool tensors");
  }
}

TEST_CASE("indexing: index tensors, alone and beside slices and integers") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = x34(d);
    Tensor i = tens({0, 2}, {2}, DType::Int64, d), j = tens({1, 3}, {2}, DType::Int64, d);
    CHECK(vals(getitem(x, key({ten(i), ten(j)}))) == V{1, 11});                  // x[{i, j}]
    CHECK(getitem(x, key({ten(i)}, true)).sizes() == Shape{2, 4});               // x[i]
    CHECK(vals(getitem(x, key({sl({}, {}), ten(j)}))) == V{1, 3, 5, 7, 9, 11});  // x[{':', j}]
    CHECK(vals(getitem(x, key({at(1), ten(j)}))) == V{5, 7});                    // the integer selects first
  }
}

TEST_CASE("indexing: assignment of numbers and tensors, with PyTorch's broadcasting and errors") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = x34(d);
    setitem_(x, key({at(0)}), nullptr, Scalar::from_int(-1), "");
    CHECK(vals(getitem(x, key({at(0)}))) == V{-1, -1, -1, -1});
    Tensor row = tens({7, 8, 9, 10}, {1, 1, 4}, DType::Float32, d);  // leading 1s dropped
    setitem_(x, key({at(1)}), &row, std::nullopt, "");
    CHECK(vals(getitem(x, key({at(1)}))) == V{7, 8, 9, 10});
    Tensor m = to_dtype(tens({0, 0, 1}, {3}, DType::Float32, d), DType::Bool);
    setitem_(x, key({ten(m)}, true), nullptr, Scalar::from_int(5), "");
    CHECK(vals(getitem(x, key({at(2)}))) == V{5, 5, 5, 5});
    Tensor i = tens({0, 2}, {2}, DType::Int64, d), j = tens({0, 0}, {2}, DType::Int64, d);
    setitem_(x, key({ten(i), ten(j)}), nullptr, Scalar::from_int(42), "");
    CHECK(vals(x)[0] == 42);
    CHECK(vals(x)[8] == 42);
    CHECK(error_of([&] { setitem_(x, key({at(0)}), nullptr, std::nullopt, "table"); }) ==
          "can't assign a table to a torch.float32 tensor");
    Tensor three = tens({1, 2, 3}, {3}, DType::Float32, d);
    CHECK(!error_of([&] { setitem_(x, key({at(0)}), &three, std::nullopt, ""); }).empty());  // expand's error
  }
}
