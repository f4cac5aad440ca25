// The per-device kernel table. Each backend fills one; ops call through it.
// `exec` is the device's execution context (its stream, BLAS handle and
// random generator); only the backend that made it looks inside.
#pragma once
#include "tensor/kernels/spec.h"
#include "tensor/kernels/index_spec.h"

namespace gl {

struct SortSpec;  // kernels/sort.h

struct Kernels {
  void (*unary)(void* exec, UnaryOp op, const LoopSpec& s);  // out, in
  void (*binary)(void* exec, const BinarySpec& s);
  void (*where)(void* exec, const LoopSpec& s);           // out, cond(bool), a, b
  void (*copy)(void* exec, const LoopSpec& s);            // out, in: strided, casting
  void (*fill)(void* exec, const LoopSpec& s, Scalar v);  // out
  void (*reduce)(void* exec, const ReduceSpec& s);
  void (*scan)(void* exec, const ScanSpec& s);
  void (*gemm)(void* exec, const GemmSpec& s);
  void (*random)(void* exec, const RandomSpec& s);
  void (*seed)(void* exec, uint64_t seed);
  void (*index)(void* exec, const IndexSpec& s);      // gather/scatter (index_spec.h)
  void (*sort)(void* exec, const SortSpec& s);        // sort, topk, kthvalue, median, mode
  void (*ternary)(void* exec, const TernarySpec& s);  // addcmul, lerp
  // PyTorch's philox_cuda_state: the generator's seed and offset, then the
  // offset moved on by `increment` rounded up to 4 (a real GPU's generator,
  // for draws made on the host; the CPU's table throws).
  void (*philox_reserve)(void* exec, uint64_t increment, uint64_t* seed, uint64_t* offset);
};

const Kernels& cpu_kernels();

}  // namespace gl
