// The CUDA matmul's host side and integer kernel run on the host: cuBLAS's
// column-major call for a row-major GemmSpec (gemm_args.h), and the integer
// matmul's tiles run block by block (gemm_int.cuh), checked in CI where there
// is no GPU.
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>
#include "tensor/kernels/cuda/gemm_args.h"
#include "tensor/kernels/cuda/gemm_int.cuh"

using namespace gl;
using namespace gl::cuda;

namespace {
// The row-major product a GemmSpec means, C = alpha * op(A) @ op(B) + beta * C,
// computed in Acc: double, or uint64_t for the integers' wrap-around.
template <class Acc, class T> void reference_gemm(const GemmSpec& s, const T* A, const T* B, T* C) {
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
                      const double f =
                          B[size_t(t * b.stride_first + (b.trans_first ? p + r * b.ld_first : r + p * b.ld_first))];
                      const double g =
                          A[size_t(t * b.stride_second + (b.trans_second ? c + p * b.ld_second : p + c * b.ld_second))];
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
template <class T> void host_int_gemm(const GemmSpec& s, int64_t grid_y, int64_t grid_z) {
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
              for (int tx = 0; tx < kTile; ++tx)
                int_gemm_store(g, bt, tile_m * kTile + ty, bx * kTile + tx, acc[ty][tx]);
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
