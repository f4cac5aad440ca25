// The backward engine: topological order from the root, gradients summed per
// node, leaves accumulating into .grad in place (so `x.grad` stays the same
// tensor across backward calls, as in PyTorch).
#include <unordered_map>
#include <unordered_set>
#include "tensor/autograd/anomaly.h"
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
            std::function<std::vector<Tensor>(const Tensor&)> backward, std::initializer_list<Tensor> saved) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->next.reserve(inputs.size());
  for (auto& t : inputs) {
    n->next.push_back(t.defined() ? edge_of(t) : nullptr);
    n->view = n->view || (t.defined() && t.storage() && t.storage() == out.storage());
  }
  n->backward = std::move(backward);
  if (n->view) {  // Note [In-place autograd]: expired entries go before the list grows
    auto& views = out.storage()->autograd_views;
    if (views.size() == views.capacity()) std::erase_if(views, [](const auto& w) { return w.expired(); });
    views.push_back(out.impl);
  }
  for (const Tensor& t : saved) save_version(*n, t, out, inputs);
  if (AnomalyMode::enabled()) n->forward_trace = forward_trace();
  out.impl->grad_fn = std::move(n);
  out.impl->requires_grad = true;
}

int add_grad_hook(const Tensor& t, GradHook hook) {
  GL_CHECK(t.requires_grad(), "cannot register a hook on a tensor that doesn't require gradient");
  static int next_id = 0;
  std::shared_ptr<Node> n = t.grad_fn();
  if (!n) {
    n = accumulate_node(t);
    t.impl->hooked_accumulator = n;
  }
  n->hooks.emplace_back(++next_id, std::move(hook));
  return next_id;
}

