// torch.distributed's default process group on gloo (Debian's libgloo): its
// rendezvous, its collectives and point-to-point ops on tensors of any device.
// Tensors not contiguous on the CPU (virtual or real CUDA devices included) go
// through a host copy, as PyTorch's gloo backend stages CUDA tensors.
// Collectives run in order on one worker thread, so async_op handles overlap
// with the caller's work; send/recv are posted at once and waited in wait().
// Built without gloo, init_process_group raises and says why.
#pragma once
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl::dist {

enum class ReduceOp { Sum, Avg, Product, Min, Max };

struct InitOptions {
  std::string backend = "gloo";
  std::string init_method = "env://";
  int rank = -1, world_size = -1;              // -1: from the environment (env://) or the URL
  std::chrono::milliseconds timeout{1800000};  // PyTorch's default: 30 minutes
};

// A handle on an operation (PyTorch's Work): wait() blocks until it is done,
// rethrows its error, and copies staged results back into the caller's tensors.
class Work {
 public:
  ~Work();  // a dropped handle still lets its operation finish with its buffers
  void wait();
  bool is_completed();
  std::shared_future<void> done;
  std::vector<std::function<void()>> finish;  // run once, on the waiting thread
  std::function<void()> blocking_wait;        // send/recv: gloo's own wait
  std::vector<Tensor> keep;                   // buffers the worker writes, alive until the handle goes
  bool is_recv = false;                       // a recv: source_rank is the sender's, once waited
  int source_rank = -1;

 private:
  bool finished_ = false;
};
using WorkPtr = std::shared_ptr<Work>;

bool gloo_available();
// Built with CUDA and libnccl.so.2 opens (GPULAB_NCCL_LIBRARY names another
// file); `why` gets dlopen's reason when not.
bool nccl_available(std::string* why = nullptr);
void init_process_group(const InitOptions& o);
bool is_initialized();
int get_rank();
int get_world_size();
std::string get_backend();
void destroy_process_group();

WorkPtr barrier();
WorkPtr all_reduce(const Tensor& t, ReduceOp op);
WorkPtr broadcast(const Tensor& t, int src);
WorkPtr all_gather(const std::vector<Tensor>& outs, const Tensor& in);
WorkPtr reduce_scatter(const Tensor& out, const std::vector<Tensor>& ins, ReduceOp op);
WorkPtr send(const Tensor& t, int dst, int tag);
// src < 0: from any other rank (PyTorch's recv_anysource); the handle's
// source_rank says which, after wait().
WorkPtr recv(const Tensor& t, int src, int tag);

}  // namespace gl::dist
