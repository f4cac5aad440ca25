// torch.autocast's switches, as PyTorch's torch.* functions of the same names
// (is_autocast_enabled, set_autocast_dtype, ...), and the guard that
// torch.autocast opens (bindings/lua/19_amp.lua; Note [Autocast]).
#include "bindings/bindings.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autocast/autocast.h"
#include "tensor/core/error.h"
#include "tensor/ops/amp.h"

namespace gl::lt {
namespace {

const char kAutocastGuardMT[] = "torch.autocast";

// "cuda" or "cpu", checked as PyTorch checks a device_type: a malformed string
// gets torch.device's message, a real device type without autocast its own.
Device::Type device_type(lua_State* L, int idx, const char* fname) {
  if (lua_type(L, idx) != LUA_TSTRING) type_error(fname, "device_type", "str", luaL_typename(L, idx));
  const std::string s = lua_tostring(L, idx);
  const Device d = Device::parse(s);
  GL_CHECK(s == "cpu" || s == "cuda", "User specified an unsupported autocast device_type '", s, "'");
  return d.type;
}

// No argument: CUDA's, as PyTorch's torch.is_autocast_enabled().
int is_autocast_enabled(lua_State* L) {
  const Device::Type t = lua_isnoneornil(L, 1) ? Device::CUDA : device_type(L, 1, "is_autocast_enabled");
  lua_pushboolean(L, autocast::state().enabled[t]);
  return 1;
}

int set_autocast_enabled(lua_State* L) {
  const Device::Type t = device_type(L, 1, "set_autocast_enabled");
  if (!lua_isboolean(L, 2)) type_error("set_autocast_enabled", "enabled", "bool", luaL_typename(L, 2));
  autocast::state().enabled[t] = lua_toboolean(L, 2);
  return 0;
}

int get_autocast_dtype(lua_State* L) {
  push_dtype(L, autocast::state().dtype[device_type(L, 1, "get_autocast_dtype")]);
  return 1;
}

int set_autocast_dtype(lua_State* L) {
  const Device::Type t = device_type(L, 1, "set_autocast_dtype");
  auto d = to_dtype(L, 2);
  if (!d) type_error("set_autocast_dtype", "dtype", "torch.dtype", luaL_typename(L, 2));
  // gpulab's own check: a product cast to an integer dtype would be no autocast at all
  GL_CHECK(is_floating(*d), "set_autocast_dtype: expected a floating-point dtype, got ", dtype_name(*d));
  autocast::state().dtype[t] = *d;
  return 0;
}

int is_autocast_cache_enabled(lua_State* L) {
  lua_pushboolean(L, autocast::state().cache_enabled);
  return 1;
}

int set_autocast_cache_enabled(lua_State* L) {
  if (!lua_isboolean(L, 1)) type_error("set_autocast_cache_enabled", "enabled", "bool", luaL_typename(L, 1));
  autocast::state().cache_enabled = lua_toboolean(L, 1);
  return 0;
}

int clear_autocast_cache(lua_State*) {
  autocast::clear_cache();
  return 0;
}

int increment_nesting(lua_State* L) {
  lua_pushinteger(L, ++autocast::state().nesting);
  return 1;
}

int decrement_nesting(lua_State* L) {
  lua_pushinteger(L, --autocast::state().nesting);
  return 1;
}

// torch._autocast(key, t1, t2, ...): the tensors cast as the op bound under
// `key` casts its inputs (for the losses written in Lua); nil stays nil.
int autocast_inputs(lua_State* L) {
  const autocast::Op op = autocast::op_named(luaL_checkstring(L, 1));
  GL_CHECK(op != autocast::Op::none, "internal: no autocast row for ", lua_tostring(L, 1));
  const int n = lua_gettop(L) - 1;
  std::vector<Tensor> ts;
  for (int i = 2; i <= n + 1; ++i) ts.push_back(lua_isnil(L, i) ? Tensor() : check_tensor(L, i, "input"));
  ts = autocast::cast_inputs(op, ts);
  for (int i = 0; i < n; ++i) {
    if (ts[size_t(i)].defined()) push_tensor(L, ts[size_t(i)]);
    else lua_pushnil(L);
  }
  return n;
}

// The guard's __close: the state as it was when the guard was made; the
// weight cache goes when the outermost region ends (Note [Autocast weight cache]).
int guard_close(lua_State* L) {
  lua_getfield(L, 1, "type");
  const auto t = Device::Type(lua_tointeger(L, -1));
  lua_getfield(L, 1, "prev_enabled");
  lua_getfield(L, 1, "prev_dtype");
  lua_getfield(L, 1, "prev_cache");
  auto& s = autocast::state();
  if (--s.nesting == 0) autocast::clear_cache();
  s.enabled[t] = lua_toboolean(L, -3);
  s.dtype[t] = DType(lua_tointeger(L, -2));
  s.cache_enabled = lua_toboolean(L, -1);
  return 0;
}

// torch._autocast_guard(device_type, enabled, dtype, cache_enabled): enters
// the region (torch.autocast's __enter__) and returns a to-be-closed value
// that leaves it. The state switches last, once the guard exists (Note [Guard window]).
int autocast_guard(lua_State* L) {
  const Device::Type t = device_type(L, 1, "autocast");
  const bool enabled = lua_toboolean(L, 2);
  auto d = to_dtype(L, 3);
  GL_CHECK(d.has_value() && is_floating(*d), "internal: torch._autocast_guard needs a floating-point dtype");
  const bool cache = lua_toboolean(L, 4);
  auto& s = autocast::state();
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, t);
  lua_setfield(L, -2, "type");
  lua_pushboolean(L, s.enabled[t]);
  lua_setfield(L, -2, "prev_enabled");
  lua_pushinteger(L, lua_Integer(s.dtype[t]));
  lua_setfield(L, -2, "prev_dtype");
  lua_pushboolean(L, s.cache_enabled);
  lua_setfield(L, -2, "prev_cache");
  if (luaL_newmetatable(L, kAutocastGuardMT)) {
    lua_pushcfunction(L, guard_close);
    lua_setfield(L, -2, "__close");
  }
  lua_setmetatable(L, -2);
  bindings::open_guard_window(L);
  s.enabled[t] = enabled;
  s.dtype[t] = *d;
  ++s.nesting;
  s.cache_enabled = cache;
  return 1;
}

// GradScaler's two device steps (tensor/ops/amp.h), under PyTorch's names.
int amp_unscale(lua_State* L) {
  Args a(L, 1, "_amp_foreach_non_finite_check_and_unscale_");
  std::vector<Tensor> grads = a.tensor_list(0, "self");
  Tensor& found_inf = a.tensor(1, "found_inf");
  const Tensor& inv_scale = a.tensor(2, "inv_scale");
  amp_non_finite_check_and_unscale_(grads, found_inf, inv_scale);
  return 0;
}

int amp_update_scale(lua_State* L) {
  Args a(L, 1, "_amp_update_scale_");
  Tensor& scale = a.tensor(0, "self");
  Tensor& tracker = a.tensor(1, "growth_tracker");
  push_tensor(L, amp_update_scale_(scale, tracker, a.tensor(2, "found_inf"), a.number(3, "scale_growth_factor"),
                                   a.number(4, "scale_backoff_factor"), a.integer(5, "growth_interval")));
  return 1;
}

}  // namespace

