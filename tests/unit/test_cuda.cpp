// The CUDA backend (tensor/runtime/cuda_api.h) tested directly, without the
// ops layer: the caching allocator, ordered copies, events, and every kernel
// family against gl::cpu_kernels() on the same host data. Specs are built by
// hand. Without a GPU each case says so and returns (decided at run time).
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/kernels/functors.h"
#include "tensor/kernels/kernels.h"
#include "tensor/runtime/cuda_api.h"

using namespace gl;

namespace {

bool have_gpu() {
  if (cuda::device_count() > 0) return true;
  static bool said = false;
  if (!said) {
    std::printf("CUDA tests skipped: %s\n", cuda::unavailable_reason().c_str());
    said = true;
  }
  return false;
}

struct Gpu {
  void* exec;
  Allocator* alloc;
  const Kernels* k;
};

Gpu& gpu() {
  static Gpu g{cuda::create_exec(0), cuda::create_allocator(0, 0, 0), &cuda::kernels()};
  return g;
}

const std::vector<int64_t> kSizes = {1, 7, 1023, 1000003};

// Host bytes of one dtype, read and written as doubles.
struct HostArr {
  DType dt = DType::Float32;
  int64_t n = 0;
  std::vector<char> bytes;
  HostArr() = default;
  HostArr(DType d, int64_t count) : dt(d), n(count), bytes(size_t(count) * itemsize(d) + 16, 0) {}
  char* data() { return bytes.data(); }
  double get(int64_t i) const {
    return dispatch_dtype(dt, [&](auto t) -> double {
      using T = decltype(t);
      T v;
      std::memcpy(&v, bytes.data() + size_t(i) * sizeof(T), sizeof(T));
      return double(opmath_t<T>(v));
    });
  }
  void set(int64_t i, double v) {
    dispatch_dtype(dt, [&](auto t) {
      using T = decltype(t);
      const T x = cast_to<T>(v);
      std::memcpy(bytes.data() + size_t(i) * sizeof(T), &x, sizeof(T));
    });
  }
};

// Device memory from the test allocator, filled from / read back to a HostArr.
struct DevArr {
  DType dt;
  int64_t n;
  size_t nbytes;
  char* p;
  DevArr(DType d, int64_t count) : dt(d), n(count), nbytes(size_t(count) * itemsize(d)) {
    p = static_cast<char*>(gpu().alloc->allocate(nbytes ? nbytes : 1));
  }
  explicit DevArr(const HostArr& h) : DevArr(h.dt, h.n) { cuda::memcpy(p, gpu().exec, h.bytes.data(), nullptr, nbytes); }
  ~DevArr() { gpu().alloc->deallocate(p, nbytes ? nbytes : 1); }
  DevArr(const DevArr&) = delete;
  DevArr& operator=(const DevArr&) = delete;
  HostArr download() const {
    HostArr h(dt, n);
    cuda::memcpy(h.data(), nullptr, p, gpu().exec, nbytes);
    return h;
  }
};

std::mt19937_64& rng() {
  static std::mt19937_64 r(12345);
  return r;
}

// Values in [lo, hi]; integers for integral dtypes; optionally never zero.
HostArr random_arr(DType dt, int64_t n, double lo = -2, double hi = 2, bool nonzero = false) {
  HostArr h(dt, n);
  std::uniform_real_distribution<double> u(lo, hi);
  for (int64_t i = 0; i < n; ++i) {
    double v = u(rng());
    if (dt == DType::Bool) v = v > (lo + hi) / 2;
    else if (!is_floating(dt)) v = std::round(v);
    if (nonzero && v == 0) v = is_floating(dt) ? 0.5 : 1;
    h.set(i, v);
  }
  return h;
}

double tolerance(DType dt) {
  switch (dt) {
    case DType::Float32: return 1e-5;
    case DType::Float64: return 1e-12;
    case DType::Float16: return 2e-3;
    case DType::BFloat16: return 1.6e-2;
    default: return 0;
  }
}

bool close(double a, double b, double tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tol * (1 + std::fabs(a));
}

// Checks every element; reports the first mismatch only.
void expect_close(const HostArr& cpu, const HostArr& dev, double tol, const std::string& what) {
  REQUIRE(cpu.n == dev.n);
  for (int64_t i = 0; i < cpu.n; ++i) {
    if (!close(cpu.get(i), dev.get(i), tol)) {
      INFO(what << " at " << i << ": cpu " << cpu.get(i) << " vs cuda " << dev.get(i));
      CHECK(false);
      return;
    }
  }
  CHECK(true);
}

// A dense 1-D loop over n elements.
LoopSpec flat_loop(int64_t n, std::vector<std::pair<char*, DType>> args) {
  LoopSpec s;
  s.ndim = 1;
  s.nargs = int(args.size());
  s.numel = n;
  s.shape[0] = n;
  s.contiguous = true;
  for (size_t a = 0; a < args.size(); ++a) {
    s.args[a].data = args[a].first;
    s.args[a].dtype = args[a].second;
    s.args[a].strides[0] = 1;
  }
  return s;
}

// A 2-D loop [rows, cols] with per-argument strides.
LoopSpec loop_2d(int64_t rows, int64_t cols, std::vector<std::pair<char*, DType>> args,
                 std::vector<std::pair<int64_t, int64_t>> strides) {
  LoopSpec s;
  s.ndim = 2;
  s.nargs = int(args.size());
  s.numel = rows * cols;
  s.shape[0] = rows;
  s.shape[1] = cols;
  for (size_t a = 0; a < args.size(); ++a) {
    s.args[a].data = args[a].first;
    s.args[a].dtype = args[a].second;
    s.args[a].strides[0] = strides[a].first;
    s.args[a].strides[1] = strides[a].second;
  }
  return s;
}

// Runs the same loop on the CPU (host arrays) and on the GPU (device copies):
// build(ptrs) makes the spec from one pointer per array; run(kernels, exec, spec).
void compare_loop(std::vector<HostArr*> arrays, const std::function<LoopSpec(const std::vector<char*>&)>& build,
                  const std::function<void(const Kernels&, void*, const LoopSpec&)>& run, double tol,
                  const std::string& what) {
  std::vector<std::unique_ptr<DevArr>> dev;
  std::vector<char*> hp, dp;
  for (HostArr* h : arrays) {
    dev.push_back(std::make_unique<DevArr>(*h));
    hp.push_back(h->data());
    dp.push_back(dev.back()->p);
  }
  run(cpu_kernels(), nullptr, build(hp));
  run(*gpu().k, gpu().exec, build(dp));
  expect_close(*arrays[0], dev[0]->download(), tol, what);
}

}  // namespace

