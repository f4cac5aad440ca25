// Captures what a cell writes to file descriptors 1 and 2 (print, io.write,
// the C library, `!cmd` children) for the kernel's stdout/stderr streams.
#pragma once
#include <string>
#include <thread>

namespace gl::interp {

class OutputCapture {
 public:
  // Points fds 1 and 2 at pipes drained by two threads. False (and nothing
  // redirected) when the pipes cannot be made.
  bool begin();
  // Restores fds 1 and 2 and returns what was written to each.
  void end(std::string* out, std::string* err);

 private:
  int saved_[2] = {-1, -1};
  int read_[2] = {-1, -1};
  std::thread readers_[2];
  std::string text_[2];
  bool active_ = false;
};

}  // namespace gl::interp
