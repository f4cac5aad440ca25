// Ctrl-C while Lua code runs (lua.c's laction, made gentler for a learner's
// session): the first SIGINT raises "KeyboardInterrupt" at the next Lua step,
// in the running coroutine as well as on the main thread; when that step is far
// off (a long C operation) a line says so at once; a second Ctrl-C never kills
// the session; a third within a second ends it, after saying so.
#pragma once
#include <csignal>

struct lua_State;

namespace gl::interp {

// Replaces coroutine.resume and coroutine.wrap with versions that record the
// coroutine they run, so that an interrupt reaches a loop inside it.
void install_coroutine_tracking(lua_State* L);

// What SIGINT does inside an InterruptScope, for a thread that takes the signal
// with sigwait (the Jupyter kernel blocks SIGINT in every thread, see
// interpreter/kernel/): running code gets KeyboardInterrupt at its next Lua
// step; outside any scope (idle) it does nothing.
void interrupt_running_code();

// While alive, SIGINT interrupts `L` (the state's main thread). Nests.
class InterruptScope {
 public:
  explicit InterruptScope(lua_State* L);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  lua_State* previous_;
  struct sigaction saved_ {};
};

// While alive, a SIGINT that comes between inputs (neither at the prompt nor
// while code runs: compiling, saving history) is ignored instead of ending the
// session. Reads interrupted by it restart.
class QuietInterrupts {
 public:
  QuietInterrupts();
  ~QuietInterrupts();
  QuietInterrupts(const QuietInterrupts&) = delete;
  QuietInterrupts& operator=(const QuietInterrupts&) = delete;

 private:
  struct sigaction saved_ {};
};

}  // namespace gl::interp
