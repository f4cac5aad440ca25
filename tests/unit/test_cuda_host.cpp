// The CUDA kernels' per-thread bodies, run on the host. The bodies are
// __host__ __device__ (tensor/kernels/cuda/launch.cuh, random.cuh): here every
// thread of a launch is emulated in turn, so the launcher's vector/tail split,
// the strided loops' offset arithmetic and fast division, Philox and the
// random transforms are checked in CI, where there is no GPU. (Device math,
// the runtime and cuBLAS still need one: test_cuda*.cpp.)
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>
#include "tensor/kernels/cuda/gemm_args.h"
#include "tensor/kernels/cuda/gemm_int.cuh"
#include "tensor/kernels/cuda/random.cuh"

using namespace gl;
using namespace gl::cuda;

namespace {

// Runs body(Grid{t, nthreads}) for every thread t of a grid-stride launch.
template <class Body>
void emulate(int64_t nthreads, Body&& body) {
  for (int64_t t = 0; t < nthreads; ++t) body(Grid{t, nthreads});
}

// Storage whose element 0 sits `shift` elements past a 16-byte boundary.
template <class T>
struct Buf {
  std::vector<unsigned char> raw;
  T* p;
  Buf(int64_t n, int shift) : raw(size_t(n + shift) * sizeof(T) + 64) {
    uintptr_t a = (reinterpret_cast<uintptr_t>(raw.data()) + 15) / 16 * 16;
    p = reinterpret_cast<T*>(a) + shift;
  }
};

// launch_loop's choice: the vector path only when every pointer is aligned.
bool all_aligned(const Ptrs& p, int nargs, size_t bytes) {
  for (int a = 0; a < nargs; ++a)
    if (!aligned_to(p.p[a], bytes)) return false;
  return true;
}

}  // namespace

TEST_CASE("cuda kernels on the host: Philox4x32-10 gives Random123's known answers") {
  // Random123's tests/kat_vectors: counter words c0..c3, key words k0, k1.
  struct Kat { uint32_t c[4], k[2], out[4]; };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Kat& k : kats) {
    const Philox4 r = philox4x32_10(uint64_t(k.c[0]) | uint64_t(k.c[1]) << 32, uint64_t(k.c[2]) | uint64_t(k.c[3]) << 32,
                                    uint64_t(k.k[0]) | uint64_t(k.k[1]) << 32);
    for (int j = 0; j < 4; ++j) CHECK(r.x[j] == k.out[j]);
  }
}

TEST_CASE("cuda kernels on the host: multiply-shift division is exact below 2^31") {
  std::mt19937_64 rng(7);
  std::vector<uint32_t> divisors = {1, 2, 3, 5, 6, 7, 10, 641, 1000, 4096, 65535, 65537, 1000003, 46340, 46341,
                                    (1u << 30) + 1, (1u << 31) - 1};
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
  for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 1023, 1025}) {
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
        p.p[0] = reinterpret_cast<char*>(out.p), p.p[1] = reinterpret_cast<char*>(a.p), p.p[2] = reinterpret_cast<char*>(b.p);
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
        q.p[0] = reinterpret_cast<char*>(ho.p), q.p[1] = reinterpret_cast<char*>(ha.p), q.p[2] = reinterpret_cast<char*>(hb.p);
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
    emulate(threads, [&](Grid g) { strided_body<2, float, float, float, None>(g, p, oc, n, BinaryF<BinaryOp::Add>()); });
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < C; ++j) CHECK(out[size_t(i * C + j)] == x[size_t(j * R + i)] + y[size_t(j)]);
  }
}

namespace {
template <class T, RandomKind K>
std::vector<double> draw(int64_t n, double a, double b, int64_t threads, bool vec, uint64_t offset = 3) {
  const int EC = random_group<T, K>(false);
  Buf<T> out(n, 0);
  RandArgs<T> p;
  p.out = out.p;
  p.n = n;
  p.seed = 42;
  p.offset = offset;
  p.a = a;
  p.b = b;
  if constexpr (K == RandomKind::IntRange) {
    p.base = int64_t(a);
    p.range = uint64_t(int64_t(b) - int64_t(a));
    p.wide = p.range >= (uint64_t(1) << 32);
  } else {
    p.vec = vec && aligned_to(p.out, sizeof(T) * EC);
  }
  emulate(threads, [&](Grid g) { random_body<T, K>(g, p); });
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = double(out.p[i]);
  return v;
}
}  // namespace

