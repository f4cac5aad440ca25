// F.embedding, PyTorch's at::embedding: weight's rows at the indices, one
// gather; the indices are read on the host, for PyTorch's CPU range error
// (its CUDA build asserts on the device instead) and for the backward.
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_extras.h"

namespace gl {

Tensor embedding(const Tensor& input, const Tensor& weight, std::optional<int64_t> padding_idx) {
  GL_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  GL_CHECK(input.dtype() == DType::Int64 || input.dtype() == DType::Int32,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
           legacy_type_str(input), " instead (while checking arguments for embedding)");
  // PyTorch's embedding is weight.index_select(0, indices): its device check
  check_args_device(wrapper("_index_select", {&weight, &input}), {{"self", &weight}, {"index", &input}},
                    "move the indices to the weight's device: input:to(weight.device)");
  const int64_t rows = weight.size(0);
  const Tensor host = contiguous(to(reshape(input, {-1}), Device(Device::CPU), DType::Int64));
  std::vector<int64_t> idx(host.data<int64_t>(), host.data<int64_t>() + host.numel());
  for (int64_t i : idx) GL_CHECK_T(IndexError, i >= 0 && i < rows, "index out of range in self");
  Shape shape = input.sizes();
  shape.push_back(weight.size(1));
  Tensor out;
  {
    NoGradGuard no_grad;
    out = reshape(pick_along(weight, 0, idx), shape);
  }
  if (any_requires_grad({&weight})) record(out, {weight}, EmbeddingBackward0{rows, idx, padding_idx.value_or(-1)});
  return out;
}

}  // namespace gl