TEST_CASE("cuda: discovery and properties") {
  CHECK(cuda::compiled() == cuda::compiled());
  if (!have_gpu()) {
    CHECK(!cuda::unavailable_reason().empty());
    return;
  }
  auto p = cuda::properties(0);
  CHECK(!p.name.empty());
  CHECK(p.total_memory > 0);
  CHECK(p.multi_processor_count > 0);
  int64_t free_b = 0, total_b = 0;
  cuda::mem_get_info(0, &free_b, &total_b);
  CHECK(total_b > 0);
  CHECK(free_b <= total_b);
  CHECK_THROWS_AS(cuda::properties(cuda::device_count()), RuntimeError);
  cuda::SmiRow row;
  if (cuda::smi_query(0, &row)) CHECK(row.total > 0);
}

TEST_CASE("cuda: caching allocator reuses blocks and keeps stats") {
  if (!have_gpu()) return;
  Allocator* a = cuda::create_allocator(0, 0, 0);
  void* p = a->allocate(4000);  // rounded to 4096
  AllocStats s1 = a->stats();
  CHECK(s1.allocated == 4096);
  CHECK(s1.num_os_allocs == 1);
  CHECK(s1.reserved >= 4096);
  a->deallocate(p, 4000);
  CHECK(a->stats().allocated == 0);
  void* q = a->allocate(4000);
  CHECK(q == p);
  CHECK(a->stats().num_os_allocs == s1.num_os_allocs);
  // Small blocks share a segment; large ones come back too.
  void* r = a->allocate(100);
  CHECK(a->stats().num_os_allocs == s1.num_os_allocs);
  void* big = a->allocate(3 << 20);
  const int64_t os = a->stats().num_os_allocs;
  a->deallocate(big, 3 << 20);
  void* big2 = a->allocate(3 << 20);
  CHECK(big2 == big);
  CHECK(a->stats().num_os_allocs == os);
  a->deallocate(big2, 3 << 20);
  a->deallocate(r, 100);
  a->deallocate(q, 4000);
  AllocStats s2 = a->stats();
  CHECK(s2.allocated == 0);
  CHECK(s2.peak_allocated >= 4096 + (3 << 20));
  CHECK(s2.reserved > 0);
  a->reset_peak();
  CHECK(a->stats().peak_allocated == 0);
  a->empty_cache();
  CHECK(a->stats().reserved == 0);
  // After emptying the cache, memory comes from the driver again.
  void* t = a->allocate(512);
  CHECK(a->stats().num_os_allocs == os + 1);
  a->deallocate(t, 512);
}

