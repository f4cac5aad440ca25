// The CUDA reduction run on the host: the real plan (plan_reduce), argument
// blocks (make_red_args) and per-thread phases (reduce.cuh: accumulate, tree
// steps, write, and the second pass over split slices), with every thread of
// every block emulated in turn. Checked against a naive loop for inner, outer
// and scattered reduced dims, vector loads with misaligned heads, split
// reductions as an H100 would plan them, ties and NaN for argmax/argmin.
#if GPULAB_HAVE_CUDA
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>
#include "tensor/kernels/cuda/reduce.cuh"

using namespace gl;
using namespace gl::cuda;

namespace {

// Mirrors run_reduce and reduce_kernel / reduce_final_kernel in reduce.cu:
// threads of a block run phase by phase, as the barriers order them on a GPU.
template <class T, RKind K> void host_reduce(const ReduceSpec& s0, bool flag, int sm_count, int max_threads_per_sm) {
  using Op = RedOp<T, K>;
  using Acc = typename Op::Acc;
  constexpr int VEC = int(16 / sizeof(T));
  Op op;
  op.flag = flag;
  const ReduceSpec s = normalize_reduce(s0);
  const RedPlan plan = plan_reduce(s, sm_count, max_threads_per_sm, sizeof(Acc), VEC);
  REQUIRE(plan.bx * plan.by <= kRedThreads);
  REQUIRE(plan.splits * plan.chunk >= s.red_numel);
  std::vector<Acc> ws(size_t(plan.splits > 1 ? plan.splits * s.out_numel : 0));
  const RedArgs a = make_red_args(s, plan, ws.empty() ? nullptr : ws.data());
  const int bx = plan.bx, by = plan.by;
  std::vector<Acc> sh(size_t(bx * by));
  std::vector<int64_t> outs(size_t(bx * by));
  for (int64_t blk_y = 0; blk_y < plan.splits; ++blk_y)
    for (int64_t blk_x = 0; blk_x < plan.grid_x; ++blk_x) {
      for (int ty = 0; ty < by; ++ty)
        for (int tx = 0; tx < bx; ++tx)
          outs[size_t(ty * bx + tx)] =
              red_accumulate<VEC, T>(a, op, tx, ty, bx, by, blk_x, blk_y, sh[size_t(ty * bx + tx)]);
      for (int st = (a.inner ? bx : by) / 2; st > 0; st >>= 1)
        for (int ty = 0; ty < by; ++ty)
          for (int tx = 0; tx < bx; ++tx) red_tree_step(op, sh.data(), a.inner, tx, ty, bx, st);
      for (int ty = 0; ty < by; ++ty)
        for (int tx = 0; tx < bx; ++tx)
          red_write<T>(a, op, tx, ty, outs[size_t(ty * bx + tx)], blk_y, sh[size_t(ty * bx + tx)]);
    }
  if (plan.splits <= 1) return;
  const RedFinalArgs f = make_red_final_args(s, plan, ws.data());
  const int fx = plan.fx, fy = plan.fy;
  std::vector<Acc> fsh(size_t(fx * fy));
  for (int64_t blk_x = 0; blk_x < plan.fgrid; ++blk_x) {
    for (int ty = 0; ty < fy; ++ty)
      for (int tx = 0; tx < fx; ++tx)
        outs[size_t(ty * fx + tx)] = red_final_accumulate(f, op, tx, ty, fx, fy, blk_x, fsh[size_t(ty * fx + tx)]);
    for (int st = fy / 2; st > 0; st >>= 1)
      for (int ty = 0; ty < fy; ++ty)
        for (int tx = 0; tx < fx; ++tx) red_tree_step(op, fsh.data(), false, tx, ty, fx, st);
    for (int ty = 0; ty < fy; ++ty)
      for (int tx = 0; tx < fx; ++tx)
        red_final_write<T>(f, op, ty, outs[size_t(ty * fx + tx)], fsh[size_t(ty * fx + tx)]);
  }
}

// A reduction of a tensor of `shape` stored with `strides` (elements) over the
// dims in `red`, into a contiguous output over the kept dims.
struct Case {
  std::vector<int64_t> shape, strides;
  std::vector<int> red;
};

ReduceSpec make_spec(const Case& c, ReduceOp op, const void* in, DType in_dt, void* out, DType out_dt) {
  ReduceSpec s;
  s.op = op;
  s.in.data = static_cast<char*>(const_cast<void*>(in));
  s.in.dtype = in_dt;
  s.out.data = static_cast<char*>(out);
  s.out.dtype = out_dt;
  s.out_numel = 1;
  s.red_numel = 1;
  for (int d = 0; d < int(c.shape.size()); ++d) {
    if (std::find(c.red.begin(), c.red.end(), d) != c.red.end()) {
      s.red_shape[s.red_ndim] = c.shape[size_t(d)];
      s.in_red_strides[s.red_ndim++] = c.strides[size_t(d)];
      s.red_numel *= c.shape[size_t(d)];
    } else {
      s.out_shape[s.out_ndim] = c.shape[size_t(d)];
      s.in.strides[s.out_ndim++] = c.strides[size_t(d)];
      s.out_numel *= c.shape[size_t(d)];
    }
  }
  int64_t st = 1;
  for (int d = s.out_ndim - 1; d >= 0; --d) {
    s.out.strides[d] = st;
    st *= s.out_shape[d];
  }
  return s;
}

// Offsets in the input of output o's elements, in the reduced index order.
std::vector<int64_t> offsets_of(const ReduceSpec& s, int64_t o) {
  int64_t base = 0;
  for (int d = s.out_ndim - 1; d >= 0; --d) {
    base += (o % s.out_shape[d]) * s.in.strides[d];
    o /= s.out_shape[d];
  }
  std::vector<int64_t> offs(size_t(s.red_numel));
  for (int64_t r = 0; r < s.red_numel; ++r) {
    int64_t off = base, q = r;
    for (int d = s.red_ndim - 1; d >= 0; --d) {
      off += (q % s.red_shape[d]) * s.in_red_strides[d];
      q /= s.red_shape[d];
    }
    offs[size_t(r)] = off;
  }
  return offs;
}

// Row-major contiguous strides of `shape`, then permuted by `perm` (a
// transposed layout of the same shape).
std::vector<int64_t> strides_for(const std::vector<int64_t>& shape, const std::vector<int>& storage_order) {
  std::vector<int64_t> st(shape.size());
  int64_t s = 1;
  for (int i = int(storage_order.size()) - 1; i >= 0; --i) {
    st[size_t(storage_order[size_t(i)])] = s;
    s *= shape[size_t(storage_order[size_t(i)])];
  }
  return st;
}

std::vector<Case> cases() {
  std::vector<Case> cs;
  for (int64_t r : {1, 7, 1023, 100003}) {
    cs.push_back({{r}, {1}, {0}});                               // one output, unit stride (vector loads)
    cs.push_back({{3, r}, strides_for({3, r}, {0, 1}), {1}});    // inner rows
    cs.push_back({{r, 37}, strides_for({r, 37}, {0, 1}), {0}});  // outer: down the columns
    cs.push_back({{r, 5}, strides_for({r, 5}, {1, 0}), {0}});    // transposed storage
  }
  cs.push_back({{5, 6, 7}, strides_for({5, 6, 7}, {0, 1, 2}), {0, 2}});  // scattered reduced dims
  cs.push_back({{5, 6, 7}, strides_for({5, 6, 7}, {2, 0, 1}), {1}});
  cs.push_back({{4, 1, 9, 1}, strides_for({4, 1, 9, 1}, {0, 1, 2, 3}), {1, 2, 3}});  // size-1 dims dropped
  cs.push_back({{6, 9}, {9, 1}, {0, 1}});                                            // everything
  return cs;
}

// Machines the plan is made for: one SM (no splits) and an H100 (many).
const int kMachines[][2] = {{1, 2048}, {132, 2048}};

}  // namespace

