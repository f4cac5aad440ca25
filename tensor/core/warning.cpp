#include "tensor/core/warning.h"
#include <cstdio>
#include <mutex>
#include <set>

namespace gl {

namespace {
std::mutex mu;
WarnHandler handler = nullptr;
void* handler_ctx = nullptr;
}  // namespace

void set_warn_handler(WarnHandler h, void* ctx) {
  std::lock_guard<std::mutex> g(mu);
  handler = h;
  handler_ctx = ctx;
}

void warn(const std::string& text) {
  WarnHandler h;
  void* ctx;
  {
    std::lock_guard<std::mutex> g(mu);
    h = handler;
    ctx = handler_ctx;
  }
  if (h) return h(text, ctx);
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> g(mu);
  if (!seen.insert(text).second) return;
  std::fprintf(stderr, "UserWarning: %s\n", text.c_str());
  std::fflush(stderr);
}

}  // namespace gl