bool remove_grad_hook(const Tensor& t, int id) {
  std::shared_ptr<Node> n = t.grad_fn() ? t.grad_fn() : t.impl->hooked_accumulator;
  if (!n) return false;
  for (auto it = n->hooks.begin(); it != n->hooks.end(); ++it)
    if (it->first == id) {
      n->hooks.erase(it);
      if (n->hooks.empty() && !t.grad_fn()) t.impl->hooked_accumulator = nullptr;
      return true;
    }
  return false;
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

namespace {
// Grad mode for the length of a pass: off, or on when the pass builds a graph
// of its own (create_graph).
struct GradModeScope {
  bool prev;
  explicit GradModeScope(bool on) : prev(GradMode::enabled()) { GradMode::set(on); }
  ~GradModeScope() { GradMode::set(prev); }
};

// Note [One engine]: backward() and autograd.grad() are one walk over the
// graph. backward() runs every node reachable from the roots and accumulates
// into the leaves' .grad; autograd.grad() names the nodes whose incoming
// gradient it wants (`capture`: the inputs' AccumulateGrad or grad_fn nodes),
// runs only the nodes on a path to one of them, and hands those gradients
// back without touching any .grad (retain_grad still fills, as in PyTorch).
struct Pass {
  bool retain_graph = false;
  bool create_graph = false;
  bool capturing = false;
  std::unordered_map<Node*, std::vector<size_t>> capture;  // node -> positions in `captured`
  std::vector<Tensor> captured;
  std::unordered_set<Node*> reached;  // the captured nodes that the roots reach
};

void accumulate(Node& n, const Tensor& g, bool create_graph) {
  auto leaf = n.leaf.lock();
  if (!leaf || !g.defined()) return;
  Tensor lt(leaf);
  if (create_graph) {  // the gradient keeps its graph: no in-place sum into it
    Tensor fresh = to(sum_to(g, lt.sizes()), lt.device(), lt.dtype());
    if (leaf->grad) {
      leaf->grad = add(Tensor(leaf->grad), fresh).impl;
    } else {  // PyTorch's clone_obey_contract: a new tensor copy_'d from it (CopyBackwards)
      Tensor out = empty(lt.sizes(), {lt.dtype(), lt.device()});
      copy_recorded_(out, fresh);
      leaf->grad = out.impl;
    }
  } else if (!leaf->grad) {
    leaf->grad = (g.impl.use_count() == 1 && g.storage().use_count() == 1 && g.is_contiguous() &&
                  g.dtype() == lt.dtype() && g.sizes() == lt.sizes())
                     ? g.impl
                     : clone(to(sum_to(g, lt.sizes()), lt.device(), lt.dtype())).impl;
  } else {
    Tensor acc(leaf->grad);
    binary_(BinaryOp::Add, acc, g);
  }
  if (g_grad_hook) g_grad_hook(lt, g_grad_hook_ctx);
}

// Note [Tensor hooks]: each hook in turn; a defined result replaces the
// gradient (PyTorch's check: same shape).
Tensor run_hooks(Node& n, Tensor g) {
  const auto hooks = n.hooks;  // a hook may remove itself
  for (const auto& [id, hook] : hooks) {
    Tensor r = hook(g);
    if (!r.defined()) continue;
    GL_CHECK(r.sizes() == g.sizes(), "hook 'hook' has changed the size of value");
    g = r;
  }
  return g;
}

void execute(const std::vector<std::shared_ptr<Node>>& roots, const std::vector<Tensor>& grads, Pass& pass) {
  GradModeScope grad_mode(pass.create_graph);
  // The reachable graph, and who points at whom.
  std::unordered_map<Node*, std::vector<Node*>> parents;
  std::unordered_set<Node*> seen;
  std::vector<Node*> stack;
  for (auto& r : roots)
    if (seen.insert(r.get()).second) stack.push_back(r.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (auto& e : n->next) {
      if (!e) continue;
      parents[e.get()].push_back(n);
      if (seen.insert(e.get()).second) stack.push_back(e.get());
    }
  }
  // The nodes to run: all of them, or those with a captured node below.
  std::unordered_set<Node*> needed;
  if (pass.capturing) {
    for (auto& [n, positions] : pass.capture) {
      if (!seen.count(n)) continue;
      pass.reached.insert(n);
      if (needed.insert(n).second) stack.push_back(n);
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (Node* p : parents[n])
        if (needed.insert(p).second) stack.push_back(p);
    }
  } else {
    needed = seen;
  }
  // Dependency counts over the edges between needed nodes.
  std::unordered_map<Node*, int> deps;
  for (Node* n : needed)
    for (auto& e : n->next)
      if (e && needed.count(e.get())) deps[e.get()]++;
  std::unordered_map<Node*, Tensor> pending;
  std::vector<std::shared_ptr<Node>> ready;
  for (size_t i = 0; i < roots.size(); ++i) {
    Node* r = roots[i].get();
    if (!needed.count(r)) continue;
    auto it = pending.find(r);
    if (it == pending.end()) {
      pending[r] = grads[i];
      if (deps[r] == 0) ready.push_back(roots[i]);
    } else {
      it->second = add(it->second, grads[i]);
    }
  }
  while (!ready.empty()) {
    std::shared_ptr<Node> n = ready.back();
    ready.pop_back();
    Tensor g = pending[n.get()];
    pending.erase(n.get());
    if (!n->hooks.empty() && g.defined()) g = run_hooks(*n, g);
    if (pass.capturing) {
      auto it = pass.capture.find(n.get());
      if (it != pass.capture.end())
        for (size_t pos : it->second) pass.captured[pos] = g;
    }
    if (n->name == "AccumulateGrad") {
      if (!pass.capturing) accumulate(*n, g, pass.create_graph);
      continue;
    }
    bool runs = !pass.capturing;  // a captured node with nothing needed below it is not run
    for (auto& e : n->next) runs = runs || (e && needed.count(e.get()));
    if (!runs) {
      if (!n->retained.empty()) store_retained(*n, g);  // retain_grad fills all the same, as PyTorch's
      continue;
    }
    if (n->released || !n->backward)
      throw RuntimeError(
          "Trying to backward through the graph a second time (or directly access saved tensors after they have "
          "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
          "if you need to access saved tensors after calling backward.");
    if (!n->retained.empty()) store_retained(*n, g);
    std::vector<Tensor> grads_in;
    try {
      check_saved_versions(*n);
      grads_in = g.defined() ? n->backward(g) : std::vector<Tensor>(n->next.size());
      if (AnomalyMode::enabled() && AnomalyMode::check_nan()) check_nan_grads(*n, grads_in);
    } catch (...) {
      if (AnomalyMode::enabled()) warn_anomaly(*n);
      throw;
    }
    if (!pass.retain_graph) {
      n->released = true;
      n->backward = nullptr;
      n->saved.clear();
    }
    for (size_t i = 0; i < n->next.size(); ++i) {
      Node* e = n->next[i].get();
      if (!e || !needed.count(e)) continue;
      if (i < grads_in.size() && grads_in[i].defined()) {
        auto it = pending.find(e);
        if (it == pending.end() || !it->second.defined()) pending[e] = grads_in[i];
        else it->second = add(it->second, grads_in[i]);
      } else {
        pending.try_emplace(e, Tensor());
      }
      if (--deps[e] == 0) ready.push_back(n->next[i]);
    }
  }
}

// The gradient each root starts with: given (same shape; cast to the root's
// dtype, as PyTorch's validate_outputs), or ones for a one-element root.
std::vector<Tensor> root_grads(const std::vector<Tensor>& outputs, const std::vector<Tensor>& given) {
  std::vector<Tensor> grads;
  for (size_t i = 0; i < outputs.size(); ++i) {  // PyTorch's _make_grads, then its engine's check
    const Tensor& t = outputs[i];
    if (i < given.size() && given[i].defined()) {
      GL_CHECK(given[i].sizes() == t.sizes(), "Mismatch in shape: grad_output[", i, "] has a shape of ",
               size_repr(given[i].sizes()), " and output[", i, "] has a shape of ", size_repr(t.sizes()), ".");
      grads.push_back(given[i].dtype() == t.dtype() ? given[i] : to_dtype(given[i], t.dtype()));
    } else {
      GL_CHECK(!t.requires_grad() || t.numel() == 1, "grad can be implicitly created only for scalar outputs");
      grads.push_back(ones(t.sizes(), {t.dtype(), t.device()}));
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    GL_CHECK(outputs[i].requires_grad(), "element ", i,
             " of tensors does not require grad and does not have a grad_fn");
  return grads;
}
}  // namespace

void run_backward(const Tensor& root, const Tensor& grad, bool retain_graph, bool create_graph) {
  GL_CHECK(root.requires_grad(), "element 0 of tensors does not require grad and does not have a grad_fn");
  Pass pass;
  pass.retain_graph = retain_graph;
  pass.create_graph = create_graph;
  if (create_graph)
    warn(
        "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
        "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid "
        "this. If you have to use this function, make sure to reset the .grad fields of your parameters to None "
        "after use to break the cycle and avoid the leak.");
  execute({edge_of(root)}, {grad}, pass);
}

std::vector<Tensor> autograd_grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                                  const std::vector<Tensor>& grad_outputs, const GradOptions& o) {
  GL_CHECK(!inputs.empty(), "`inputs` argument to `grad()` cannot be empty.");
  std::vector<Tensor> grads = root_grads(outputs, grad_outputs);
  for (const Tensor& t : inputs) GL_CHECK(t.requires_grad(), "One of the differentiated Tensors does not require grad");
  Pass pass;
  pass.retain_graph = o.retain_graph.value_or(o.create_graph);
  pass.create_graph = o.create_graph;
  pass.capturing = true;
  pass.captured.resize(inputs.size());
  std::vector<std::shared_ptr<Node>> keep;  // the inputs' nodes live through the pass
  for (size_t i = 0; i < inputs.size(); ++i) {
    keep.push_back(edge_of(inputs[i]));
    pass.capture[keep.back().get()].push_back(i);
  }
  std::vector<std::shared_ptr<Node>> roots;
  for (const Tensor& t : outputs) roots.push_back(edge_of(t));
  execute(roots, grads, pass);
  std::vector<Tensor> out(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& in = inputs[i];
    Tensor g = pass.captured[i];
    if (!pass.reached.count(keep[i].get())) {
      GL_CHECK(o.allow_unused, "The differentiated Tensor at index ", i,
               " appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.");
      if (o.materialize_grads) out[i] = zeros(in.sizes(), {in.dtype(), in.device(), o.create_graph});
      continue;
    }
    if (!g.defined()) {  // reached, but every path gave no gradient
      if (o.materialize_grads) out[i] = zeros(in.sizes(), {in.dtype(), in.device(), o.create_graph});
      continue;
    }
    if (g.sizes() != in.sizes()) g = sum_to(g, in.sizes());
    out[i] = to(g, in.device(), in.dtype());
  }
  return out;
}

}  // namespace gl
