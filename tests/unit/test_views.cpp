// Views and joins: shapes, strides, shared storage, sizes of chunk/split, errors.
#include <doctest/doctest.h>
#include <numeric>
#include "unit_util.h"

using namespace gl;
using ut::error_of;
using ut::vals;

namespace {
Tensor ar(int64_t n, Device d = Device(Device::CPU)) {
  return arange(ut::sf(0), ut::sf(double(n)), ut::sf(1), std::nullopt, ut::opts(DType::Float32, d));
}
std::vector<double> iota(int64_t n, double start = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}
Shape sizes_of(const std::vector<Tensor>& ts, int64_t dim) {
  Shape s;
  for (auto& x : ts) s.push_back(x.size(dim));
  return s;
}
}  // namespace

TEST_CASE("views: view and reshape, -1 inference, errors") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ar(12, d);
    Tensor v = view(x, {3, -1});
    CHECK(v.sizes() == Shape{3, 4});
    CHECK(v.strides() == Shape{4, 1});
    CHECK(v.storage() == x.storage());
    CHECK(view(x, {-1}).sizes() == Shape{12});
    CHECK(view(x, {2, -1, 3}).sizes() == Shape{2, 2, 3});
    CHECK(view(x, {2, 2, 3}).is_contiguous());
    CHECK(error_of([&] { view(x, {-1, -1}); }) == "only one dimension can be inferred");
    CHECK(error_of([&] { view(x, {5, -1}); }) == "shape '[5, -1]' is invalid for input of size 12");
    CHECK(error_of([&] { view(x, {5}); }) == "shape '[5]' is invalid for input of size 12");
    // A transposed tensor cannot be flattened by a view, only by reshape (which copies).
    Tensor tt = t(view(x, {3, 4}));
    CHECK_FALSE(tt.is_contiguous());
    CHECK(error_of([&] { view(tt, {12}); }) ==
          "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
          "contiguous subspaces). Use .reshape(...) instead.");
    Tensor r = reshape(tt, {-1});
    CHECK(r.storage() != x.storage());
    CHECK(vals(r) == std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
    Tensor r2 = reshape(x, {4, 3});  // viewable: shares storage
    CHECK(r2.storage() == x.storage());
    // Splitting a transposed dim is still a view.
    Tensor sv = view(tt, {2, 2, 3});
    CHECK(sv.strides() == Shape{2, 1, 4});
    // 0-d and empty.
    Tensor s = view(ar(1, d), {});
    CHECK(s.dim() == 0);
    CHECK(view(empty({0, 3}, ut::opts(DType::Float32, d)), {-1, 3}).sizes() == Shape{0, 3});
    CHECK(flatten(view(x, {2, 3, 2}), 1, -1).sizes() == Shape{2, 6});
    CHECK(flatten(view(x, {2, 3, 2}), 0, 1).sizes() == Shape{6, 2});
  }
}

