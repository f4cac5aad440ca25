// The NCCL side of a process group made with backend='nccl': libnccl.so.2 is
// opened with dlopen on first use (never linked), so a gpulab built with CUDA
// still starts, and runs gloo, where NCCL is not installed. NCCL's ABI is
// declared below (the few calls used), so nccl.h is not needed to build.
// Each GPU gets one communicator, made on its first collective: rank 0 draws
// the unique id and passes it through the group's store (the one gloo's
// rendezvous used). Work is queued on the tensor's device stream, where
// gpulab's kernels run, so the handle is complete as far as the host is
// concerned (PyTorch's wait() on NCCL work also only orders streams).
#include <dlfcn.h>
#include <cstdlib>
#include <map>
#include <mutex>
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/dist/group_state.h"
#include "tensor/dist/process_group.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/cuda_device_guard.h"
#include "tensor/runtime/registry.h"

namespace gl::dist {

#if GPULAB_HAVE_CUDA && GPULAB_HAVE_GLOO
}  // namespace gl::dist
#include <gloo/common/error.h>
namespace gl::dist {

namespace {

// ---- NCCL's ABI (nccl.h, stable since 2.x) -------------------------------------
using ncclComm_t = struct ncclComm*;
using ncclResult_t = int;  // 0: ncclSuccess
struct ncclUniqueId {
  char internal[128];
};
enum ncclDataType_t {
  ncclInt8 = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclInt64 = 4,
  ncclFloat16 = 6,
  ncclFloat32 = 7,
  ncclFloat64 = 8,
  ncclBfloat16 = 9
};
enum ncclRedOp_t { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4 };
using cudaStream_t = void*;

using ncclGetVersion_t = ncclResult_t (*)(int*);
using ncclGetUniqueId_t = ncclResult_t (*)(ncclUniqueId*);
using ncclCommInitRank_t = ncclResult_t (*)(ncclComm_t*, int, ncclUniqueId, int);
using ncclCommDestroy_t = ncclResult_t (*)(ncclComm_t);
using ncclGetErrorString_t = const char* (*)(ncclResult_t);
using ncclGetLastError_t = const char* (*)(ncclComm_t);
using ncclAllReduce_t = ncclResult_t (*)(const void*, void*, size_t, int, int, ncclComm_t, cudaStream_t);
using ncclBroadcast_t = ncclResult_t (*)(const void*, void*, size_t, int, int, ncclComm_t, cudaStream_t);
using ncclAllGather_t = ncclResult_t (*)(const void*, void*, size_t, int, ncclComm_t, cudaStream_t);
using ncclReduceScatter_t = ncclResult_t (*)(const void*, void*, size_t, int, int, ncclComm_t, cudaStream_t);
using ncclSend_t = ncclResult_t (*)(const void*, size_t, int, int, ncclComm_t, cudaStream_t);
using ncclRecv_t = ncclResult_t (*)(void*, size_t, int, int, ncclComm_t, cudaStream_t);

// clang-format off
#define GL_NCCL_FUNCTIONS(X)                                                                               \
  X(ncclGetVersion) X(ncclGetUniqueId) X(ncclCommInitRank) X(ncclCommDestroy) X(ncclGetErrorString)       \
  X(ncclGetLastError) X(ncclAllReduce) X(ncclBroadcast) X(ncclAllGather) X(ncclReduceScatter) X(ncclSend) \
  X(ncclRecv)
// clang-format on

struct Api {
#define GL_NCCL_FIELD(name) name##_t name = nullptr;
  GL_NCCL_FUNCTIONS(GL_NCCL_FIELD)
#undef GL_NCCL_FIELD
  bool ok = false;
  std::string error;
  std::string version;  // "2.28.3"
};

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
    // GPULAB_NCCL_LIBRARY names another file; else the loader's path, then the toolkit's.
    const char* env = std::getenv("GPULAB_NCCL_LIBRARY");
    void* lib = nullptr;
    if (env && *env) {
      lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    } else {
      lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
      for (const char* p : {"/usr/local/cuda/lib64/libnccl.so.2", "/usr/local/cuda/lib/libnccl.so.2"})
        if (!lib) lib = dlopen(p, RTLD_NOW | RTLD_LOCAL);
      if (!lib) lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);  // dlerror() names the soname
    }
    if (!lib) {
      a.error = dlerror();
      return;
    }
#define GL_NCCL_SYM(name) \
  a.name = reinterpret_cast<name##_t>(dlsym(lib, #name)); \
  if (!a.name) { \
    a.error = std::string("symbol ") + #name + " not found in libnccl.so.2"; \
    return; \
  }
    GL_NCCL_FUNCTIONS(GL_NCCL_SYM)
#undef GL_NCCL_SYM
    int v = 0;
    a.ncclGetVersion(&v);  // major * 10000 + minor * 100 + patch since 2.9
    a.version = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
    a.ok = true;
  });
  return a;
}

