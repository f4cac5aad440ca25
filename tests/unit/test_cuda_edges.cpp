// CUDA kernels at their edges: misaligned operands, empty launches, and
// tensors past 2^31 elements.
#include "cuda_util.h"

using namespace gl;
using namespace gl::cuda_test;

TEST_CASE("cuda: misaligned operands take the scalar path and match the CPU") {
  if (!have_gpu()) return;
  // Operands one element past a 16-byte boundary: no 128-bit loads allowed.
  for (DType dt : {DType::Float32, DType::Float16, DType::Int8, DType::Float64})
    for (int64_t n : {int64_t(2), int64_t(8), int64_t(1023), int64_t(1000003)}) {
      const size_t isz = itemsize(dt);
      const int64_t m = n - 1;
      HostArr a = random_arr(dt, n), b = random_arr(dt, n), out(dt, n);
      BinarySpec add;
      add.op = BinaryOp::Add;
      add.compute = dt;
      compare_loop(
          {&out, &a, &b},
          [&](const std::vector<char*>& p) {
            return flat_loop(m, {{p[0] + isz, dt}, {p[1], dt}, {p[2] + isz, dt}});
          },
          [add](const Kernels& k, void* ex, const LoopSpec& s) {
            BinarySpec bs = add;
            bs.loop = s;
            k.binary(ex, bs);
          },
          tolerance(dt), std::string("misaligned add ") + dtype_name(dt) + " n=" + std::to_string(n));
    }
}

TEST_CASE("cuda: empty launches are no-ops") {
  if (!have_gpu()) return;
  const Kernels& k = *gpu().k;
  void* ex = gpu().exec;
  LoopSpec s = flat_loop(0, {{nullptr, DType::Float32}, {nullptr, DType::Float32}});
  k.unary(ex, UnaryOp::Exp, s);
  k.copy(ex, s);
  k.fill(ex, s, Scalar::from_int(1));
  BinarySpec b;
  b.op = BinaryOp::Mul;
  b.compute = DType::Float32;
  b.loop = flat_loop(0, {{nullptr, DType::Float32}, {nullptr, DType::Float32}, {nullptr, DType::Float32}});
  k.binary(ex, b);
  ReduceSpec r;
  r.op = ReduceOp::Sum;
  r.out_numel = 0;
  k.reduce(ex, r);
  GemmSpec g;
  g.dtype = DType::Float32;
  k.gemm(ex, g);
  RandomSpec rs;
  rs.kind = RandomKind::Normal;
  k.random(ex, rs);
  CHECK_NOTHROW(cuda::synchronize(ex));
}

TEST_CASE("cuda: loops and reductions past 2^31 elements index with 64 bits") {
  if (!have_gpu()) return;
  int64_t free_b = 0, total_b = 0;
  cuda::mem_get_info(0, &free_b, &total_b);
  const int64_t n = (int64_t(1) << 31) + 33;  // elements of the strided loop
  if (free_b < 3 * n) {
    MESSAGE("skipped: needs " << 3 * n << " bytes of free GPU memory");
    return;
  }
  DevArr buf(DType::UInt8, 2 * n);
  const Kernels& k = *gpu().k;
  k.fill(gpu().exec, flat_loop(2 * n, {{buf.p, DType::UInt8}}), Scalar::from_int(0));
  LoopSpec every_other = flat_loop(n, {{buf.p, DType::UInt8}});
  every_other.contiguous = false;
  every_other.args[0].strides[0] = 2;
  k.fill(gpu().exec, every_other, Scalar::from_int(3));
  // Sum of all 2n bytes: a reduction over more than 2^32 elements.
  DevArr out(DType::Int64, 1);
  ReduceSpec r;
  r.op = ReduceOp::Sum;
  r.in.data = buf.p;
  r.in.dtype = DType::UInt8;
  r.out.data = out.p;
  r.out.dtype = DType::Int64;
  r.red_ndim = 1;
  r.red_shape[0] = 2 * n;
  r.in_red_strides[0] = 1;
  r.red_numel = 2 * n;
  r.out_numel = 1;
  k.reduce(gpu().exec, r);
  CHECK(out.download().get(0) == 3.0 * double(n));
  // The last strided element landed where 64-bit offsets put it.
  unsigned char tail[4] = {9, 9, 9, 9};
  cuda::memcpy(tail, nullptr, buf.p + 2 * n - 4, gpu().exec, 4);
  CHECK(tail[0] == 3);
  CHECK(tail[1] == 0);
  CHECK(tail[2] == 3);
  CHECK(tail[3] == 0);
}