TEST_CASE("cuda reduction on the host: float32 sum, max, min, argmax, argmin") {
  std::mt19937 rng(3);
  std::normal_distribution<float> nd;
  for (const Case& c : cases())
    for (int shift : {0, 1}) {  // shift: element 0 off a 16-byte boundary
      int64_t span = 1;
      for (size_t d = 0; d < c.shape.size(); ++d) span += (c.shape[d] - 1) * c.strides[d];
      std::vector<float> buf(static_cast<size_t>(span + 4));
      for (auto& v : buf) v = nd(rng);
      const float* in = buf.data() + shift;
      for (const auto& mach : kMachines) {
        CAPTURE(c.shape.size());
        CAPTURE(c.shape[0]);
        CAPTURE(shift);
        CAPTURE(mach[0]);
        ReduceSpec probe = make_spec(c, ReduceOp::Sum, in, DType::Float32, nullptr, DType::Float32);
        std::vector<float> sum(size_t(probe.out_numel)), mx(sum.size()), mn(sum.size());
        std::vector<int64_t> amax(sum.size()), amin(sum.size());
        host_reduce<float, RKind::Sum>(make_spec(c, ReduceOp::Sum, in, DType::Float32, sum.data(), DType::Float32),
                                       false, mach[0], mach[1]);
        host_reduce<float, RKind::MinMax>(make_spec(c, ReduceOp::Max, in, DType::Float32, mx.data(), DType::Float32),
                                          true, mach[0], mach[1]);
        host_reduce<float, RKind::MinMax>(make_spec(c, ReduceOp::Min, in, DType::Float32, mn.data(), DType::Float32),
                                          false, mach[0], mach[1]);
        host_reduce<float, RKind::Arg>(make_spec(c, ReduceOp::ArgMax, in, DType::Float32, amax.data(), DType::Int64),
                                       true, mach[0], mach[1]);
        host_reduce<float, RKind::Arg>(make_spec(c, ReduceOp::ArgMin, in, DType::Float32, amin.data(), DType::Int64),
                                       false, mach[0], mach[1]);
        for (int64_t o = 0; o < probe.out_numel; ++o) {
          const auto offs = offsets_of(probe, o);
          double ws = 0, wabs = 0;
          float wmx = -INFINITY, wmn = INFINITY;
          int64_t wamax = 0, wamin = 0;
          for (size_t r = 0; r < offs.size(); ++r) {
            const float v = in[offs[r]];
            ws += v;
            wabs += std::fabs(v);
            if (v > wmx) wmx = v, wamax = int64_t(r);
            if (v < wmn) wmn = v, wamin = int64_t(r);
          }
          CHECK(std::fabs(sum[size_t(o)] - ws) <= 1e-5 * wabs + 1e-6);
          CHECK(mx[size_t(o)] == wmx);
          CHECK(mn[size_t(o)] == wmn);
          CHECK(amax[size_t(o)] == wamax);
          CHECK(amin[size_t(o)] == wamin);
        }
      }
    }
}

