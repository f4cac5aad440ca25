// torch.distributed's C half: thin calls into tensor/dist (the Lua half,
// bindings/lua/45_distributed.lua, parses keywords and makes the handles).
// An operation's handle is an id here; the Lua Work object holds it.
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/autograd/node.h"
#include "tensor/dist/process_group.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

// Never freed at exit (as the group itself, see group.cpp): no destructor waits there.
std::unordered_map<lua_Integer, dist::WorkPtr>& g_works = *new std::unordered_map<lua_Integer, dist::WorkPtr>;
lua_Integer g_next_id = 1;

int push_work(lua_State* L, dist::WorkPtr w) {
  lua_Integer id = g_next_id++;
  g_works[id] = std::move(w);
  lua_pushinteger(L, id);
  return 1;
}

dist::ReduceOp reduce_op(lua_State* L, int idx) {
  std::string s = luaL_checkstring(L, idx);
  if (s == "SUM") return dist::ReduceOp::Sum;
  if (s == "AVG") return dist::ReduceOp::Avg;
  if (s == "PRODUCT") return dist::ReduceOp::Product;
  if (s == "MIN") return dist::ReduceOp::Min;
  if (s == "MAX") return dist::ReduceOp::Max;
  throw ValueError("Cannot use ReduceOp." + s + " with Gloo");
}

std::vector<Tensor> tensor_list(lua_State* L, int idx, const char* what) {
  luaL_checktype(L, idx, LUA_TTABLE);
  std::vector<Tensor> r;
  for (lua_Integer i = 1;; ++i) {
    lua_rawgeti(L, idx, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      break;
    }
    r.push_back(check_tensor(L, -1, what));
    lua_pop(L, 1);
  }
  return r;
}

int init(lua_State* L) {
  dist::InitOptions o;
  o.backend = luaL_checkstring(L, 1);
  o.init_method = luaL_checkstring(L, 2);
  o.rank = int(luaL_optinteger(L, 3, -1));
  o.world_size = int(luaL_optinteger(L, 4, -1));
  o.timeout = std::chrono::milliseconds(int64_t(luaL_optnumber(L, 5, 1800.0) * 1000));
  dist::init_process_group(o);
  return 0;
}
int is_initialized(lua_State* L) {
  lua_pushboolean(L, dist::is_initialized());
  return 1;
}
int is_gloo_available(lua_State* L) {
  lua_pushboolean(L, dist::gloo_available());
  return 1;
}
int is_nccl_available(lua_State* L) {
  lua_pushboolean(L, dist::nccl_available());
  return 1;
}
int get_rank(lua_State* L) {
  lua_pushinteger(L, dist::get_rank());
  return 1;
}
int get_world_size(lua_State* L) {
  lua_pushinteger(L, dist::get_world_size());
  return 1;
}
int get_backend(lua_State* L) {
  lua_pushstring(L, dist::get_backend().c_str());
  return 1;
}
int destroy(lua_State* L) {
  dist::destroy_process_group();
  g_works.clear();
  return 0;
}

int barrier(lua_State* L) { return push_work(L, dist::barrier()); }
int all_reduce(lua_State* L) { return push_work(L, dist::all_reduce(check_tensor(L, 1, "tensor"), reduce_op(L, 2))); }
int broadcast(lua_State* L) {
  return push_work(L, dist::broadcast(check_tensor(L, 1, "tensor"), int(luaL_checkinteger(L, 2))));
}
int all_gather(lua_State* L) {
  return push_work(L, dist::all_gather(tensor_list(L, 1, "tensor_list"), check_tensor(L, 2, "tensor")));
}
int reduce_scatter(lua_State* L) {
  return push_work(
      L, dist::reduce_scatter(check_tensor(L, 1, "output"), tensor_list(L, 2, "input_list"), reduce_op(L, 3)));
}
int send(lua_State* L) {
  return push_work(
      L, dist::send(check_tensor(L, 1, "tensor"), int(luaL_checkinteger(L, 2)), int(luaL_optinteger(L, 3, 0))));
}
int recv(lua_State* L) {  // src nil: from any rank
  return push_work(
      L, dist::recv(check_tensor(L, 1, "tensor"), int(luaL_optinteger(L, 2, -1)), int(luaL_optinteger(L, 3, 0))));
}

