// Python's x[key] and x[key] = value on a parsed key: integers, slices,
// '...', None, bool masks and index tensors, with PyTorch's rules and errors.
// The bindings only turn a Lua key into IndexItems (bindings/tensor_index.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

struct IndexItem {
  enum Kind { Int, Slice, Ellipsis, NewAxis, Tensor } kind = Int;
  int64_t i = 0;                       // Int
  std::optional<int64_t> start, stop;  // Slice
  int64_t step = 1;                    // Slice
  gl::Tensor tensor;                   // Tensor
};

// A key as indexing reads it. `bare`: one tensor as the whole key (x[t], not
// x[{t}]), where a uint8 or 0-d bool tensor is a mask (a uint8 one with
// PyTorch's deprecation warning, Note [Warnings]).
struct IndexKey {
  std::vector<IndexItem> items;
  bool bare = false;
};

// x[key]: a view for integers, slices, '...' and None; a copy with masks and
// index tensors.
Tensor getitem(const Tensor& t, const IndexKey& key);

// x[key] = value, a tensor or a number (exactly one of them); `value_type`
// names a value that is neither, for the TypeError.
void setitem_(Tensor& t, const IndexKey& key, const Tensor* value, const std::optional<Scalar>& number,
              const std::string& value_type);

}  // namespace gl
