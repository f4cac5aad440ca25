// Starts the kernel on xeus. Interrupts (Note [Kernel interrupts]): xeus 2.x
// polls its sockets in several threads and dies when a poll fails with EINTR,
// so SIGINT is blocked in every thread before any starts, and one thread takes
// it with sigwait: running Lua code gets KeyboardInterrupt, an idle kernel
// nothing.
#include <csignal>
#include <cstdio>
#include <pthread.h>

#include <lua.hpp>
#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver_zmq.hpp>
#include <zmq.hpp>

#include "interpreter/interrupt.h"
#include "interpreter/kernel/kernel.h"
#include "interpreter/kernel/xeus_interpreter.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

void* take_interrupts(void*) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) == 0 && sig == SIGINT) interrupt_running_code();
  }
  return nullptr;
}

}  // namespace

}  // namespace gl::interp

// The module's entry point (Note [Kernel on first use], kernel_module.cpp).
extern "C" int gpulab_start_kernel(const std::string& connection_file, const gl::interp::SessionOptions& session) {
  using namespace gl::interp;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by every thread made from here on
  pthread_t waiter;
  if (pthread_create(&waiter, nullptr, take_interrupts, nullptr) == 0) pthread_detach(waiter);

  lua_State* L = open_session(session);
  if (L == nullptr) return 1;
  try {
    xeus::xconfiguration config = xeus::load_configuration(connection_file);
    auto context = xeus::make_context<zmq::context_t>();
    auto interpreter = std::make_unique<GpulabInterpreter>(L);
    // Invalid UTF-8 in a cell's output is replaced rather than failing the reply.
    xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                         xeus::make_xserver_zmq, xeus::make_in_memory_history_manager(), nullptr,
                         xeus::make_null_debugger, nl::json::object(), nl::json::error_handler_t::replace);
    kernel.start();
  } catch (const std::exception& e) {
    write_cli_error(std::string("the Jupyter kernel stopped: ") + e.what());
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}