void open_autocast(lua_State* L) {
  static const Reg fns[] = {
      {"is_autocast_enabled", is_autocast_enabled,
       "is_autocast_enabled(device_type='cuda'): whether torch.autocast is on for that device type."},
      {"set_autocast_enabled", set_autocast_enabled,
       "set_autocast_enabled(device_type, enabled): switches autocast on or off (torch.autocast does it for a "
       "region)."},
      {"get_autocast_dtype", get_autocast_dtype,
       "get_autocast_dtype(device_type): the dtype autocast runs products in (float16 on CUDA, bfloat16 on the CPU "
       "by default)."},
      {"set_autocast_dtype", set_autocast_dtype, "set_autocast_dtype(device_type, dtype): sets that dtype."},
      {"is_autocast_cache_enabled", is_autocast_cache_enabled,
       "is_autocast_cache_enabled(): whether autocast reuses its casts of weights within a region."},
      {"set_autocast_cache_enabled", set_autocast_cache_enabled,
       "set_autocast_cache_enabled(enabled): switches that cache on or off."},
      {"clear_autocast_cache", clear_autocast_cache, "clear_autocast_cache(): drops autocast's cached weight casts."},
      {"autocast_increment_nesting", increment_nesting,
       "autocast_increment_nesting(): one more autocast region open; returns the depth."},
      {"autocast_decrement_nesting", decrement_nesting,
       "autocast_decrement_nesting(): one autocast region closed; returns the depth."},
      {"_amp_foreach_non_finite_check_and_unscale_", amp_unscale,
       "_amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale): GradScaler's unscale: each "
       "gradient times inv_scale, in place; found_inf becomes 1 if any was inf or nan."},
      {"_amp_update_scale_", amp_update_scale,
       "_amp_update_scale_(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval): "
       "GradScaler's update of its scale, in place."},
      {nullptr, nullptr, nullptr}};
  set_functions(L, fns, "");
  static const Reg internal[] = {
      {"_autocast", autocast_inputs, "internal: torch._autocast(key, ...): the tensors cast as that op's policy says"},
      {"_autocast_guard", autocast_guard,
       "internal: torch._autocast_guard(device_type, enabled, dtype, cache_enabled): enters a region; closing "
       "the result leaves it"},
      {nullptr, nullptr, nullptr}};
  set_functions(L, internal);
}

}  // namespace gl::lt