TEST_CASE("views: transpose, permute, t, unsqueeze, squeeze, expand") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = view(ar(24, d), {2, 3, 4});
    Tensor tr = transpose(x, 0, -1);
    CHECK(tr.sizes() == Shape{4, 3, 2});
    CHECK(tr.strides() == Shape{1, 4, 12});
    CHECK(tr.storage() == x.storage());
    Tensor p = permute(x, {1, 2, 0});
    CHECK(p.sizes() == Shape{3, 4, 2});
    CHECK(p.strides() == Shape{4, 1, 12});
    CHECK(vals(contiguous(p))[1] == 12);
    CHECK(error_of([&] { permute(x, {0, 0, 1}); }) == "permute(): duplicate dims are not allowed.");
    CHECK_THROWS_AS(transpose(x, 0, 3), IndexError);
    CHECK(t(ar(5, d)).sizes() == Shape{5});
    CHECK(error_of([&] { t(x); }) == "t() expects a tensor with <= 2 dimensions, but self is 3D");

    CHECK(unsqueeze(x, 0).sizes() == Shape{1, 2, 3, 4});
    CHECK(unsqueeze(x, -1).sizes() == Shape{2, 3, 4, 1});
    CHECK(unsqueeze(x, 3).sizes() == Shape{2, 3, 4, 1});
    CHECK_THROWS_AS(unsqueeze(x, 4), IndexError);
    Tensor y = view(ar(6, d), {1, 2, 1, 3, 1});
    CHECK(squeeze(y, std::nullopt).sizes() == Shape{2, 3});
    CHECK(squeeze(y, 2).sizes() == Shape{1, 2, 3, 1});
    CHECK(squeeze(y, 1).sizes() == y.sizes());  // size 2: unchanged
    CHECK(squeeze(y, -1).sizes() == Shape{1, 2, 1, 3});

    Tensor col = view(ar(3, d), {3, 1});
    Tensor e = expand(col, {2, 3, 4});
    CHECK(e.sizes() == Shape{2, 3, 4});
    CHECK(e.strides() == Shape{0, 1, 0});
    CHECK(e.storage() == col.storage());
    CHECK(expand(col, {-1, 5}).sizes() == Shape{3, 5});
    CHECK(vals(contiguous(expand(col, {3, 2}))) == std::vector<double>{0, 0, 1, 1, 2, 2});
    CHECK(error_of([&] {
            expand(col, {4, 4});
          }) ==
          "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0.  "
          "Target sizes: [4, 4].  Tensor sizes: [3, 1]");
  }
}

TEST_CASE("views: narrow, select, slice with negative indices and steps") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = view(ar(20, d), {4, 5});
    Tensor n = narrow(x, 1, 1, 3);
    CHECK(n.sizes() == Shape{4, 3});
    CHECK(n.offset() == 1);
    CHECK(n.storage() == x.storage());
    CHECK(vals(narrow(x, 0, -2, 2)) == iota(10, 10));
    CHECK(error_of([&] { narrow(x, 1, 3, 3); }) == "start (3) + length (3) exceeds dimension size (5).");
    CHECK(vals(select(x, 0, -1)) == iota(5, 15));
    CHECK(vals(select(x, 1, 2)) == std::vector<double>{2, 7, 12, 17});
    CHECK(select(x, 1, 2).sizes() == Shape{4});
    CHECK(error_of([&] { select(x, 0, 4); }) ==
          "select(): index 4 out of range for tensor of size [4, 5] at dimension 0");
    CHECK_THROWS_AS(select(x, 0, -5), IndexError);
    Tensor s = slice(x, 1, 1, std::nullopt, 2);
    CHECK(s.sizes() == Shape{4, 2});
    CHECK(s.strides() == Shape{5, 2});
    CHECK(vals(select(s, 0, 0)) == std::vector<double>{1, 3});
    CHECK(vals(slice(ar(10, d), 0, -3, std::nullopt, 1)) == std::vector<double>{7, 8, 9});
    CHECK(vals(slice(ar(10, d), 0, std::nullopt, -7, 1)) == std::vector<double>{0, 1, 2});
    CHECK(vals(slice(ar(10, d), 0, -100, 100, 3)) == std::vector<double>{0, 3, 6, 9});
    CHECK(slice(ar(10, d), 0, 7, 3, 1).numel() == 0);
    CHECK(error_of([&] { slice(ar(10, d), 0, 0, 5, 0); }) == "step must be greater than zero");
    // Writes through a view land in the base.
    Tensor sel = select(x, 0, 1);
    fill_(sel, ut::sf(-1));
    CHECK(vals(x)[5] == -1);
    CHECK(vals(x)[9] == -1);
    CHECK(vals(x)[10] == 10);
  }
}

