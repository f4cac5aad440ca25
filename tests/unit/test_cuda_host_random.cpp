// The CUDA random kernels' bodies run on the host (random.cuh): Philox against
// its published vectors, fills that do not depend on the launch shape, and the
// transforms' ranges and moments, checked in CI where there is no GPU.
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <vector>
#include "cuda_host_emulate.h"
#include "tensor/kernels/cuda/random.cuh"
#include "tensor/ops/random_ops.h"

using namespace gl;
using namespace gl::cuda;
using namespace gl::cuda::host_test;

TEST_CASE("cuda kernels on the host: Philox4x32-10 gives Random123's known answers") {
  // Random123's tests/kat_vectors: counter words c0..c3, key words k0, k1.
  struct Kat {
    uint32_t c[4], k[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
       {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
       {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Kat& k : kats) {
    const Philox4 r =
        philox4x32_10(uint64_t(k.c[0]) | uint64_t(k.c[1]) << 32, uint64_t(k.c[2]) | uint64_t(k.c[3]) << 32,
                      uint64_t(k.k[0]) | uint64_t(k.k[1]) << 32);
    for (int j = 0; j < 4; ++j) CHECK(r.x[j] == k.out[j]);
  }
}

namespace {
// n values of kind K drawn by PyTorch's launch on a GPU with `sms`
// multiprocessors, emulated with `workers` host threads (Uniform4: `group`
// elements per thread and round).
template <class T, RandomKind K> std::vector<double> draw(int64_t n, double a, double b, int64_t workers,
                                                          uint64_t offset = 0, uint64_t seed = 42, int sms = 132,
                                                          int group = 4) {
  Buf<T> out(n, 0);
  RandArgs<T> p;
  p.out = out.p;
  p.n = n;
  p.seed = seed;
  p.offset = offset;
  p.a = a;
  p.b = b;
  p.group = group;
  if constexpr (K == RandomKind::IntRange) {
    p.base = int64_t(a);
    p.range = uint64_t(int64_t(b) - int64_t(a));
    p.wide = p.range >= (uint64_t(1) << 28);
  }
  p.threads = random_launch(n, random_unroll<T, K>(p.wide), sms, 2048).threads;
  emulate(workers, [&](Grid g) { random_body<T, K>(g, p); });
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = double(out.p[i]);
  return v;
}

void check_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(std::fabs(got[i] - want[i]) < tol);
}
}  // namespace

TEST_CASE("cuda kernels on the host: PyTorch's numbers after torch.cuda.manual_seed(0)") {
  // PyTorch 2.11 on an H200 (tests/gpu/oracle.py, case random_numbers): one
  // call after another, each moving the offset on by 4.
  check_near(draw<float, RandomKind::Normal>(8, 0, 1, 4, 0, 0),
             {-0.9247, -0.4253, -2.6438, 0.1452, -0.1209, -0.5797, -0.6229, -0.3284}, 1e-4);
  check_near(draw<float, RandomKind::Uniform>(5, 0, 1, 4, 4, 0), {0.9722, 0.7910, 0.4690, 0.3300, 0.3345}, 1e-4);
  CHECK(draw<int64_t, RandomKind::IntRange>(7, 0, 10, 4, 8, 0) == std::vector<double>{3, 3, 4, 1, 5, 6, 6});
  check_near(draw<float, RandomKind::Normal>(3, 0, 1, 4, 12, 0), {0.3516, -1.4171, -0.8349}, 1e-4);
  check_near(draw<double, RandomKind::Normal>(6, 0, 1, 4, 16, 0), {-0.4262, -0.7912, -1.9885, -1.0643, -1.7313, 0.1144},
             1e-4);
  check_near(draw<float, RandomKind::Normal>(6, 2, 3, 4, 20, 0), {2.6574, 3.6027, 3.2490, 6.2683, -0.5386, 4.5482},
             1e-4);
  check_near(draw<float, RandomKind::Uniform>(6, -1, 1, 4, 24, 0), {0.4272, -0.8886, 0.1641, -0.4738, -0.0730, 0.2344},
             1e-4);
}

TEST_CASE("cuda kernels on the host: PyTorch's randperm, bernoulli and dropout after torch.cuda.manual_seed(1)") {
  // PyTorch 2.11 on an H200 (tests/gpu/oracle.py, case random_samplers):
  // randperm(10) draws int32 keys (offset 0 -> 4), sorts on their low 9 bits
  // and shuffles equal runs (offset 4 -> 16); then bernoulli of a 0.5 tensor
  // (four elements a draw, offset 16 -> 28) and dropout(ones(8), 0.5) (28 -> 32).
  const int64_t n = 10;
  CHECK(randperm_key_bits(n) == 9);
  std::vector<double> keys = draw<int32_t, RandomKind::IntRange>(n, -2147483648.0, 2147483647.0, 4, 0, 1);
  std::vector<int64_t> k(keys.begin(), keys.end());
  CHECK(randperm_from_keys(k.data(), n, 9, 1, 4) == std::vector<int64_t>{5, 4, 2, 1, 7, 3, 6, 9, 0, 8});
  auto grouped = [](int64_t m, int64_t threads, uint64_t offset) {
    Buf<float> out(m, 0);
    RandArgs<float> p;
    p.out = out.p;
    p.n = m;
    p.seed = 1;
    p.offset = offset;
    p.threads = threads;
    emulate(3, [&](Grid g) { random_body<float, RandomKind::Uniform4>(g, p); });
    return std::vector<float>(out.p, out.p + m);
  };
  std::vector<double> bern, drop;
  for (float u : grouped(8, 2, 16)) bern.push_back(u <= 0.5f);
  for (float u : grouped(8, random_launch(8, 4, 132, 2048).threads, 28)) drop.push_back(u < 0.5f ? 2.0 : 0.0);
  CHECK(bern == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0});
  CHECK(drop == std::vector<double>{2, 2, 0, 0, 2, 0, 2, 2});
}

TEST_CASE("cuda kernels on the host: PyTorch's dropout draws at each vector width") {
  auto mask = [](int64_t m, int group, uint64_t seed, uint64_t offset, float keep) {
    std::vector<int> v;
    for (double u : draw<float, RandomKind::Uniform4>(m, 0, 1, 3, offset, seed, 132, group)) v.push_back(u < keep);
    return v;
  };
  // PyTorch 2.11 on an H200 (tests/gpu/oracle.py, case bernoulli_dropout):
  // after torch.cuda.manual_seed(2) and draws up to offset 20,
  // dropout(ones(3, 5), 0.5) runs its unvectorised kernel (15 is odd).
  CHECK(mask(15, 1, 2, 20, 0.5f) == std::vector<int>{0, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1});
  // Width 8: thread t's eight elements from 8t take two draws (rounds 0
  // and 1); width 2: its two from 2t take the first two words of round 0.
  const int64_t m = 32;
  const uint64_t seed = 5, offset = 8;
  const std::vector<int> w8 = mask(m, 8, seed, offset, 0.5f), w2 = mask(m, 2, seed, offset, 0.5f);
  for (int64_t t = 0; t < 4; ++t)
    for (int j = 0; j < 8; ++j) {
      const Philox4 w = philox4x32_10(offset / 4 + j / 4, uint64_t(t), seed);
      CHECK(w8[size_t(8 * t + j)] == int(curand_uniform_f(w.x[j % 4]) < 0.5f));
      if (j < 2) CHECK(w2[size_t(2 * t + j)] == int(curand_uniform_f(w.x[j]) < 0.5f));
    }
}

TEST_CASE("cuda kernels on the host: PyTorch's launch and offsets") {
  // 132 SMs x 2048 threads: at most 1056 blocks of 256.
  CHECK(random_launch(8, 4, 132, 2048).threads == 256);
  CHECK(random_launch(8, 4, 132, 2048).advance == 4);
  CHECK(random_launch(1000, 4, 132, 2048).threads == 1024);
  CHECK(random_launch(int64_t(1) << 20, 4, 132, 2048).threads == 1056 * 256);
  CHECK(random_launch(int64_t(1) << 20, 4, 132, 2048).advance == 4);
  CHECK(random_launch(int64_t(1) << 24, 4, 132, 2048).advance == 4 * 16);
  CHECK(random_launch(int64_t(1) << 24, 2, 132, 2048).advance == 4 * 32);
}

TEST_CASE("cuda kernels on the host: random fills do not depend on how the threads are run") {
  for (int64_t n : {1, 5, 1023, 300001}) {
    CHECK(draw<float, RandomKind::Uniform>(n, 0, 1, 1) == draw<float, RandomKind::Uniform>(n, 0, 1, 256));
    CHECK(draw<double, RandomKind::Normal>(n, 0, 1, 3) == draw<double, RandomKind::Normal>(n, 0, 1, 64));
    CHECK(draw<Half, RandomKind::Normal>(n, 0, 1, 7) == draw<Half, RandomKind::Normal>(n, 0, 1, 1));
    CHECK(draw<int64_t, RandomKind::IntRange>(n, -5, 5, 1) == draw<int64_t, RandomKind::IntRange>(n, -5, 5, 100));
  }
  CHECK(draw<float, RandomKind::Uniform>(64, 0, 1, 8, 4) != draw<float, RandomKind::Uniform>(64, 0, 1, 8, 8));
}

TEST_CASE("cuda kernels on the host: uniform stays below its upper bound in every dtype") {
  const int64_t n = 200003;
  auto check_range = [](const std::vector<double>& v, double lo, double hi) {
    double mn = v[0], mx = v[0], s = 0;
    for (double x : v) mn = std::min(mn, x), mx = std::max(mx, x), s += x;
    CHECK(mn >= lo);
    CHECK(mx < hi);
    CHECK(std::fabs(s / double(v.size()) - (lo + hi) / 2) < 0.02 * (hi - lo));
  };
  // half on [2, 4): the spacing there is 2^-9, so u * 2 + 2 rounds up to 4 for
  // the top draws unless mapped back to 2, as PyTorch's UniformFunctor does
  check_range(draw<Half, RandomKind::Uniform>(n, 2, 4, 16), 2, 4);
  check_range(draw<BFloat16, RandomKind::Uniform>(n, 2, 4, 16), 2, 4);
  check_range(draw<float, RandomKind::Uniform>(n, 1, 2, 16), 1, 2);
  check_range(draw<double, RandomKind::Uniform>(n, -3, 5, 16), -3, 5);
}

TEST_CASE("cuda kernels on the host: normal moments and integer ranges") {
  const int64_t n = 200003;
  for (auto v : {draw<float, RandomKind::Normal>(n, -1, 2, 16), draw<double, RandomKind::Normal>(n, -1, 2, 16)}) {
    double s = 0, s2 = 0;
    for (double x : v) s += x, s2 += x * x;
    const double mean = s / double(n), var = s2 / double(n) - mean * mean;
    CHECK(std::isfinite(s));
    CHECK(std::fabs(mean + 1) < 0.02);
    CHECK(std::fabs(var - 4) < 0.08);
  }
  auto ints = draw<int64_t, RandomKind::IntRange>(n, -5, 5, 16);
  CHECK(*std::min_element(ints.begin(), ints.end()) == -5);
  CHECK(*std::max_element(ints.begin(), ints.end()) == 4);
  // a range of 2^40 takes two words a draw
  auto wide = draw<int64_t, RandomKind::IntRange>(1001, 0, double(int64_t(1) << 40), 7);
  for (double x : wide) CHECK((x >= 0 && x < double(int64_t(1) << 40)));
  CHECK(*std::max_element(wide.begin(), wide.end()) > double(int64_t(1) << 39));
}

#endif  // GPULAB_HAVE_CUDA
