#include "interpreter/interrupt.h"

#include <csignal>
#include <ctime>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#include <lua.hpp>

#include "bindings/bindings.h"

namespace gl::interp {
namespace {

// Everything the signal handler touches: plain values and async-signal-safe
// calls only (lua_sethook is documented as safe to call from a handler).
lua_State* g_main = nullptr;                 // the thread protected_call runs on
lua_State* volatile g_coroutine = nullptr;   // the innermost coroutine resumed from it
volatile std::sig_atomic_t g_pending = 0;    // a Ctrl-C not yet turned into an error
volatile std::sig_atomic_t g_announced = 0;  // the "interrupting after..." line is out
volatile std::sig_atomic_t g_presses = 0;    // Ctrl-C presses while pending
volatile std::sig_atomic_t g_signalled = 0;  // any Ctrl-C since the scope began
volatile std::sig_atomic_t g_deferred = 0;   // the hook waits out a guard's window
double g_press_time[3] = {0, 0, 0};          // the last presses' times (ring)
sem_t g_wake;                                // wakes the announcer thread
bool g_announcer_started = false;

constexpr int kHookMask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;

void say(const char* text, size_t n) {
  ssize_t ignored = write(STDERR_FILENO, text, n);
  (void)ignored;
}
template <size_t N> void say(const char (&text)[N]) { say(text, N - 1); }

double now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Raises the error at the next Lua step of the thread it was set on. A plain
// error value without position, so it reads "KeyboardInterrupt".
void interrupt_hook(lua_State* L, lua_Debug* ar) {
  // Note [Guard window]. While deferred, only the count event two
  // instructions on may raise: Lua calls the line hook right after the count
  // hook in the same step (with the mask it read before), and a return
  // re-fires the line hook, both still inside the window.
  if (g_deferred && ar->event != LUA_HOOKCOUNT) return;
  g_deferred = 0;
  if (bindings::take_guard_window(L)) {
    g_deferred = 1;
    lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 2);
    return;
  }
  lua_sethook(L, nullptr, 0, 0);
  g_pending = 0;
  g_presses = 0;
  g_announced = 0;
  lua_pushliteral(L, "KeyboardInterrupt");
  lua_error(L);
}

void on_sigint(int) {
  double t = now();
  int n = g_presses;
  g_press_time[n % 3] = t;
  g_presses = n + 1;
  if (n + 1 >= 3 && t - g_press_time[(n + 1) % 3] < 1.0) {
    say("\nThird Ctrl-C within a second: gpulab stops now (the session's variables are lost).\n");
    _exit(130);
  }
  if (n >= 1) {
    say("\nStill interrupting after the current operation\u2026 (three Ctrl-C within a second end gpulab)\n");
  }
  g_pending = 1;
  g_signalled = 1;
  // A second press while the hook waits out a guard's window (Note [Guard
  // window]) must not re-arm it to strike inside that window.
  if (g_main != nullptr && !g_deferred) lua_sethook(g_main, interrupt_hook, kHookMask, 1);
  lua_State* co = g_coroutine;
  if (co != nullptr && !g_deferred) lua_sethook(co, interrupt_hook, kHookMask, 1);
  if (n == 0 && g_announcer_started) sem_post(&g_wake);
}

// When the hook has not fired 50 ms after the first Ctrl-C, Lua is inside one
// long C operation: say so at once instead of leaving the learner waiting.
void* announcer(void*) {
  for (;;) {
    while (sem_wait(&g_wake) != 0) {}
    timespec delay{0, 50 * 1000 * 1000};
    nanosleep(&delay, nullptr);
    if (g_pending && !g_announced) {
      g_announced = 1;
      say("\ninterrupting after the current operation\u2026\n");
    }
  }
  return nullptr;
}

void start_announcer() {
  if (g_announcer_started) return;
  if (sem_init(&g_wake, 0, 0) != 0) return;
  // The thread must not take SIGINT itself: the handler works on the main thread's state.
  sigset_t block, saved;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &saved);
  pthread_t thread;
  if (pthread_create(&thread, nullptr, announcer, nullptr) == 0) {
    pthread_detach(thread);
    g_announcer_started = true;
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
}

// Calls the original function (upvalue 1) with the coroutine `co` recorded as
// the running one; errors pass through unchanged once the record is restored.
int call_tracking(lua_State* L, lua_State* co) {
  int nargs = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_State* previous = g_coroutine;
  g_coroutine = co;
  int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
  g_coroutine = previous;
  if (status != LUA_OK) return lua_error(L);
  return lua_gettop(L);
}

int tracked_resume(lua_State* L) { return call_tracking(L, lua_tothread(L, 1)); }

int tracked_wrapper(lua_State* L) { return call_tracking(L, lua_tothread(L, lua_upvalueindex(2))); }

// coroutine.wrap(f): the original wrapper (its coroutine is its upvalue 1), called through
// tracked_wrapper.
int tracked_wrap(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  if (!lua_iscfunction(L, -1) || lua_getupvalue(L, -1, 1) == nullptr) return 1;
  if (!lua_isthread(L, -1)) {
    lua_pop(L, 1);
    return 1;
  }
  lua_pushcclosure(L, tracked_wrapper, 2);
  return 1;
}

}  // namespace

void install_coroutine_tracking(lua_State* L) {
  if (lua_getglobal(L, "coroutine") != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  lua_getfield(L, -1, "resume");
  lua_pushcclosure(L, tracked_resume, 1);
  lua_setfield(L, -2, "resume");
  lua_getfield(L, -1, "wrap");
  lua_pushcclosure(L, tracked_wrap, 1);
  lua_setfield(L, -2, "wrap");
  lua_pop(L, 1);
}

InterruptScope::InterruptScope(lua_State* L) : previous_(g_main) {
  start_announcer();
  g_main = L;
  g_signalled = 0;
  g_pending = 0;
  g_announced = 0;
  g_presses = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &saved_, nullptr);
  // A Ctrl-C that came as the code finished, or that a coroutine took, leaves
  // the main thread's hook armed: disarm it so that it does not interrupt the
  // next input.
  if (g_signalled && g_main != nullptr) lua_sethook(g_main, nullptr, 0, 0);
  g_signalled = 0;
  g_pending = 0;
  g_presses = 0;
  g_deferred = 0;
  g_main = previous_;
}

void interrupt_running_code() {
  lua_State* main = g_main;
  if (main == nullptr) return;
  // g_signalled first: a scope that ends meanwhile then disarms the hook.
  g_signalled = 1;
  g_pending = 1;
  if (g_deferred) return;  // already on its way (Note [Guard window])
  lua_sethook(main, interrupt_hook, kHookMask, 1);
  lua_State* co = g_coroutine;
  if (co != nullptr) lua_sethook(co, interrupt_hook, kHookMask, 1);
}

namespace {
void ignore_sigint(int) {}
}  // namespace

QuietInterrupts::QuietInterrupts() {
  struct sigaction action {};
  action.sa_handler = ignore_sigint;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved_);
}

QuietInterrupts::~QuietInterrupts() { sigaction(SIGINT, &saved_, nullptr); }

}  // namespace gl::interp
