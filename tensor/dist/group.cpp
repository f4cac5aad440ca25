// init_process_group / destroy_process_group and the worker thread (see
// process_group.h). Without gloo, only the queries and a clear error remain.
#include <cstdlib>
#include "tensor/core/error.h"
#include "tensor/dist/process_group.h"
#if GPULAB_HAVE_GLOO
#include <sys/stat.h>
#include <unistd.h>
#include <gloo/common/error.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>
#include "tensor/dist/group_state.h"
#include "tensor/dist/tcp_store.h"
#endif

namespace gl::dist {

namespace {
// PyTorch raises AssertionError for a few misuses; gpulab's error kinds are open.
struct AssertionError : Error {
  using Error::Error;
  const char* kind() const override { return "AssertionError"; }
};
}  // namespace

Work::~Work() {
  try {
    if (blocking_wait) blocking_wait();
    if (done.valid()) done.wait();
  } catch (...) {}
}

void Work::wait() {
  if (blocking_wait) {
    auto f = std::move(blocking_wait);
    blocking_wait = nullptr;
    f();
  }
  if (done.valid()) done.get();  // rethrows the worker's exception
  if (!finished_) {
    finished_ = true;
    for (auto& f : finish) f();
  }
}

bool Work::is_completed() {
  if (blocking_wait) return false;
  return !done.valid() || done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

#if GPULAB_HAVE_GLOO

namespace {
// A plain pointer, never freed at exit: a script that ends (or fails) without
// destroy_process_group must not wait in a destructor for a worker blocked on
// a dead peer (the process would hang instead of exiting; the kernel closes
// the sockets, and the peers see the closed connection).
Group* g_group = nullptr;

ValueError rendezvous_error(const std::string& scheme, const std::string& msg) {
  return ValueError("Error initializing torch.distributed using " + scheme + " rendezvous: " + msg);
}

// "a=1&b=2" -> value of `key`, or "".
std::string query_value(const std::string& q, const std::string& key) {
  size_t p = 0;
  while (p < q.size()) {
    size_t e = q.find('&', p);
    if (e == std::string::npos) e = q.size();
    std::string kv = q.substr(p, e - p);
    if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
    p = e + 1;
  }
  return "";
}

int to_int(const std::string& s, const char* what) {
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  GL_CHECK_T(ValueError, !s.empty() && *end == 0, "invalid literal for int() with base 10: '", s, "' (", what, ")");
  return int(v);
}

void worker_loop(Group* g) {
  for (;;) {
    std::packaged_task<void()> t;
    {
      std::unique_lock<std::mutex> l(g->mu);
      g->cv.wait(l, [&] { return g->stopping || !g->queue.empty(); });
      if (g->queue.empty()) return;
      t = std::move(g->queue.front());
      g->queue.pop_front();
    }
    t();
  }
}
}  // namespace

bool gloo_available() { return true; }

Group& group() {
  if (!g_group)
    throw ValueError("Default process group has not been initialized, please make sure to call init_process_group.");
  return *g_group;
}

WorkPtr enqueue(std::function<void()> task) {
  Group& g = group();
  auto w = std::make_shared<Work>();
  std::packaged_task<void()> t(std::move(task));
  w->done = t.get_future().share();
  {
    std::lock_guard<std::mutex> l(g.mu);
    g.queue.push_back(std::move(t));
  }
  g.cv.notify_one();
  return w;
}

void init_process_group(const InitOptions& o) {
  if (g_group) throw ValueError("trying to initialize the default process group twice!");
  if (o.backend == "nccl") nccl_check_init();
  GL_CHECK_T(ValueError, o.backend == "gloo" || o.backend == "nccl", "Invalid backend: '", o.backend, "'");
  auto g = std::make_unique<Group>();
  g->backend = o.backend;
  g->timeout = o.timeout;
  int rank = o.rank, size = o.world_size;
  std::string host;  // the store's host (rank 0's address)
  int port = 0;
  const std::string& m = o.init_method;
  const size_t sep = m.find("://");
  const std::string scheme = sep == std::string::npos ? m : m.substr(0, sep);
  std::string rest = sep == std::string::npos ? "" : m.substr(sep + 3), query;
  if (size_t q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (rank < 0 && !query_value(query, "rank").empty()) rank = to_int(query_value(query, "rank"), "rank");
  if (size < 0 && !query_value(query, "world_size").empty())
    size = to_int(query_value(query, "world_size"), "world_size");
  if (scheme == "env") {
    auto env = [&](const char* var) -> std::string {
      const char* v = std::getenv(var);
      if (!v) throw rendezvous_error("env://", std::string("environment variable ") + var + " expected, but not set");
      return v;
    };
    if (rank < 0) rank = to_int(env("RANK"), "RANK");
    if (size < 0) size = to_int(env("WORLD_SIZE"), "WORLD_SIZE");
    host = env("MASTER_ADDR");
    port = to_int(env("MASTER_PORT"), "MASTER_PORT");
  } else if (scheme == "tcp") {
    size_t colon = rest.rfind(':');
    if (colon == std::string::npos || colon + 1 == rest.size()) throw rendezvous_error("tcp://", "port number missing");
    host = rest.substr(0, colon);
    port = to_int(rest.substr(colon + 1), "port");
    if (rank < 0) throw rendezvous_error("tcp://", "rank parameter missing");
    if (size < 0) throw rendezvous_error("tcp://", "world size parameter missing");
  } else if (scheme == "file") {
    if (rest.empty()) throw rendezvous_error("file://", "path missing");
    if (rank < 0) throw rendezvous_error("file://", "rank parameter missing");
    if (size < 0) throw rendezvous_error("file://", "world size parameter missing");
  } else {
    throw RuntimeError("No rendezvous handler for " + scheme + "://");
  }
  GL_CHECK_T(ValueError, size >= 1, "Invalid world_size: ", size);
  GL_CHECK_T(ValueError, rank >= 0 && rank < size, "Invalid rank ", rank, ", world size ", size);
  g->rank = rank;
  g->size = size;
  if (scheme == "file") {
    // gloo's FileStore keeps one file per key in a directory; PyTorch's file://
    // names one file, so its directory is that path with a suffix.
    std::string dir = rest + ".gloo";
    ::mkdir(dir.c_str(), 0700);
    g->store = std::make_unique<gloo::rendezvous::FileStore>(dir);
  } else {
    g->store = std::make_unique<TcpStore>(host, port, rank == 0, o.timeout, size);
  }
  gloo::transport::tcp::attr attr;
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME")) attr.iface = ifname;
  else if (host == "localhost" || host.rfind("127.", 0) == 0 || scheme == "file") attr.hostname = "127.0.0.1";
  else {
    char name[256] = {0};
    ::gethostname(name, sizeof name - 1);
    attr.hostname = name;
  }
  try {
    g->device = gloo::transport::tcp::CreateDevice(attr);
    g->context = std::make_shared<gloo::rendezvous::Context>(rank, size);
    g->context->setTimeout(o.timeout);
    // A key prefix per init, so that a second group in the same store (a
    // destroy and init again over file://) does not read the first's addresses.
    gloo::rendezvous::PrefixStore prefixed("default_pg", *g->store);
    g->context->connectFullMesh(prefixed, g->device);
    if (size > 1) {
      g->sync_context = std::make_shared<gloo::rendezvous::Context>(rank, size);
      g->sync_context->setTimeout(o.timeout);
      gloo::rendezvous::PrefixStore sync_prefixed("sync_pg", *g->store);
      g->sync_context->connectFullMesh(sync_prefixed, g->device);
      for (int i = 0; i < size; ++i)
        if (i != rank) g->sync_context->getPair(i)->setSync(true, /*busyPoll=*/false);
    }
  } catch (const gloo::Exception& e) { throw RuntimeError(e.what()); }
  Group* raw = g.get();
  g->worker = std::thread([raw] { worker_loop(raw); });
  g_group = g.release();
}

bool is_initialized() { return g_group != nullptr; }
int get_rank() { return group().rank; }
int get_world_size() { return group().size; }
std::string get_backend() { return group().backend; }

void destroy_process_group() {
  if (!g_group) throw AssertionError("Process group cannot be None");
  {
    std::lock_guard<std::mutex> l(g_group->mu);
    g_group->stopping = true;
  }
  g_group->cv.notify_all();
  g_group->worker.join();  // finishes the queued work first, as PyTorch's shutdown
  nccl_destroy(*g_group);
  delete g_group;
  g_group = nullptr;
}

#else  // built without gloo

bool gloo_available() { return false; }
static ValueError not_initialized() {
  return ValueError("Default process group has not been initialized, please make sure to call init_process_group.");
}
void init_process_group(const InitOptions&) {
  throw RuntimeError(
      "Distributed package doesn't have Gloo built in (this gpulab was built without libgloo-dev; "
      "install it and rebuild)");
}
bool is_initialized() { return false; }
int get_rank() { throw not_initialized(); }
int get_world_size() { throw not_initialized(); }
std::string get_backend() { throw not_initialized(); }
void destroy_process_group() { throw AssertionError("Process group cannot be None"); }
WorkPtr barrier() { throw not_initialized(); }
WorkPtr all_reduce(const Tensor&, ReduceOp) { throw not_initialized(); }
WorkPtr broadcast(const Tensor&, int) { throw not_initialized(); }
WorkPtr all_gather(const std::vector<Tensor>&, const Tensor&) { throw not_initialized(); }
WorkPtr reduce_scatter(const Tensor&, const std::vector<Tensor>&, ReduceOp) { throw not_initialized(); }
WorkPtr send(const Tensor&, int, int) { throw not_initialized(); }
WorkPtr recv(const Tensor&, int, int) { throw not_initialized(); }

#endif

}  // namespace gl::dist
