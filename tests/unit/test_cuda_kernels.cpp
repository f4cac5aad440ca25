// Every CUDA kernel family against gl::cpu_kernels() on the same host data
// (specs built by hand), in every dtype, at sizes 1, 7, 1023 and 10^6+3.
#include "cuda_util.h"

using namespace gl;
using namespace gl::cuda_test;

TEST_CASE("cuda: unary ops match the CPU") {
  if (!have_gpu()) return;
  const UnaryOp ops[] = {UnaryOp::Neg,        UnaryOp::Abs,    UnaryOp::Exp,   UnaryOp::Log,
                         UnaryOp::Sqrt,       UnaryOp::Sin,    UnaryOp::Tanh,  UnaryOp::Sigmoid,
                         UnaryOp::Relu,       UnaryOp::Sign,   UnaryOp::Floor, UnaryOp::Round,
                         UnaryOp::Reciprocal, UnaryOp::Square, UnaryOp::IsNan, UnaryOp::LogicalNot};
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
        compare_loop(
            {&out, &in},
            [&](const std::vector<char*>& p) {
              return flat_loop(n, {{p[0], out_dt}, {p[1], dt}});
            },
            [&](const Kernels& k, void* ex, const LoopSpec& s) { k.unary(ex, op, s); }, tolerance(out_dt),
            std::string("unary ") + std::to_string(int(op)) + " " + dtype_name(dt) + " n=" + std::to_string(n));
      }
      // A transposed (strided) input.
      const int64_t r = 37, c = 29;
      HostArr in = random_arr(dt, r * c, positive ? 0.1 : -3, 3);
      HostArr out(out_dt, r * c);
      compare_loop(
          {&out, &in},
          [&](const std::vector<char*>& p) {
            return loop_2d(r, c, {{p[0], out_dt}, {p[1], dt}}, {{c, 1}, {1, r}});
          },
          [&](const Kernels& k, void* ex, const LoopSpec& s) { k.unary(ex, op, s); }, tolerance(out_dt),
          std::string("strided unary ") + std::to_string(int(op)) + " " + dtype_name(dt));
    }
}

TEST_CASE("cuda: binary ops match the CPU (tensors, scalars, broadcasting)") {
  if (!have_gpu()) return;
  const BinaryOp ops[] = {BinaryOp::Add,     BinaryOp::Sub,        BinaryOp::Mul,         BinaryOp::Div,
                          BinaryOp::Pow,     BinaryOp::Remainder,  BinaryOp::FloorDivide, BinaryOp::Maximum,
                          BinaryOp::Minimum, BinaryOp::Atan2,      BinaryOp::Eq,          BinaryOp::Lt,
                          BinaryOp::Ge,      BinaryOp::LogicalAnd, BinaryOp::BitXor};
  const DType dts[] = {DType::Float32, DType::Float64, DType::Int64, DType::Float16, DType::BFloat16};
  for (DType dt : dts)
    for (BinaryOp op : ops) {
      if (is_floating(dt) && op == BinaryOp::BitXor) continue;
      if (!is_floating(dt) && op == BinaryOp::Atan2) continue;
      const DType out_dt = is_comparison(op) ? DType::Bool : dt;
      const bool int_div =
          !is_floating(dt) && (op == BinaryOp::Div || op == BinaryOp::Remainder || op == BinaryOp::FloorDivide);
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
        compare_loop(
            {&out, &a, &b},
            [&](const std::vector<char*>& p) {
              return flat_loop(n, {{p[0], out_dt}, {p[1], dt}, {p[2], dt}});
            },
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
          compare_loop(
              {&o, &x},
              [&](const std::vector<char*>& p) {
                return flat_loop(n, {{p[0], out_dt}, {p[1], dt}});
              },
              run(sc), tolerance(out_dt), name + (first ? " scalar-first" : " scalar") + " n=" + std::to_string(n));
        }
      }
      // broadcasting: a [r, c] dense, b a row [1, c] (stride 0 over rows), out dense
      const int64_t r = 1000, c = 1003;
      HostArr a = random_arr(dt, r * c, pow ? 0.5 : -5, pow ? 2 : 5);
      HostArr b = random_arr(dt, c, pow ? 0 : -5, pow ? 3 : 5, int_div || !is_floating(dt));
      HostArr out(out_dt, r * c);
      compare_loop(
          {&out, &a, &b},
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
      compare_loop(
          {&out, &cond, &a, &b},
          [&](const std::vector<char*>& p) {
            return flat_loop(n, {{p[0], dt}, {p[1], DType::Bool}, {p[2], dt}, {p[3], dt}});
          },
          [](const Kernels& k, void* ex, const LoopSpec& s) { k.where(ex, s); }, 0,
          std::string("where ") + dtype_name(dt));
      for (Scalar v : {Scalar::from_double(-2.5), Scalar::from_int(7), Scalar::from_int(0), Scalar::from_bool(true)}) {
        HostArr o = random_arr(dt, n);
        compare_loop(
            {&o},
            [&](const std::vector<char*>& p) {
              return flat_loop(n, {{p[0], dt}});
            },
            [v](const Kernels& k, void* ex, const LoopSpec& s) { k.fill(ex, s, v); }, 0,
            std::string("fill ") + dtype_name(dt));
      }
    }
    // where with a broadcast condition column and a strided fill (every other element)
    const int64_t r = 513, c = 77;
    HostArr cond = random_arr(DType::Bool, r), a = random_arr(dt, r * c), b = random_arr(dt, c), out(dt, r * c);
    compare_loop(
        {&out, &cond, &a, &b},
        [&](const std::vector<char*>& p) {
          return loop_2d(r, c, {{p[0], dt}, {p[1], DType::Bool}, {p[2], dt}, {p[3], dt}},
                         {{c, 1}, {1, 0}, {c, 1}, {0, 1}});
        },
        [](const Kernels& k, void* ex, const LoopSpec& s) { k.where(ex, s); }, 0,
        std::string("broadcast where ") + dtype_name(dt));
    HostArr o = random_arr(dt, r * c * 2);
    compare_loop(
        {&o},
        [&](const std::vector<char*>& p) {
          return loop_2d(r, c, {{p[0], dt}}, {{2 * c, 2}});
        },
        [](const Kernels& k, void* ex, const LoopSpec& s) { k.fill(ex, s, Scalar::from_double(3.25)); }, 0,
        std::string("strided fill ") + dtype_name(dt));
  }
}

