// Opening the library into a Lua state: the torch table and its parts, the
// globals repr/help/time, the embedded Lua half (nn, optim, data), and the
// interpreter's hooks (banner, completion, virtual-device flag).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include "bindings/bindings.h"
#include "bindings/call_site.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"
#include "tensor/runtime/generator_state.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/build_info.h"
#include "tensor/runtime/event.h"
#include "tensor/runtime/registry.h"

namespace gl::lua_src {
struct Chunk {
  const char* name;
  const char* code;
  std::size_t code_len;
  const unsigned char* bytecode;
  std::size_t bytecode_len;
};
extern const Chunk chunks[];
}  // namespace gl::lua_src

namespace gl::bindings {

namespace {

bool g_virtual_requested = false;

int perf_counter(lua_State* L) {
  using namespace std::chrono;
  lua_pushnumber(L, duration<double>(steady_clock::now().time_since_epoch()).count());
  return 1;
}

int get_cpu_capability(lua_State* L) {
  lua_pushstring(L, runtime::cpu_capability().c_str());
  return 1;
}

int allow_tf32_index(lua_State* L) {
  const char* k = lua_tostring(L, 2);
  if (k && !std::strcmp(k, "allow_tf32")) {
    lua_pushboolean(L, gl::allow_tf32());
    return 1;
  }
  return 0;
}
int allow_tf32_newindex(lua_State* L) {
  const char* k = lua_tostring(L, 2);
  GL_CHECK_T(AttributeError, k && !std::strcmp(k, "allow_tf32"), "unknown attribute of torch.backends.cuda.matmul");
  GL_CHECK_T(TypeError, lua_type(L, 3) == LUA_TBOOLEAN, "allow_tf32 must be a boolean");
  gl::set_allow_tf32(lua_toboolean(L, 3));
  return 0;
}

int load_docs(lua_State* L);

int doc(lua_State* L) {
  load_docs(L);
  const char* d = lt::doc_of(L, 1);
  if (d) lua_pushstring(L, d);
  else lua_pushnil(L);
  return 1;
}

// torch._rng_state() / torch._rng_state(s): the CPU generator's state, read and
// restored around a help() example that draws random numbers.
int rng_state(lua_State* L) {
  if (lua_gettop(L) == 0) {
    const std::string s = cpu_generator_state();
    lua_pushlstring(L, s.data(), s.size());
    return 1;
  }
  size_t n = 0;
  const char* s = luaL_checklstring(L, 1, &n);
  set_cpu_generator_state(std::string(s, n));
  return 0;
}

int signature(lua_State* L) {
  const char* s = lt::signature_of(L, 1);
  if (s) lua_pushstring(L, s);
  else lua_pushnil(L);
  return 1;
}

int set_doc(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lt::set_doc(L, 1, luaL_checkstring(L, 2));
  return 0;
}

int set_parameter(lua_State* L) {
  Tensor& t = lt::check_tensor(L, 1, "tensor");
  t.impl->is_parameter = lua_isnoneornil(L, 2) ? true : lua_toboolean(L, 2);
  return 0;
}
int rename_grad_fn(lua_State* L) {
  Tensor& t = lt::check_tensor(L, 1, "tensor");
  const char* name = lua_tostring(L, 2);
  GL_CHECK_T(TypeError, name != nullptr, "name must be a string");
  if (t.grad_fn()) t.grad_fn()->name = name;
  return 0;
}

void open_torch(lua_State* L) {
  lt::register_types(L);
  lua_newtable(L);  // torch
  lt::set_functions(L, lt::kTorchFunctions, "");
  lt::set_functions(L, lt::kTensorOps, "");
  lt::set_functions(L, lt::kTensorMatrixOps, "");
  lt::set_functions(L, lt::kTensorReduceOps, "");
  lt::set_functions(L, lt::kSortOps, "");
  lt::set_functions(L, lt::kTernaryOps, "");
  lt::set_functions(L, lt::kShapeOps, "");
  lt::set_functions(L, lt::kShapeFunctions, "");
  lt::set_functions(L, lt::kShapeExtraFunctions, "");
  lt::open_method_functions(L);
  lt::set_functions(L, lt::kReduceExtra, "");
  lt::set_functions(L, lt::kMatrixFunctions, "");
  lt::set_functions(L, lt::kEinsum, "");
  lt::set_functions(L, lt::kThreadFunctions, "");
  lt::set_functions(L, lt::kMomentFunctions, "");
  lt::open_objects(L);
  lt::open_tensor_type(L);
  lt::set_functions(L, lt::kRandomMethods, "", true);
  lt::set_functions(L, lt::kIndexMethods, "", true);
  lua_setfield(L, -2, "Tensor");
  lt::set_functions(L, lt::kRandomFunctions, "");
  lt::set_functions(L, lt::kIndexFunctions, "");
  lt::open_random(L);
  lt::open_cuda(L);
  lua_setfield(L, -2, "cuda");
  lt::open_trace(L);
  lua_setfield(L, -2, "_trace");
  lt::open_distributed(L);
  lua_setfield(L, -2, "distributed");
  lt::open_io(L);
  lt::open_idx(L);
  lt::open_plot(L);
  lt::open_repr(L);
  lt::open_grad_scope(L);
  lt::open_autocast(L);
  lt::open_args(L);
  lt::open_op_rows(L);
  lt::open_warnings(L);
  lt::open_grad_hooks(L);
  lt::open_autograd_function(L);
  lt::open_versions(L);
  lua_newtable(L);
  lt::set_functions(L, lt::kLinalg, "linalg.");
  lt::set_functions(L, lt::kLinalgExtra, "linalg.");
  lua_setfield(L, -2, "linalg");
  lua_newtable(L);
  lt::set_functions(L, lt::kAutograd, "autograd.");
  lua_setfield(L, -2, "autograd");
  lt::push_function(L, doc, "internal: the doc string of a bound function");
  lua_setfield(L, -2, "_doc");
  lt::push_function(L, signature,
                    "internal: torch._signature(fn): the signature a bound function's calls are checked against");
  lua_setfield(L, -2, "_signature");
  lt::push_function(L, set_doc, "internal: torch._set_doc(fn, text) documents a function written in Lua");
  lua_setfield(L, -2, "_set_doc");
  lt::push_function(L, rng_state,
                    "internal: torch._rng_state() reads the CPU generator's state, torch._rng_state(s) restores it");
  lua_setfield(L, -2, "_rng_state");
  lt::push_function(L, set_parameter, "internal: mark a tensor as an nn.Parameter (prints 'Parameter containing:')");
  lua_setfield(L, -2, "_set_parameter");
  lt::push_function(L, rename_grad_fn, "internal: rename a tensor's grad_fn (DataParallel's GatherBackward)");
  lua_setfield(L, -2, "_rename_grad_fn");
  open_call_site(L);
  // torch.backends.cuda.matmul.allow_tf32
  lua_newtable(L);
  lua_newtable(L);
  lua_newtable(L);
  lua_newtable(L);
  static const lt::Reg tf32[] = {{"__index", allow_tf32_index, nullptr},
                                 {"__newindex", allow_tf32_newindex, nullptr},
                                 {nullptr, nullptr, nullptr}};
  lt::set_functions(L, tf32);
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "matmul");
  lua_setfield(L, -2, "cuda");
  lua_newtable(L);  // torch.backends.cpu
  lt::push_function(
      L, get_cpu_capability,
      "torch.backends.cpu.get_cpu_capability(): 'AVX512', 'AVX2' or 'DEFAULT', the vector kernels of this CPU.");
  lua_setfield(L, -2, "get_cpu_capability");
  lua_setfield(L, -2, "cpu");
  lua_setfield(L, -2, "backends");
  // nn and nn.functional (the Lua chunks fill in the rest).
  lua_newtable(L);
  lua_newtable(L);
  lt::set_functions(L, lt::kFunctional, "F.");
  lt::set_functions(L, lt::kNnConv, "F.");
  lt::set_functions(L, lt::kFunctionalExtra, "F.");
  lt::set_functions(L, lt::kNnActivation, "F.");
  lt::set_functions(L, lt::kNnPad, "F.");
  lua_setfield(L, -2, "functional");
  lua_pushvalue(L, -1);
  lua_setglobal(L, "nn");
  lua_setfield(L, -2, "nn");
  lua_newtable(L);
  lua_setfield(L, -2, "optim");
  lua_newtable(L);
  lua_newtable(L);
  lua_setfield(L, -2, "data");
  lua_setfield(L, -2, "utils");
  lua_pushstring(L, GPULAB_VERSION_STRING);
  lua_setfield(L, -2, "__version__");
  lua_setglobal(L, "torch");
  // time.perf_counter()
  lua_newtable(L);
  lt::push_function(
      L, perf_counter,
      "time.perf_counter(): seconds from a monotonic clock (call torch.cuda.synchronize() first when timing GPU work).");
  lua_setfield(L, -2, "perf_counter");
  lua_setglobal(L, "time");
  lua_register(L, "repr", lt::repr);
}

// Note [Bytecode at build time]: compiling the embedded Lua at each start was
// 43% of a `gpulab -e ''` (40M instructions). cmake/embed_lua.cpp compiles it
// when gpulab is built, with the liblua gpulab links and its debug information
// kept, so errors and tracebacks are those of the source. A liblua whose
// bytecode format differs (another 5.4 release, in principle) refuses the
// bytecode at its header check; the source, kept beside it, is compiled then.
// Loads chunk c as "[gpulab]/NAME.lua". Its name string dies here, before a
// caller's lua_error, which longjmps past destructors.
int load_chunk(lua_State* L, const lua_src::Chunk* c) {
  const std::string name = std::string("=[gpulab]/") + c->name + ".lua";
  const char* bc = reinterpret_cast<const char*>(c->bytecode);
  if (luaL_loadbufferx(L, bc, c->bytecode_len, name.c_str(), "b") == LUA_OK) return LUA_OK;
  lua_pop(L, 1);
  return luaL_loadbufferx(L, c->code, c->code_len, name.c_str(), "t");
}

int run_chunk(lua_State* L, const lua_src::Chunk* c) {
  if (load_chunk(L, c) != LUA_OK) return lua_error(L);
  lua_pushstring(L, c->name);
  lua_call(L, 1, 0);
  return 0;
}

// Note [Docs on first use]: the chunks named 9x_ (doc strings, signatures on
// them, help's examples) were about 25M of the 35M instructions that opening the
// library took, and only help(), the kernel's inspection and the doc tests read
// what they write. They run once, at the first read of a doc after start-up:
// torch._doc, or a field torch._util lacks (its examples tables). While the
// library opens, torch._doc reads the bound functions' own docs, as before.
// The registry holds the index of the first deferred chunk until then.
const char kDocsPending = 0;

bool is_doc_chunk(const lua_src::Chunk* c) { return c->name[0] == '9'; }

bool push_util(lua_State* L) {  // torch._util (or what stands there) on the stack; true if a table
  lua_getglobal(L, "torch");
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushliteral(L, "_util");
    lua_rawget(L, -2);
  } else {
    lua_pushnil(L);
  }
  lua_remove(L, -2);
  return lua_type(L, -1) == LUA_TTABLE;
}

