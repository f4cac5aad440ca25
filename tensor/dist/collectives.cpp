// The collectives and point-to-point ops of the default group on gloo (see
// process_group.h): argument checks in PyTorch's words, host staging, then
// gloo's algorithm on the worker thread.
#if GPULAB_HAVE_GLOO
#include <cstring>
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/types.h>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/dist/group_state.h"
#include "tensor/ops/ops.h"

namespace gl::dist {

namespace {

// gloo's exceptions (a peer closed, a timeout) become RuntimeErrors with
// gloo's own text, which is what PyTorch shows too.
template <class F> void run_gloo(F&& f) {
  try {
    f();
  } catch (const gloo::Exception& e) { throw RuntimeError(e.what()); }
}

// PyTorch's gloo backend takes these dtypes and no others.
void check_dtype(const Tensor& t) {
  switch (t.dtype()) {
    case DType::Int16: throw RuntimeError("Invalid scalar type");
    default: break;
  }
}

// A contiguous host tensor for gloo: the tensor itself when it is one, else a
// copy whose result finish() writes back (on the thread that waits).
struct Staged {
  Tensor user, host;
  bool copy_back = false;
};
// PyTorch's AVG divides in place, which integer and bool tensors refuse.
void check_avg(const Tensor& t, ReduceOp op) {
  if (op == ReduceOp::Avg && !is_floating(t.dtype()))
    throw RuntimeError(std::string("result type Float can't be cast to the desired output type ") +
                       dtype_legacy_name(t.dtype()));
}

Staged stage(const Tensor& t) {
  check_dtype(t);
  if (t.device().is_cpu() && t.is_contiguous()) return {t, t, false};
  return {t, contiguous(to(t, Device(Device::CPU), std::nullopt, /*copy=*/true)), true};
}
void add_copy_back(const WorkPtr& w, const Staged& s) {
  if (!s.copy_back) return;
  w->finish.push_back([s] {
    NoGradGuard ng;
    Tensor u = s.user;
    copy_(u, s.host);
  });
}

template <class T> gloo::AllreduceOptions::Func reduce_fn(ReduceOp op) {
  // Half and BFloat16 reduce in float; bool as logical or / and, as PyTorch's gloo.
  using A = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;
  auto loop = [](auto f) {
    return [f](void* o, const void* a, const void* b, size_t n) {
      T* out = static_cast<T*>(o);
      const T* x = static_cast<const T*>(a);
      const T* y = static_cast<const T*>(b);
      for (size_t i = 0; i < n; ++i) out[i] = T(f(A(x[i]), A(y[i])));
    };
  };
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Avg:
      if constexpr (std::is_same_v<T, bool>) return loop([](A p, A q) { return p || q; });
      else return loop([](A p, A q) { return A(p + q); });
    case ReduceOp::Product:
      if constexpr (std::is_same_v<T, bool>) return loop([](A p, A q) { return p && q; });
      else return loop([](A p, A q) { return A(p * q); });
    case ReduceOp::Max: return loop([](A p, A q) { return p < q ? q : p; });
    case ReduceOp::Min: return loop([](A p, A q) { return q < p ? q : p; });
  }
  throw RuntimeError("unknown ReduceOp");
}

// A host buffer as the worker sees it: no Tensor crosses to the worker thread,
// so every tensor is freed on the caller's (the allocators are not shared).
struct Buf {
  char* p;
  int64_t n;
  DType dt;
  template <class T> T* data() const { return reinterpret_cast<T*>(p); }
  int64_t numel() const { return n; }
  DType dtype() const { return dt; }
};
Buf buf_of(const Tensor& t) { return {t.data_ptr(), t.numel(), t.dtype()}; }

// Sync-mode pairs write before they read, so a ring's chunks must fit in the
// sockets' buffers (else both sides block in write): one ring covers at most
// 2 MiB, and a larger float sum runs one ring per 2 MiB slice. The waiting
// thread reads its own socket, with no hand-off from gloo's loop thread, which
// on 2 cores also competed with both ranks: a 256 MB sum ran at 2.3-2.5 GB/s
// this way against 1.2-1.5 on gloo's unbound buffers (bench/README.md).
constexpr int64_t kSyncMaxBytes = int64_t(2) << 20;

// All-reduce of host buffer h (on the worker thread).
void allreduce_host(Group& g, const Buf& h, ReduceOp op) {
  const int64_t n = h.numel();
  if (n == 0) return;
  const bool float_sum = (op == ReduceOp::Sum || op == ReduceOp::Avg) &&
                         (h.dtype() == DType::Float32 || h.dtype() == DType::Float64) && g.sync_context;
  if (float_sum) {
    try {
      // Slices of kSyncMaxBytes, one ring each (elementwise, so slices are independent).
      const int64_t per = kSyncMaxBytes / int64_t(itemsize(h.dtype()));
      for (int64_t off = 0; off < n; off += per) {
        const int m = int(std::min(per, n - off));
        if (h.dtype() == DType::Float32)
          gloo::AllreduceRingChunked<float>(g.sync_context, {h.data<float>() + off}, m).run();
        else gloo::AllreduceRingChunked<double>(g.sync_context, {h.data<double>() + off}, m).run();
      }
    } catch (const gloo::IoException& e) {
      // A sync-mode read says "Read timeout"; PyTorch (whose gloo waits in
      // its unbound buffers) says this, so the text is the same either way.
      if (std::strstr(e.what(), "Read timeout"))
        throw RuntimeError(
            cat("Timed out waiting ", g.timeout.count(), "ms for recv operation to complete (gloo: ", e.what(), ")"));
      throw RuntimeError(e.what());
    } catch (const gloo::Exception& e) { throw RuntimeError(e.what()); }
  } else
    run_gloo([&] {
      gloo::AllreduceOptions o(g.context);
      dispatch_dtype(h.dtype(), [&](auto x) {
        using T = decltype(x);
        o.setOutput<T>(h.data<T>(), size_t(n));
        o.setReduceFunction(reduce_fn<T>(op));
      });
      gloo::allreduce(o);
    });
  if (op == ReduceOp::Avg) {
    dispatch_dtype(h.dtype(), [&](auto x) {
      using T = decltype(x);
      if constexpr (!std::is_same_v<T, bool>) {
        T* p = h.data<T>();
        for (int64_t i = 0; i < n; ++i) p[i] = T(double(p[i]) / g.size);
      }
    });
  }
}

std::string sizes_text(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + ")";
}

}  // namespace