TEST_CASE("cuda kernels on the host: random fills do not depend on the launch shape") {
  for (int64_t n : {1, 5, 1023}) {
    CHECK(draw<float, RandomKind::Uniform>(n, 0, 1, 1, true) == draw<float, RandomKind::Uniform>(n, 0, 1, 256, false));
    CHECK(draw<double, RandomKind::Normal>(n, 0, 1, 3, true) == draw<double, RandomKind::Normal>(n, 0, 1, 64, true));
    CHECK(draw<Half, RandomKind::Normal>(n, 0, 1, 7, true) == draw<Half, RandomKind::Normal>(n, 0, 1, 1, false));
    CHECK(draw<int64_t, RandomKind::IntRange>(n, -5, 5, 1, false) ==
          draw<int64_t, RandomKind::IntRange>(n, -5, 5, 100, false));
  }
  CHECK(draw<float, RandomKind::Uniform>(64, 0, 1, 8, true, 3) != draw<float, RandomKind::Uniform>(64, 0, 1, 8, true, 4));
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
  // the top draw (1 in 2^11) unless it is mapped back to 2
  check_range(draw<Half, RandomKind::Uniform>(n, 2, 4, 256, true), 2, 4);
  check_range(draw<BFloat16, RandomKind::Uniform>(n, 2, 4, 256, true), 2, 4);
  check_range(draw<float, RandomKind::Uniform>(n, 1, 2, 256, true), 1, 2);
  check_range(draw<double, RandomKind::Uniform>(n, -3, 5, 256, true), -3, 5);
}

TEST_CASE("cuda kernels on the host: normal moments and integer ranges") {
  const int64_t n = 200003;
  for (auto v : {draw<float, RandomKind::Normal>(n, -1, 2, 256, true), draw<double, RandomKind::Normal>(n, -1, 2, 256, true)}) {
    double s = 0, s2 = 0;
    for (double x : v) s += x, s2 += x * x;
    const double mean = s / double(n), var = s2 / double(n) - mean * mean;
    CHECK(std::isfinite(s));
    CHECK(std::fabs(mean + 1) < 0.02);
    CHECK(std::fabs(var - 4) < 0.08);
  }
  auto ints = draw<int64_t, RandomKind::IntRange>(n, -5, 5, 256, false);
  CHECK(*std::min_element(ints.begin(), ints.end()) == -5);
  CHECK(*std::max_element(ints.begin(), ints.end()) == 4);
  // a range of 2^40 takes two words a draw
  auto wide = draw<int64_t, RandomKind::IntRange>(1001, 0, double(int64_t(1) << 40), 7, false);
  for (double x : wide) CHECK((x >= 0 && x < double(int64_t(1) << 40)));
  CHECK(*std::max_element(wide.begin(), wide.end()) > double(int64_t(1) << 39));
}

namespace {
// The row-major product a GemmSpec means, C = alpha * op(A) @ op(B) + beta * C,
// computed in Acc: double, or uint64_t for the integers' wrap-around.
template <class Acc, class T>
void reference_gemm(const GemmSpec& s, const T* A, const T* B, T* C) {
  for (int64_t t = 0; t < s.batch; ++t)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        Acc acc = 0;
        for (int64_t p = 0; p < s.k; ++p)
          acc += Acc(A[t * s.stride_a + (s.trans_a ? p * s.lda + i : i * s.lda + p)]) *
                 Acc(B[t * s.stride_b + (s.trans_b ? j * s.ldb + p : p * s.ldb + j)]);
        T& c = C[t * s.stride_c + i * s.ldc + j];
        c = T(Acc(s.alpha) * acc + (s.beta != 0 ? Acc(s.beta) * Acc(c) : Acc(0)));
      }
}
}  // namespace

