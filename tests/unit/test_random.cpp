// Random numbers: after manual_seed, gpulab's CPU generator reproduces PyTorch's
// CPU values exactly, bit for bit. PyTorch picks its kernels by the CPU
// (torch.backends.cpu.get_cpu_capability()), and two of them give other bits:
// on an AVX2 CPU float32 normal_ of 16 or more elements runs Cephes' log and
// sincos eight lanes at a time (Note [PyTorch's vector Box-Muller]), and
// uniform_'s x * (to - from) + from is one fused multiply-add. gpulab follows
// the CPU it runs on, so those cases have two expectations, from torch 2.15.0:
//   python3 -c 'import torch; torch.manual_seed(0); print(torch.randn(20).tolist())'
// with ATEN_CPU_CAPABILITY=default for the scalar ones, printed with "%.9g"
// (float32) / "%.17g" (float64). randn has two code paths in PyTorch (size < 16:
// scalar Box-Muller; size >= 16: blocks of 16), both covered.
#include <doctest/doctest.h>
#include "tensor/runtime/build_info.h"
#include "tensor/runtime/generator_state.h"
#include "unit_util.h"

using namespace gl;
using ut::vals;

namespace {
void expect_exact(const Tensor& t, const std::vector<double>& want) {
  auto v = vals(t);
  REQUIRE(v.size() == want.size());
  for (size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(v[i] == want[i]);
  }
}
std::vector<double> f32(std::initializer_list<float> l) { return std::vector<double>(l.begin(), l.end()); }
TensorOptions O(DType d) { return ut::opts(d); }
// PyTorch's vector kernels (AVX2, AVX512) or its scalar ones, as on this CPU.
bool vector_cpu() { return runtime::cpu_capability() != "DEFAULT"; }
}  // namespace

TEST_CASE("random: rand below and above 16 elements, float32 and float64") {
  manual_seed_cpu(0);
  expect_exact(rand({5}, O(DType::Float32)),
               f32({0.49625659f, 0.768221796f, 0.0884774327f, 0.132030487f, 0.307422817f}));
  manual_seed_cpu(0);
  expect_exact(rand({20}, O(DType::Float32)),
               f32({0.49625659f,  0.768221796f, 0.0884774327f, 0.132030487f, 0.307422817f, 0.634078681f,  0.49009341f,
                    0.896444738f, 0.455627978f, 0.632306278f,  0.348893464f, 0.401717305f, 0.0223257542f, 0.168858945f,
                    0.29388845f,  0.518521786f, 0.697667599f,  0.800011396f, 0.161029458f, 0.282268584f}));
  manual_seed_cpu(0);
  Tensor r = rand({4, 5}, O(DType::Float32));  // the shape does not change the stream
  CHECK(r.sizes() == Shape{4, 5});
  CHECK(vals(r)[19] == double(0.282268584f));
  manual_seed_cpu(0);
  expect_exact(rand({5}, O(DType::Float64)), {0.97005300180655307, 0.70781986439978795, 0.45938294312745087,
                                              0.92074768412196029, 0.64502412012276478});
}

TEST_CASE("random: randn scalar path (<16) and vector path (>=16)") {
  manual_seed_cpu(0);
  expect_exact(randn({5}, O(DType::Float32)),
               f32({1.54099607f, -0.293428898f, -2.17878938f, 0.568431258f, -1.08452237f}));
  manual_seed_cpu(0);
  expect_exact(
      randn({20}, O(DType::Float32)),
      vector_cpu()
          ? f32({-1.12583983f, -1.1523602f,   -0.250578582f, -0.433878809f, 0.598839462f, -1.55509508f, -0.34136039f,
                 1.85300612f,  0.468096405f,  -0.157712445f, 1.44366014f,   0.266049415f, 1.38936615f,  1.58633423f,
                 0.946298361f, -0.843676746f, 0.931826591f,  1.25900924f,   2.00498056f,  0.0537369028f})
          : f32({-1.12583983f, -1.1523602f,   -0.250578582f, -0.433878839f, 0.598839462f, -1.55509508f, -0.341360301f,
                 1.85300612f,  0.468096405f,  -0.157712445f, 1.44366014f,   0.266049415f, 1.38936615f,  1.58633435f,
                 0.946298361f, -0.843676805f, 0.931826651f,  1.25900924f,   2.00498056f,  0.053736899f}));
  manual_seed_cpu(0);
  expect_exact(randn({5}, O(DType::Float64)), {1.5409961082440433, -0.29342890576094638, -2.1787893820745574,
                                               0.56843127728066778, -1.0845223424240209});
  manual_seed_cpu(0);
  expect_exact(
      randn({20}, O(DType::Float64)),
      {-2.310411800234176,   -0.3732508612577643, -1.0608166785462863,  0.99950935478117608, -0.019964750907762653,
       0.2102998901016947,   0.17718935139366584, -0.83051005100844899, 0.23871805816817063, 0.73352836852728409,
       -1.3218818291421377,  1.3148113651971234,  -0.68700369404354633, 1.4880743158106724,  -0.44841580471145109,
       -0.89100303517073753, 0.67485754359400385, 1.0468653769814655,   0.15429517864658948, -0.74989152283919414});
}

