// The CUDA kernels' per-thread bodies, run on the host: the launcher's
// grid-stride loops. Every thread of a launch is emulated in turn, so the
// vector/tail split, the strided loops' offset arithmetic and fast division are
// checked in CI, where there is no GPU (random fills: test_cuda_host_random.cpp,
// matmul: test_cuda_host_gemm.cpp; device math, the runtime and cuBLAS still
// need one: test_cuda*.cpp).
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>
#include "cuda_host_emulate.h"
#include "tensor/kernels/cuda/launch.cuh"

using namespace gl;
using namespace gl::cuda;
using namespace gl::cuda::host_test;

namespace {

// launch_loop's choice: the vector path only when every pointer is aligned.
bool all_aligned(const Ptrs& p, int nargs, size_t bytes) {
  for (int a = 0; a < nargs; ++a)
    if (!aligned_to(p.p[a], bytes)) return false;
  return true;
}

}  // namespace

TEST_CASE("cuda kernels on the host: multiply-shift division is exact below 2^31") {
  std::mt19937_64 rng(7);
  std::vector<uint32_t> divisors = {
      1, 2, 3, 5, 6, 7, 10, 641, 1000, 4096, 65535, 65537, 1000003, 46340, 46341, (1u << 30) + 1, (1u << 31) - 1};
  for (int i = 0; i < 200; ++i) divisors.push_back(uint32_t(rng() % ((1u << 31) - 1)) + 1);
  for (uint32_t d : divisors) {
    const IntDiv div(d);
    std::vector<uint32_t> ns = {0, 1, d - 1, d, d + 1, (1u << 31) - 1, (1u << 31) - 2, 2 * d - 1};
    for (int i = 0; i < 500; ++i) ns.push_back(uint32_t(rng() % (1u << 31)));
    for (uint32_t n : ns) {
      if (n >= (1u << 31)) continue;
      CAPTURE(d);
      CAPTURE(n);
      CHECK(div.divide(n) == n / d);
    }
  }
}

TEST_CASE("cuda kernels on the host: strided offsets match a naive walk, in 32 and 64 bits") {
  std::mt19937_64 rng(11);
  // Offsets of linear index i over `shape` (outermost first) for strides st.
  auto naive = [](int nd, const int64_t* shape, const int64_t* st, int64_t i) {
    int64_t off = 0;
    for (int d = nd - 1; d >= 0; --d) {
      off += (i % shape[d]) * st[d];
      i /= shape[d];
    }
    return off;
  };
  for (int trial = 0; trial < 300; ++trial) {
    const int nd = 1 + int(rng() % 6);
    int64_t shape[kMaxDims], s0[kMaxDims], s1[kMaxDims], numel = 1;
    for (int d = 0; d < nd; ++d) {
      shape[d] = 1 + int64_t(rng() % 7);
      numel *= shape[d];
      s0[d] = int64_t(rng() % 50);
      s1[d] = rng() % 3 == 0 ? 0 : int64_t(rng() % 1000);  // broadcast dims
    }
    const int64_t* st[2] = {s0, s1};
    auto oc = make_offset_calc<2>(nd, shape, st, numel);
    for (int64_t i = 0; i < numel; ++i) {
      int64_t off[2];
      oc.get(i, off);
      CHECK(off[0] == naive(nd, shape, s0, i));
      CHECK(off[1] == naive(nd, shape, s1, i));
    }
  }
  // Indices near 2^31 on the 32-bit path, and far past it on the 64-bit one.
  const int64_t big_shapes[][3] = {{1, 46341, 46340}, {3, 65536, 5461}, {7, 1 << 20, 1 << 13}, {1000003, 999983, 3}};
  for (const auto& sh : big_shapes) {
    const int64_t numel = sh[0] * sh[1] * sh[2];
    const int64_t strides[3] = {1, sh[0], sh[0] * sh[1]};  // a transposed layout
    const int64_t* st[1] = {strides};
    auto oc = make_offset_calc<1>(3, sh, st, numel);
    CHECK(oc.small == (numel < (int64_t(1) << 31)));
    for (int64_t i : {int64_t(0), numel / 2, numel - 1, numel - sh[2], (int64_t(1) << 31) - 1}) {
      if (i >= numel) continue;
      int64_t off[1];
      oc.get(i, off);
      CAPTURE(i);
      CHECK(off[0] == naive(3, sh, strides, i));
    }
  }
}

