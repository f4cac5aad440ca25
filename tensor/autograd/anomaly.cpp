// Anomaly detection (Note [Anomaly mode] in anomaly.h).
#include "tensor/autograd/anomaly.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {
bool g_enabled = false, g_check_nan = true;
ForwardTraceHook g_hook = nullptr;
void* g_hook_ctx = nullptr;
}  // namespace

bool AnomalyMode::enabled() { return g_enabled; }
bool AnomalyMode::check_nan() { return g_check_nan; }
void AnomalyMode::set(bool enabled, bool check_nan) {
  g_enabled = enabled;
  g_check_nan = check_nan;
}

void set_forward_trace_hook(ForwardTraceHook hook, void* ctx) {
  g_hook = hook;
  g_hook_ctx = ctx;
}

std::string forward_trace() { return g_hook ? g_hook(g_hook_ctx) : std::string(); }

void warn_anomaly(const Node& n) {
  if (n.forward_trace.empty())
    warn(cat("Error detected in ", n.name,
             ". No forward pass information available. Enable detect anomaly during forward pass for more "
             "information."));
  else warn(cat("Error detected in ", n.name, ". Traceback of forward call that caused the error:\n", n.forward_trace));
}

void check_nan_grads(const Node& n, const std::vector<Tensor>& grads) {
  NoGradGuard ng;
  for (size_t i = 0; i < grads.size(); ++i) {
    const Tensor& g = grads[i];
    if (!g.defined() || !is_floating(g.dtype()) || g.numel() == 0) continue;
    if (item(any(unary(UnaryOp::IsNan, g), std::nullopt, false)).i)
      throw RuntimeError(cat("Function '", n.name, "' returned nan values in its ", i, "th output."));
  }
}

}  // namespace gl
