// Which launch shape reads and writes fastest for a contiguous float add of
// 2^28 elements (issue 12: gpulab's k_contig ran at 87% of DRAM's peak,
// PyTorch's vectorized_elementwise_kernel at 91%). Each variant is timed with
// CUDA events over 20 launches after a warm-up, and checked against a + b.
//   nvcc -O3 -arch=sm_90 -o elementwise_shapes bench/elementwise_shapes.cu
//   ./elementwise_shapes        prints "variant  us/launch  GB/s"
#include <cstdio>
#include <cstdlib>
#include <vector>

struct alignas(16) F4 {
  float x[4];
};

// gpulab's shape: one resident wave (blocks per SM x SMs), a grid-stride
// loop, U vectors of four loaded per thread before any is stored.
template <int U> __global__ void __launch_bounds__(256) stride_wave(const F4* a, const F4* b, F4* o, long nv) {
  const long tid = long(blockIdx.x) * blockDim.x + threadIdx.x, nt = long(gridDim.x) * blockDim.x;
  long v = tid;
  for (; v + (U - 1) * nt < nv; v += U * nt) {
    F4 va[U], vb[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      va[u] = a[v + u * nt];
      vb[u] = b[v + u * nt];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      F4 r;
#pragma unroll
      for (int j = 0; j < 4; ++j) r.x[j] = va[u].x[j] + vb[u].x[j];
      o[v + u * nt] = r;
    }
  }
  for (; v < nv; v += nt) {
    F4 r, x = a[v], y = b[v];
#pragma unroll
    for (int j = 0; j < 4; ++j) r.x[j] = x.x[j] + y.x[j];
    o[v] = r;
  }
}

// PyTorch's shape: one block per tile of THREADS * U vectors, no loop; the
// block's threads take vectors threadIdx.x + THREADS * u of its tile.
template <int THREADS, int U> __global__ void __launch_bounds__(THREADS)
    tiles(const F4* a, const F4* b, F4* o, long nv) {
  const long base = long(blockIdx.x) * THREADS * U + threadIdx.x;
  F4 va[U], vb[U];
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * THREADS < nv) {
      va[u] = a[base + u * THREADS];
      vb[u] = b[base + u * THREADS];
    }
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * THREADS < nv) {
      F4 r;
#pragma unroll
      for (int j = 0; j < 4; ++j) r.x[j] = va[u].x[j] + vb[u].x[j];
      o[base + u * THREADS] = r;
    }
}

#define CK(x) \
  do { \
    cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) { \
      printf("%s: %s\n", #x, cudaGetErrorString(e_)); \
      exit(1); \
    } \
  } while (0)

int main() {
  const long n = 1L << 28, nv = n / 4;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  float *a, *b, *o;
  CK(cudaMalloc(&a, n * 4));
  CK(cudaMalloc(&b, n * 4));
  CK(cudaMalloc(&o, n * 4));
  std::vector<float> h(1 << 20);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float(i % 977);
  for (long off = 0; off < n; off += long(h.size())) {
    CK(cudaMemcpy(a + off, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b + off, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  }
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  auto run = [&](const char* name, double arrays, auto launch) {
    CK(cudaMemset(o, 0, n * 4));
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> back(h.size());
    CK(cudaMemcpy(back.data(), o + (n - long(h.size())), h.size() * 4, cudaMemcpyDeviceToHost));
    const float k = arrays == 2 ? 1 : 2;  // the copy, or a + b
    for (size_t i = 0; i < h.size(); ++i)
      if (back[i] != k * h[i]) {
        printf("%s: wrong result at %zu\n", name, i);
        exit(1);
      }
    CK(cudaEventRecord(s));
    for (int r = 0; r < 20; ++r) launch();
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, s, e));
    const double us = ms * 1000 / 20;
    printf("%-28s %8.1f us  %6.0f GB/s\n", name, us, arrays * n * 4 / (us * 1e3));
  };
  const F4 *A = reinterpret_cast<const F4*>(a), *B = reinterpret_cast<const F4*>(b);
  F4* O = reinterpret_cast<F4*>(o);
  const int sms = prop.multiProcessorCount, wave = sms * (prop.maxThreadsPerMultiProcessor / 256);
  printf("# %s, %d SMs; copy for reference:\n", prop.name, sms);
  run("cudaMemcpy d2d", 2, [&] { CK(cudaMemcpyAsync(o, a, n * 4, cudaMemcpyDeviceToDevice)); });
  run("stride_wave U=1 (gpulab now)", 3, [&] { stride_wave<1><<<wave, 256>>>(A, B, O, nv); });
  run("stride_wave U=2", 3, [&] { stride_wave<2><<<wave, 256>>>(A, B, O, nv); });
  run("stride_wave U=4", 3, [&] { stride_wave<4><<<wave, 256>>>(A, B, O, nv); });
  run("stride 2 waves U=1", 3, [&] { stride_wave<1><<<2 * wave, 256>>>(A, B, O, nv); });
  run("stride 4 waves U=2", 3, [&] { stride_wave<2><<<4 * wave, 256>>>(A, B, O, nv); });
  run("tiles 128x2 (PyTorch's)", 3, [&] { tiles<128, 2><<<unsigned((nv + 255) / 256), 128>>>(A, B, O, nv); });
  run("tiles 256x2", 3, [&] { tiles<256, 2><<<unsigned((nv + 511) / 512), 256>>>(A, B, O, nv); });
  run("tiles 256x4", 3, [&] { tiles<256, 4><<<unsigned((nv + 1023) / 1024), 256>>>(A, B, O, nv); });
  run("tiles 128x1", 3, [&] { tiles<128, 1><<<unsigned((nv + 127) / 128), 128>>>(A, B, O, nv); });
  return 0;
}
