// torch.Generator's state: seeding, and PyTorch's CPUGeneratorImplState bytes
// (get_state/set_state, torch.get_rng_state/set_rng_state), so states saved by
// either program restore in the other.
#include <cstring>
#include <random>
#include <sstream>
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/random_ops.h"
#include "tensor/runtime/registry.h"

namespace gl {

Generator::Generator(Device d) : device(d) {}

uint64_t Generator::seed() {
  std::random_device rd;
  const uint64_t s = ((uint64_t(rd()) << 32) | rd()) & 0x7fffffffffffffffULL;
  manual_seed(s);
  return s;
}

namespace {
// PyTorch's CPUGeneratorImplState: the legacy THGeneratorState, then the float
// normal cache (offsets as the x86-64 compiler lays the struct out).
constexpr size_t kStateSize = 5056;
constexpr size_t kSeedAt = 0, kLeftAt = 8, kSeededAt = 12, kNextAt = 16, kWordsAt = 24;
constexpr size_t kNormalYAt = kWordsAt + 624 * 8 + 8, kNormalValidAt = kWordsAt + 624 * 8 + 24;

template <class T> void put(uint8_t* b, size_t at, T v) { std::memcpy(b + at, &v, sizeof v); }
template <class T> T get(const uint8_t* b, size_t at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}
}  // namespace

Tensor Generator::get_state() { return generator_state(exec->gen); }
void Generator::set_state(const Tensor& state) { set_generator_state(exec->gen, state); }

Tensor generator_state(CpuGenerator& g) {
  std::lock_guard<std::mutex> lock(g.mu);
  // libstdc++ writes mt19937 as its 624 words and then the index of the next
  // word; PyTorch keeps `left` (draws before the next twist, plus one) instead.
  std::stringstream ss;
  ss << g.engine;
  std::vector<uint8_t> b(kStateSize, 0);
  uint64_t word = 0;
  for (size_t i = 0; i < 624; ++i) {
    ss >> word;
    put<uint64_t>(b.data(), kWordsAt + 8 * i, word);
  }
  int64_t p = 624;
  ss >> p;
  put<uint64_t>(b.data(), kSeedAt, g.initial);
  put<int32_t>(b.data(), kLeftAt, p >= 624 ? 1 : int32_t(625 - p));
  put<int32_t>(b.data(), kSeededAt, 1);
  put<uint64_t>(b.data(), kNextAt, p >= 624 ? 0 : uint64_t(p));
  if (g.has_next_normal) {
    put<int32_t>(b.data(), kNormalValidAt, 1);
    put<double>(b.data(), kNormalYAt, g.next_normal);
  }
  return from_host(b.data(), {int64_t(kStateSize)}, DType::UInt8, {DType::UInt8, Device(Device::CPU)});
}

void set_generator_state(CpuGenerator& g, const Tensor& state) {
  GL_CHECK_T(TypeError, state.dtype() == DType::UInt8 && state.device().type == Device::CPU,
             "RNG state must be a torch.ByteTensor");
  GL_CHECK(state.numel() == int64_t(kStateSize), "Expected a CPUGeneratorImplState of size ", kStateSize,
           " but found the input RNG state size to be ", state.numel());
  std::vector<char> bytes = to_host_bytes(state);
  const uint8_t* b = reinterpret_cast<const uint8_t*>(bytes.data());
  const int32_t left = get<int32_t>(b, kLeftAt);
  GL_CHECK(left >= 1 && left <= 625, "The input RNG state is not a valid state (left=", left, ")");
  std::stringstream ss;
  for (size_t i = 0; i < 624; ++i) ss << (get<uint64_t>(b, kWordsAt + 8 * i) & 0xffffffffULL) << ' ';
  ss << (left == 1 ? 624 : 625 - left);
  std::lock_guard<std::mutex> lock(g.mu);
  ss >> g.engine;
  g.initial = get<uint64_t>(b, kSeedAt);
  g.has_next_normal = get<int32_t>(b, kNormalValidAt) != 0;
  g.next_normal = get<double>(b, kNormalYAt);
}

CpuGenerator& default_cpu_generator() {
  // The CPU's execution context is a CpuExec (kernels/cpu/generator.h).
  return static_cast<CpuExec*>(slot_for(Device(Device::CPU)).exec)->gen;
}

Generator& default_generator() {
  static Generator* g = [] {
    auto* d = new Generator(Device(Device::CPU));  // never freed: it lives as long as the CPU's slot
    d->exec = static_cast<CpuExec*>(slot_for(Device(Device::CPU)).exec);
    return d;
  }();
  return *g;
}

}  // namespace gl
