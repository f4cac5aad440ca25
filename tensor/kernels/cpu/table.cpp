// The CPU kernel table (also used by virtual devices emulated in host memory).
#include "tensor/kernels/kernels.h"
#include "tensor/core/error.h"

namespace gl {
namespace cpu {
void unary(void*, UnaryOp, const LoopSpec&);
void binary(void*, const BinarySpec&);
void where(void*, const LoopSpec&);
void copy(void*, const LoopSpec&);
void fill(void*, const LoopSpec&, Scalar);
void reduce(void*, const ReduceSpec&);
void scan(void*, const ScanSpec&);
void gemm(void*, const GemmSpec&);
void random(void*, const RandomSpec&);
void seed(void*, uint64_t);
void index(void*, const IndexSpec&);  // index.cpp
void sort(void*, const SortSpec&);
void ternary(void*, const TernarySpec&);  // ternary.cpp
void philox_reserve(void*, uint64_t, uint64_t*, uint64_t*) {
  throw RuntimeError("gpulab: the CPU's generator is mt19937, not Philox");
}
}  // namespace cpu

const Kernels& cpu_kernels() {
  static const Kernels k{cpu::unary, cpu::binary, cpu::where, cpu::copy,  cpu::fill, cpu::reduce,  cpu::scan,
                         cpu::gemm,  cpu::random, cpu::seed,  cpu::index, cpu::sort, cpu::ternary, cpu::philox_reserve};
  return k;
}

}  // namespace gl