// PyTorch's C10D_NCCL_CHECK text: the call's error, NCCL's version, its last error.
void check(ncclResult_t r, const char* call, ncclComm_t comm = nullptr) {
  if (r == 0) return;
  const Api& a = api();
  const char* last = a.ncclGetLastError ? a.ncclGetLastError(comm) : "";
  throw RuntimeError(cat("NCCL error in: ", call, ", ", a.ncclGetErrorString(r), ", NCCL version ", a.version,
                         "\nLast error:\n", last ? last : ""));
}

}  // namespace

struct NcclComms {
  std::map<int, ncclComm_t> by_gpu;  // physical ordinal -> communicator
  int made = 0;                      // communicators made so far: the store key's number
};

namespace {

struct Target {
  ncclComm_t comm;
  void* stream;
};

// The tensor's GPU, its stream and its communicator (made now if it is the first use).
Target target(Group& g, const Tensor& t) {
  const Device d = t.device();
  if (d.is_cpu()) throw RuntimeError("No backend type associated with device type cpu");
  const DeviceSlot& s = slot_for(d);
  if (s.host_memory || s.physical < 0)  // an emulated device: no GPU behind it
    throw RuntimeError("nccl2 requires at least one CUDA device");
  if (!g.nccl) g.nccl = new NcclComms;
  auto it = g.nccl->by_gpu.find(s.physical);
  if (it == g.nccl->by_gpu.end()) {
    const Api& a = api();
    ncclUniqueId id{};
    const std::string key = "nccl_unique_id_" + std::to_string(g.nccl->made++);
    try {
      if (g.rank == 0) {
        check(a.ncclGetUniqueId(&id), "ncclGetUniqueId");
        g.store->set(key, std::vector<char>(id.internal, id.internal + sizeof id.internal));
      } else {
        std::vector<char> v = g.store->get(key);  // waits for rank 0, up to the group's timeout
        GL_CHECK(v.size() == sizeof id.internal, "NCCL unique id of the wrong size in the store");
        std::copy(v.begin(), v.end(), id.internal);
      }
    } catch (const gloo::Exception& e) { throw RuntimeError(e.what()); }
    ncclComm_t comm = nullptr;
    {
      cuda::DeviceGuard device_guard(s.physical);  // ncclCommInitRank binds the current device
      check(a.ncclCommInitRank(&comm, g.size, id, g.rank), "ncclCommInitRank");
    }
    it = g.nccl->by_gpu.emplace(s.physical, comm).first;
  }
  return {it->second, cuda::stream_of(s.exec)};
}

int nccl_dtype(DType dt) {
  switch (dt) {
    case DType::Bool:
    case DType::UInt8: return ncclUint8;
    case DType::Int8: return ncclInt8;
    case DType::Int32: return ncclInt32;
    case DType::Int64: return ncclInt64;
    case DType::Float16: return ncclFloat16;
    case DType::BFloat16: return ncclBfloat16;
    case DType::Float32: return ncclFloat32;
    case DType::Float64: return ncclFloat64;
    default: break;
  }
  throw RuntimeError(cat("Input tensor data type is not supported for NCCL process group: ", dtype_legacy_name(dt)));
}

// Bool reduces as logical or / and, as PyTorch's getNcclReduceOp does.
int nccl_op(ReduceOp op, DType dt) {
  switch (op) {
    case ReduceOp::Sum: return dt == DType::Bool ? ncclMax : ncclSum;
    case ReduceOp::Product: return dt == DType::Bool ? ncclMin : ncclProd;
    case ReduceOp::Max: return ncclMax;
    case ReduceOp::Min: return ncclMin;
    case ReduceOp::Avg:
      if (dt == DType::Bool) throw ValueError("Cannot use ReduceOp.AVG with boolean inputs");
      return ncclAvg;
  }
  throw RuntimeError("unknown ReduceOp");
}

// A contiguous tensor NCCL may write: the tensor itself, or a copy written back on wait().
struct Dense {
  Tensor user, dense;
  bool copy_back = false;
};
Dense dense(const Tensor& t) {
  if (t.is_contiguous()) return {t, t, false};
  NoGradGuard ng;
  return {t, contiguous(t), true};
}
WorkPtr done_work(const std::vector<Dense>& back) {
  auto w = std::make_shared<Work>();
  for (const Dense& d : back) {
    if (!d.copy_back) continue;
    w->finish.push_back([d] {
      NoGradGuard ng;
      Tensor u = d.user;
      copy_(u, d.dense);
    });
  }
  return w;
}

}  // namespace

bool nccl_available(std::string* why) {
  const Api& a = api();
  if (!a.ok && why) *why = a.error;
  return a.ok;
}

void nccl_check_init() {
  std::string why;
  if (!nccl_available(&why))
    throw RuntimeError("Distributed package doesn't have NCCL built in (gpulab could not load libnccl.so.2: " + why +
                       "; install NCCL, e.g. NVIDIA's libnccl2 package, and see `gpulab doctor`)");
  // PyTorch 2.15's "nccl" (its nccl2 engine) binds a GPU at init and says this
  // without one; emulated devices have no GPU behind them either.
  if (physical_cuda_device_count() == 0) throw RuntimeError("nccl2 requires at least one CUDA device");
}

