// Random sampling with an optional generator of the caller's own
// (torch.Generator): normal in all its forms, bernoulli, multinomial,
// exponential_, and the generator object itself. Every op takes `gen`
// (nullptr: the device's default generator) and draws exactly as PyTorch's
// CPU generator draws, so seeded programs print PyTorch's numbers on the CPU.
// The ops are composed from the uniform and normal fills (ops.h), so they run
// unchanged on every device.
#pragma once
#include <cstdint>
#include "tensor/core/tensor.h"
#include "tensor/kernels/cpu/generator.h"

namespace gl {

// torch.Generator: an mt19937 stream of its own. It serves the CPU and CUDA
// devices emulated in host memory (their kernels draw from a CpuExec); a
// generator for a physical GPU is refused.
struct Generator {
  explicit Generator(Device d);
  Device device;
  CpuExec own;
  // The stream it draws from: its own, or the CPU's (default_generator()).
  CpuExec* exec = &own;
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  uint64_t initial_seed() const { return exec->gen.initial; }
  void manual_seed(uint64_t s) { exec->gen.seed(s); }
  uint64_t seed();  // a non-deterministic seed, applied and returned
  // PyTorch's CPUGeneratorImplState bytes (5056, uint8), so states saved by
  // either program restore in the other.
  Tensor get_state();
  void set_state(const Tensor& state);
};

CpuGenerator& default_cpu_generator();
// torch.default_generator: a Generator whose stream is the CPU's default one,
// so seeding or saving it is torch.manual_seed's or torch.get_rng_state's.
Generator& default_generator();
// A generator's state as PyTorch's 5056 bytes, and its restore
// (torch.get_rng_state / set_rng_state on the default one).
Tensor generator_state(CpuGenerator& g);
void set_generator_state(CpuGenerator& g, const Tensor& state);
// The execution context a random kernel for `t` draws from: gen's own, or
// the device's default. Throws PyTorch's error for a generator of another
// device type.
void* random_exec(const Tensor& t, Generator* gen);

Tensor normal(const Tensor& mean, const Tensor& std, Generator* gen);
Tensor normal(const Tensor& mean, double std, Generator* gen);
Tensor normal(double mean, const Tensor& std, Generator* gen);
Tensor normal(double mean, double std, const Shape& size, const TensorOptions& o, Generator* gen);
// bernoulli(p): 0/1 in p's dtype with probabilities p; bernoulli(self, p):
// self's shape and dtype, probability p.
Tensor bernoulli(const Tensor& p, Generator* gen);
Tensor bernoulli(const Tensor& self, double p, Generator* gen);
void bernoulli_(Tensor& self, const Tensor& p, Generator* gen);
void bernoulli_(Tensor& self, double p, Generator* gen);
// PyTorch's CUDA randperm (Note [PyTorch's CUDA randperm]): how many low bits
// of its keys it sorts on, and the permutation from n keys (int32 or int64
// values) and the Philox state reserved for the shuffles of equal runs.
int randperm_key_bits(int64_t n);
Tensor gpu_randperm(int64_t n, Device dev, DType dtype);  // randperm_gpu.cpp
std::vector<int64_t> randperm_from_keys(const int64_t* keys, int64_t n, int bits, uint64_t seed, uint64_t offset);
// A CUDA device backed by a GPU (not emulated in host memory).
bool on_real_gpu(Device d);
bool on_real_gpu(const Tensor& t);
// Raw float32 uniforms in (0, 1] drawn on a real GPU as PyTorch's CUDA
// bernoulli with a tensor p (one_round) or its dropout kernel draws them
// (Note [PyTorch's CUDA draws]).
Tensor gpu_uniforms4(const Shape& size, Device d, bool one_round, int group = 4);
void exponential_(Tensor& self, double lambd, Generator* gen);
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement, Generator* gen);

}  // namespace gl
