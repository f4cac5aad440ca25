// Calls checked against a signature before they run (Note [Strict arguments]
// in signatures.h): the trampoline for them, and what reads it back.
#include "bindings/luaT.h"
#include "bindings/signatures.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"

namespace gl::lt {
namespace {

// Note [Argument positions]: PyTorch names a wrongly typed argument with its
// place in the call when it was given positionally: "transpose(): argument
// 'dim0' (position 1) must be int, not str" for x:transpose('a', 1), position
// 2 for torch.transpose(x, 'a', 1) (a method does not count self); given as a
// keyword, no position. The bindings throw "f(): argument 'dim0' must be ..."
// (type_error) or "dim0 must be a Tensor, not ..." (check_tensor) without
// knowing how they were called; the checked trampoline knows the signature and
// how many positionals came, and adds the place here.
std::string with_position(const std::string& msg, const Signature& sig, int given) {
  std::string arg, rest, fname = sig.name;
  const size_t open = msg.find("(): argument '");
  if (open != std::string::npos && msg.compare(0, open, sig.name) == 0) {
    fname = msg.substr(0, open);
    const size_t from = open + 14;
    const size_t end = msg.find('\'', from);
    if (end == std::string::npos || msg.compare(end + 1, 9, " must be ") != 0) return msg;
    arg = msg.substr(from, end - from);
    rest = msg.substr(end + 1);
  } else {
    const size_t sp = msg.find(" must be a Tensor, not ");
    if (sp == std::string::npos || msg.find(' ') != sp) return msg;
    arg = msg.substr(0, sp);
    rest = " must be Tensor, not " + msg.substr(sp + 23);
  }
  size_t i = 0;
  while (i < sig.positional.size() && sig.positional[i] != arg) ++i;
  if (i == sig.positional.size() && (!sig.varargs || sig.varargs_name != arg)) return msg;
  // sizes one by one (view(*size)) start right after the named positionals
  const std::string where = int(i) < given ? cat(" (position ", i + 1, ")") : "";
  return cat(fname, "(): argument '", arg, "'", where, rest);
}

// A trampoline that first checks the call against the function's signature
// (upvalue 2; Note [Strict arguments]).
int checked_trampoline(lua_State* L) {
  Fn fn = reinterpret_cast<Fn>(lua_touserdata(L, lua_upvalueindex(1)));
  const auto* sig = static_cast<const Signature*>(lua_touserdata(L, lua_upvalueindex(2)));
  int given = 0;
  try {
    autocast::Entry entry(sig->autocast);  // Note [Autocast]
    if (!sig->accepts_out) {
      given = check_call(L, *sig);
      return fn(L);
    }
    CallShape shape;
    given = check_call(L, *sig, &shape);
    return call_with_out(L, fn, *sig, shape);
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

void throw_too_many(const char* fname, int max_positional, int given, int min_positional) {
  if (min_positional >= 0 && min_positional != max_positional)
    throw TypeError(cat(fname, "() takes from ", min_positional, " to ", max_positional, " positional arguments but ",
                        given, " were given"));
  throw TypeError(cat(fname, "() takes ", max_positional, " positional argument", max_positional == 1 ? "" : "s",
                      " but ", given, given == 1 ? " was" : " were", " given"));
}

}  // namespace gl::lt