TEST_CASE("cuda reduction on the host: integers wrap, ties go to the first index, NaN wins") {
  for (const Case& c : cases()) {
    int64_t span = 1;
    for (size_t d = 0; d < c.shape.size(); ++d) span += (c.shape[d] - 1) * c.strides[d];
    std::vector<int64_t> in(static_cast<size_t>(span));
    for (size_t i = 0; i < in.size(); ++i) in[i] = int64_t(i % 5) + (i % 7 == 3 ? INT64_MAX / 2 : 0);
    for (const auto& mach : kMachines) {
      ReduceSpec probe = make_spec(c, ReduceOp::Sum, in.data(), DType::Int64, nullptr, DType::Int64);
      std::vector<int64_t> sum(size_t(probe.out_numel)), amax(sum.size());
      host_reduce<int64_t, RKind::Sum>(make_spec(c, ReduceOp::Sum, in.data(), DType::Int64, sum.data(), DType::Int64),
                                       false, mach[0], mach[1]);
      host_reduce<int64_t, RKind::Arg>(
          make_spec(c, ReduceOp::ArgMax, in.data(), DType::Int64, amax.data(), DType::Int64), true, mach[0], mach[1]);
      for (int64_t o = 0; o < probe.out_numel; ++o) {
        const auto offs = offsets_of(probe, o);
        uint64_t ws = 0;  // wrap-around, as the CPU's sum
        int64_t best = INT64_MIN, arg = 0;
        for (size_t r = 0; r < offs.size(); ++r) {
          ws += uint64_t(in[size_t(offs[r])]);
          if (in[size_t(offs[r])] > best) best = in[size_t(offs[r])], arg = int64_t(r);
        }
        CHECK(sum[size_t(o)] == int64_t(ws));
        CHECK(amax[size_t(o)] == arg);
      }
    }
  }
  // NaN: max is NaN and argmax points at the first NaN, in any split
  std::vector<float> v(100003, 1.0f);
  v[70001] = NAN;
  v[90001] = NAN;
  Case one{{100003}, {1}, {0}};
  for (const auto& mach : kMachines) {
    float mx = 0;
    int64_t am = 0;
    host_reduce<float, RKind::MinMax>(make_spec(one, ReduceOp::Max, v.data(), DType::Float32, &mx, DType::Float32),
                                      true, mach[0], mach[1]);
    host_reduce<float, RKind::Arg>(make_spec(one, ReduceOp::ArgMax, v.data(), DType::Float32, &am, DType::Int64), true,
                                   mach[0], mach[1]);
    CHECK(std::isnan(mx));
    CHECK(am == 70001);
  }
}

