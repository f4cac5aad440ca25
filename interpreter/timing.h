// IPython's timing magics in the REPL, and th's per-command timer:
//   %time STMT     CPU and wall time of one run (an expression's value echoes)
//   %timeit STMT   mean ± std. dev. of 7 runs, the loop count chosen as IPython
//                  does (10^k loops, k growing until a run takes >= 0.2 s);
//                  -n N and -r R fix the loops and runs, as in IPython
//   %timing on|off the wall time of every command after it
// Each reading of the (monotonic) clock comes after torch.cuda.synchronize on
// every CUDA device, so that queued device work is counted.
#pragma once
#include <string>

struct lua_State;

namespace gl::interp {

// IPython's _format_time: "1.5 ms", "3.81 µs", "12 ns", "1min 3s".
std::string format_time(double seconds, int precision = 3);

struct Timer {
  bool every_command = false;  // %timing on
};

// True when `line` is a %magic (it is then handled: run or reported). `ok`
// says whether it ran without error.
bool run_magic(lua_State* L, const std::string& line, const char* chunkname, Timer* timer, bool* ok);

// Runs `body` with the wall time measured around it (devices synchronised)
// and printed afterwards when timer.every_command.
template <class Body> bool timed(lua_State* L, const Timer& timer, Body&& body);

// Synchronises every CUDA device (errors ignored); returns how many there are.
int synchronize_devices(lua_State* L);

double monotonic_seconds();
void print_command_time(double seconds, int devices);

template <class Body> bool timed(lua_State* L, const Timer& timer, Body&& body) {
  if (!timer.every_command) return body();
  synchronize_devices(L);
  double start = monotonic_seconds();
  bool ok = body();
  int devices = synchronize_devices(L);
  print_command_time(monotonic_seconds() - start, devices);
  return ok;
}

}  // namespace gl::interp