void nccl_destroy(Group& g) {
  if (!g.nccl) return;
  for (auto& [gpu, comm] : g.nccl->by_gpu) api().ncclCommDestroy(comm);
  delete g.nccl;
  g.nccl = nullptr;
}

WorkPtr nccl_all_reduce(Group& g, const Tensor& t, ReduceOp op) {
  Target x = target(g, t);
  Dense d = dense(t);
  const int dt = nccl_dtype(t.dtype()), o = nccl_op(op, t.dtype());
  void* p = d.dense.data_ptr();
  check(api().ncclAllReduce(p, p, size_t(t.numel()), dt, o, x.comm, x.stream), "ncclAllReduce", x.comm);
  return done_work({d});
}

WorkPtr nccl_broadcast(Group& g, const Tensor& t, int src) {
  GL_CHECK(src >= 0 && src < g.size, "ProcessGroupNCCL::broadcast: invalid root rank: ", src);
  Target x = target(g, t);
  Dense d = dense(t);
  void* p = d.dense.data_ptr();
  check(api().ncclBroadcast(p, p, size_t(t.numel()), nccl_dtype(t.dtype()), src, x.comm, x.stream), "ncclBroadcast",
        x.comm);
  return done_work({d});
}

WorkPtr nccl_all_gather(Group& g, const std::vector<Tensor>& outs, const Tensor& in) {
  Target x = target(g, in);
  for (const Tensor& o : outs)
    GL_CHECK(o.device() == in.device(), "Tensors must be on the same device as the input (", in.device().str(), ")");
  Dense d = dense(in);
  std::vector<int64_t> shape = in.sizes();
  shape.insert(shape.begin(), g.size);
  Tensor flat = empty_on(shape, in.dtype(), in.device());
  check(api().ncclAllGather(d.dense.data_ptr(), flat.data_ptr(), size_t(in.numel()), nccl_dtype(in.dtype()), x.comm,
                            x.stream),
        "ncclAllGather", x.comm);
  auto w = std::make_shared<Work>();
  w->finish.push_back([outs, flat] {
    NoGradGuard ng;
    for (size_t i = 0; i < outs.size(); ++i) {
      Tensor o = outs[i];
      copy_(o, select(flat, 0, int64_t(i)));
    }
  });
  return w;
}

WorkPtr nccl_reduce_scatter(Group& g, const Tensor& out, const std::vector<Tensor>& ins, ReduceOp op) {
  Target x = target(g, out);
  std::vector<int64_t> shape = out.sizes();
  shape.insert(shape.begin(), g.size);
  Tensor flat = empty_on(shape, out.dtype(), out.device());
  {
    NoGradGuard ng;
    for (size_t i = 0; i < ins.size(); ++i) {
      Tensor dst = select(flat, 0, int64_t(i));
      copy_(dst, ins[i]);
    }
  }
  Dense d = dense(out);
  check(api().ncclReduceScatter(flat.data_ptr(), d.dense.data_ptr(), size_t(out.numel()), nccl_dtype(out.dtype()),
                                nccl_op(op, out.dtype()), x.comm, x.stream),
        "ncclReduceScatter", x.comm);
  return done_work({d});
}

WorkPtr nccl_send_recv(Group& g, const Tensor& t, int peer, bool send) {
  Target x = target(g, t);
  Dense d = dense(t);
  const size_t n = size_t(t.numel());
  const int dt = nccl_dtype(t.dtype());
  if (send) check(api().ncclSend(d.dense.data_ptr(), n, dt, peer, x.comm, x.stream), "ncclSend", x.comm);
  else check(api().ncclRecv(d.dense.data_ptr(), n, dt, peer, x.comm, x.stream), "ncclRecv", x.comm);
  return done_work({d});
}

#else  // no CUDA (or no gloo for the store): PyTorch's CPU-only build says the same

bool nccl_available(std::string* why) {
  if (why) *why = "gpulab was built without CUDA (or without gloo, whose store NCCL's rendezvous uses)";
  return false;
}
#if GPULAB_HAVE_GLOO
struct NcclComms {};
void nccl_check_init() { throw RuntimeError("Distributed package doesn't have NCCL built in"); }
void nccl_destroy(Group&) {}
static WorkPtr none() { throw RuntimeError("Distributed package doesn't have NCCL built in"); }
WorkPtr nccl_all_reduce(Group&, const Tensor&, ReduceOp) { return none(); }
WorkPtr nccl_broadcast(Group&, const Tensor&, int) { return none(); }
WorkPtr nccl_all_gather(Group&, const std::vector<Tensor>&, const Tensor&) { return none(); }
WorkPtr nccl_reduce_scatter(Group&, const Tensor&, const std::vector<Tensor>&, ReduceOp) { return none(); }
WorkPtr nccl_send_recv(Group&, const Tensor&, int, bool) { return none(); }
#endif

#endif

}  // namespace gl::dist
