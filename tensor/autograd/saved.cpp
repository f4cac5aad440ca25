// The version checks of saved tensors (Note [Version counter] in saved.h).
#include "tensor/autograd/saved.h"
#include <algorithm>
#include <exception>
#include "tensor/autograd/anomaly.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {
// The storages whose in-place op is running on this thread, outermost first.
thread_local std::vector<const void*> g_mutating;

// "Exp" for ExpBackward0: PyTorch's forward_op_name.
std::string forward_op_name(const std::string& name) {
  std::string s = name;
  while (!s.empty() && s.back() >= '0' && s.back() <= '9') s.pop_back();
  const std::string suffix = "Backward";
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}
}  // namespace

Mutation::Mutation(const Tensor& t) : exceptions_(std::uncaught_exceptions()) {
  if (!t.defined() || !t.storage()) return;
  const Storage* s = t.storage().get();
  if (std::find(g_mutating.begin(), g_mutating.end(), s) != g_mutating.end()) return;
  storage_ = t.storage();
  nested_ = false;
  counted_ = !t.impl->version_untracked;
  if (counted_) ++t.storage()->version;
  g_mutating.push_back(s);
}

Mutation::~Mutation() {
  if (nested_) return;
  g_mutating.pop_back();
  if (!counted_ || std::uncaught_exceptions() == exceptions_) return;
  if (const StoragePtr s = storage_.lock()) --s->version;
}

SavedVersion saved_version(const Tensor& t, const Node* n, const Tensor& out, const std::vector<Tensor>& inputs) {
  SavedVersion v;
  if (!t.defined() || !t.storage()) return v;
  v.tensor = t.impl;
  v.version = t.storage()->version;
  if (n && out.defined() && t.storage() == out.storage()) {
    v.self_producer = n;
    v.output_nr = out.impl->output_nr;
    return v;
  }
  v.named = t.impl;
  if (!t.grad_fn())  // a detached or contiguous copy of an input: the input names it
    for (const Tensor& in : inputs)
      if (in.defined() && in.grad_fn() && in.storage() == t.storage()) {
        v.named = in.impl;
        break;
      }
  return v;
}

void save_version(Node& n, const Tensor& t, const Tensor& out, const std::vector<Tensor>& inputs) {
  if (t.defined() && t.storage()) n.saved.push_back(saved_version(t, &n, out, inputs));
}

void check_saved_version(const SavedVersion& v) {
  const std::shared_ptr<TensorImpl> impl = v.tensor.lock();
  if (!impl || !impl->storage || impl->storage->version == v.version) return;
  const Tensor t(impl);
  std::string from;
  if (v.self_producer) {
    from = cat(", which is output ", v.output_nr, " of ", forward_op_name(v.self_producer->name), ",");
  } else if (const std::shared_ptr<TensorImpl> named = v.named.lock(); named && named->grad_fn) {
    // a view written in place has been given a new node (see Node::view)
    const Node& p = *named->grad_fn;
    from = cat(", which is output ", named->output_nr, " of ", p.view ? "AsStrided" : forward_op_name(p.name), ",");
  }
  throw RuntimeError(
      cat("one of the variables needed for gradient computation has been modified by an inplace "
          "operation: [",
          legacy_type_str(t), " ", shape_str(t.sizes()), "]", from, " is at version ", impl->storage->version,
          "; expected version ", v.version, " instead. Hint: ",
          AnomalyMode::enabled()
              ? "the backtrace further above shows the operation that failed to compute its gradient. The variable "
                "in question was changed in there or anywhere later. Good luck!"
              : "enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."));
}

void check_saved_versions(const Node& n) {
  for (const SavedVersion& v : n.saved) check_saved_version(v);
}

}  // namespace gl
