// The CUDA scan (cumsum, cumprod) run on the host: every thread of a
// grid-stride launch (scan.cuh's scan_body) emulated in turn, for several
// grid sizes, against the CPU kernel and a naive loop, over inner, outer and
// middle dims, strided and transposed inputs, odd sizes and reverse scans.
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <cstring>
#include <random>
#include <vector>
#include "tensor/kernels/cuda/scan.cuh"
#include "tensor/kernels/kernels.h"

using namespace gl;
using namespace gl::cuda;

namespace {

// A scan of `d` over `shape`: in read with strides `in_st` (elements) from a
// buffer of `in_span` values, out contiguous.
struct Case {
  std::vector<int64_t> shape, in_st;
  int d;
  int64_t in_span;
};

std::vector<int64_t> contiguous(const std::vector<int64_t>& shape) {
  std::vector<int64_t> st(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i) st[size_t(i)] = st[size_t(i + 1)] * shape[size_t(i + 1)];
  return st;
}

ScanSpec make_spec(const Case& c, ScanOp op, bool reverse, DType dt, void* out, void* in) {
  ScanSpec s;
  s.op = op;
  s.reverse = reverse;
  s.out.data = static_cast<char*>(out);
  s.in.data = static_cast<char*>(in);
  s.out.dtype = s.in.dtype = dt;
  const auto ost = contiguous(c.shape);
  s.lines = 1;
  for (size_t i = 0; i < c.shape.size(); ++i) {
    if (int(i) == c.d) {
      s.len = c.shape[i];
      s.out_step = ost[i];
      s.in_step = c.in_st[i];
      continue;
    }
    s.line_shape[s.line_ndim] = c.shape[i];
    s.out.strides[s.line_ndim] = ost[i];
    s.in.strides[s.line_ndim++] = c.in_st[i];
    s.lines *= c.shape[i];
  }
  return s;
}

int64_t numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (auto v : shape) n *= v;
  return n;
}

// The same values through the emulated CUDA launch (for each grid size) and
// the CPU kernel, compared bit for bit; returns the CPU's result.
template <class T> std::vector<T> run_both(const Case& c, ScanOp op, bool reverse, const std::vector<T>& in) {
  const int64_t n = numel(c.shape);
  std::vector<T> cpu(static_cast<size_t>(n)), gpu(static_cast<size_t>(n));
  constexpr DType dt = dtype_of<T>();
  ScanSpec s = make_spec(c, op, reverse, dt, cpu.data(), const_cast<T*>(in.data()));
  cpu_kernels().scan(nullptr, s);
  for (int64_t threads : {int64_t(1), int64_t(3), int64_t(32), int64_t(kThreads), int64_t(2 * kThreads + 5)}) {
    std::fill(gpu.begin(), gpu.end(), T(0));
    s.out.data = reinterpret_cast<char*>(gpu.data());
    for (int64_t t = 0; t < threads; ++t) scan_body<T>(Grid{t, threads}, s);
    CAPTURE(threads);
    CHECK(std::memcmp(cpu.data(), gpu.data(), size_t(n) * sizeof(T)) == 0);
  }
  return cpu;
}

// Naive reference: walk every line with the multi-index, accumulating in A.
template <class T, class A> std::vector<T> naive(const Case& c, ScanOp op, bool reverse, const std::vector<T>& in) {
  const int64_t n = numel(c.shape);
  const auto ost = contiguous(c.shape);
  std::vector<T> out(static_cast<size_t>(n));
  const int64_t len = c.shape[size_t(c.d)];
  for (int64_t flat = 0; flat < n; ++flat) {  // visit each line once, at its index 0 along d
    int64_t rem = flat, io = 0, oo = 0;
    bool first = true;
    for (int i = int(c.shape.size()) - 1; i >= 0; --i) {
      const int64_t k = rem % c.shape[size_t(i)];
      rem /= c.shape[size_t(i)];
      if (i == c.d && k != 0) first = false;
      io += k * c.in_st[size_t(i)];
      oo += k * ost[size_t(i)];
    }
    if (!first) continue;
    A acc = op == ScanOp::Sum ? A(0) : A(1);
    for (int64_t j = 0; j < len; ++j) {
      const int64_t k = reverse ? len - 1 - j : j;
      const A v = A(in[size_t(io + k * c.in_st[size_t(c.d)])]);
      acc = op == ScanOp::Sum ? acc + v : acc * v;
      out[size_t(oo + k * ost[size_t(c.d)])] = T(acc);
    }
  }
  return out;
}