TEST_CASE("cuda: copy casts between dtypes like the CPU") {
  if (!have_gpu()) return;
  const DType dts[] = {DType::Float32,  DType::Float64, DType::Int64, DType::Float16,
                       DType::BFloat16, DType::Bool,    DType::Int32, DType::UInt8};
  for (DType src : dts)
    for (DType dst : dts) {
      const std::string name = std::string("copy ") + dtype_name(dst) + " <- " + dtype_name(src);
      const bool small_ints = dst == DType::UInt8 || src == DType::UInt8;
      for (int64_t n : kSizes) {
        HostArr in = random_arr(src, n, small_ints ? 0 : -100, small_ints ? 200 : 100), out(dst, n);
        compare_loop(
            {&out, &in},
            [&](const std::vector<char*>& p) {
              return flat_loop(n, {{p[0], dst}, {p[1], src}});
            },
            [](const Kernels& k, void* ex, const LoopSpec& s) { k.copy(ex, s); }, 0, name);
      }
      // transposed source into a dense destination
      const int64_t r = 300, c = 301;
      HostArr in = random_arr(src, r * c, small_ints ? 0 : -100, small_ints ? 200 : 100), out(dst, r * c);
      compare_loop(
          {&out, &in},
          [&](const std::vector<char*>& p) {
            return loop_2d(r, c, {{p[0], dst}, {p[1], src}}, {{c, 1}, {1, r}});
          },
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
  struct Shape2 {
    int64_t r, c;
  };
  std::vector<Shape2> shapes;
  for (int64_t n : kSizes) shapes.push_back({1, n});
  for (Shape2 s :
       {Shape2{7, 1}, Shape2{7, 1023}, Shape2{1023, 7}, Shape2{1000, 1000}, Shape2{3, 333334}, Shape2{333334, 3}})
    shapes.push_back(s);
  const ReduceOp ops[] = {ReduceOp::Sum,    ReduceOp::Prod,   ReduceOp::Max, ReduceOp::Min,
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
        if (op == ReduceOp::Sum && is_floating(dt))
          tol = (dt == DType::Float64 ? 1e-10 : 1e-4) * std::sqrt(double(n)) + tol;
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
  if (is_floating(dt))
    tol = std::max(tol, 1e-6) * double(k + 2) * (dt == DType::Float16 || dt == DType::BFloat16 ? 1 : 4);
  expect_close(c, dc.download(), tol,
               std::string("gemm ") + dtype_name(dt) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                   " k=" + std::to_string(k) + " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) +
                   " batch=" + std::to_string(batch));
}

}  // namespace

TEST_CASE("cuda: gemm matches the CPU") {
  if (!have_gpu()) return;
  cuda::set_allow_tf32(false);
  struct Dims {
    int64_t m, n, k;
  };
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
    s.lo = int64_t(a);  // integer ranges read lo and hi
    s.hi = int64_t(b);
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
    CHECK(hi < 4);  // half and bfloat16 round 1 in 2^11 (2^8) draws up to 4 unless mapped back
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
