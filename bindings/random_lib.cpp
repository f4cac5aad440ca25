// torch.Generator and the random functions that take one: rand, randn,
// randint, randperm, normal, bernoulli, multinomial, and the in-place fills
// uniform_, normal_, bernoulli_, exponential_ (ops in tensor/ops/random_ops.cpp).
#include <memory>
#include "bindings/args.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/random_ops.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

constexpr const char* kGeneratorMT = "torch.Generator";
using GenPtr = std::shared_ptr<Generator>;

Generator* to_generator(lua_State* L, int idx) {
  GenPtr* p = ud_test<GenPtr>(L, idx, UdTag::Generator);
  return p ? p->get() : nullptr;
}

// The `generator=` option: nullptr when absent (the device's own generator).
Generator* gen_arg(Args& a) {
  const int idx = a.at(-1, "generator");
  if (idx == 0 || lua_isnil(a.L, idx)) return nullptr;
  Generator* g = to_generator(a.L, idx);
  if (!g) type_error(a.fname, "generator", "torch.Generator", type_name(a.L, idx));
  return g;
}

Generator& self_gen(lua_State* L) {
  Generator* g = to_generator(L, 1);
  GL_CHECK_T(TypeError, g != nullptr, "descriptor of 'torch._C.Generator' object needs a torch.Generator, not ",
             type_name(L, 1));
  return *g;
}

// ---- torch.Generator ----

