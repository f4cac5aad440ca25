// Index ops: gather, scatter (src or value, reduce=), scatter_add, index_add,
// take, index/index_put (advanced indexing: x[{i, j}]), nonzero. Each reduces
// to the one gather/scatter kernel (kernels/index_spec.h), so it runs on every
// device, with PyTorch's checks, wording and autograd.
#pragma once
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
// reduce: "" (write), "add" or "multiply" (PyTorch's scatter reduce=).
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce = "");
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, Scalar value, const std::string& reduce = "");
void scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce = "");
void scatter_(Tensor& self, int64_t dim, const Tensor& index, Scalar value, const std::string& reduce = "");
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
void scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha);
void index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha);
Tensor take(const Tensor& self, const Tensor& index);
// Advanced indexing: indices[k] indexes dim k (an undefined Tensor takes the
// whole dim, as ':' does); bool/uint8 indices stand for their nonzero
// coordinates. Results follow PyTorch's placement of the indexed dims.
Tensor index(const Tensor& self, const std::vector<Tensor>& indices);
Tensor index_put(const Tensor& self, const std::vector<Tensor>& indices, const Tensor& values, bool accumulate);
void index_put_(Tensor& self, const std::vector<Tensor>& indices, const Tensor& values, bool accumulate);
Tensor nonzero(const Tensor& self);                     // [count, ndim] int64
std::vector<Tensor> nonzero_tuple(const Tensor& self);  // one int64 vector per dim

}  // namespace gl