TEST_CASE("cuda kernels on the host: contiguous loops cover every element once, vector or not") {
  const BinaryF<BinaryOp::Add> add;
  const BinaryF<BinaryOp::Gt> gt;
  for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 1023, 1025, 2052, 6157}) {  // past a tile: Note [Elementwise tiles]
    for (int shift : {0, 1}) {
      for (int64_t threads : {1, 3, 256}) {
        CAPTURE(n);
        CAPTURE(shift);
        CAPTURE(threads);
        // float + float -> float, 4 a vector
        Buf<float> a(n, 0), b(n, shift), out(n, 0);
        for (int64_t i = 0; i < n; ++i) a.p[i] = float(i) * 0.5f, b.p[i] = float(3 * i) - 7.0f;
        for (int64_t i = 0; i < n; ++i) out.p[i] = -12345.0f;
        Ptrs p;
        p.p[0] = reinterpret_cast<char*>(out.p), p.p[1] = reinterpret_cast<char*>(a.p),
        p.p[2] = reinterpret_cast<char*>(b.p);
        constexpr int V = vec_width<float, float, float, None, 2>();
        CHECK(V == 4);
        const bool vec = all_aligned(p, 3, sizeof(float) * V);
        CHECK(vec == (shift == 0));
        emulate(threads, [&](Grid g) { contig_body<V, 2, float, float, float, None>(g, p, n, vec, add); });
        for (int64_t i = 0; i < n; ++i) CHECK(out.p[i] == a.p[i] + b.p[i]);
        // float > float -> bool: the output's vector is 4 bytes
        Buf<bool> o2(n, 0);
        p.p[0] = reinterpret_cast<char*>(o2.p);
        const bool vec2 = all_aligned(p, 3, sizeof(float) * V);
        emulate(threads, [&](Grid g) { contig_body<V, 2, bool, float, float, None>(g, p, n, vec2, gt); });
        for (int64_t i = 0; i < n; ++i) CHECK(o2.p[i] == (a.p[i] > b.p[i]));
        // half + half -> half, 8 a vector; computed in float
        Buf<Half> ha(n, shift), hb(n, 0), ho(n, 0);
        for (int64_t i = 0; i < n; ++i) ha.p[i] = Half(float(i % 100) * 0.25f), hb.p[i] = Half(1.5f);
        Ptrs q;
        q.p[0] = reinterpret_cast<char*>(ho.p), q.p[1] = reinterpret_cast<char*>(ha.p),
        q.p[2] = reinterpret_cast<char*>(hb.p);
        constexpr int HV = vec_width<Half, Half, Half, None, 2>();
        CHECK(HV == 8);
        const bool hvec = all_aligned(q, 3, sizeof(Half) * HV);
        emulate(threads, [&](Grid g) { contig_body<HV, 2, Half, Half, Half, None>(g, q, n, hvec, add); });
        for (int64_t i = 0; i < n; ++i) CHECK(float(ho.p[i]) == float(i % 100) * 0.25f + 1.5f);
      }
    }
  }
}

TEST_CASE("cuda kernels on the host: strided loops write each output once") {
  // out[i, j] = x[j, i] (a transposed view) + y[j] (broadcast), 37 x 129
  const int64_t R = 37, C = 129, n = R * C;
  std::vector<float> x(static_cast<size_t>(C * R)), y(static_cast<size_t>(C)), out(static_cast<size_t>(n), -1.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 1000) * 0.125f;
  for (size_t i = 0; i < y.size(); ++i) y[i] = float(i) - 60.0f;
  const int64_t shape[2] = {R, C};
  const int64_t so[2] = {C, 1}, sx[2] = {1, R}, sy[2] = {0, 1};
  const int64_t* st[3] = {so, sx, sy};
  auto oc = make_offset_calc<3>(2, shape, st, n);
  Ptrs p;
  p.p[0] = reinterpret_cast<char*>(out.data()), p.p[1] = reinterpret_cast<char*>(x.data()),
  p.p[2] = reinterpret_cast<char*>(y.data());
  for (int64_t threads : {1, 7, 256, 10000}) {
    std::fill(out.begin(), out.end(), -1.0f);
    emulate(threads,
            [&](Grid g) { strided_body<2, float, float, float, None>(g, p, oc, n, BinaryF<BinaryOp::Add>()); });
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < C; ++j) CHECK(out[size_t(i * C + j)] == x[size_t(j * R + i)] + y[size_t(j)]);
  }
}

#endif  // GPULAB_HAVE_CUDA
