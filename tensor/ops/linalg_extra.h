// Norms, logsumexp, one_hot and einsum, composed from the primitives
// (linalg_extra.cpp, einsum.cpp); solve, inv and det (linalg_solve.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

Tensor logsumexp(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim);
// ord: any number, +-inf, 0 (the count of non-zeros); dims empty: all.
Tensor vector_norm(const Tensor& t, double ord, const std::vector<int64_t>& dims, bool keepdim);
// ord: "fro", or a number 1, -1, inf, -inf ("nuc" and +-2 need an SVD: not yet).
Tensor matrix_norm(const Tensor& t, const std::string& ord, std::optional<double> num_ord, std::vector<int64_t> dims,
                   bool keepdim);
// torch.linalg.norm: a vector or a matrix norm by ord (string: matrix) and dims (empty: None).
Tensor linalg_norm(const Tensor& t, const std::optional<std::string>& sord, std::optional<double> nord,
                   const std::vector<int64_t>& dims, bool keepdim);
// torch.linalg.solve / inv / det through LU (LAPACK's getrf, getrs: linalg_solve.cpp).
// B is a vector (or a batch of vectors) when it has one dim, or one dim fewer
// than A with A's leading shape, as PyTorch decides.
Tensor linalg_solve(const Tensor& A, const Tensor& B);
Tensor linalg_inv(const Tensor& A);
Tensor linalg_det(const Tensor& A);
Tensor one_hot(const Tensor& t, int64_t num_classes);
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);

}  // namespace gl
