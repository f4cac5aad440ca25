#include "interpreter/timing.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

#include <sys/resource.h>

#include <lua.hpp>

#include "interpreter/evaluate.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

// Pushes sync(): torch.cuda.synchronize(i) on every device, returning the count.
constexpr const char* kSync = R"(
local c = rawget(_G, 'torch') and torch.cuda
local n = c and c.device_count and c.device_count() or 0
for i = 0, n - 1 do c.synchronize(i) end
return n
)";

// The timing drivers, written in Lua so that the loop runs without a C call per
// iteration; now() reads the monotonic wall clock and the process CPU times.
constexpr const char* kTimeOnce = R"(
local f, sync, now = ...
sync()
local w0, u0, s0 = now()
local r = table.pack(f())
sync()
local w1, u1, s1 = now()
return w1 - w0, u1 - u0, s1 - s0, function() return table.unpack(r, 1, r.n) end
)";
constexpr const char* kTimeLoops = R"(
local f, sync, now, n = ...
sync()
local t0 = now()
for _ = 1, n do f() end
sync()
return now() - t0
)";

double cpu_seconds(const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) * 1e-6; }

int now(lua_State* L) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  lua_pushnumber(L, monotonic_seconds());
  lua_pushnumber(L, cpu_seconds(usage.ru_utime));
  lua_pushnumber(L, cpu_seconds(usage.ru_stime));
  return 3;
}

bool push_code(lua_State* L, const char* code, const char* name) {
  if (luaL_loadstring(L, code) == LUA_OK) return true;
  write_error(std::string(name) + ": " + pop_error(L));
  return false;
}

std::string clock_note(int devices) {
  if (devices == 0) return "monotonic clock";
  return "monotonic clock, " + std::to_string(devices) + " CUDA device" + (devices == 1 ? "" : "s") + " synchronized";
}

// Runs the driver on the stack top with `f` (at index fn) and its extra args.
bool run_driver(lua_State* L, int fn, int nextra, int nresults) {
  // stack: ... driver extra1..extraN  -> driver f sync now extra...
  int driver = lua_gettop(L) - nextra;
  lua_pushvalue(L, fn);
  lua_insert(L, driver + 1);
  if (!push_code(L, kSync, "sync")) return false;
  lua_insert(L, driver + 2);
  lua_pushcfunction(L, now);
  lua_insert(L, driver + 3);
  if (protected_call(L, 3 + nextra, nresults, ErrorStyle::MessageOnly) == LUA_OK) return true;
  std::string message = pop_error(L);
  if (message == "KeyboardInterrupt" && is_terminal(stdin)) std::fputc('\n', stdout);
  write_error(message);
  return false;
}

