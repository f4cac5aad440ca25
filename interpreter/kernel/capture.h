// Captures what a cell writes to file descriptors 1 and 2 (print, io.write,
// the C library, `!cmd` children) for the kernel's stdout/stderr streams.
// With a publisher, output reaches the client while the cell runs: a reader
// thread sends what has come once 50 ms have passed since the last send
// (IPython batches the same way), and the rest when the cell ends.
#pragma once
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gl::interp {

class OutputCapture {
 public:
  // name: "stdout" or "stderr". Called with the capture's lock held, from the
  // reader thread or the caller's.
  using Publish = std::function<void(const char* name, const std::string& text)>;

  OutputCapture() = default;
  explicit OutputCapture(Publish publish) : publish_(std::move(publish)) {}
  ~OutputCapture();

  // Points fds 1 and 2 at pipes drained by a thread. False (and nothing
  // redirected) when the pipes cannot be made.
  bool begin();
  // Publishes everything written so far, then runs `then` under the same
  // lock (a display message that must come after the output before it).
  void flush_then(const std::function<void()>& then);
  // Restores fds 1 and 2. Without a publisher, returns what was written to
  // each; with one, publishes the rest (out and err come back empty).
  void end(std::string* out, std::string* err);

 private:
  void read_available();           // lock held
  void publish_pending(bool all);  // lock held; all: even a cut character (the end)
  void reader();

  Publish publish_;
  std::mutex lock_;
  int saved_[2] = {-1, -1};
  int read_[2] = {-1, -1};
  int wake_[2] = {-1, -1};  // end() writes here so that the reader stops even if a child holds a pipe
  std::thread thread_;
  std::string text_[2];
  std::chrono::steady_clock::time_point last_publish_;
  bool active_ = false;
};

}  // namespace gl::interp
