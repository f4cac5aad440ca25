// Calls checked against a signature before they run (Note [Strict arguments]
// in signatures.cpp): the trampoline for them, and what reads it back.
#include "bindings/luaT.h"
#include "bindings/signatures.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"

namespace gl::lt {
namespace {

// A trampoline that first checks the call against the function's signature
// (upvalue 2; Note [Strict arguments]).
int checked_trampoline(lua_State* L) {
  Fn fn = reinterpret_cast<Fn>(lua_touserdata(L, lua_upvalueindex(1)));
  const auto* sig = static_cast<const Signature*>(lua_touserdata(L, lua_upvalueindex(2)));
  int given = 0;
  try {
    given = check_call(L, *sig);
    return fn(L);
  } catch (const TypeError& e) {
    push_error(L, std::make_exception_ptr(TypeError(with_position(e.what(), *sig, given), e.hint())));
  } catch (...) { push_error(L, std::current_exception()); }
  return lua_error(L);  // Note [Trampoline]: nothing C++ is alive here
}

}  // namespace

void push_checked(lua_State* L, Fn fn, const char* doc, const std::string& sig_key, bool method) {
  const Signature* sig = signature_for(sig_key, method);
  if (!sig) return push_function(L, fn, doc);  // reported by test_arg_strictness.lua
  lua_pushlightuserdata(L, reinterpret_cast<void*>(fn));
  lua_pushlightuserdata(L, const_cast<Signature*>(sig));
  lua_pushcclosure(L, checked_trampoline, 2);
  if (doc) set_doc(L, -1, doc);
}

const char* signature_of(lua_State* L, int idx) {
  if (lua_tocfunction(L, idx) != checked_trampoline || !lua_getupvalue(L, idx, 2)) return nullptr;
  const auto* sig = static_cast<const Signature*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return sig ? sig->text.c_str() : nullptr;
}

void throw_too_many(const char* fname, int max_positional, int given) {
  throw TypeError(cat(fname, "() takes ", max_positional, " positional argument", max_positional == 1 ? "" : "s",
                      " but ", given, given == 1 ? " was" : " were", " given"));
}

}  // namespace gl::lt