TEST_CASE("cuda: capacity-limited allocator raises PyTorch's out-of-memory error") {
  if (!have_gpu()) return;
  Allocator* a = cuda::create_allocator(0, int64_t(8) << 20, 1);
  void* p = a->allocate(size_t(4) << 20);
  CHECK(p != nullptr);
  bool threw = false;
  try {
    a->allocate(size_t(16) << 20);
  } catch (const OutOfMemoryError& e) {
    threw = true;
    const std::string msg = e.what();
    CHECK(msg.find("CUDA out of memory. Tried to allocate 16.00 MiB. GPU 1 has a total capacity of 8.00 MiB") == 0);
  }
  CHECK(threw);
  CHECK(a->stats().reserved <= (int64_t(8) << 20));
  a->deallocate(p, size_t(4) << 20);
  // Freed memory serves a request that fits.
  void* q = a->allocate(size_t(6) << 20);
  CHECK(q != nullptr);
  a->deallocate(q, size_t(6) << 20);
  a->empty_cache();
}

TEST_CASE("cuda: memcpy round trips host -> device -> device -> host") {
  if (!have_gpu()) return;
  void* other = cuda::create_exec(0);  // a second stream on the same device (virtual slices)
  for (int64_t n : kSizes) {
    HostArr h = random_arr(DType::Float32, n);
    DevArr d1(h), d2(DType::Float32, n), d3(DType::Float32, n);
    cuda::memcpy(d2.p, gpu().exec, d1.p, gpu().exec, d1.nbytes);
    cuda::memcpy(d3.p, other, d2.p, gpu().exec, d2.nbytes);
    HostArr back(DType::Float32, n);
    cuda::memcpy(back.data(), nullptr, d3.p, other, d3.nbytes);
    CHECK(std::memcmp(back.data(), h.data(), d1.nbytes) == 0);
  }
  cuda::synchronize(other);
}

TEST_CASE("cuda: events time work on the stream") {
  if (!have_gpu()) return;
  void* a = cuda::event_create(true);
  void* b = cuda::event_create(true);
  void* untimed = cuda::event_create(false);
  CHECK_THROWS_AS(cuda::event_elapsed_ms(a, untimed), ValueError);
  CHECK_THROWS_AS(cuda::event_elapsed_ms(a, b), ValueError);  // not recorded yet
  cuda::event_record(a, gpu().exec);
  {
    HostArr h = random_arr(DType::Float32, 1 << 20);
    DevArr d(h);
    gpu().k->fill(gpu().exec, flat_loop(d.n, {{d.p, d.dt}}), Scalar::from_double(1.0));
  }
  cuda::event_record(b, gpu().exec);
  cuda::event_synchronize(b);
  CHECK(cuda::event_query(b));
  CHECK(cuda::event_elapsed_ms(a, b) >= 0);
  cuda::event_destroy(a);
  cuda::event_destroy(b);
  cuda::event_destroy(untimed);
}

