// PyTorch's tensor printing (torch/_tensor_str.py), reproduced exactly.
#pragma once
#include <optional>
#include <string>
#include "tensor/core/tensor.h"

namespace gl {

struct PrintOptions {
  int precision = 4;
  int64_t threshold = 1000;
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  std::optional<bool> sci_mode;
};

PrintOptions& print_options();
// "default", "short", "full"; false for an unknown profile.
bool set_print_profile(const std::string& name);

// repr(t): "tensor([1, 2, 3], device='cuda:0')", with "Parameter containing:\n"
// in front for parameters.
std::string tensor_repr(const Tensor& t);

}  // namespace gl