WorkPtr barrier() {
  Group& g = group();
  return enqueue([&g] {
    run_gloo([&] {
      gloo::BarrierOptions o(g.context);
      gloo::barrier(o);
    });
  });
}

WorkPtr all_reduce(const Tensor& t, ReduceOp op) {
  Group& g = group();
  check_avg(t, op);
  if (g.backend == "nccl") return nccl_all_reduce(g, t, op);
  check_dtype(t);
  Staged s = stage(t);
  WorkPtr w = enqueue([&g, b = buf_of(s.host), op] { allreduce_host(g, b, op); });
  w->keep = {s.host};
  add_copy_back(w, s);
  return w;
}

WorkPtr broadcast(const Tensor& t, int src) {
  Group& g = group();
  if (g.backend == "nccl") return nccl_broadcast(g, t, src);
  GL_CHECK(src >= 0 && src < g.size, "ProcessGroupGloo::broadcast: invalid root rank: ", src);
  Staged s = stage(t);
  WorkPtr w = enqueue([&g, h = buf_of(s.host), src] {
    if (h.numel() == 0) return;
    run_gloo([&] {
      gloo::BroadcastOptions o(g.context);
      dispatch_dtype(h.dtype(), [&](auto x) {
        using T = decltype(x);
        o.setOutput<T>(h.data<T>(), size_t(h.numel()));
      });
      o.setRoot(src);
      gloo::broadcast(o);
    });
  });
  w->keep = {s.host};
  // Only the receivers' values changed.
  if (g.rank != src) add_copy_back(w, s);
  return w;
}

WorkPtr all_gather(const std::vector<Tensor>& outs, const Tensor& in) {
  Group& g = group();
  for (size_t i = 0; i < outs.size(); ++i)  // (PyTorch's text, its missing space included)
    GL_CHECK_T(ValueError, outs[i].dtype() == in.dtype(), "Invalid usage of tensors with different dtypesFound ",
               dtype_repr(in.dtype()), " and  ", dtype_repr(outs[i].dtype()));
  if (g.backend == "nccl") {
    GL_CHECK(int(outs.size()) == g.size,
             "Tensor list input to scatter/gather must match number of collective participants but got ", outs.size(),
             " inputs with world_size ", g.size, ".");
    return nccl_all_gather(g, outs, in);
  }
  GL_CHECK(int(outs.size()) == g.size, "ProcessGroupGloo::allgather: invalid output tensor list at index 0 ",
           "(expected length ", g.size, ", got ", outs.size(), ")");
  for (size_t i = 0; i < outs.size(); ++i) {
    GL_CHECK(outs[i].sizes() == in.sizes(), "ProcessGroupGloo::allgather: invalid tensor size at index ", i,
             " (expected ", sizes_text(in.sizes()), ", got ", sizes_text(outs[i].sizes()), ")");
  }
  Staged s = stage(in);
  std::vector<int64_t> shape = in.sizes();
  shape.insert(shape.begin(), g.size);
  Tensor flat = empty_on(shape, in.dtype(), Device(Device::CPU));
  WorkPtr w = enqueue([&g, h = buf_of(s.host), f = buf_of(flat)] {
    if (h.numel() == 0) return;
    run_gloo([&] {
      gloo::AllgatherOptions o(g.context);
      dispatch_dtype(h.dtype(), [&](auto x) {
        using T = decltype(x);
        o.setInput<T>(h.data<T>(), size_t(h.numel()));
        o.setOutput<T>(f.data<T>(), size_t(f.numel()));
      });
      gloo::allgather(o);
    });
  });
  w->keep = {s.host, flat};
  w->finish.push_back([outs, flat] {
    NoGradGuard ng;
    for (size_t i = 0; i < outs.size(); ++i) {
      Tensor o = outs[i];
      copy_(o, select(flat, 0, int64_t(i)));
    }
  });
  return w;
}

