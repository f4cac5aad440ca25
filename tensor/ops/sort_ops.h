// Sorting and selection: sort, argsort, topk, kthvalue, median, mode, unique
// (sort_ops.cpp). Each works on every device and records PyTorch's backward
// (the gradient goes back to the chosen places).
#pragma once
#include <utility>
#include "tensor/core/tensor.h"

namespace gl {

std::pair<Tensor, Tensor> sort(const Tensor& t, int64_t dim, bool descending, bool stable);
Tensor argsort(const Tensor& t, int64_t dim, bool descending, bool stable);
std::pair<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted);
std::pair<Tensor, Tensor> kthvalue(const Tensor& t, int64_t k, int64_t dim, bool keepdim);
Tensor median(const Tensor& t);  // of all elements: the lower median, NaN if any
std::pair<Tensor, Tensor> median_dim(const Tensor& t, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> mode(const Tensor& t, int64_t dim, bool keepdim);

// torch.unique over all elements (dim=None): the sorted distinct values, and
// when asked the index of each input element's value and each value's count.
struct UniqueResult {
  Tensor values, inverse, counts;
};
UniqueResult unique(const Tensor& t, bool return_inverse, bool return_counts);
// torch.unique(input, dim=dim) (unique_dim.cpp): distinct slices along dim, in
// lexicographic order; inverse and counts per slice.
UniqueResult unique_dim(const Tensor& t, int64_t dim, bool return_inverse, bool return_counts);

}  // namespace gl