int util_index(lua_State* L) {  // torch._util's __index while the docs wait
  load_docs(L);
  lua_settop(L, 2);
  lua_rawget(L, 1);
  return 1;
}

// Marks the doc chunks from `first` on as pending: torch._doc and torch._util's
// __index run them at the next read.
void defer_docs(lua_State* L, lua_Integer first) {
  lua_pushinteger(L, first);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kDocsPending);
  if (push_util(L)) {
    lua_newtable(L);
    lua_pushcfunction(L, util_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
  }
  lua_pop(L, 1);
}

int load_docs(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kDocsPending);
  const lua_Integer first = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
  lua_pop(L, 1);
  if (first < 0) return 0;
  lua_pushboolean(L, 0);  // first, so that the chunks' own doc reads do not come back here
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kDocsPending);
  if (push_util(L)) {
    lua_pushnil(L);
    lua_setmetatable(L, -2);
  }
  lua_pop(L, 1);
  for (const lua_src::Chunk* c = lua_src::chunks + first; c->name; ++c) {
    // An error here (most often Ctrl-C at the first help()) leaves this chunk
    // and the rest pending for the next read, not missing for the session;
    // a chunk sets fields only, so running it again from the start is safe.
    int rc = load_chunk(L, c);
    if (rc == LUA_OK) {
      lua_pushstring(L, c->name);
      rc = lua_pcall(L, 1, 0, 0);
    }
    if (rc != LUA_OK) {
      defer_docs(L, c - lua_src::chunks);
      return lua_error(L);
    }
  }
  return 0;
}

