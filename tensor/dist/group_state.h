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
  int rank = 0, size = 1;
  std::chrono::milliseconds timeout{1800000};
  // The worker: collectives run one after another, in the order they were called.
  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::packaged_task<void()>> queue;
  bool stopping = false;
  uint32_t next_tag = 0;
};

Group& group();  // the default group; ValueError (PyTorch's words) when there is none
// Queues `task` on the worker and returns its handle.
WorkPtr enqueue(std::function<void()> task);

}  // namespace gl::dist
#endif
