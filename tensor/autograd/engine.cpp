// The backward engine: topological order from the root, gradients summed per
// node, leaves accumulating into .grad in place (so `x.grad` stays the same
// tensor across backward calls, as in PyTorch).
#include <unordered_map>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {
thread_local bool g_grad_enabled = true;

std::shared_ptr<Node> accumulate_node(const Tensor& leaf) {
  if (auto n = leaf.impl->grad_accumulator.lock()) return n;
  auto n = std::make_shared<Node>();
  n->name = "AccumulateGrad";
  n->leaf = leaf.impl;
  leaf.impl->grad_accumulator = n;
  return n;
}

std::shared_ptr<Node> edge_of(const Tensor& t) {
  if (!t.requires_grad()) return nullptr;
  if (t.grad_fn()) return t.grad_fn();
  return accumulate_node(t);
}
}  // namespace

static GradAccumulatedHook g_grad_hook = nullptr;
static void* g_grad_hook_ctx = nullptr;
void set_grad_accumulated_hook(GradAccumulatedHook hook, void* ctx) {
  g_grad_hook = hook;
  g_grad_hook_ctx = ctx;
}

bool GradMode::enabled() { return g_grad_enabled; }
void GradMode::set(bool on) { g_grad_enabled = on; }

bool any_requires_grad(std::initializer_list<const Tensor*> inputs) {
  if (!g_grad_enabled) return false;
  for (auto* t : inputs)
    if (t->defined() && t->requires_grad()) return true;
  return false;
}

bool any_requires_grad(const std::vector<Tensor>& inputs) {
  if (!g_grad_enabled) return false;
  for (auto& t : inputs)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

void record(Tensor& out, const char* name, const std::vector<Tensor>& inputs,
            std::function<std::vector<Tensor>(const Tensor&)> backward) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->next.reserve(inputs.size());
  for (auto& t : inputs) n->next.push_back(t.defined() ? edge_of(t) : nullptr);
  n->backward = std::move(backward);
  out.impl->grad_fn = std::move(n);
  out.impl->requires_grad = true;
}

void rename_grad_fn(const Tensor& t, const char* name) {
  if (t.defined() && t.grad_fn()) t.grad_fn()->name = name;
}

void retain_grad(const Tensor& t) {
  GL_CHECK(t.requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  if (t.is_leaf() || t.impl->retains_grad) return;
  t.impl->retains_grad = true;
  t.grad_fn()->retained.push_back(t.impl);
}

Tensor read_grad(const Tensor& t) {
  if (t.requires_grad() && !t.is_leaf() && !t.impl->retains_grad && !t.grad().defined())
    warn(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
        "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
        "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
        "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.");
  return t.grad();
}

namespace {
// The gradient a retaining non-leaf sees: summed over backward calls, like a leaf's.
void store_retained(Node& n, const Tensor& g) {
  for (auto& w : n.retained) {
    auto impl = w.lock();
    if (!impl || !g.defined()) continue;
    Tensor lt(impl);
    if (!impl->grad) impl->grad = clone(to(sum_to(g, lt.sizes()), lt.device(), lt.dtype())).impl;
    else {
      Tensor acc(impl->grad);
      binary_(BinaryOp::Add, acc, g);
    }
  }
}
}  // namespace

void run_backward(const Tensor& root, const Tensor& grad, bool retain_graph) {
  GL_CHECK(root.requires_grad(), "element 0 of tensors does not require grad and does not have a grad_fn");
  NoGradGuard no_grad;
  std::shared_ptr<Node> start = edge_of(root);
  // Dependency counts over the reachable graph.
  std::unordered_map<Node*, int> deps;
  std::vector<Node*> stack{start.get()};
  std::unordered_map<Node*, bool> seen{{start.get(), true}};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (auto& e : n->next) {
      if (!e) continue;
      deps[e.get()]++;
      if (!seen[e.get()]) {
        seen[e.get()] = true;
        stack.push_back(e.get());
      }
    }
  }
  std::unordered_map<Node*, Tensor> pending{{start.get(), grad}};
  std::vector<std::shared_ptr<Node>> ready{start};
  while (!ready.empty()) {
    std::shared_ptr<Node> n = ready.back();
    ready.pop_back();
    Tensor g = pending[n.get()];
    pending.erase(n.get());
    if (n->name == "AccumulateGrad") {
      auto leaf = n->leaf.lock();
      if (!leaf || !g.defined()) continue;
      Tensor lt(leaf);
      if (!leaf->grad) {
        leaf->grad = (g.impl.use_count() == 1 && g.storage().use_count() == 1 && g.is_contiguous() &&
                      g.dtype() == lt.dtype() && g.sizes() == lt.sizes())
                         ? g.impl
                         : clone(to(sum_to(g, lt.sizes()), lt.device(), lt.dtype())).impl;
      } else {
        Tensor acc(leaf->grad);
        binary_(BinaryOp::Add, acc, g);
      }
      if (g_grad_hook) g_grad_hook(lt, g_grad_hook_ctx);
      continue;
    }
    if (n->released || !n->backward)
      throw RuntimeError(
          "Trying to backward through the graph a second time (or directly access saved tensors after they have "
          "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
          "if you need to access saved tensors after calling backward.");
    if (!n->retained.empty()) store_retained(*n, g);
    std::vector<Tensor> grads = g.defined() ? n->backward(g) : std::vector<Tensor>(n->next.size());
    if (!retain_graph) {
      n->released = true;
      n->backward = nullptr;
    }
    for (size_t i = 0; i < n->next.size(); ++i) {
      Node* e = n->next[i].get();
      if (!e) continue;
      if (i < grads.size() && grads[i].defined()) {
        auto it = pending.find(e);
        if (it == pending.end() || !it->second.defined()) pending[e] = grads[i];
        else it->second = add(it->second, grads[i]);
      } else {
        pending.try_emplace(e, Tensor());
      }
      if (--deps[e] == 0) ready.push_back(n->next[i]);
    }
  }
}

}  // namespace gl