TEST_CASE("cuda: unary ops match the CPU") {
  if (!have_gpu()) return;
  const UnaryOp ops[] = {UnaryOp::Neg, UnaryOp::Abs, UnaryOp::Exp, UnaryOp::Log, UnaryOp::Sqrt, UnaryOp::Sin,
                         UnaryOp::Tanh, UnaryOp::Sigmoid, UnaryOp::Relu, UnaryOp::Sign, UnaryOp::Floor,
                         UnaryOp::Round, UnaryOp::Reciprocal, UnaryOp::Square, UnaryOp::IsNan, UnaryOp::LogicalNot};
  const DType dts[] = {DType::Float32, DType::Float64, DType::Int64, DType::Float16, DType::BFloat16};
  for (DType dt : dts)
    for (UnaryOp op : ops) {
      const bool float_only = op == UnaryOp::Exp || op == UnaryOp::Log || op == UnaryOp::Sqrt || op == UnaryOp::Sin ||
                              op == UnaryOp::Tanh || op == UnaryOp::Sigmoid || op == UnaryOp::Reciprocal;
      if (float_only && !is_floating(dt)) continue;
      const bool positive = op == UnaryOp::Log || op == UnaryOp::Sqrt || op == UnaryOp::Reciprocal;
      const DType out_dt = unary_returns_bool(op) ? DType::Bool : dt;
      for (int64_t n : kSizes) {
        HostArr in = random_arr(dt, n, positive ? 0.1 : -3, 3);
        HostArr out(out_dt, n);
        compare_loop({&out, &in},
                     [&](const std::vector<char*>& p) { return flat_loop(n, {{p[0], out_dt}, {p[1], dt}}); },
                     [&](const Kernels& k, void* ex, const LoopSpec& s) { k.unary(ex, op, s); }, tolerance(out_dt),
                     std::string("unary ") + std::to_string(int(op)) + " " + dtype_name(dt) + " n=" + std::to_string(n));
      }
      // A transposed (strided) input.
      const int64_t r = 37, c = 29;
      HostArr in = random_arr(dt, r * c, positive ? 0.1 : -3, 3);
      HostArr out(out_dt, r * c);
      compare_loop({&out, &in},
                   [&](const std::vector<char*>& p) { return loop_2d(r, c, {{p[0], out_dt}, {p[1], dt}}, {{c, 1}, {1, r}}); },
                   [&](const Kernels& k, void* ex, const LoopSpec& s) { k.unary(ex, op, s); }, tolerance(out_dt),
                   std::string("strided unary ") + std::to_string(int(op)) + " " + dtype_name(dt));
    }
}