int generator_new(lua_State* L) {
  Args a(L, 1, "Generator");
  Device d = a.device(0, "device").value_or(Device(Device::CPU));
  if (d.type == Device::CUDA) d = resolve_device(d);
  ud_push<GenPtr>(L, UdTag::Generator, kGeneratorMT, std::make_shared<Generator>(d));
  return 1;
}
int generator_gc(lua_State* L) {
  ud_destroy<GenPtr>(L, 1, UdTag::Generator);
  return 0;
}
int generator_tostring(lua_State* L) {
  lua_pushfstring(L, "<torch._C.Generator object at %p>", lua_topointer(L, 1));
  return 1;
}
int g_manual_seed(lua_State* L) {
  Generator& g = self_gen(L);
  Args a(L, 2, "manual_seed");
  g.manual_seed(uint64_t(a.integer(0, "seed")));
  lua_settop(L, 1);
  return 1;
}
int g_seed(lua_State* L) {
  lua_pushinteger(L, lua_Integer(self_gen(L).seed()));
  return 1;
}
int g_initial_seed(lua_State* L) {
  lua_pushinteger(L, lua_Integer(self_gen(L).initial_seed()));
  return 1;
}
int g_get_state(lua_State* L) {
  push_tensor(L, self_gen(L).get_state());
  return 1;
}
int g_set_state(lua_State* L) {
  Generator& g = self_gen(L);
  Args a(L, 2, "set_state");
  const int idx = a.at(0, "new_state");
  Tensor* t = idx ? to_tensor(L, idx) : nullptr;
  GL_CHECK_T(TypeError, t != nullptr, "set_state(): argument 'new_state' (position 1) must be Tensor, not ",
             type_name(L, idx));
  g.set_state(*t);
  lua_settop(L, 1);
  return 1;
}
// Raw 32- and 64-bit draws, for the DataLoader's shuffles written in Lua.
int g_random(lua_State* L) {
  CpuGenerator& c = self_gen(L).exec->gen;
  std::lock_guard<std::mutex> lock(c.mu);
  lua_pushinteger(L, lua_Integer(c.random()));
  return 1;
}
int g_random64(lua_State* L) {
  CpuGenerator& c = self_gen(L).exec->gen;
  std::lock_guard<std::mutex> lock(c.mu);
  lua_pushinteger(L, lua_Integer(c.random64()));
  return 1;
}
int g_index(lua_State* L) {
  const char* k = lua_tostring(L, 2);
  if (k && std::string(k) == "device") {
    push_device(L, self_gen(L).device);
    return 1;
  }
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__methods");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

int get_rng_state(lua_State* L) {
  push_tensor(L, generator_state(default_cpu_generator()));
  return 1;
}
int set_rng_state(lua_State* L) {
  Args a(L, 1, "set_rng_state");
  set_generator_state(default_cpu_generator(), a.tensor(0, "new_state"));
  return 0;
}

int initial_seed(lua_State* L) {
  lua_pushinteger(L, lua_Integer(default_cpu_generator().initial));
  return 1;
}
int seed(lua_State* L) {
  Generator tmp{Device(Device::CPU)};
  const uint64_t s = tmp.seed();
  manual_seed_all_devices(s);
  lua_pushinteger(L, lua_Integer(s));
  return 1;
}

// ---- fills and samplers ----

template <bool Normal> int rand_fn(lua_State* L) {
  Args a(L, 1, Normal ? "randn" : "rand");
  Shape s = a.shape_from(0, "size");
  Generator* g = gen_arg(a);
  TensorOptions o = a.tensor_options(default_dtype());
  a.finish(a.n());
  push_tensor(L, a.created(Normal ? randn(s, o, g) : rand(s, o, g)));
  return 1;
}

int randint_fn(lua_State* L) {
  Args a(L, 1, "randint");
  int64_t low = 0, high;
  Shape s;
  // randint(high, size) or randint(low, high, size). randint(0, 5, {}) is
  // ambiguous (an empty size or empty options): read it as PyTorch's 0-d size.
  if (a.n() >= 3 || a.has(2, "size") || (a.n() == 2 && a.empty_options())) {
    low = a.integer(0, "low");
    high = a.integer(1, "high");
    s = a.shape_from(2, "size");
  } else {
    high = a.integer(0, "high");
    s = a.shape_from(1, "size");
  }
  Generator* g = gen_arg(a);
  push_tensor(L, a.created(randint(low, high, s, a.tensor_options(DType::Int64), g)));
  return 1;
}

int randperm_fn(lua_State* L) {
  Args a(L, 1, "randperm");
  const int64_t n = a.integer(0, "n");
  Generator* g = gen_arg(a);
  push_tensor(L, a.created(randperm(n, a.tensor_options(DType::Int64), g)));
  return 1;
}

[[noreturn]] void normal_overloads(lua_State* L, Args& a) {
  std::string got;
  for (int i = 0; i < a.n(); ++i) got += (i ? ", " : "") + type_name(L, a.at(i));
  throw TypeError(
      cat("normal() received an invalid combination of arguments - got (", got, "), but expected one of:\n",
          " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n",
          " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n",
          " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n",
          " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
          "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
          "bool requires_grad = False)\n"));
}

int normal_fn(lua_State* L) {
  Args a(L, 1, "normal");
  const bool im = a.has(0, "mean"), is = a.has(1, "std");
  Tensor* mean = opt_tensor(a, 0, "mean");
  Tensor* std = opt_tensor(a, 1, "std");
  Generator* g = gen_arg(a);
  if (mean && std) {
    push_tensor(L, normal(*mean, *std, g));
  } else if (mean) {
    push_tensor(L, normal(*mean, a.opt_number(1, "std").value_or(1.0), g));
  } else if (std) {
    push_tensor(L, normal(a.number(0, "mean"), *std, g));
  } else {
    if (!im || !is || !a.has(2, "size")) normal_overloads(L, a);
    const double m = a.number(0, "mean"), s = a.number(1, "std");
    Shape size = a.shape_from(2, "size");
    push_tensor(L, a.created(normal(m, s, size, a.tensor_options(default_dtype()), g)));
  }
  return 1;
}

int bernoulli_fn(lua_State* L) {
  Args a(L, 1, "bernoulli");
  Tensor& t = a.tensor(0, "input");
  Generator* g = gen_arg(a);
  if (auto p = a.opt_number(1, "p")) push_tensor(L, bernoulli(t, *p, g));
  else push_tensor(L, bernoulli(t, g));
  return 1;
}

int bernoulli_inplace(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  Args a(L, 2, "bernoulli_");
  Generator* g = gen_arg(a);
  if (Tensor* p = opt_tensor(a, 0, "p")) bernoulli_(t, *p, g);
  else bernoulli_(t, a.opt_number(0, "p").value_or(0.5), g);
  lua_settop(L, 1);
  return 1;
}

int multinomial_fn(lua_State* L) {
  Args a(L, 1, "multinomial");
  Tensor& t = a.tensor(0, "input");
  const int64_t n = a.integer(1, "num_samples");
  const bool repl = a.boolean(2, "replacement", false);
  push_tensor(L, multinomial(t, n, repl, gen_arg(a)));
  return 1;
}

int uniform_inplace(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  Args a(L, 2, "uniform_");
  const double lo = a.opt_number(0, "from").value_or(0), hi = a.opt_number(1, "to").value_or(1);
  uniform_(t, lo, hi, gen_arg(a));
  lua_settop(L, 1);
  return 1;
}
int normal_inplace(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  Args a(L, 2, "normal_");
  const double m = a.opt_number(0, "mean").value_or(0), s = a.opt_number(1, "std").value_or(1);
  normal_(t, m, s, gen_arg(a));
  lua_settop(L, 1);
  return 1;
}
int exponential_inplace(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  Args a(L, 2, "exponential_");
  exponential_(t, a.opt_number(0, "lambd").value_or(1), gen_arg(a));
  lua_settop(L, 1);
  return 1;
}

}  // namespace

