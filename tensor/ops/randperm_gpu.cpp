// torch.randperm on a real GPU, as PyTorch's CUDA kernel draws it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>
#include "tensor/kernels/philox.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/ops/random_ops.h"

namespace gl {

// Note [PyTorch's CUDA randperm]
// On a GPU PyTorch sorts 0..n-1 by random keys: int32 keys (int64 once more
// bits are needed) drawn as random_(min, max) with its fill kernel, a stable
// radix sort on their low `bits` bits (all of them: as signed values), then
// each run of equal low bits shuffled by Fisher-Yates with curand() draws from
// Philox subsequence = the run's first place, the generator moved on by n.
// The keys are drawn on the device by the fill kernel (Note [PyTorch's CUDA
// draws]); the sort and the shuffles are integer work, done on the host.
Tensor gpu_randperm(int64_t n, Device dev, DType dtype) {
  const int bits = randperm_key_bits(n);
  Tensor keys = bits > 32 ? randint(INT64_MIN, INT64_MAX, {n}, {DType::Int64, dev}, nullptr)
                          : randint(INT32_MIN, INT32_MAX, {n}, {DType::Int32, dev}, nullptr);
  Tensor kh = to(keys, Device(Device::CPU), DType::Int64);
  uint64_t seed = 0, offset = 0;
  const DeviceSlot& sl = slot_of(keys);
  sl.kernels->philox_reserve(sl.exec, uint64_t(n), &seed, &offset);
  std::vector<int64_t> r = randperm_from_keys(kh.data<int64_t>(), n, bits, seed, offset);
  Tensor host = from_host(r.data(), {n}, DType::Int64, {DType::Int64, Device(Device::CPU)});
  return to(host, dev, dtype);
}

int randperm_key_bits(int64_t n) {
  const double nd = double(n);
  return std::min(64, int(std::ceil(std::log2(nd - (6 * nd * nd + 1) / (std::log(0.9) * 12)))));
}

std::vector<int64_t> randperm_from_keys(const int64_t* k, int64_t n, int bits, uint64_t seed, uint64_t offset) {
  const int width = bits > 32 ? 64 : 32;
  const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  // The radix sort's order: the low bits unsigned, or the whole key signed.
  auto sort_key = [&](int64_t i) -> uint64_t {
    const uint64_t u = uint64_t(k[i]) & mask;
    return bits == width ? u ^ (uint64_t(1) << (width - 1)) : u;
  };
  std::vector<int64_t> r(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) r[size_t(i)] = i;
  std::stable_sort(r.begin(), r.end(), [&](int64_t a, int64_t b) { return sort_key(a) < sort_key(b); });
  auto low = [&](int64_t place) { return uint64_t(k[r[size_t(place)]]) & mask; };
  for (int64_t t = 0; t + 1 < n; ++t) {
    if (low(t) != low(t + 1) || (t > 0 && low(t) == low(t - 1))) continue;  // not a run's start
    int64_t size = 2;
    while (t + size < n && low(t + size) == low(t)) ++size;
    uint64_t round = offset / 4;
    Philox4 w{};
    int used = 4;
    for (int64_t i = size - 1; i > 0; --i) {
      if (used == 4) w = philox4x32_10(round++, uint64_t(t), seed), used = 0;
      const int64_t j = int64_t(w.x[used++] % uint32_t(i + 1));
      if (j != i) std::swap(r[size_t(t + i)], r[size_t(t + j)]);
    }
  }
  return r;
}

}  // namespace gl