dist::WorkPtr work(lua_State* L) {
  auto it = g_works.find(luaL_checkinteger(L, 1));
  GL_CHECK(it != g_works.end(), "this Work handle belongs to a destroyed process group");
  return it->second;
}
int wait(lua_State* L) {
  dist::WorkPtr w = work(L);
  w->wait();
  lua_pushboolean(L, true);
  return 1;
}
int is_completed(lua_State* L) {
  lua_pushboolean(L, work(L)->is_completed());
  return 1;
}
int source_rank(lua_State* L) {
  dist::WorkPtr w = work(L);
  GL_CHECK(w->is_recv,
           "sourceRank() may only be called on work objects that correspond to a recv or recv-from-any call.");
  lua_pushinteger(L, w->source_rank);
  return 1;
}
int drop(lua_State* L) {
  g_works.erase(luaL_checkinteger(L, 1));
  return 0;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// torch.distributed.spawn(nproc, code): `gpulab run --nproc-per-node nproc`
// on `code` (written to a temporary script), its output printed here; with
// virtual devices in this session, each rank gets as many (rank i: cuda:i).
int spawn(lua_State* L) {
  Args a(L, 1, "spawn");
  const int64_t n = a.integer(0, "nproc");
  const std::string code = a.string(1, "code", "");
  a.finish(2);
  GL_CHECK_T(ValueError, n >= 1 && n <= 64, "spawn(): nproc must be between 1 and 64, got ", n);
  char path[] = "/tmp/gpulab_spawn_XXXXXX";
  int fd = mkstemp(path);
  GL_CHECK(fd >= 0, "spawn(): cannot create a temporary script");
  bool ok = ::write(fd, code.data(), code.size()) == ssize_t(code.size());
  ::close(fd);
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (!ok || len <= 0) {
    ::unlink(path);
    throw RuntimeError("spawn(): cannot start gpulab run");
  }
  std::string cmd = quoted(std::string(exe, size_t(len))) + " run --nproc-per-node " + std::to_string(n);
  if (configured_virtual_devices() > 0) {
    cmd += " --virtual-gpus ";
    cmd += std::to_string(std::max<int64_t>(n, configured_virtual_devices()));
  }
  cmd += ' ';
  cmd += quoted(path);
  cmd += " 2>&1";
  std::fflush(stdout);
  FILE* p = popen(cmd.c_str(), "r");
  std::string output;
  if (p) {
    char buf[4096];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, got);
  }
  int status = p ? pclose(p) : -1;
  ::unlink(path);
  std::fwrite(output.data(), 1, output.size(), stdout);
  std::fflush(stdout);
  GL_CHECK(status == 0, "spawn(): gpulab run failed (exit status ", WIFEXITED(status) ? WEXITSTATUS(status) : -1, ")");
  return 0;
}

// DDP's reducer hears of each gradient as backward produces it: while a
// backward that DDP waits for runs, the engine's hook calls the Lua function
// given to _arm_grad_hook with the leaf, on the Lua thread running backward.
const char kGradHookKey = 0;
void on_grad_accumulated(const Tensor& leaf, void* ctx) {
  lua_State* L = static_cast<lua_State*>(ctx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kGradHookKey);
  push_tensor(L, leaf);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    std::string msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : "error in DistributedDataParallel's gradient hook";
    lua_pop(L, 1);
    throw RuntimeError(msg);
  }
}
int arm_grad_hook(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kGradHookKey);
  set_grad_accumulated_hook(on_grad_accumulated, L);
  return 0;
}
int disarm_grad_hook(lua_State* L) {
  set_grad_accumulated_hook(nullptr, nullptr);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kGradHookKey);
  return 0;
}

}  // namespace

void open_distributed(lua_State* L) {
  static const Reg fns[] = {
      {"_init", init, "internal: init_process_group(backend, init_method, rank, world_size, timeout_s)"},
      {"is_initialized", is_initialized, "torch.distributed.is_initialized(): has init_process_group run?"},
      {"is_gloo_available", is_gloo_available, "torch.distributed.is_gloo_available(): was gpulab built with gloo?"},
      {"is_nccl_available", is_nccl_available,
       "torch.distributed.is_nccl_available(): can NCCL run here? (a CUDA build, and libnccl.so.2 loads; "
       "GPULAB_NCCL_LIBRARY names another file)"},
      {"get_rank", get_rank, "torch.distributed.get_rank(): this process's rank in the default group."},
      {"get_world_size", get_world_size, "torch.distributed.get_world_size(): the number of processes."},
      {"get_backend", get_backend, "torch.distributed.get_backend(): the default group's backend, 'gloo' or 'nccl'."},
      {"destroy_process_group", destroy, "torch.distributed.destroy_process_group(): closes the default group."},
      {"spawn", spawn,
       "spawn(nproc, code): runs the Lua code in nproc processes with gpulab run (a process group's "
       "environment, virtual devices passed on) and prints their output (gpulab only)"},
      {"_arm_grad_hook", arm_grad_hook, "internal: fn(leaf) is called as backward finishes each leaf's .grad"},
      {"_disarm_grad_hook", disarm_grad_hook, "internal"},
      {"_barrier", barrier, "internal"},
      {"_all_reduce", all_reduce, "internal"},
      {"_broadcast", broadcast, "internal"},
      {"_all_gather", all_gather, "internal"},
      {"_reduce_scatter", reduce_scatter, "internal"},
      {"_send", send, "internal"},
      {"_recv", recv, "internal"},
      {"_wait", wait, "internal"},
      {"_is_completed", is_completed, "internal"},
      {"_source_rank", source_rank, "internal"},
      {"_drop", drop, "internal"},
      {nullptr, nullptr, nullptr}};
  lua_newtable(L);
  set_functions(L, fns);
}

}  // namespace gl::lt