TEST_CASE("views: chunk and split sizes") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    CHECK(sizes_of(chunk(ar(30, d), 2, 0), 0) == Shape{15, 15});
    CHECK(sizes_of(chunk(ar(10, d), 2, 0), 0) == Shape{5, 5});
    CHECK(sizes_of(chunk(ar(16, d), 4, 0), 0) == Shape{4, 4, 4, 4});
    CHECK(sizes_of(chunk(ar(7, d), 3, 0), 0) == Shape{3, 3, 1});
    CHECK(sizes_of(chunk(ar(6, d), 4, 0), 0) == Shape{2, 2, 2});  // PyTorch: ceil(6/4)=2 -> 3 chunks
    CHECK(sizes_of(chunk(ar(2, d), 5, 0), 0) == Shape{1, 1});
    CHECK(sizes_of(split(ar(7, d), 3, 0), 0) == Shape{3, 3, 1});
    CHECK(sizes_of(split(ar(6, d), 2, 0), 0) == Shape{2, 2, 2});
    CHECK(sizes_of(split(ar(3, d), 5, 0), 0) == Shape{3});
    auto parts = split_sizes(view(ar(12, d), {2, 6}), {1, 2, 3}, -1);
    REQUIRE(parts.size() == 3);
    CHECK(sizes_of(parts, 1) == Shape{1, 2, 3});
    CHECK(vals(parts[2]) == std::vector<double>{3, 4, 5, 9, 10, 11});
    CHECK(parts[1].storage() == parts[0].storage());
    CHECK(error_of([&] {
            split_sizes(ar(5, d), {2, 2}, 0);
          }) ==
          "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), but got "
          "split_sizes=[2, 2]");
    CHECK(error_of([&] { chunk(ar(5, d), 0, 0); }) == "chunk expects `chunks` to be greater than 0, got: 0");
    auto c = chunk(view(ar(12, d), {3, 4}), 2, 1);
    CHECK(vals(c[1]) == std::vector<double>{2, 3, 6, 7, 10, 11});
  }
}

TEST_CASE("views: cat and stack") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor a = view(ar(6, d), {2, 3});
    Tensor b = view(ar(4, d), {2, 2});
    Tensor c = cat({a, b}, 1);
    CHECK(c.sizes() == Shape{2, 5});
    CHECK(vals(c) == std::vector<double>{0, 1, 2, 0, 1, 3, 4, 5, 2, 3});
    CHECK(cat({a, a}, -2).sizes() == Shape{4, 3});
    CHECK(cat({t(a), t(a)}, 0).sizes() == Shape{6, 2});
    CHECK(vals(cat({t(a), t(a)}, 1))[0] == 0);
    CHECK(vals(cat({t(a), t(a)}, 1))[1] == 3);
    // Empty 1-d tensors are skipped in cat, as in PyTorch.
    CHECK(cat({a, empty({0}, ut::opts(DType::Float32, d))}, 0).sizes() == Shape{2, 3});
    // Dtypes promote.
    Tensor ai = to(a, std::nullopt, DType::Int64);
    CHECK(cat({ai, to(a, std::nullopt, DType::Float64)}, 0).dtype() == DType::Float64);
    CHECK(error_of([&] {
            cat({a, b}, 0);
          }) ==
          "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1 in "
          "the list.");
    CHECK(error_of([&] { cat({}, 0); }) == "torch.cat(): expected a non-empty list of Tensors");
    Tensor s = stack({a, a, a}, 1);
    CHECK(s.sizes() == Shape{2, 3, 3});
    CHECK(vals(select(s, 1, 0)) == std::vector<double>{0, 1, 2, 3, 4, 5});
    CHECK(stack({a, a}, -1).sizes() == Shape{2, 3, 2});
    CHECK(stack({a, a}, 0).sizes() == Shape{2, 2, 3});
    CHECK(error_of([&] {
            stack({a, b}, 0);
          }) == "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 2] at entry 1");
  }
  ut::devices();
  CHECK(error_of([] {
          cat({ar(2), ar(2, ut::cuda(1))}, 0);
        })
            .find("Expected all tensors to be on the same device, but got tensors is on cuda:1, different from other "
                  "tensors on cpu (when checking argument in method wrapper_CUDA_cat)") == 0);
}

