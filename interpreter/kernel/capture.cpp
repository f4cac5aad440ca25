#include "interpreter/kernel/capture.h"

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace gl::interp {
namespace {

void drain(int fd, std::string* text) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) text->append(buf, size_t(n));
    else if (n == 0) break;
  }
  close(fd);
}

}  // namespace

bool OutputCapture::begin() {
  std::fflush(stdout);
  std::fflush(stderr);
  int pipes[2][2];
  if (pipe2(pipes[0], O_CLOEXEC) != 0) return false;
  if (pipe2(pipes[1], O_CLOEXEC) != 0) {
    close(pipes[0][0]);
    close(pipes[0][1]);
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    text_[i].clear();
    saved_[i] = fcntl(i + 1, F_DUPFD_CLOEXEC, 3);
    dup2(pipes[i][1], i + 1);  // fds 1 and 2 are inherited by `!cmd` children (no CLOEXEC)
    close(pipes[i][1]);
    read_[i] = pipes[i][0];
    readers_[i] = std::thread(drain, read_[i], &text_[i]);
  }
  active_ = true;
  return true;
}

void OutputCapture::end(std::string* out, std::string* err) {
  if (!active_) return;
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 2; ++i) {
    dup2(saved_[i], i + 1);  // the pipe's last write end closes: its reader sees EOF
    close(saved_[i]);
    readers_[i].join();
  }
  active_ = false;
  *out = std::move(text_[0]);
  *err = std::move(text_[1]);
}

}  // namespace gl::interp
