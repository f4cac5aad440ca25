// The default process group's state, shared by group.cpp (rendezvous, worker
// thread) and collectives.cpp (the ops). Internal to tensor/dist.
#pragma once
#if GPULAB_HAVE_GLOO
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include "tensor/dist/process_group.h"

namespace gl::dist {

struct Group {
  std::unique_ptr<gloo::rendezvous::Store> store;
  std::shared_ptr<gloo::transport::Device> device;
  std::shared_ptr<gloo::rendezvous::Context> context;
  // A second mesh whose pairs receive in sync mode: the waiting thread reads
  // the socket itself, with no hand-off from gloo's loop thread (each costs
  // a scheduler tick on a busy machine). Float sums (DDP's buckets) use it.
  std::shared_ptr<gloo::rendezvous::Context> sync_context;
  int rank = 0, size = 1;
  std::chrono::milliseconds timeout{1800000};
  // The worker: collectives run one after another, in the order they were called.
  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::packaged_task<void()>> queue;
  bool stopping = false;
  uint32_t next_tag = 0;
  // backend='nccl': CUDA tensors go through NCCL (nccl_group.cpp), one
  // communicator per GPU, made on first use; barrier stays on gloo.
  std::string backend = "gloo";
  struct NcclComms* nccl = nullptr;
};

Group& group();  // the default group; ValueError (PyTorch's words) when there is none
// Queues `task` on the worker and returns its handle.
WorkPtr enqueue(std::function<void()> task);

// NCCL (nccl_group.cpp; in CUDA builds, libnccl opened on first use).
// nccl_check_init throws PyTorch's errors when NCCL cannot run here.
void nccl_check_init();
void nccl_destroy(Group& g);
WorkPtr nccl_all_reduce(Group& g, const Tensor& t, ReduceOp op);
WorkPtr nccl_broadcast(Group& g, const Tensor& t, int src);
WorkPtr nccl_all_gather(Group& g, const std::vector<Tensor>& outs, const Tensor& in);
WorkPtr nccl_reduce_scatter(Group& g, const Tensor& out, const std::vector<Tensor>& ins, ReduceOp op);
WorkPtr nccl_send_recv(Group& g, const Tensor& t, int peer, bool send);

}  // namespace gl::dist
#endif
