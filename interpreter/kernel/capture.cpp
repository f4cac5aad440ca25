#include "interpreter/kernel/capture.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace gl::interp {
namespace {

constexpr auto kBatch = std::chrono::milliseconds(50);
const char* const kNames[2] = {"stdout", "stderr"};

// The length of `text` without a UTF-8 sequence cut at its end (the rest of
// it is still in the pipe): a message must not split a character.
size_t whole_characters(const std::string& text) {
  size_t n = text.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    const unsigned char c = static_cast<unsigned char>(text[n - back]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    const size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

}  // namespace

OutputCapture::~OutputCapture() {
  if (active_) {
    std::string out, err;
    end(&out, &err);
  }
}

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
  if (pipe2(wake_, O_CLOEXEC) != 0) {
    for (auto& p : pipes) close(p[0]), close(p[1]);
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    text_[i].clear();
    saved_[i] = fcntl(i + 1, F_DUPFD_CLOEXEC, 3);
    dup2(pipes[i][1], i + 1);  // fds 1 and 2 are inherited by `!cmd` children (no CLOEXEC)
    close(pipes[i][1]);
    read_[i] = pipes[i][0];
    fcntl(read_[i], F_SETFL, fcntl(read_[i], F_GETFL) | O_NONBLOCK);
  }
  // io.write reaches the pipe at each newline (stdio buffers fully on a pipe);
  // left so: the kernel's own stdout is not for people.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  last_publish_ = std::chrono::steady_clock::now();
  active_ = true;
  thread_ = std::thread(&OutputCapture::reader, this);
  return true;
}

void OutputCapture::read_available() {
  char buf[4096];
  for (int i = 0; i < 2; ++i) {
    if (read_[i] < 0) continue;
    for (;;) {
      ssize_t n = read(read_[i], buf, sizeof buf);
      if (n > 0) {
        text_[i].append(buf, size_t(n));
      } else if (n == 0) {  // every write end closed
        close(read_[i]);
        read_[i] = -1;
        break;
      } else if (errno != EINTR) {
        break;  // EAGAIN: nothing more now
      }
    }
  }
}

void OutputCapture::publish_pending(bool all) {
  if (!publish_) return;
  for (int i = 0; i < 2; ++i) {
    const size_t n = all ? text_[i].size() : whole_characters(text_[i]);
    if (n == 0) continue;
    publish_(kNames[i], text_[i].substr(0, n));
    text_[i].erase(0, n);
  }
  last_publish_ = std::chrono::steady_clock::now();
}

void OutputCapture::reader() {
  for (;;) {
    int timeout = -1;
    {
      std::lock_guard<std::mutex> hold(lock_);
      if (read_[0] < 0 && read_[1] < 0) return;
      if (publish_ && (!text_[0].empty() || !text_[1].empty())) {
        auto wait = kBatch - (std::chrono::steady_clock::now() - last_publish_);
        timeout = int(std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(wait).count()));
      }
    }
    pollfd fds[3] = {{read_[0], POLLIN, 0}, {read_[1], POLLIN, 0}, {wake_[0], POLLIN, 0}};
    poll(fds, 3, timeout);
    std::lock_guard<std::mutex> hold(lock_);
    read_available();
    if (fds[2].revents != 0) return;  // end(): it reads the rest itself
    if (publish_ && std::chrono::steady_clock::now() - last_publish_ >= kBatch) publish_pending(false);
  }
}

void OutputCapture::flush_then(const std::function<void()>& then) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::lock_guard<std::mutex> hold(lock_);
  if (active_) {
    read_available();
    publish_pending(false);
  }
  then();
}

void OutputCapture::end(std::string* out, std::string* err) {
  if (!active_) return;
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 2; ++i) {
    dup2(saved_[i], i + 1);  // the pipe's last write end closes (unless a child holds it)
    close(saved_[i]);
  }
  (void)!write(wake_[1], "x", 1);
  thread_.join();
  std::lock_guard<std::mutex> hold(lock_);
  read_available();
  publish_pending(true);
  for (int i = 0; i < 2; ++i) {
    if (read_[i] >= 0) close(read_[i]);
    read_[i] = -1;
  }
  close(wake_[0]);
  close(wake_[1]);
  active_ = false;
  *out = std::move(text_[0]);
  *err = std::move(text_[1]);
  text_[0].clear();
  text_[1].clear();
}

}  // namespace gl::interp