TEST_CASE("cuda kernels on the host: cuBLAS's column-major call computes the row-major product") {
  // Operand layouts as the op layer's blas_view makes them (tensor/ops/matmul.cpp):
  // row-major with a padded ld, transposed with a padded ld, or a single row.
  std::mt19937_64 rng(5);
  int cases = 0;
  for (int64_t m : {1, 2, 5, 17})
    for (int64_t n : {1, 3, 16})
      for (int64_t k : {1, 4, 9})
        for (int la = 0; la < 3; ++la)
          for (int lb = 0; lb < 3; ++lb)
            for (int64_t batch : {1, 3}) {
              GemmSpec s;
              s.dtype = DType::Float64;
              s.m = m, s.n = n, s.k = k, s.batch = batch;
              // la/lb: 0 row-major, 1 transposed, 2 single-row-major with ld = cols (or 1 stored row)
              auto layout = [&](int l, int64_t rows, int64_t cols, bool* trans, int64_t* ld) {
                *trans = l == 1;
                if (l == 0) *ld = cols + int64_t(rng() % 3);
                else if (l == 1) *ld = rows + int64_t(rng() % 3);
                else *ld = rows == 1 ? cols : cols + 1;
              };
              layout(la, m, k, &s.trans_a, &s.lda);
              layout(lb, k, n, &s.trans_b, &s.ldb);
              s.ldc = n;
              const int64_t size_a = (s.trans_a ? k : m) * s.lda, size_b = (s.trans_b ? n : k) * s.ldb;
              s.stride_a = batch > 1 ? size_a : 0;
              s.stride_b = batch > 1 ? size_b : 0;
              s.stride_c = batch > 1 ? m * n : 0;
              s.alpha = 2;
              s.beta = cases % 2 ? 0.5 : 0;
              std::vector<double> A(size_t(size_a * batch)), B(size_t(size_b * batch)), C0(size_t(m * n * batch));
              for (auto& v : A) v = double(int(rng() % 7) - 3);
              for (auto& v : B) v = double(int(rng() % 7) - 3);
              for (auto& v : C0) v = double(int(rng() % 5));
              // the row-major product the spec means
              std::vector<double> want = C0;
              reference_gemm<double>(s, A.data(), B.data(), want.data());
              // what cuBLAS computes from blas_args: column-major, first operand B
              const BlasArgs b = blas_args(s);
              CAPTURE(m);
              CAPTURE(n);
              CAPTURE(k);
              CAPTURE(la);
              CAPTURE(lb);
              CHECK(b.ld_first >= std::max<int64_t>(1, b.trans_first ? b.k : b.m));  // cuBLAS's own checks
              CHECK(b.ld_second >= std::max<int64_t>(1, b.trans_second ? b.n : b.k));
              CHECK(b.ldc >= std::max<int64_t>(1, b.m));
              std::vector<double> got = C0;
              for (int64_t t = 0; t < b.batch; ++t)
                for (int64_t r = 0; r < b.m; ++r)
                  for (int64_t c = 0; c < b.n; ++c) {
                    double acc = 0;
                    for (int64_t p = 0; p < b.k; ++p) {
                      const double f = B[size_t(t * b.stride_first + (b.trans_first ? p + r * b.ld_first : r + p * b.ld_first))];
                      const double g = A[size_t(t * b.stride_second + (b.trans_second ? c + p * b.ld_second : p + c * b.ld_second))];
                      acc += f * g;
                    }
                    double& out = got[size_t(t * b.stride_c + r + c * b.ldc)];
                    out = s.alpha * acc + s.beta * out;
                  }
              CHECK(got == want);
              ++cases;
            }
  CHECK(cases == 4 * 3 * 3 * 3 * 3 * 2);
}

