// TcpStore: see tcp_store.h. One request per message: op, key, [value];
// the server answers SET with one byte and GET once the key exists.
#if GPULAB_HAVE_GLOO
#include "tensor/dist/tcp_store.h"
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include "tensor/core/error.h"

namespace gl::dist {

namespace {
using ms = std::chrono::milliseconds;
using clk = std::chrono::steady_clock;

// PyTorch's store errors (torch.distributed.DistStoreError and
// DistNetworkError, both RuntimeErrors), named as its tracebacks name them.
struct DistStoreError : Error {
  using Error::Error;
  const char* kind() const override { return "DistStoreError"; }
};
struct DistNetworkError : Error {
  using Error::Error;
  const char* kind() const override { return "DistNetworkError"; }
};

// Reads or writes exactly n bytes; false on EOF/error, or when `deadline`
// passes (then *timed_out is set).
bool io_all(int fd, void* p, size_t n, bool writing, clk::time_point deadline = clk::time_point::max(),
            bool* timed_out = nullptr) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    if (deadline != clk::time_point::max()) {
      auto left = std::chrono::duration_cast<ms>(deadline - clk::now()).count();
      pollfd pf{fd, short(writing ? POLLOUT : POLLIN), 0};
      int r = left <= 0 ? 0 : ::poll(&pf, 1, int(std::min<long long>(left, 1 << 30)));
      if (r < 0 && errno == EINTR) continue;
      if (r == 0 && timed_out) *timed_out = true;
      if (r <= 0) return false;
    }
    ssize_t k = writing ? ::send(fd, c, n, MSG_NOSIGNAL) : ::recv(fd, c, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= size_t(k);
  }
  return true;
}
}  // namespace

class TcpStoreServer {
 public:
  explicit TcpStoreServer(int port) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons(uint16_t(port));
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 128) != 0) {
      int e = errno;
      ::close(listen_fd_);
      throw RuntimeError("The server socket has failed to listen on any local network address. port: " +
                         std::to_string(port) + ", useIpv6: false, code: -" + std::to_string(e) +
                         ", name: " + (e == EADDRINUSE ? "EADDRINUSE" : "E") + ", message: " + std::strerror(e));
    }
    socklen_t len = sizeof a;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  int port() const { return port_; }  // the one bound (port 0: the system's choice)
  int joined() {                      // clients that said 'J' (PyTorch's init key count)
    std::lock_guard<std::mutex> g(mu_);
    return joined_;
  }
  ~TcpStoreServer() {
    stop_ = true;
    cv_.notify_all();
    acceptor_.join();
    std::vector<std::thread> ts;
    {
      std::lock_guard<std::mutex> g(mu_);
      for (int fd : conns_) ::shutdown(fd, SHUT_RDWR);
      ts.swap(threads_);
    }
    for (auto& t : ts) t.join();
    ::close(listen_fd_);
  }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd pf{listen_fd_, POLLIN, 0};
      if (::poll(&pf, 1, 100) <= 0) continue;
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      std::lock_guard<std::mutex> g(mu_);
      conns_.push_back(fd);
      threads_.emplace_back([this, fd] { serve(fd); });
    }
  }
  void serve(int fd) {
    for (;;) {
      char op;
      uint32_t klen;
      if (!io_all(fd, &op, 1, false) || !io_all(fd, &klen, 4, false)) break;
      std::string key(klen, '\0');
      if (!io_all(fd, key.data(), klen, false)) break;
      if (op == 'J') {  // a client joined: count it, answer as an empty GET
        {
          std::lock_guard<std::mutex> g(mu_);
          ++joined_;
        }
        uint64_t vlen = 0;
        if (!io_all(fd, &vlen, 8, true)) break;
      } else if (op == 'S') {
        uint64_t vlen;
        if (!io_all(fd, &vlen, 8, false)) break;
        std::vector<char> v(vlen);
        if (!io_all(fd, v.data(), vlen, false)) break;
        {
          std::lock_guard<std::mutex> g(mu_);
          data_[key] = std::move(v);
        }
        cv_.notify_all();
        char ack = 1;
        if (!io_all(fd, &ack, 1, true)) break;
      } else {
        std::vector<char> v;
        {
          std::unique_lock<std::mutex> g(mu_);
          cv_.wait(g, [&] { return stop_ || data_.count(key); });
          if (stop_) break;
          v = data_[key];
        }
        uint64_t vlen = v.size();
        if (!io_all(fd, &vlen, 8, true) || !io_all(fd, v.data(), vlen, true)) break;
      }
    }
    ::close(fd);
    // (The fd stays listed in conns_ until the server stops: shutdown on a closed
    // or reused number is harmless there because the server stops only at exit.)
  }

  int listen_fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::vector<char>> data_;
  std::vector<int> conns_;
  std::vector<std::thread> threads_;
  int joined_ = 0;
};