TEST_CASE("cuda: binary ops match the CPU (tensors, scalars, broadcasting)") {
  if (!have_gpu()) return;
  const BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Pow,
                          BinaryOp::Remainder, BinaryOp::FloorDivide, BinaryOp::Maximum, BinaryOp::Minimum,
                          BinaryOp::Atan2, BinaryOp::Eq, BinaryOp::Lt, BinaryOp::Ge, BinaryOp::LogicalAnd,
                          BinaryOp::BitXor};
  const DType dts[] = {DType::Float32, DType::Float64, DType::Int64, DType::Float16, DType::BFloat16};
  for (DType dt : dts)
    for (BinaryOp op : ops) {
      if (is_floating(dt) && op == BinaryOp::BitXor) continue;
      if (!is_floating(dt) && op == BinaryOp::Atan2) continue;
      const DType out_dt = is_comparison(op) ? DType::Bool : dt;
      const bool int_div = !is_floating(dt) && (op == BinaryOp::Div || op == BinaryOp::Remainder ||
                                                op == BinaryOp::FloorDivide);
      const bool pow = op == BinaryOp::Pow;
      const std::string name = std::string("binary ") + std::to_string(int(op)) + " " + dtype_name(dt);
      auto run = [](BinarySpec bs) {
        return [bs](const Kernels& k, void* ex, const LoopSpec& s) {
          BinarySpec b = bs;
          b.loop = s;
          k.binary(ex, b);
        };
      };
      BinarySpec base;
      base.op = op;
      base.compute = dt;
      for (int64_t n : kSizes) {
        // tensor op tensor
        HostArr a = random_arr(dt, n, pow ? 0.5 : -5, pow ? 2 : 5);
        HostArr b = random_arr(dt, n, pow ? 0 : -5, pow ? 3 : 5, int_div || !is_floating(dt));
        HostArr out(out_dt, n);
        compare_loop({&out, &a, &b},
                     [&](const std::vector<char*>& p) { return flat_loop(n, {{p[0], out_dt}, {p[1], dt}, {p[2], dt}}); },
                     run(base), tolerance(out_dt), name + " n=" + std::to_string(n));
        // tensor op scalar, scalar op tensor
        for (bool first : {false, true}) {
          BinarySpec sc = base;
          sc.b_is_scalar = true;
          sc.scalar_first = first;
          sc.b_f = pow ? 2.5 : -1.75;
          sc.b_i = pow ? 3 : -3;
          HostArr x = random_arr(dt, n, pow ? (first ? 0 : 0.5) : -5, pow ? 3 : 5, int_div && first);
          HostArr o(out_dt, n);
          compare_loop({&o, &x},
                       [&](const std::vector<char*>& p) { return flat_loop(n, {{p[0], out_dt}, {p[1], dt}}); },
                       run(sc), tolerance(out_dt), name + (first ? " scalar-first" : " scalar") + " n=" + std::to_string(n));
        }
      }
      // broadcasting: a [r, c] dense, b a row [1, c] (stride 0 over rows), out dense
      const int64_t r = 1000, c = 1003;
      HostArr a = random_arr(dt, r * c, pow ? 0.5 : -5, pow ? 2 : 5);
      HostArr b = random_arr(dt, c, pow ? 0 : -5, pow ? 3 : 5, int_div || !is_floating(dt));
      HostArr out(out_dt, r * c);
      compare_loop({&out, &a, &b},
                   [&](const std::vector<char*>& p) {
                     return loop_2d(r, c, {{p[0], out_dt}, {p[1], dt}, {p[2], dt}}, {{c, 1}, {c, 1}, {0, 1}});
                   },
                   run(base), tolerance(out_dt), name + " broadcast");
    }
}