// torch.* functions (registered after kTorchFunctions: rand & co. replace the plain ones).
const Reg kRandomFunctions[] = {
    {"Generator", generator_new,
     "torch.Generator(device='cpu'): a random generator of its own (mt19937, as PyTorch's CPU one)."},
    {"initial_seed", initial_seed, "torch.initial_seed(): the seed the default CPU generator was last given."},
    {"seed", seed, "torch.seed(): seed every generator with a non-deterministic number and return it."},
    {"get_rng_state", get_rng_state,
     "torch.get_rng_state(): the default CPU generator's state (uint8, PyTorch's 5056 bytes)."},
    {"set_rng_state", set_rng_state,
     "torch.set_rng_state(new_state): restore the default CPU generator from get_rng_state()."},
    {"rand", rand_fn<false>,
     "torch.rand(size...): uniform on [0, 1); same numbers as PyTorch's CPU generator after manual_seed."},
    {"randn", rand_fn<true>, "torch.randn(size...): standard normal."},
    {"randint", randint_fn, "torch.randint(low=0, high, size): integers in [low, high)."},
    {"randperm", randperm_fn, "torch.randperm(n): a random permutation of 0..n-1."},
    {"normal", normal_fn, "torch.normal(mean, std, size): normal samples; mean and std may be tensors."},
    {"bernoulli", bernoulli_fn, "torch.bernoulli(input): 1 with probability input, else 0."},
    {"multinomial", multinomial_fn,
     "torch.multinomial(input, num_samples, replacement=false): category indices drawn with probabilities input."},
    {nullptr, nullptr, nullptr}};

// Tensor methods.
const Reg kRandomMethods[] = {
    {"uniform_", uniform_inplace, "x:uniform_(from=0, to=1)."},
    {"normal_", normal_inplace, "x:normal_(mean=0, std=1)."},
    {"bernoulli_", bernoulli_inplace, "x:bernoulli_(p=0.5): 1 with probability p (a number or a tensor), else 0."},
    {"exponential_", exponential_inplace, "x:exponential_(lambd=1): exponential samples with rate lambd."},
    {"bernoulli", bernoulli_fn, "x:bernoulli(): 1 with probability x, else 0."},
    {"multinomial", multinomial_fn, "x:multinomial(num_samples, replacement=false)."},
    {nullptr, nullptr, nullptr}};

// torch.default_generator: one userdata for the whole session (identity, as
// PyTorch's), over the CPU's own stream; torch.manual_seed returns it.
const char kDefaultGeneratorKey = 0;
void push_default_generator(lua_State* L) { lua_rawgetp(L, LUA_REGISTRYINDEX, &kDefaultGeneratorKey); }

void open_random(lua_State* L) {
  luaL_newmetatable(L, kGeneratorMT);
  static const Reg meta[] = {
      {"__tostring", generator_tostring, nullptr}, {"__index", g_index, nullptr}, {nullptr, nullptr, nullptr}};
  set_functions(L, meta);
  ud_set_finalizer(UdTag::Generator, generator_gc);  // Note [One finalizer]
  ud_set_gc(L, -1);
  lua_newtable(L);
  static const Reg methods[] = {
      {"manual_seed", g_manual_seed, "g:manual_seed(seed): seed this generator; returns it."},
      {"seed", g_seed, "g:seed(): a non-deterministic seed, applied and returned."},
      {"initial_seed", g_initial_seed, "g:initial_seed(): the seed this generator was last given."},
      {"get_state", g_get_state, "g:get_state(): the state as a uint8 tensor (PyTorch's 5056 bytes)."},
      {"set_state", g_set_state, "g:set_state(state): restore a state from get_state()."},
      {"_random", g_random, "internal: one raw 32-bit draw"},
      {"_random64", g_random64, "internal: one raw 64-bit draw"},
      {nullptr, nullptr, nullptr}};
  set_functions(L, methods, "Generator.", true);
  lua_setfield(L, -2, "__methods");
  lua_pop(L, 1);
  // an aliasing pointer that owns nothing: the default generator outlives every state
  ud_push<GenPtr>(L, UdTag::Generator, kGeneratorMT, GenPtr(GenPtr(), &default_generator()));
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kDefaultGeneratorKey);
  lua_setfield(L, -2, "default_generator");
}

}  // namespace gl::lt