TEST_CASE("views: is_contiguous and storage sharing") {
  Tensor x = view(ar(24), {2, 3, 4});
  CHECK(x.is_contiguous());
  CHECK_FALSE(transpose(x, 1, 2).is_contiguous());
  CHECK(contiguous(x).is_same(x));  // already contiguous: the same tensor
  Tensor c = contiguous(transpose(x, 1, 2));
  CHECK(c.is_contiguous());
  CHECK(c.storage() != x.storage());
  CHECK(narrow(x, 0, 1, 1).is_contiguous());
  CHECK_FALSE(narrow(x, 2, 1, 2).is_contiguous());
  CHECK(unsqueeze(x, 1).is_contiguous());
  // Size-1 dims don't affect contiguity.
  CHECK(permute(view(ar(3), {1, 3, 1}), {2, 1, 0}).is_contiguous());
  Tensor xs = x;
  Tensor v = select(transpose(x, 0, 2), 0, 3);  // x[:, :, 3]
  CHECK(v.storage() == x.storage());
  CHECK(vals(v) == std::vector<double>{3, 15, 7, 19, 11, 23});
  CHECK(v.sizes() == Shape{3, 2});
  (void)xs;
  CHECK(vals(index_select(ar(5), 0, ut::tens({4, 0, 4}, {}, DType::Int64))) == std::vector<double>{4, 0, 4});
  CHECK(vals(masked_select(ar(4), ut::tens({1, 0, 0, 1}, {}, DType::Bool))) == std::vector<double>{0, 3});
  CHECK(broadcast_shapes({3, 1}, {1, 4}) == Shape{3, 4});
  CHECK(broadcast_shapes({}, {2}) == Shape{2});
  CHECK(error_of([] {
          broadcast_shapes({3}, {4});
        }).find("The size of tensor a (3) must match the size of tensor b (4)") == 0);
  CHECK(vals(sum_to(ones({2, 3, 4}, {}), {3, 1})) == std::vector<double>{8, 8, 8});
}

TEST_CASE("views: copy_ between partially overlapping views is refused, as in PyTorch") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = arange(ut::si(0), ut::si(5), ut::si(1), DType::Float32, ut::opts(DType::Float32, d));
    Tensor tail = narrow(x, 0, 1, 4), head = narrow(x, 0, 0, 4);
    CHECK(ut::error_of([&] { copy_(tail, head); }) ==
          "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
          "memory location. Please clone() the tensor before performing the operation.");
    CHECK(vals(x) == std::vector<double>{0, 1, 2, 3, 4});   // nothing was written
    copy_(x, x);                                            // the same view: allowed
    Tensor a = narrow(x, 0, 0, 2), b = narrow(x, 0, 3, 2);  // disjoint parts of one storage
    copy_(a, b);
    CHECK(vals(x) == std::vector<double>{3, 4, 2, 3, 4});
  }
}

TEST_CASE("views: the dim limit and numel overflow are checked where a shape is made") {
  Shape at_limit(size_t(kMaxDims), 1);
  CHECK(view(ar(1), at_limit).dim() == kMaxDims);
  CHECK(error_of([&] { unsqueeze(view(ar(1), at_limit), 0); }) ==
        "gpulab supports tensors of at most 16 dimensions, but got 17");
  CHECK(error_of([&] { empty_on(Shape(34, 1), DType::Float32, Device(Device::CPU)); }) ==
        "gpulab supports tensors of at most 16 dimensions, but got 34");
  CHECK(error_of([&] {
          expand(view(ar(1), {1, 1}), {int64_t(1) << 62, 2});
        }) == "numel: integer multiplication overflow");
  CHECK(expand(view(ar(1), {1, 1}), {int64_t(1) << 31, int64_t(1) << 31}).numel() == int64_t(1) << 62);
  // PyTorch 2.15's words for a byte count past int64 (torch.empty(2**62, 4))
  CHECK(error_of([&] {
          check_new_shape({int64_t(1) << 62, 4}, DType::Float32);
        }) == "Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
  CHECK(error_of([&] {
          check_new_shape({int64_t(1) << 40, int64_t(1) << 40}, DType::UInt8);
        }) == "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
}