int load_chunks(lua_State* L) {
  const lua_src::Chunk* c = lua_src::chunks;
  for (; c->name && !is_doc_chunk(c); ++c) run_chunk(L, c);
  if (c->name) defer_docs(L, c - lua_src::chunks);
  return 0;
}

}  // namespace

int open(lua_State* L) {
  // The C++ part runs under the trampoline's rules; Lua chunks run after.
  try {
    open_torch(L);
  } catch (const std::exception& e) {
    lua_pushfstring(L, "RuntimeError: %s", e.what());
    goto fail;
  }
  return load_chunks(L);
fail:
  return lua_error(L);
}

bool configure_virtual(const std::string& spec, std::string* err) {
  int n;
  int64_t cap;
  if (!parse_virtual_spec(spec, &n, &cap)) {
    if (err) *err = "invalid --virtual-gpus value '" + spec + "': expected N or N:SIZE, e.g. 2 or 2:16GiB";
    return false;
  }
  configure_virtual_devices(n, cap);
  g_virtual_requested = n > 0;
  return true;
}

std::string device_banner() {
  const char* env = std::getenv("GPULAB_VIRTUAL_GPUS");
  if (!g_virtual_requested && !(env && std::atoi(env) > 0)) return "";
  try {
    const int n = cuda_device_count();
    if (n == 0) return "CUDA: no devices";
    DeviceInfo i = device_info(0);
    // One line under 80 columns: it is the first thing a learner reads.
    std::string what = i.host_memory
                           ? "in host memory, " + format_bytes(i.total_memory) + " each (no GPU used: CPU timings)"
                           : "sharing one GPU";
    return "CUDA: " + std::to_string(n) + " virtual device" + (n == 1 ? "" : "s") + " " + what;
  } catch (const std::exception& e) { return std::string("CUDA: ") + e.what(); }
}

}  // namespace gl::bindings
