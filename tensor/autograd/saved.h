// Note [Version counter]
// A backward reads values its forward saved. If an in-place op changes one of
// them in between, the gradient is silently wrong; PyTorch counts the writes
// instead and refuses such a backward. gpulab does the same:
//  - every storage has a version (Storage::version), shared by all views of it
//    and by detach() (PyTorch's version counter lives on the base and its
//    views); `.data` is the exception, as in PyTorch: writes through it are
//    not counted (TensorImpl::version_untracked);
//  - an in-place op counts one write to the tensor it changes (a Mutation at
//    its entry; nested ones on the same storage do not count again, so x:add_(1)
//    is one write as in PyTorch however many helpers it goes through);
//  - record() notes the version of each tensor the node saves (every Tensor
//    member of a derivative row, or the list a closure passes), and the engine
//    checks them before the node's backward runs (check_saved_versions), with
//    PyTorch's error.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

struct Node;

// A tensor a node saved, and its storage's version at that moment.
struct SavedVersion {
  std::weak_ptr<TensorImpl> tensor;
  uint32_t version = 0;
  // Where the saved tensor came from, for the error: output `output_nr` of
  // the saving node itself for a saved output, else of the node that now
  // produces `named` (the saved tensor, or the input it is a copy of), as
  // PyTorch reads a saved input's grad_fn when it fails.
  const Node* self_producer = nullptr;
  int output_nr = 0;
  std::weak_ptr<TensorImpl> named;
};

// Counts one write to t's storage for an in-place op (Note [Version counter]);
// writes nested inside it on the same storage count nothing more. The count
// is taken at the start, so that what the op itself saves sees the new
// version, and given back if the op fails (an in-place op refused in a graph
// writes nothing).
class Mutation {
 public:
  explicit Mutation(const Tensor& t);
  ~Mutation();
  Mutation(const Mutation&) = delete;
  Mutation& operator=(const Mutation&) = delete;

 private:
  // Weak: the op may count the holders of the storage (Note [In-place autograd]).
  std::weak_ptr<Storage> storage_;
  bool nested_ = true;  // an enclosing Mutation counts this write
  bool counted_ = false;
  int exceptions_ = 0;
};

// t's version now, as saved by node `n` (may be null) that produces `out`
// from `inputs` (a saved tensor without a node of its own that shares the
// storage of an input with one is named by that input).
SavedVersion saved_version(const Tensor& t, const Node* n, const Tensor& out, const std::vector<Tensor>& inputs = {});
// Notes that node `n` saved t (undefined t: nothing).
void save_version(Node& n, const Tensor& t, const Tensor& out, const std::vector<Tensor>& inputs = {});
// PyTorch's error when a saved tensor has been written since.
void check_saved_version(const SavedVersion& v);
void check_saved_versions(const Node& n);

// Calls f on every data member of an aggregate (a derivative row's struct),
// by structured bindings: the rows name their members once, in the .def.
namespace detail {
struct AnyMember {
  template <class T> operator T() const;
};
template <class T, class... A> constexpr size_t member_count() {
  if constexpr (requires { T{A{}..., AnyMember{}}; }) return member_count<T, A..., AnyMember>();
  else return sizeof...(A);
}
}  // namespace detail

template <class T, class F> void for_each_member(const T& t, F&& f) {
  constexpr size_t n = detail::member_count<T>();
  static_assert(n <= 12, "for_each_member: a row with more than 12 members");
  // clang-format off
  if constexpr (n == 1) { const auto& [a] = t; f(a); }
  else if constexpr (n == 2) { const auto& [a, b] = t; f(a); f(b); }
  else if constexpr (n == 3) { const auto& [a, b, c] = t; f(a); f(b); f(c); }
  else if constexpr (n == 4) { const auto& [a, b, c, d] = t; f(a); f(b); f(c); f(d); }
  else if constexpr (n == 5) { const auto& [a, b, c, d, e] = t; f(a); f(b); f(c); f(d); f(e); }
  else if constexpr (n == 6) { const auto& [a, b, c, d, e, g] = t; f(a); f(b); f(c); f(d); f(e); f(g); }
  else if constexpr (n == 7) { const auto& [a, b, c, d, e, g, h] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); }
  else if constexpr (n == 8) { const auto& [a, b, c, d, e, g, h, i] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); f(i); }
  else if constexpr (n == 9) { const auto& [a, b, c, d, e, g, h, i, j] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); f(i); f(j); }
  else if constexpr (n == 10) { const auto& [a, b, c, d, e, g, h, i, j, k] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); f(i); f(j); f(k); }
  else if constexpr (n == 11) { const auto& [a, b, c, d, e, g, h, i, j, k, l] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); f(i); f(j); f(k); f(l); }
  else if constexpr (n == 12) { const auto& [a, b, c, d, e, g, h, i, j, k, l, m] = t; f(a); f(b); f(c); f(d); f(e); f(g); f(h); f(i); f(j); f(k); f(l); f(m); }
  // clang-format on
}

}  // namespace gl