std::vector<Case> cases() {
  std::vector<Case> cs;
  for (auto shape :
       std::vector<std::vector<int64_t>>{{7}, {1}, {3, 5}, {5, 3}, {2, 3, 4}, {3, 1, 7}, {4, 33, 3}, {1, 300}})
    for (int d = 0; d < int(shape.size()); ++d) cs.push_back({shape, contiguous(shape), d, numel(shape)});
  // Transposed input: a [5, 3] view of [3, 5] storage, scanned both ways.
  cs.push_back({{5, 3}, {1, 5}, 0, 15});
  cs.push_back({{5, 3}, {1, 5}, 1, 15});
  // Every other element of a [4, 18] buffer, and a broadcast (stride 0) dim.
  cs.push_back({{4, 9}, {18, 2}, 1, 72});
  cs.push_back({{4, 9}, {18, 2}, 0, 72});
  cs.push_back({{3, 6}, {0, 1}, 0, 6});
  cs.push_back({{3, 6}, {0, 1}, 1, 6});
  return cs;
}

}  // namespace

TEST_CASE("cuda kernels on the host: scan (cumsum, cumprod) matches the CPU kernel and a naive loop") {
  std::mt19937 rng(11);
  for (const Case& c : cases()) {
    CAPTURE(c.d);
    CAPTURE(c.shape.size());
    CAPTURE(c.shape.back());
    std::vector<float> f(size_t(c.in_span));
    std::vector<int64_t> i64(size_t(c.in_span));
    std::vector<int32_t> i32(size_t(c.in_span));
    std::vector<Half> h(size_t(c.in_span));
    std::vector<double> f64(size_t(c.in_span));
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    for (size_t k = 0; k < f.size(); ++k) {
      f[k] = u(rng);
      f64[k] = double(u(rng));
      h[k] = Half(u(rng));
      i64[k] = int64_t(rng() % 7) - 3;
      i32[k] = int32_t(rng());  // wraps in products and sums, as PyTorch's
    }
    for (bool reverse : {false, true})
      for (ScanOp op : {ScanOp::Sum, ScanOp::Prod}) {
        CAPTURE(reverse);
        CAPTURE(int(op));
        // float32 accumulates in double and float16 in float (PyTorch's CPU acc_type).
        CHECK(run_both(c, op, reverse, f) == naive<float, double>(c, op, reverse, f));
        CHECK(run_both(c, op, reverse, f64) == naive<double, double>(c, op, reverse, f64));
        auto hh = run_both(c, op, reverse, h), hn = naive<Half, float>(c, op, reverse, h);
        CHECK(std::memcmp(hh.data(), hn.data(), hh.size() * sizeof(Half)) == 0);
        CHECK(run_both(c, op, reverse, i64) == naive<int64_t, int64_t>(c, op, reverse, i64));
        run_both(c, op, reverse, i32);  // wrap-around: CPU and CUDA bodies agree bit for bit
      }
  }
}

TEST_CASE("cuda kernels on the host: scan with no lines or empty lines writes nothing") {
  float in[1] = {1}, out[1] = {42};
  Case c{{0, 3}, {3, 1}, 1, 0};
  ScanSpec s = make_spec(c, ScanOp::Sum, false, DType::Float32, out, in);
  for (int64_t t = 0; t < 4; ++t) scan_body<float>(Grid{t, 4}, s);
  cpu_kernels().scan(nullptr, s);
  CHECK(out[0] == 42);
}

#endif
