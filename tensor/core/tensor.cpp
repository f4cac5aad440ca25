#include "tensor/core/tensor.h"
#include "tensor/autograd/node.h"
#include "tensor/runtime/registry.h"

namespace gl {

const Shape& Tensor::sizes() const { return impl->sizes; }
const Shape& Tensor::strides() const { return impl->strides; }
int64_t Tensor::dim() const { return int64_t(impl->sizes.size()); }
int64_t Tensor::numel() const { return impl->numel; }
// wrap_dim lets a 0-d tensor take dim 0 or -1 (reductions treat it as 1-d),
// but it has no size or stride to read there.
static void check_has_dims(int64_t d, int64_t ndim) {
  if (ndim == 0) throw IndexError(cat("Dimension specified as ", d, " but tensor has no dimensions"));
}
int64_t Tensor::size(int64_t d) const {
  check_has_dims(d, dim());
  return impl->sizes[wrap_dim(d, dim())];
}
int64_t Tensor::stride(int64_t d) const {
  check_has_dims(d, dim());
  return impl->strides[wrap_dim(d, dim())];
}
int64_t Tensor::offset() const { return impl->offset; }
DType Tensor::dtype() const { return impl->dtype; }
Device Tensor::device() const { return impl->storage->device; }
const StoragePtr& Tensor::storage() const { return impl->storage; }
// A storage of no bytes has no data (null), while a view into it keeps its
// offset (y[2] of an empty (3, 0, 3, 3) tensor starts 18 elements in): null
// plus an offset is undefined behaviour (UBSan, the seventh fuzz campaign, in
// write_in_place's aliasing test), so such a view's data is null too.
char* Tensor::data_ptr() const {
  char* base = static_cast<char*>(impl->storage->data);
  return base ? base + impl->offset * int64_t(itemsize(impl->dtype)) : nullptr;
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (impl->sizes[d] == 1) continue;
    if (impl->strides[d] != expected) return false;
    expected *= impl->sizes[d];
  }
  return true;
}

bool Tensor::requires_grad() const { return impl->requires_grad; }
void Tensor::set_requires_grad(bool r) {
  if (!r && impl->grad_fn)
    throw RuntimeError(
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  if (r && !is_floating(impl->dtype)) throw RuntimeError("only Tensors of floating point dtype can require gradients");
  impl->requires_grad = r;
}
Tensor Tensor::grad() const { return Tensor(impl->grad); }
void Tensor::set_grad(const Tensor& g) { impl->grad = g.impl; }
const std::shared_ptr<Node>& Tensor::grad_fn() const { return impl->grad_fn; }
bool Tensor::is_leaf() const { return impl->grad_fn == nullptr; }

int64_t numel_of(const Shape& s) {
  // Shapes too large for int64 are refused where tensors are made; here they
  // only need a defined (wrapped) product, and a zero dim makes it 0.
  uint64_t n = 1;
  for (auto v : s) {
    if (v == 0) return 0;
    n *= uint64_t(v);
  }
  return int64_t(n);
}

Shape contiguous_strides(const Shape& s) {
  // A shape with a zero dim has no elements, so its size check passes even
  // when the other dims' product overflows, e.g. (0, 3, 2^62): PyTorch refuses
  // it here, with these words.
  Shape st(s.size());
  int64_t acc = 1;
  for (int64_t d = int64_t(s.size()) - 1; d >= 0; --d) {
    st[d] = acc;
    GL_CHECK(!__builtin_mul_overflow(acc, s[d] > 1 ? s[d] : 1, &acc), "Stride calculation overflowed");
  }
  return st;
}

int64_t wrap_dim(int64_t d, int64_t ndim) {
  int64_t lo = ndim > 0 ? -ndim : -1, hi = ndim > 0 ? ndim - 1 : 0;
  if (d < lo || d > hi)
    throw IndexError(cat("Dimension out of range (expected to be in range of [", lo, ", ", hi, "], but got ", d, ")"));
  return d < 0 ? d + (ndim > 0 ? ndim : 1) : d;
}

std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}
std::string size_repr(const Shape& s) { return "torch.Size(" + shape_str(s) + ")"; }

namespace {
// The checks every new shape passes first: the dim limit, no negative size.
void check_dims_and_signs(const Shape& sizes) {
  GL_CHECK(sizes.size() <= size_t(kMaxDims), "gpulab supports tensors of at most ", kMaxDims, " dimensions, but got ",
           sizes.size());
  for (auto s : sizes) GL_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(sizes));
}
}  // namespace

void check_shape(const Shape& sizes) {
  check_dims_and_signs(sizes);
  int64_t n = 1;
  for (auto s : sizes) GL_CHECK(!__builtin_mul_overflow(n, s, &n), "numel: integer multiplication overflow");
}

Tensor make_view(const Tensor& t, Shape sizes, Shape strides, int64_t offset) {
  check_shape(sizes);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = t.impl->storage;
  impl->numel = numel_of(sizes);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = t.impl->dtype;
  impl->version_untracked = t.impl->version_untracked;
  return Tensor(std::move(impl));
}

int64_t check_new_shape(const Shape& sizes, DType dtype) {
  check_dims_and_signs(sizes);
  // PyTorch's computeStorageNbytes: a count of bytes past int64 is refused
  // with its words; one within it goes to the allocator, which refuses what
  // memory cannot hold as PyTorch's does (Note [Allocations past memory]).
  // Within 4 GiB of 2^63 an allocator's rounding up could overflow: refused
  // with the same words.
  int64_t n = 1, bytes = 0;
  bool overflow = false;
  for (auto s : sizes) overflow = overflow || __builtin_mul_overflow(n, s, &n);
  overflow =
      overflow || __builtin_mul_overflow(n, int64_t(itemsize(dtype)), &bytes) || bytes > INT64_MAX - (int64_t(1) << 32);
  GL_CHECK(!overflow, "Storage size calculation overflowed with sizes=", shape_str(sizes));
  return n;
}

Tensor empty_on(const Shape& sizes, DType dtype, Device device) {
  return empty_from(sizes, dtype, device, allocator_for(device));
}

Tensor empty_from(const Shape& sizes, DType dtype, Device device, Allocator& alloc) {
  const int64_t n = check_new_shape(sizes, dtype);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<Storage>(size_t(n) * itemsize(dtype), device, &alloc);
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->numel = n;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

}  // namespace gl