TcpStore::TcpStore(const std::string& host, int port, bool is_server, ms timeout, int num_workers) : timeout_(timeout) {
  if (is_server) server_ = std::make_unique<TcpStoreServer>(port);
  if (server_ && port == 0) port = server_->port();  // tcp://host:0 with world_size=1
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  const std::string port_s = std::to_string(port);
  auto deadline = clk::now() + timeout;
  // The server may not be up yet: retry until the timeout, as PyTorch's client.
  for (;;) {
    if (::getaddrinfo(host.c_str(), port_s.c_str(), &hints, &res) == 0) {
      for (addrinfo* p = res; p && fd_ < 0; p = p->ai_next) {
        int fd = ::socket(p->ai_family, p->ai_socktype, p->ai_protocol);
        if (fd >= 0 && ::connect(fd, p->ai_addr, p->ai_addrlen) == 0) fd_ = fd;
        else if (fd >= 0) ::close(fd);
      }
      ::freeaddrinfo(res);
    }
    if (fd_ >= 0) break;
    if (clk::now() >= deadline)
      throw DistNetworkError("The client socket has timed out after " + std::to_string(timeout.count()) +
                             "ms while trying to connect to (" + host + ", " + port_s + ").");
    std::this_thread::sleep_for(ms(50));
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (num_workers <= 0) return;
  // PyTorch's TCPStore::waitForWorkers: every client counts itself in; the
  // server (rank 0) then waits for all of them, checking every 10 ms whether
  // the whole seconds elapsed exceed the timeout, so a 2 s timeout ends after
  // 3 s ("Timed out after 3 seconds").
  try {
    request('J', "", {}, timeout_);
    if (!server_) return;
    const auto start = clk::now();
    for (;;) {
      const int n = server_->joined();
      if (n >= num_workers) break;
      const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(clk::now() - start);
      if (elapsed > timeout_)
        throw DistStoreError("Timed out after " + std::to_string(elapsed.count()) + " seconds waiting for clients. " +
                             std::to_string(n) + "/" + std::to_string(num_workers) + " clients joined.");
      std::this_thread::sleep_for(ms(10));
    }
  } catch (...) {
    ::close(fd_);  // no destructor runs for a constructor that throws
    throw;
  }
}

TcpStore::~TcpStore() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<char> TcpStore::request(char op, const std::string& key, const std::vector<char>& data, ms timeout) {
  auto deadline = clk::now() + timeout;
  bool timed_out = false;
  uint32_t klen = uint32_t(key.size());
  bool ok = io_all(fd_, &op, 1, true) && io_all(fd_, &klen, 4, true) && io_all(fd_, (void*)key.data(), klen, true);
  if (ok && op == 'S') {
    uint64_t vlen = data.size();
    char ack;
    ok = io_all(fd_, &vlen, 8, true) && io_all(fd_, (void*)data.data(), vlen, true) &&
         io_all(fd_, &ack, 1, false, deadline, &timed_out);
    if (ok) return {};
  } else if (ok) {
    uint64_t vlen;
    if (io_all(fd_, &vlen, 8, false, deadline, &timed_out)) {
      std::vector<char> v(vlen);
      if (io_all(fd_, v.data(), vlen, false, deadline, &timed_out)) return v;
    }
  }
  if (timed_out)  // PyTorch's keys start with '/', its TCPStore's prefix
    throw DistStoreError("wait timeout after " + std::to_string(timeout.count()) + "ms, keys: /" + key);
  throw RuntimeError("Connection to the store (rank 0, MASTER_ADDR:MASTER_PORT) was closed while waiting for key " +
                     key);
}

void TcpStore::set(const std::string& key, const std::vector<char>& data) { request('S', key, data, timeout_); }
std::vector<char> TcpStore::get(const std::string& key) { return request('G', key, {}, timeout_); }
void TcpStore::wait(const std::vector<std::string>& keys, const ms& timeout) {
  for (const auto& k : keys) request('G', k, {}, timeout);
}

}  // namespace gl::dist
#endif