WorkPtr reduce_scatter(const Tensor& out, const std::vector<Tensor>& ins, ReduceOp op) {
  Group& g = group();
  GL_CHECK(int(ins.size()) == g.size, "invalid input tensor list size, must be world size");
  for (size_t i = 0; i < ins.size(); ++i) {
    GL_CHECK(ins[i].dtype() == out.dtype(), "ProcessGroupGloo::reduce_scatter: invalid tensor type at index ", i,
             " (expected ", dtype_repr(out.dtype()), ", got ", dtype_repr(ins[i].dtype()), ")");
    GL_CHECK(ins[i].sizes() == out.sizes(), "ProcessGroupGloo::reduce_scatter: invalid tensor size at index ", i,
             " (expected ", sizes_text(out.sizes()), ", got ", sizes_text(ins[i].sizes()), ")");
  }
  check_avg(out, op);
  if (g.backend == "nccl") return nccl_reduce_scatter(g, out, ins, op);
  check_dtype(out);
  // An all-reduce of every rank's whole list, of which each keeps its own part:
  // gloo's reduce-scatter algorithm wants one flat buffer per rank all the same.
  std::vector<int64_t> shape = out.sizes();
  shape.insert(shape.begin(), g.size);
  Tensor flat = empty_on(shape, out.dtype(), Device(Device::CPU));
  {
    NoGradGuard ng;
    for (size_t i = 0; i < ins.size(); ++i) {
      Tensor dst = select(flat, 0, int64_t(i));
      copy_(dst, ins[i]);
    }
  }
  WorkPtr w = enqueue([&g, b = buf_of(flat), op] { allreduce_host(g, b, op); });
  w->keep = {flat};
  const int r = g.rank;
  w->finish.push_back([out, flat, r] {
    NoGradGuard ng;
    Tensor o = out;
    copy_(o, select(flat, 0, r));
  });
  return w;
}

namespace {
// send and recv: gloo's unbound buffer on the staged host copy, posted now and
// waited in wait(); a recv's result is written back there.
WorkPtr send_recv(const Tensor& t, int peer, int tag, bool is_send) {
  Group& g = group();
  const char* what = is_send ? "destination" : "source";
  const bool any = !is_send && peer < 0;  // recv from whichever rank sends first
  if (any && g.backend == "nccl") throw RuntimeError("ProcessGroupNCCL does not support recvAnysource");
  GL_CHECK_T(ValueError, peer != g.rank, "Invalid ", what, " rank: ", what,
             " rank should not be the same as the rank of the current process.");
  GL_CHECK_T(ValueError, any || (peer >= 0 && peer < g.size), "Invalid ", what, " rank: ", peer);
  if (g.backend == "nccl") {
    WorkPtr w = nccl_send_recv(g, t, peer, is_send);
    if (!is_send) w->is_recv = true, w->source_rank = peer;
    return w;
  }
  Staged s = stage(t);
  auto w = std::make_shared<Work>();
  std::shared_ptr<gloo::transport::UnboundBuffer> buf;
  run_gloo([&] {
    buf = g.context->createUnboundBuffer(s.host.data_ptr(), size_t(s.host.numel()) * itemsize(s.host.dtype()));
    const auto slot = gloo::Slot::build(0x7f, uint32_t(tag));
    if (is_send) {
      buf->send(peer, slot);
    } else if (any) {
      // gloo's recv from a list of ranks: the first message on this slot from
      // any of them (PyTorch's ProcessGroupGloo::recvAnysource does the same).
      std::vector<int> srcs;
      for (int i = 0; i < g.size; ++i)
        if (i != g.rank) srcs.push_back(i);
      buf->recv(srcs, slot);
    } else {
      buf->recv(peer, slot);
    }
  });
  Tensor keep = s.host;  // gloo uses it until the transfer completes
  Work* raw = w.get();   // the lambda lives in *w
  w->blocking_wait = [buf, keep, is_send, raw] {
    run_gloo([&] { is_send ? buf->waitSend() : buf->waitRecv(&raw->source_rank); });
  };
  w->is_recv = !is_send;
  if (!is_send) add_copy_back(w, s);
  return w;
}
}  // namespace

WorkPtr send(const Tensor& t, int dst, int tag) { return send_recv(t, dst, tag, true); }
WorkPtr recv(const Tensor& t, int src, int tag) { return send_recv(t, src, tag, false); }

}  // namespace gl::dist
#endif
