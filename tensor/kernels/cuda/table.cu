// The CUDA kernel table: one entry per kernel family, each in its own file.
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {

void k_unary(void*, UnaryOp, const LoopSpec&);                 // unary.cu
void k_binary(void*, const BinarySpec&);                       // binary.cu, compare.cu
void k_where(void*, const LoopSpec&);                          // where.cu
void k_copy(void*, const LoopSpec&);                           // copy.cu
void k_fill(void*, const LoopSpec&, Scalar);                   // fill.cu
void k_reduce(void*, const ReduceSpec&);                       // reduce.cu
void k_scan(void*, const ScanSpec&);                           // scan.cu
void k_gemm(void*, const GemmSpec&);                           // gemm.cu
void k_random(void*, const RandomSpec&);                       // random.cu
void k_seed(void*, uint64_t);                                  // random.cu
void k_philox_reserve(void*, uint64_t, uint64_t*, uint64_t*);  // random.cu
void k_index(void*, const IndexSpec&);                         // index.cu
void k_sort(void*, const SortSpec&);                           // sort.cu
void k_ternary(void*, const TernarySpec&);                     // ternary.cu

const Kernels& kernels() {
  static const Kernels k{k_unary, k_binary, k_where, k_copy,  k_fill, k_reduce,  k_scan,
                         k_gemm,  k_random, k_seed,  k_index, k_sort, k_ternary, k_philox_reserve};
  return k;
}

}  // namespace gl::cuda