TEST_CASE("cuda: where and fill match the CPU") {
  if (!have_gpu()) return;
  for (DType dt : {DType::Float32, DType::Float64, DType::Int64, DType::Float16, DType::Bool, DType::Int8}) {
    for (int64_t n : kSizes) {
      HostArr cond = random_arr(DType::Bool, n);
      HostArr a = random_arr(dt, n), b = random_arr(dt, n), out(dt, n);
      compare_loop({&out, &cond, &a, &b},
                   [&](const std::vector<char*>& p) {
                     return flat_loop(n, {{p[0], dt}, {p[1], DType::Bool}, {p[2], dt}, {p[3], dt}});
                   },
                   [](const Kernels& k, void* ex, const LoopSpec& s) { k.where(ex, s); }, 0,
                   std::string("where ") + dtype_name(dt));
      for (Scalar v : {Scalar::from_double(-2.5), Scalar::from_int(7), Scalar::from_int(0), Scalar::from_bool(true)}) {
        HostArr o = random_arr(dt, n);
        compare_loop({&o}, [&](const std::vector<char*>& p) { return flat_loop(n, {{p[0], dt}}); },
                     [v](const Kernels& k, void* ex, const LoopSpec& s) { k.fill(ex, s, v); }, 0,
                     std::string("fill ") + dtype_name(dt));
      }
    }
    // where with a broadcast condition column and a strided fill (every other element)
    const int64_t r = 513, c = 77;
    HostArr cond = random_arr(DType::Bool, r), a = random_arr(dt, r * c), b = random_arr(dt, c), out(dt, r * c);
    compare_loop({&out, &cond, &a, &b},
                 [&](const std::vector<char*>& p) {
                   return loop_2d(r, c, {{p[0], dt}, {p[1], DType::Bool}, {p[2], dt}, {p[3], dt}},
                                  {{c, 1}, {1, 0}, {c, 1}, {0, 1}});
                 },
                 [](const Kernels& k, void* ex, const LoopSpec& s) { k.where(ex, s); }, 0,
                 std::string("broadcast where ") + dtype_name(dt));
    HostArr o = random_arr(dt, r * c * 2);
    compare_loop({&o}, [&](const std::vector<char*>& p) { return loop_2d(r, c, {{p[0], dt}}, {{2 * c, 2}}); },
                 [](const Kernels& k, void* ex, const LoopSpec& s) { k.fill(ex, s, Scalar::from_double(3.25)); }, 0,
                 std::string("strided fill ") + dtype_name(dt));
  }
}

TEST_CASE("cuda: copy casts between dtypes like the CPU") {
  if (!have_gpu()) return;
  const DType dts[] = {DType::Float32, DType::Float64, DType::Int64, DType::Float16,
                       DType::BFloat16, DType::Bool, DType::Int32, DType::UInt8};
  for (DType src : dts)
    for (DType dst : dts) {
      const std::string name = std::string("copy ") + dtype_name(dst) + " <- " + dtype_name(src);
      const bool small_ints = dst == DType::UInt8 || src == DType::UInt8;
      for (int64_t n : kSizes) {
        HostArr in = random_arr(src, n, small_ints ? 0 : -100, small_ints ? 200 : 100), out(dst, n);
        compare_loop({&out, &in}, [&](const std::vector<char*>& p) { return flat_loop(n, {{p[0], dst}, {p[1], src}}); },
                     [](const Kernels& k, void* ex, const LoopSpec& s) { k.copy(ex, s); }, 0, name);
      }
      // transposed source into a dense destination
      const int64_t r = 300, c = 301;
      HostArr in = random_arr(src, r * c, small_ints ? 0 : -100, small_ints ? 200 : 100), out(dst, r * c);
      compare_loop({&out, &in},
                   [&](const std::vector<char*>& p) { return loop_2d(r, c, {{p[0], dst}, {p[1], src}}, {{c, 1}, {1, r}}); },
                   [](const Kernels& k, void* ex, const LoopSpec& s) { k.copy(ex, s); }, 0, "transposed " + name);
    }
}

namespace {

// A reduction of an [r, c] dense input over `dims` ("0", "1" or "01").
void compare_reduce(ReduceOp op, DType in_dt, DType out_dt, int64_t r, int64_t c, const std::string& dims,
                    const HostArr& in, double tol) {
  ReduceSpec s;
  s.op = op;
  s.in.dtype = in_dt;
  s.out.dtype = out_dt;
  const int64_t shape[2] = {r, c}, stride[2] = {c, 1};
  s.out_numel = 1;
  s.red_numel = 1;
  for (int d = 0; d < 2; ++d) {
    if (dims.find(char('0' + d)) != std::string::npos) {
      s.red_shape[s.red_ndim] = shape[d];
      s.in_red_strides[s.red_ndim++] = stride[d];
      s.red_numel *= shape[d];
    } else {
      s.out_shape[s.out_ndim] = shape[d];
      s.in.strides[s.out_ndim] = stride[d];
      s.out.strides[s.out_ndim++] = 1;
      s.out_numel *= shape[d];
    }
  }
  HostArr cpu_out(out_dt, s.out_numel);
  DevArr din(in);
  DevArr dout(out_dt, s.out_numel);
  ReduceSpec hs = s;
  hs.in.data = const_cast<char*>(in.bytes.data());
  hs.out.data = cpu_out.data();
  cpu_kernels().reduce(nullptr, hs);
  ReduceSpec ds = s;
  ds.in.data = din.p;
  ds.out.data = dout.p;
  gpu().k->reduce(gpu().exec, ds);
  expect_close(cpu_out, dout.download(), tol,
               std::string("reduce ") + std::to_string(int(op)) + " " + dtype_name(in_dt) + " [" + std::to_string(r) +
                   ", " + std::to_string(c) + "] over " + dims);
}

}  // namespace