TEST_CASE("random: randint, uniform_, normal_, randperm, and stream continuation") {
  manual_seed_cpu(0);
  CHECK(ut::ivals(randint(0, 10, {20}, O(DType::Int64))) ==
        std::vector<int64_t>{4, 9, 3, 0, 3, 9, 7, 3, 7, 3, 1, 6, 6, 9, 8, 6, 6, 8, 4, 3});
  manual_seed_cpu(42);
  CHECK(ut::ivals(randint(-5, 5, {8}, O(DType::Int64))) == std::vector<int64_t>{-3, 2, 1, -1, 1, 0, -5, -1});
  // Ranges from 2^28 up take 64-bit draws (python3 -c 'import torch; torch.manual_seed(0);
  // print(torch.randint(0, 2**28, (3,)).tolist())'); just below, 32-bit ones.
  manual_seed_cpu(0);
  CHECK(ut::ivals(randint(0, int64_t(1) << 28, {3}, O(DType::Int64))) ==
        std::vector<int64_t>{130329135, 136432832, 195187451});
  manual_seed_cpu(0);
  CHECK(ut::ivals(randint(0, (int64_t(1) << 28) - 1, {3}, O(DType::Int64))) ==
        std::vector<int64_t>{209652404, 130329144, 118924928});
  manual_seed_cpu(0);
  Tensor u = empty({6}, O(DType::Float32));
  uniform_(u, -2, 3);
  expect_exact(u, f32({0.481282949f, 1.84110904f, -1.5576129f, -1.33984756f,
                       vector_cpu() ? -0.462885916f : -0.462885857f, 1.17039347f}));
  manual_seed_cpu(0);
  Tensor n = empty({6}, O(DType::Float32));
  normal_(n, 1, 2);
  expect_exact(n, f32({4.08199215f, 0.413142174f, -3.35757875f, 2.13686252f, -1.16904473f, -1.79719079f}));
  manual_seed_cpu(0);
  Tensor n17 = empty({17}, O(DType::Float32));
  normal_(n17, 1, 2);
  expect_exact(n17, vector_cpu()
                        ? f32({-1.25167966f, -2.39186239f, 2.13330126f, 2.58701658f, 2.19767904f, -2.11019015f,
                               0.31727922f, 4.70601225f, 1.93619275f, -0.170995116f, 0.653206468f, 1.36695588f,
                               3.7787323f, 4.17266846f, 2.89259672f, -0.687353492f, 2.86365318f})
                        : f32({-1.25167966f, -2.39186263f, 2.13330102f, 2.58701682f, 2.19767904f, -2.11019015f,
                               0.317279398f, 4.70601225f, 1.93619275f, -0.170994282f, 0.653205991f, 1.36695588f,
                               3.7787323f, 4.17266846f, 2.89259672f, -0.687353611f, 2.86365318f}));
  // torch.manual_seed(7); torch.rand(3); torch.randn(3)
  manual_seed_cpu(7);
  expect_exact(rand({3}, O(DType::Float32)), f32({0.53492254f, 0.198803186f, 0.659211695f}));
  expect_exact(randn({3}, O(DType::Float32)), f32({-0.0325519741f, 1.0110544f, 1.77149379f}));
  manual_seed_cpu(0);
  CHECK(ut::ivals(randperm(10, O(DType::Int64))) == std::vector<int64_t>{4, 1, 7, 5, 3, 9, 0, 8, 6, 2});
}

TEST_CASE("random: reseeding repeats, errors, virtual devices have their own generators") {
  manual_seed_cpu(3);
  auto a = vals(randn({33}, O(DType::Float32)));
  manual_seed_cpu(3);
  CHECK(vals(randn({33}, O(DType::Float32))) == a);
  CHECK(ut::error_of([] { randint(3, 3, {2}, O(DType::Int64)); }) ==
        "random_ expects 'from' to be less than 'to', but got from=3 >= to=3");
  Tensor i = empty({2}, O(DType::Int64));
  CHECK(ut::error_of([&] { normal_(i, 0, 1); }) == "\"normal_kernel_cpu\" not implemented for 'Long'");
  Tensor f = empty({2}, O(DType::Float32));
  CHECK(ut::error_of([&] { normal_(f, 0, -1); }) == "normal expects std >= 0.0, but found std -1");
  CHECK(ut::error_of([&] { uniform_(f, 2, 1); }) ==
        "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
  // Seeding all devices: cuda:1's stream restarts, and the CPU's is independent of it.
  ut::devices();
  manual_seed_all_devices(5);
  auto g1 = vals(rand({4}, ut::opts(DType::Float32, ut::cuda(1))));
  auto c1 = vals(rand({4}, O(DType::Float32)));
  manual_seed_all_devices(5);
  CHECK(vals(rand({4}, ut::opts(DType::Float32, ut::cuda(1)))) == g1);
  CHECK(vals(rand({4}, O(DType::Float32))) == c1);
  CHECK(rand({4}, ut::opts(DType::Float32, ut::cuda(1))).device() == ut::cuda(1));
}

TEST_CASE("random: the CPU generator's state is saved and restored, cached normal included") {
  manual_seed_cpu(0);
  randn({1}, O(DType::Float64));  // an odd count of normals: one may wait in the cache
  const std::string state = cpu_generator_state();
  auto a = vals(randn({3}, O(DType::Float64)));
  auto b = vals(rand({2}, O(DType::Float32)));
  set_cpu_generator_state(state);
  CHECK(vals(randn({3}, O(DType::Float64))) == a);
  CHECK(vals(rand({2}, O(DType::Float32))) == b);
  CHECK_THROWS_WITH(set_cpu_generator_state("not a state"),
                    "set_cpu_generator_state: not a state that cpu_generator_state() returned");
}
