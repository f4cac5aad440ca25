// Autograd graph nodes. Every differentiable op records one Node on its
// output: PyTorch's name for it (printed as grad_fn=<AddBackward0>), edges to
// the nodes of its inputs, and a closure mapping the output's gradient to
// one gradient per input.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "tensor/autograd/saved.h"
#include "tensor/core/tensor.h"

namespace gl {

struct Node {
  std::string name;
  // The Python module of the node's class where it is not torch's own C++
  // one ("torch.autograd.function" for a custom Function's node): its
  // object repr names it, <torch.autograd.function.ExpBackward object at ...>.
  const char* module = nullptr;
  // One edge per input; null where that input needs no gradient.
  std::vector<std::shared_ptr<Node>> next;
  std::function<std::vector<Tensor>(const Tensor&)> backward;
  // AccumulateGrad nodes point at their leaf.
  std::weak_ptr<TensorImpl> leaf;
  // Non-leaf outputs of this node that called retain_grad(): they receive
  // the node's incoming gradient in their .grad.
  std::vector<std::weak_ptr<TensorImpl>> retained;
  bool released = false;
  // The backward reads the output tensor itself (not a copy): an in-place op
  // on that output would change it (Note [In-place autograd] in elementwise.cpp).
  bool saves_output = false;
  // The output is a view of an input (their storage is one): once either is
  // written in place, PyTorch names the view's node AsStridedBackward0.
  bool view = false;
  // x.register_hook(fn) on the tensor this node stands for (Note [Tensor hooks]).
  std::vector<std::pair<int, std::function<Tensor(const Tensor&)>>> hooks;
  // The tensors the backward reads, with their versions (Note [Version counter]).
  std::vector<SavedVersion> saved;
  // Where the forward ran, kept in anomaly mode (Note [Anomaly mode]).
  std::string forward_trace;
  virtual ~Node() = default;
};

struct GradMode {
  static bool enabled();
  static void set(bool on);
};

struct NoGradGuard {
  bool prev;
  NoGradGuard() : prev(GradMode::enabled()) { GradMode::set(false); }
  ~NoGradGuard() { GradMode::set(prev); }
};

// True when grad mode is on and any input requires grad.
bool any_requires_grad(std::initializer_list<const Tensor*> inputs);
bool any_requires_grad(const std::vector<Tensor>& inputs);

// Makes `out` the output of a new node over `inputs`; `saved`: the tensors
// the backward reads (Note [Version counter]).
void record(Tensor& out, const char* name, const std::vector<Tensor>& inputs,
            std::function<std::vector<Tensor>(const Tensor&)> backward, std::initializer_list<Tensor> saved = {});
// Records a node of derivatives.h (Note [Derivative rows]), saving its Tensor
// members, under its own name or `name`.
template <class Derivative>
requires std::is_aggregate_v<Derivative>
void record(Tensor& out, const char* name, const std::vector<Tensor>& inputs, Derivative node) {
  record(out, name, inputs, std::function<std::vector<Tensor>(const Tensor&)>(std::move(node)));
  Node& n = *out.grad_fn();
  for_each_member(*n.backward.target<Derivative>(), [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    if constexpr (std::is_same_v<M, Tensor>) save_version(n, m, out, inputs);
    if constexpr (std::is_same_v<M, std::vector<Tensor>>)
      for (const Tensor& t : m) save_version(n, t, out, inputs);
  });
}
template <class Derivative>
requires std::is_aggregate_v<Derivative>
void record(Tensor& out, const std::vector<Tensor>& inputs, Derivative node) {
  record(out, Derivative::kName, inputs, std::move(node));
}

// PyTorch prints some composite ops by the name of the op the user called
// (x.var() is VarBackward0 although it is built from sub/mul/sum/div):
// renames the node that produced `t`, if any.
void rename_grad_fn(const Tensor& t, const char* name);

// t.retain_grad(): a non-leaf keeps its gradient in .grad after backward
// (a no-op on leaves; an error when t does not require grad).
void retain_grad(const Tensor& t);

// t.grad as a user reads it: PyTorch warns when it is read on a non-leaf
// that does not retain its gradient (it stays None through backward).
Tensor read_grad(const Tensor& t);

// Runs backward from `root` with the given gradient (defined, same shape);
// create_graph records the backward itself, so .grad can be differentiated again.
void run_backward(const Tensor& root, const Tensor& grad, bool retain_graph, bool create_graph = false);
// torch.autograd.grad: the gradients of `outputs` (seeded with grad_outputs;
// an undefined one: ones for a one-element output) with respect to `inputs`,
// without touching any .grad. An input the outputs do not reach is an error
// unless allow_unused (then undefined, or zeros with materialize_grads).
// retain_graph defaults to create_graph; create_graph records the backward
// itself, so the gradients can be differentiated again.
struct GradOptions {
  std::optional<bool> retain_graph;
  bool create_graph = false;
  bool allow_unused = false;
  bool materialize_grads = false;
};
std::vector<Tensor> autograd_grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                                  const std::vector<Tensor>& grad_outputs, const GradOptions& o);
// Note [Tensor hooks]: x.register_hook(fn): during a backward pass, fn(grad)
// runs on the gradient with respect to x when it is complete, before it
// reaches anything else (x's .grad, retain_grad's copy, autograd.grad's
// result, the nodes below); a defined result replaces the gradient. The hooks
// live on x's node: its grad_fn, or for a leaf its AccumulateGrad node, which
// the leaf then holds. Returns the hook's id for remove_grad_hook.
using GradHook = std::function<Tensor(const Tensor&)>;
int add_grad_hook(const Tensor& t, GradHook hook);
// Removes the hook `id` from t's node; false if it was not there.
bool remove_grad_hook(const Tensor& t, int id);

// Called by run_backward as soon as a leaf's .grad is final for this pass
// (PyTorch's post-accumulate-grad hook): DistributedDataParallel starts a
// bucket's all-reduce while backward goes on. One hook at a time; nullptr: none.
using GradAccumulatedHook = void (*)(const Tensor& leaf, void* ctx);
void set_grad_accumulated_hook(GradAccumulatedHook hook, void* ctx);

}  // namespace gl