TEST_CASE("cuda: reductions match the CPU") {
  if (!have_gpu()) return;
  struct Shape2 { int64_t r, c; };
  std::vector<Shape2> shapes;
  for (int64_t n : kSizes) shapes.push_back({1, n});
  for (Shape2 s : {Shape2{7, 1}, Shape2{7, 1023}, Shape2{1023, 7}, Shape2{1000, 1000}, Shape2{3, 333334},
                   Shape2{333334, 3}})
    shapes.push_back(s);
  const ReduceOp ops[] = {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min,
                          ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::Any, ReduceOp::All};
  for (DType dt : {DType::Float32, DType::Float64, DType::Int64, DType::Float16, DType::BFloat16})
    for (ReduceOp op : ops)
      for (Shape2 sh : shapes) {
        const int64_t n = sh.r * sh.c;
        const bool prod = op == ReduceOp::Prod;
        if (prod && n > 5000) continue;  // products of many values only overflow
        // Products near 1; ties (small integers) for the arg ops.
        HostArr in = prod ? random_arr(dt, n, 0.9, 1.1) : random_arr(dt, n, -3, 3);
        if (prod && !is_floating(dt))
          for (int64_t i = 0; i < n; ++i) in.set(i, (i % 5 == 0) ? -1 : 1);
        if (op == ReduceOp::Max && is_floating(dt) && n > 100) in.set(n / 2, NAN);  // NaN propagates
        DType out_dt = dt;
        if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) out_dt = DType::Int64;
        else if (op == ReduceOp::Any || op == ReduceOp::All) out_dt = DType::Bool;
        else if ((op == ReduceOp::Sum || prod) && !is_floating(dt)) out_dt = DType::Int64;
        // Float sums accumulate in a different order (and in float, not double).
        double tol = tolerance(out_dt);
        if (op == ReduceOp::Sum && is_floating(dt)) tol = (dt == DType::Float64 ? 1e-10 : 1e-4) * std::sqrt(double(n)) + tol;
        if (prod && is_floating(dt)) tol = std::max(tol, 1e-4) * 4;
        for (const char* dims : {"01", "0", "1"}) compare_reduce(op, dt, out_dt, sh.r, sh.c, dims, in, tol);
      }
}

namespace {

void compare_gemm(DType dt, int64_t m, int64_t n, int64_t k, bool ta, bool tb, int64_t batch, double beta) {
  HostArr a = random_arr(dt, batch * m * k, -1, 1), b = random_arr(dt, batch * k * n, -1, 1);
  HostArr c = random_arr(dt, batch * m * n, -1, 1);
  GemmSpec g;
  g.dtype = dt;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = ta ? m : k;
  g.ldb = tb ? k : n;
  g.ldc = n;
  g.stride_a = m * k;
  g.stride_b = k * n;
  g.stride_c = m * n;
  g.batch = batch;
  g.alpha = 1.5;
  g.beta = beta;
  DevArr da(a), db(b), dc(c);
  GemmSpec hs = g;
  hs.a = a.data();
  hs.b = b.data();
  hs.c = c.data();
  cpu_kernels().gemm(nullptr, hs);
  GemmSpec ds = g;
  ds.a = da.p;
  ds.b = db.p;
  ds.c = dc.p;
  gpu().k->gemm(gpu().exec, ds);
  double tol = tolerance(dt);
  if (is_floating(dt)) tol = std::max(tol, 1e-6) * double(k + 2) * (dt == DType::Float16 || dt == DType::BFloat16 ? 1 : 4);
  expect_close(c, dc.download(), tol,
               std::string("gemm ") + dtype_name(dt) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                   " k=" + std::to_string(k) + " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) +
                   " batch=" + std::to_string(batch));
}

}  // namespace

