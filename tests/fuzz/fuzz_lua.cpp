// libFuzzer target for the whole Lua surface (see README.md beside this file).
// One Lua state holds the library and the driver (fuzz_lua_driver.lua), which
// reads each input as a sequence of calls over every function and method
// taken from the live tables. A Lua error is a clean refusal; a crash, a
// sanitizer report, an uncaught C++ exception or a hang is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <unistd.h>

#include <lua.hpp>

#include "bindings/bindings.h"

// Note [Out of memory in the fuzzer]: ASan reports a throwing operator new
// that fails (a request past max_allocation_size_mb) as a crash even with
// allocator_may_return_null=1, so a legal std::vector or std::string past the
// harness's limit (masked_select's indices, the text of a large tensor) ended
// its job as a "crash". Here new is malloc, which that option lets fail, and a
// failure throws std::bad_alloc: the error "out of host memory" a learner
// would see, a clean refusal. ASan still checks every block (malloc is its
// own); aligned new keeps ASan's, with its matching delete.
void* operator new(std::size_t n) {
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

lua_State* g_L = nullptr;
int g_steps = 0;

// A fresh state every so often keeps one input's leftovers (grad mode, the
// default dtype, seeds) from steering the next for long, while the library's
// load time (~ms) is paid rarely. Reproducing a finding runs the one input in
// a fresh state.
constexpr int kInputsPerState = 256;

void fail(const char* what, lua_State* L) {
  std::fprintf(stderr, "fuzz_lua: %s: %s\n", what, lua_tostring(L, -1));
  std::abort();
}

lua_State* new_state() {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_gc(L, LUA_GCGEN, 100, 150);  // as gpulab's sessions run (Note [Generational collector])
  lua_pushcfunction(L, gl::bindings::open);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) fail("cannot open the library", L);
  // Under $TMPDIR: on a tmpfs (TMPDIR=/dev/shm), the files the calls save and
  // remove cost no disk metadata (a seventh of a job's time on ext4). Removed at exit,
  // since fork mode starts a process per job.
  static std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string d = std::string(tmp && *tmp ? tmp : "/tmp") + "/fuzz_lua." + std::to_string(getpid());
    std::string cmd = "mkdir -p '" + d + "'";
    if (std::system(cmd.c_str()) != 0) std::abort();
    return d;
  }();
  static const bool cleanup = [] {  // registered after `dir` exists, so it runs before dir's destructor
    return std::atexit([] { std::system(("rm -rf '" + dir + "'").c_str()); }) == 0;
  }();
  (void)cleanup;
  // FUZZ_LUA_DRIVER in the environment runs another driver (a variant that
  // steers around a known finding while it is being fixed).
  const char* driver = std::getenv("FUZZ_LUA_DRIVER");
  if (luaL_loadfile(L, driver ? driver : FUZZ_LUA_DRIVER) != LUA_OK) fail("cannot load the driver", L);
  lua_pushstring(L, dir.c_str());
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) fail("the driver failed", L);
  return L;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("OMP_NUM_THREADS", "1", 1);  // one core: the run is nice'd beside other work
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  std::string err;
  if (!gl::bindings::configure_virtual("2:256MiB", &err)) {
    std::fprintf(stderr, "fuzz_lua: %s\n", err.c_str());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (g_L == nullptr || ++g_steps % kInputsPerState == 0) {
    if (g_L) lua_close(g_L);
    g_L = new_state();
  }
  lua_getglobal(g_L, "FUZZ_RUN");
  lua_pushlstring(g_L, reinterpret_cast<const char*>(data), size);
  // The driver pcalls every call itself: an error here is the driver's own bug
  // or a C++ exception that escaped the trampoline.
  if (lua_pcall(g_L, 1, 0, 0) != LUA_OK) fail("error outside a call", g_L);
  lua_settop(g_L, 0);
  return 0;
}