TEST_CASE("cuda reduction on the host: half sums in float, bools any/all, uint8 sums to int64") {
  for (const auto& mach : kMachines) {
    std::vector<Half> h(30001, Half(1.0f));
    Case hc{{30001}, {1}, {0}};
    Half hs;
    host_reduce<Half, RKind::Sum>(make_spec(hc, ReduceOp::Sum, h.data(), DType::Float16, &hs, DType::Float16), false,
                                  mach[0], mach[1]);
    CHECK(float(hs) == 30000.0f);  // 30001 in float (a half sum would stop at 2048), rounded to half's spacing of 16
    Case one{{100003}, {1}, {0}};
    std::vector<unsigned char> b(1023, 0);
    b[1000] = 1;
    Case bc{{3, 341}, {341, 1}, {1}};
    bool any[3], all[3];
    host_reduce<bool, RKind::AnyAll>(make_spec(bc, ReduceOp::Any, b.data(), DType::Bool, any, DType::Bool), true,
                                     mach[0], mach[1]);
    std::fill(b.begin(), b.begin() + 341, 1);
    host_reduce<bool, RKind::AnyAll>(make_spec(bc, ReduceOp::All, b.data(), DType::Bool, all, DType::Bool), false,
                                     mach[0], mach[1]);
    CHECK(!any[0]);
    CHECK(!any[1]);
    CHECK(any[2]);
    CHECK(all[0]);
    CHECK(!all[1]);
    std::vector<uint8_t> u(100003, 255);
    int64_t us = 0;
    host_reduce<uint8_t, RKind::Sum>(make_spec(one, ReduceOp::Sum, u.data(), DType::UInt8, &us, DType::Int64), false,
                                     mach[0], mach[1]);
    CHECK(us == int64_t(100003) * 255);
  }
}

#endif  // GPULAB_HAVE_CUDA