namespace {
// Runs gemm_int_kernel's grid on the host, block by block, each phase for all
// 16 x 16 threads before the next (as the kernel's barriers order them).
template <class T>
void host_int_gemm(const GemmSpec& s, int64_t grid_y, int64_t grid_z) {
  const IntGemm<T> g = int_gemm_args<T>(s);
  T As[kTile][kTile + 1], Bs[kTile][kTile + 1];
  IntAcc acc[kTile][kTile];
  const int64_t grid_x = (s.n + kTile - 1) / kTile;
  for (int64_t bz = 0; bz < grid_z; ++bz)
    for (int64_t by = 0; by < grid_y; ++by)
      for (int64_t bx = 0; bx < grid_x; ++bx)
        for (int64_t bt = bz; bt < g.batch; bt += grid_z)
          for (int64_t tile_m = by; tile_m * kTile < g.m; tile_m += grid_y) {
            for (auto& r : acc)
              for (auto& a : r) a = IntAcc{};
            for (int64_t p0 = 0; p0 < g.k; p0 += kTile) {
              for (int ty = 0; ty < kTile; ++ty)
                for (int tx = 0; tx < kTile; ++tx)
                  int_gemm_load(g, As, Bs, tx, ty, bt, tile_m * kTile + ty, bx * kTile + tx, p0);
              for (int ty = 0; ty < kTile; ++ty)
                for (int tx = 0; tx < kTile; ++tx) int_gemm_step(As, Bs, tx, ty, acc[ty][tx]);
            }
            for (int ty = 0; ty < kTile; ++ty)
              for (int tx = 0; tx < kTile; ++tx) int_gemm_store(g, bt, tile_m * kTile + ty, bx * kTile + tx, acc[ty][tx]);
          }
}
}  // namespace

TEST_CASE("cuda kernels on the host: the integer matmul's tiles, transposes, batches and wrap-around") {
  std::mt19937_64 rng(9);
  for (int64_t m : {1, 5, 16, 33})
    for (int64_t n : {1, 17})
      for (int64_t k : {1, 16, 21})
        for (int t = 0; t < 4; ++t) {
          const bool ta = t & 1, tb = t & 2;
          const int64_t batch = m == 5 ? 3 : 1;
          GemmSpec s;
          s.dtype = DType::Int64;
          s.m = m, s.n = n, s.k = k, s.batch = batch, s.trans_a = ta, s.trans_b = tb;
          s.lda = ta ? m : k, s.ldb = tb ? k : n, s.ldc = n;
          s.stride_a = m * k, s.stride_b = k * n, s.stride_c = m * n;
          s.alpha = 3, s.beta = m == 16 ? 2 : 0;
          std::vector<int64_t> A(size_t(batch * m * k)), B(size_t(batch * k * n)), C(size_t(batch * m * n));
          for (auto& v : A) v = int64_t(rng() % 2001) - 1000 + (rng() % 5 == 0 ? INT64_MAX / 3 : 0);  // some wrap
          for (auto& v : B) v = int64_t(rng() % 2001) - 1000;
          for (auto& v : C) v = int64_t(rng() % 100);
          std::vector<int64_t> want = C;
          reference_gemm<uint64_t>(s, A.data(), B.data(), want.data());  // wrapping, as the CPU
          s.a = reinterpret_cast<const char*>(A.data());
          s.b = reinterpret_cast<const char*>(B.data());
          s.c = reinterpret_cast<char*>(C.data());
          host_int_gemm<int64_t>(s, /*grid_y=*/m > 16 ? 1 : 2, /*grid_z=*/2);  // grid-stride loops taken too
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(k);
          CAPTURE(t);
          CHECK(C == want);
        }
  // bool: OR of ANDs; int8 wraps at 8 bits
  GemmSpec s;
  s.m = 2, s.n = 2, s.k = 3, s.lda = 3, s.ldb = 2, s.ldc = 2;
  bool a[6] = {true, false, false, false, false, false}, b[6] = {true, false, false, false, false, true}, c[4] = {};
  s.dtype = DType::Bool;
  s.a = reinterpret_cast<const char*>(a), s.b = reinterpret_cast<const char*>(b), s.c = reinterpret_cast<char*>(c);
  host_int_gemm<bool>(s, 1, 1);
  CHECK(c[0]);
  CHECK(!c[1]);
  CHECK(!c[2]);
  CHECK(!c[3]);
  int8_t x[6] = {100, 100, 100, 1, 1, 1}, y[6] = {1, 1, 1, 1, 1, 1}, z[4] = {};
  s.dtype = DType::Int8;
  s.a = reinterpret_cast<const char*>(x), s.b = reinterpret_cast<const char*>(y), s.c = reinterpret_cast<char*>(z);
  host_int_gemm<int8_t>(s, 1, 1);
  CHECK(z[0] == int8_t(300 - 256));
  CHECK(z[3] == 3);
}

#endif  // GPULAB_HAVE_CUDA
