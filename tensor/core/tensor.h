// Tensor: a view (shape, strides, offset) onto refcounted Storage.
// Note [Tensor identity]: a Tensor is a shared_ptr<TensorImpl>; two Tensors
// are "the same tensor" (Python's `is`, Lua's `==`) exactly when they share
// the impl. Ops that change nothing return their input's impl, and the Lua
// bindings map each impl to one userdata, so identity survives the round trip.
#pragma once
#include <memory>
#include <vector>
#include "tensor/core/dtype.h"
#include "tensor/core/limits.h"
#include "tensor/runtime/allocator.h"

namespace gl {

using Shape = std::vector<int64_t>;
struct Node;
struct TensorImpl;

class Tensor {
 public:
  std::shared_ptr<TensorImpl> impl;

  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> i) : impl(std::move(i)) {}
  bool defined() const { return impl != nullptr; }
  bool is_same(const Tensor& o) const { return impl == o.impl; }

  const Shape& sizes() const;
  const Shape& strides() const;
  int64_t dim() const;
  int64_t numel() const;
  int64_t size(int64_t d) const;  // d may be negative
  int64_t stride(int64_t d) const;
  int64_t offset() const;
  DType dtype() const;
  Device device() const;
  bool is_contiguous() const;
  char* data_ptr() const;  // element 0, storage offset applied
  template <class T> T* data() const { return reinterpret_cast<T*>(data_ptr()); }
  const StoragePtr& storage() const;

  bool requires_grad() const;
  void set_requires_grad(bool r);  // leaves only; throws otherwise
  Tensor grad() const;
  void set_grad(const Tensor& g);
  const std::shared_ptr<Node>& grad_fn() const;
  bool is_leaf() const;
};

struct TensorImpl {
  StoragePtr storage;
  Shape sizes, strides;
  int64_t offset = 0;
  int64_t numel = 0;
  DType dtype = DType::Float32;
  bool requires_grad = false;
  bool is_parameter = false;  // printed as "Parameter containing:"
  bool retains_grad = false;
  std::shared_ptr<TensorImpl> grad;
  std::shared_ptr<Node> grad_fn;
  // A leaf's AccumulateGrad node while some graph holds it: every op on the
  // leaf links to the same node, as PyTorch's grad_accumulator.
  std::weak_ptr<Node> grad_accumulator;
  // That node, held while hooks are registered on the leaf (Note [Tensor hooks]).
  std::shared_ptr<Node> hooked_accumulator;
  int output_nr = 0;
  // `.data` and its views: their writes are not counted (Note [Version counter]).
  bool version_untracked = false;
};

struct TensorOptions {
  DType dtype = DType::Float32;
  Device device = Device(Device::CPU);
  bool requires_grad = false;
};

int64_t numel_of(const Shape& s);
Shape contiguous_strides(const Shape& s);
int64_t wrap_dim(int64_t d, int64_t ndim);  // negative dims, IndexError when out of range
std::string shape_str(const Shape& s);      // "[2, 3]"
std::string size_repr(const Shape& s);      // "torch.Size([2, 3])"

// Throws unless `sizes` has at most kMaxDims dims, none negative, and a
// product that fits int64 (an expanded view may be far larger than its
// storage, but its numel must still be exact).
void check_shape(const Shape& sizes);
// A new view of t's storage (no autograd; see ops for the tracked versions).
Tensor make_view(const Tensor& t, Shape sizes, Shape strides, int64_t offset);
// empty_on's checks without the allocation; returns the numel.
int64_t check_new_shape(const Shape& sizes, DType dtype);
// Uninitialised storage on an already-resolved device.
Tensor empty_on(const Shape& sizes, DType dtype, Device device);
// The same with memory from `alloc` (pinned host memory for a CPU tensor).
Tensor empty_from(const Shape& sizes, DType dtype, Device device, Allocator& alloc);

}  // namespace gl
