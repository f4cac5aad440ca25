// What the CUDA runtime itself costs the host per launch (issue 12's tiny-op
// row: a 1-element add from Lua took 4.46 us on an H200, PyTorch's 6.28, the
// target half of PyTorch's). Times, on the host, 100,000 back-to-back calls
// of: an empty kernel's launch, a 1-element add's launch (three pointer
// arguments), cudaGetLastError and cudaGetDevice. What gpulab adds is the
// tiny-op figure less the add's launch here.
//   nvcc -O2 -arch=sm_90 -o launch_cost bench/launch_cost.cu && ./launch_cost
#include <chrono>
#include <cstdio>

__global__ void empty_kernel() {}
__global__ void add1(const float* a, const float* b, float* c) { c[0] = a[0] + b[0]; }

template <class F> double per_call_us(F f, int n = 100000) {
  for (int i = 0; i < 1000; ++i) f();
  cudaDeviceSynchronize();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
}

int main() {
  float* p = nullptr;
  if (cudaMalloc(&p, 3 * sizeof(float)) != cudaSuccess) {
    printf("no GPU: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int dev = 0;
  printf("empty kernel launch      %.2f us\n", per_call_us([&] { empty_kernel<<<1, 1, 0, s>>>(); }));
  printf("1-element add launch     %.2f us\n", per_call_us([&] { add1<<<1, 256, 0, s>>>(p, p + 1, p + 2); }));
  printf("cudaGetLastError         %.3f us\n", per_call_us([&] { (void)cudaGetLastError(); }));
  printf("cudaGetDevice            %.3f us\n", per_call_us([&] { cudaGetDevice(&dev); }));
  return 0;
}