std::string thousands(long long n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

bool time_once(lua_State* L, const std::string& stmt, const char* chunkname, bool echo) {
  const int top = lua_gettop(L);
  Compilation c = compile_input(L, stmt, chunkname);
  if (c.status != Compiled::Ok) {
    if (c.status == Compiled::Incomplete) evaluate(L, stmt, chunkname, 1, true);  // reports the <eof> error
    else write_error(c.error);
    return false;
  }
  int fn = lua_gettop(L);
  if (!push_code(L, kTimeOnce, "%time") || !run_driver(L, fn, 0, 4)) {
    lua_settop(L, top);
    return false;
  }
  double wall = lua_tonumber(L, -4), user = lua_tonumber(L, -3), sys = lua_tonumber(L, -2);
  int devices = synchronize_devices(L);
  std::printf("CPU times: user %s, sys: %s, total: %s\nWall time: %s (%s)\n", format_time(user).c_str(),
              format_time(sys).c_str(), format_time(user + sys).c_str(), format_time(wall).c_str(),
              clock_note(devices).c_str());
  std::fflush(stdout);
  bool ok = run_compiled(L, echo && c.expression);  // echoes the kept results
  lua_settop(L, top);
  return ok;
}

bool time_loops(lua_State* L, int fn, long long loops, double* seconds) {
  if (!push_code(L, kTimeLoops, "%timeit")) return false;
  lua_pushinteger(L, loops);
  if (!run_driver(L, fn, 1, 1)) return false;
  *seconds = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return true;
}

// `loops` 0: chosen as IPython does.
bool time_it(lua_State* L, const std::string& stmt, const char* chunkname, long long loops, int repeat) {
  const int top = lua_gettop(L);
  Compilation c = compile_input(L, stmt, chunkname);
  if (c.status != Compiled::Ok) {
    if (c.status == Compiled::Incomplete) evaluate(L, stmt, chunkname, 1, true);
    else write_error(c.error);
    return false;
  }
  int fn = lua_gettop(L);
  // IPython: 10^k loops, k = 0, 1, ... until one run takes at least 0.2 s.
  double seconds = 0;
  if (loops == 0) {
    loops = 1;
    for (int k = 0; k < 10; ++k, loops *= 10) {
      if (!time_loops(L, fn, loops, &seconds)) return lua_settop(L, top), false;
      if (seconds >= 0.2) break;
    }
    if (seconds < 0.2) loops /= 10;  // the loop ran out: IPython keeps 10^9
  }
  std::vector<double> per_loop;
  for (int r = 0; r < repeat; ++r) {
    if (!time_loops(L, fn, loops, &seconds)) return lua_settop(L, top), false;
    per_loop.push_back(seconds / double(loops));
  }
  lua_settop(L, top);
  double best = per_loop[0], worst = per_loop[0], mean = 0;
  for (double t : per_loop) {
    best = std::min(best, t);
    worst = std::max(worst, t);
    mean += t;
  }
  mean /= repeat;
  double var = 0;
  for (double t : per_loop) var += (t - mean) * (t - mean);
  double stdev = std::sqrt(var / repeat);
  if (worst > 4 * best && best > 0 && worst > 1e-6)
    std::printf(
        "The slowest run took %0.2f times longer than the fastest. This could mean that an "
        "intermediate result is being cached.\n",
        worst / best);
  std::printf("%s \u00b1 %s per loop (mean \u00b1 std. dev. of %d run%s, %s loop%s each)\n", format_time(mean).c_str(),
              format_time(stdev).c_str(), repeat, repeat == 1 ? "" : "s", thousands(loops).c_str(),
              loops == 1 ? "" : "s");
  std::fputs(paint(stdout, kDim, "Clock: " + clock_note(synchronize_devices(L)) + " before each reading.").c_str(),
             stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  return true;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

double monotonic_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string format_time(double t, int precision) {
  char buf[64];
  if (t >= 60.0) {
    static const std::pair<const char*, double> parts[] = {{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}};
    std::string out;
    double left = t;
    for (auto [suffix, length] : parts) {
      long long value = (long long)(left / length);
      if (value > 0) {
        left = std::fmod(left, length);
        if (!out.empty()) out += ' ';
        out += std::to_string(value) + suffix;
      }
      if (left < 1) break;
    }
    return out;
  }
  static const char* units[] = {"s", "ms", "\u00b5s", "ns"};
  static const double scaling[] = {1, 1e3, 1e6, 1e9};
  int order = 3;
  if (t > 0) order = std::min(-int(std::floor(std::floor(std::log10(t)) / 3)), 3);
  if (order < 0) order = 0;
  std::snprintf(buf, sizeof buf, "%.*g %s", precision, t * scaling[order], units[order]);
  return buf;
}

int synchronize_devices(lua_State* L) {
  const int top = lua_gettop(L);
  int n = 0;
  if (luaL_loadstring(L, kSync) == LUA_OK && lua_pcall(L, 0, 1, 0) == LUA_OK) n = int(lua_tointeger(L, -1));
  lua_settop(L, top);
  return n;
}

void print_command_time(double seconds, int devices) {
  std::string text = "Wall time: " + format_time(seconds) + " (" + clock_note(devices) + ")";
  std::fputs(paint(stdout, kDim, text).c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

// %who and %whos: the learner's variables (bindings/lua/06_repl_who.lua).
bool list_variables(lua_State* L, const std::string& types, bool detailed) {
  lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.repl");
  lua_getfield(L, -1, "who");
  lua_remove(L, -2);
  lua_pushlstring(L, types.data(), types.size());
  lua_pushboolean(L, detailed);
  const bool ok = protected_call(L, 2, 0, ErrorStyle::MessageOnly) == LUA_OK;
  if (!ok) write_error(pop_error(L));
  std::fflush(stdout);
  return ok;
}

bool run_magic(lua_State* L, const std::string& line, const char* chunkname, Timer* timer, bool* ok) {
  std::string text = trim(line);
  if (text.empty() || text[0] != '%') return false;
  size_t name_end = text.find_first_of(" \t");
  std::string name = text.substr(0, name_end);
  std::string rest = name_end == std::string::npos ? "" : trim(text.substr(name_end));
  *ok = true;
  if (name == "%time" && !rest.empty()) {
    *ok = time_once(L, rest, chunkname, !echo_suppressed(rest));
  } else if (name == "%timeit" && !rest.empty()) {
    // IPython's options: -n N loops, -r R runs (of 7).
    long long loops = 0;
    int repeat = 7;
    for (;;) {
      char flag = 0;
      long long value = 0;
      int used = 0;
      if (std::sscanf(rest.c_str(), "-%c %lld %n", &flag, &value, &used) < 2 || used == 0 ||
          (flag != 'n' && flag != 'r'))
        break;
      if (value < 1 || value > 1000000000LL) {
        write_error(std::string("UsageError: %timeit -") + flag + " needs a count from 1 to 10^9");
        *ok = false;
        return true;
      }
      if (flag == 'n') loops = value;
      else repeat = int(value);
      rest = trim(rest.substr(size_t(used)));
    }
    if (rest.empty()) {
      write_error("UsageError: %timeit needs a statement, e.g. %timeit x:sum()");
      *ok = false;
    } else {
      *ok = time_it(L, rest, chunkname, loops, repeat);
    }
  } else if (name == "%timing" && (rest == "on" || rest == "off" || rest.empty())) {
    if (!rest.empty()) timer->every_command = rest == "on";
    std::printf("Timing of every command is %s (wall time, %s).\n", timer->every_command ? "on" : "off",
                clock_note(synchronize_devices(L)).c_str());
    std::fflush(stdout);
  } else if (name == "%who" || name == "%whos") {
    *ok = list_variables(L, rest, name == "%whos");
  } else if (name == "%time" || name == "%timeit") {
    write_error("UsageError: " + name + " needs a statement, e.g. " + name + " x:sum()");
    *ok = false;
  } else {
    write_error("UsageError: Line magic function `" + name +
                "` not found.\nhint: the magics are %time STMT, %timeit STMT, %timing on|off, %who and %whos");
    *ok = false;
  }
  return true;
}

}  // namespace gl::interp