TEST_CASE("cuda: gemm matches the CPU") {
  if (!have_gpu()) return;
  cuda::set_allow_tf32(false);
  struct Dims { int64_t m, n, k; };
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64, DType::Int32})
    for (Dims d : {Dims{1, 1, 1}, Dims{7, 5, 3}, Dims{33, 17, 65}, Dims{128, 96, 200}})
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          compare_gemm(dt, d.m, d.n, d.k, ta, tb, 1, 0);
          compare_gemm(dt, d.m, d.n, d.k, ta, tb, 3, 0.5);
        }
  compare_gemm(DType::Float32, 1023, 511, 257, false, false, 1, 0);
}

TEST_CASE("cuda: random fills have the right moments and follow the seed") {
  if (!have_gpu()) return;
  auto draw = [](DType dt, RandomKind kind, int64_t n, double a, double b) {
    DevArr d(dt, n);
    RandomSpec s;
    s.kind = kind;
    s.out.data = d.p;
    s.out.dtype = dt;
    s.numel = n;
    s.a = a;
    s.b = b;
    gpu().k->random(gpu().exec, s);
    return d.download();
  };
  auto moments = [](const HostArr& h, double* mean, double* var, double* lo, double* hi) {
    double s = 0, s2 = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int64_t i = 0; i < h.n; ++i) {
      const double v = h.get(i);
      s += v;
      s2 += v * v;
      *lo = std::min(*lo, v);
      *hi = std::max(*hi, v);
    }
    *mean = s / double(h.n);
    *var = s2 / double(h.n) - *mean * *mean;
  };
  double m, v, lo, hi;
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16}) {
    const double tol = dt == DType::BFloat16 ? 0.03 : 0.01;
    moments(draw(dt, RandomKind::Uniform, 1000003, 2, 4), &m, &v, &lo, &hi);
    CHECK(std::fabs(m - 3) < tol);
    CHECK(std::fabs(v - 1.0 / 3) < tol);
    CHECK(lo >= 2);
    CHECK(hi <= 4);
    moments(draw(dt, RandomKind::Normal, 1000003, -1, 2), &m, &v, &lo, &hi);
    CHECK(std::fabs(m + 1) < 2 * tol);
    CHECK(std::fabs(v - 4) < 8 * tol);
  }
  for (DType dt : {DType::Int64, DType::Int32, DType::Float32}) {
    moments(draw(dt, RandomKind::IntRange, 1000003, -5, 5), &m, &v, &lo, &hi);
    CHECK(lo == -5);
    CHECK(hi == 4);
    CHECK(std::fabs(m + 0.5) < 0.02);
  }
  for (int64_t n : kSizes) {
    cuda::kernels().seed(gpu().exec, 42);
    HostArr x = draw(DType::Float32, RandomKind::Normal, n, 0, 1);
    HostArr y = draw(DType::Float32, RandomKind::Normal, n, 0, 1);
    cuda::kernels().seed(gpu().exec, 42);
    HostArr z = draw(DType::Float32, RandomKind::Normal, n, 0, 1);
    CHECK(std::memcmp(x.data(), z.data(), size_t(n) * 4) == 0);
    CHECK(std::memcmp(x.data(), y.data(), size_t(n) * 4) != 0);
  }
}
