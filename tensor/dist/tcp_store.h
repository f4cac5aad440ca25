// A key-value store over TCP for the gloo rendezvous (env:// and tcp://), as
// PyTorch's TCPStore: rank 0 serves it on MASTER_PORT, every rank (rank 0
// included) is a client. gloo ships a FileStore and a RedisStore, no TCP one.
#pragma once
#if GPULAB_HAVE_GLOO
#include <chrono>
#include <memory>
#include <string>
#include <vector>
#include <gloo/rendezvous/store.h>

namespace gl::dist {

class TcpStoreServer;

class TcpStore : public gloo::rendezvous::Store {
 public:
  // is_server: also listen on `port` (all interfaces) and serve the others.
  // num_workers > 0: count this client in, and as the server wait (up to
  // `timeout`) until that many have, as PyTorch's TCPStore with wait_for_workers.
  TcpStore(const std::string& host, int port, bool is_server, std::chrono::milliseconds timeout, int num_workers = 0);
  ~TcpStore() override;
  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;

 private:
  std::vector<char> request(char op, const std::string& key, const std::vector<char>& data,
                            std::chrono::milliseconds timeout);
  std::unique_ptr<TcpStoreServer> server_;
  int fd_ = -1;
  std::chrono::milliseconds timeout_;
};

}  // namespace gl::dist
#endif
