// The CPU random generator: mt19937 drawn exactly as PyTorch's CPU generator
// draws it, so `torch.manual_seed(0); torch.rand(3)` prints what PyTorch prints.
#pragma once
#include <cstdint>
#include <mutex>
#include <random>

namespace gl {

struct CpuGenerator {
  std::mt19937 engine{67280421310721ULL & 0xffffffffULL};  // PyTorch's default seed
  bool has_next_normal = false;                            // Box-Muller's second value, cached as PyTorch does
  double next_normal = 0;
  std::mutex mu;
  uint64_t initial = 67280421310721ULL;  // the seed last given (torch.initial_seed)

  void seed(uint64_t s) {
    initial = s;
    engine.seed(uint32_t(s & 0xffffffffULL));
    has_next_normal = false;
  }
  uint32_t random() { return uint32_t(engine()); }
  uint64_t random64() {
    uint64_t hi = random(), lo = random();
    return (hi << 32) | lo;
  }
  // at::uniform_real_distribution: the top bits of one draw.
  float uniform_float() { return float(random() & ((1u << 24) - 1)) * (1.0f / 16777216.0f); }
  double uniform_double() { return double(random64() & ((uint64_t(1) << 53) - 1)) * (1.0 / 9007199254740992.0); }
};

// Each host-memory device (the CPU, and every emulated CUDA device) has one.
struct CpuExec {
  CpuGenerator gen;
};

}  // namespace gl
