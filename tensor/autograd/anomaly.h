// Note [Anomaly mode]: torch.autograd.set_detect_anomaly / detect_anomaly.
// While it is on, every node keeps where its forward was called (the
// interpreter's stack, through a hook: this layer knows no Lua); when a node's
// backward fails, a warning shows that place before the error, and with
// check_nan a gradient with a NaN is an error naming the node, as PyTorch's.
#pragma once
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

struct Node;

struct AnomalyMode {
  static bool enabled();
  static bool check_nan();
  static void set(bool enabled, bool check_nan);
};

// Where the forward is now, as the interpreter prints a stack (one line per frame).
using ForwardTraceHook = std::string (*)(void* ctx);
void set_forward_trace_hook(ForwardTraceHook hook, void* ctx);
// The hook's answer, or "" without one.
std::string forward_trace();

// PyTorch's warning when node `n`'s backward failed: where its forward ran.
void warn_anomaly(const Node& n);
// With check_nan: PyTorch's error for a gradient of `n` holding a NaN.
void check_nan_grads(const Node& n, const std::vector<Tensor>& grads);

}  // namespace gl
