// Signatures parsed from their text (signature_table.cpp holds the rows and
// their notation), and the check the trampoline runs before the function
// itself (Note [Strict arguments]). A function registered without a signature
// is reported by tests/lua/test_arg_strictness.lua.
#include "bindings/signatures.h"

#include <cstring>
#include <deque>
#include <unordered_map>

#include "tensor/core/error.h"
#include "tensor/core/format.h"

namespace gl::lt {
namespace {

Signature parse(const char* text, bool method) {
  Signature s;
  s.text = text;
  s.method = method;
  const char* open = std::strchr(text, '(');
  s.name.assign(text, open);
  std::string params(open + 1, std::strchr(text, ')'));
  bool kw_only = false;
  int index = 0;
  size_t at = 0;
  while (at < params.size()) {
    size_t end = params.find(',', at);
    if (end == std::string::npos) end = params.size();
    std::string p = params.substr(at, end - at);
    at = end + 1;
    while (!p.empty() && p.front() == ' ') p.erase(0, 1);
    if (p.empty()) continue;
    if (p == "*") {  // alone at the end: PyTorch has keyword-only parameters gpulab does not take
      kw_only = s.has_kw_only = true;
      continue;
    }
    if (p == "/") {  // the names so far are positional-only
      s.keywords.clear();
      s.no_keywords = true;
      continue;
    }
    if (p.front() == '*') {  // sizes one by one: no limit on positionals
      s.varargs = true;
      kw_only = true;
      s.varargs_name = p.substr(1);
      s.keywords.push_back(s.varargs_name);
      continue;
    }
    const size_t eq = p.find('=');
    const std::string name = p.substr(0, eq);
    if (index++ == 0 && method) continue;  // self: not counted, never a keyword
    s.keywords.push_back(name);
    if (kw_only) continue;
    ++s.max_positional;
    if (eq == std::string::npos) s.min_positional = s.max_positional;
    s.positional.push_back(name);
  }
  s.no_keywords = s.no_keywords && s.keywords.empty();
  return s;
}

}  // namespace

// Tables of signatures kept beside their bindings: {key, text} rows, {nullptr, nullptr} last.
extern const char* const kSortOpSignatures[][2];       // sort_ops.cpp
extern const char* const kShapeOpSignatures[][2];      // shape_ops.cpp
extern const char* const kLinalgExtraSignatures[][2];  // linalg_extra.cpp
extern const char* const kShapeExtraSignatures[][2];   // shape_extras.cpp
static const char* const (*const kMoreSignatures[])[2] = {kSortOpSignatures, kShapeOpSignatures, kLinalgExtraSignatures,
                                                          kShapeExtraSignatures};

const Signature* signature_for(const std::string& key, bool method) {
  static std::deque<Signature> parsed;  // stable addresses, kept for the process
  static std::unordered_map<std::string, const Signature*> cache[2];
  auto hit = cache[method].find(key);
  if (hit != cache[method].end()) return hit->second;
  auto it = signature_table().find(key);
  const char* text = it != signature_table().end() ? it->second : nullptr;
  for (auto rows : kMoreSignatures)
    for (auto r = rows; !text && r[0][0]; ++r)
      if (key == r[0][0]) text = r[0][1];
  const Signature* s = nullptr;
  if (text) {
    std::string full = text;
    const bool out = !method && takes_out(key);
    if (out) {  // PyTorch's notation: "add(input, other, *, alpha=1, out=None)"
      const char* add = full.find('*') != std::string::npos ? ", out=None"
                        : full[full.size() - 2] == '('      ? "*, out=None"
                                                            : ", *, out=None";
      full.insert(full.size() - 1, add);
    }
    parsed.push_back(parse(full.c_str(), method));
    parsed.back().tensor_method = method && key.find('.') == std::string::npos;  // others: "Event.record"
    parsed.back().accepts_out = out;
    parsed.back().autocast = autocast::op_named(key);
    s = &parsed.back();
  }
  cache[method][key] = s;
  return s;
}

int check_call(lua_State* L, const Signature& sig, CallShape* shape) {
  const int top = lua_gettop(L);
  const int first = sig.method ? 2 : 1;
  // Nothing to check: no options table possible and few enough positionals.
  if (top < first || (lua_type(L, top) != LUA_TTABLE && (sig.varargs || top - first + 1 <= sig.max_positional))) {
    int n = top - first + 1;
    while (n > 0 && lua_isnil(L, first + n - 1)) --n;
    return n;
  }
  if (sig.no_keywords) {  // every argument is a positional, tables included: is_tensor({a = 1})
    int n = top - first + 1;
    while (n > 0 && lua_isnil(L, first + n - 1)) --n;
    if (n > sig.max_positional) throw_too_many(sig.name.c_str(), sig.max_positional, n, sig.min_positional);
    return n;
  }
  Args a(L, first, sig.name.c_str());  // the same split of positionals and keywords as the function's own
  std::string unknown;
  if (a.kw_index()) {
    lua_pushnil(L);
    while (lua_next(L, a.kw_index())) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING || !unknown.empty()) continue;
      std::string key = lua_tostring(L, -1);
      const char* canonical = numpy_alias_of(key.c_str());  // Note [NumPy keyword aliases]
      bool known = false;
      for (const auto& k : sig.keywords) known = known || k == key || (canonical && k == canonical);
      if (!known) unknown = key;
    }
  }
  if (shape) *shape = CallShape{a.kw_index(), a.n() > 0 && a.at(0) > top};
  int n = a.n();
  while (n > 0 && a.at(n - 1) == 0) --n;  // trailing nils do not count: f(a, nil) is f(a), as in U.parse
  lua_settop(L, top);                     // the one-table form pushed its items
  // PyTorch's tensor methods without parameters are CPython's METH_NOARGS, with its wording
  if (sig.tensor_method && sig.keywords.empty() && !sig.has_kw_only && !sig.varargs) {
    if (n > 0) throw TypeError(cat("TensorBase.", sig.name, "() takes no arguments (", n, " given)"));
    if (!unknown.empty()) throw TypeError(cat("TensorBase.", sig.name, "() takes no keyword arguments"));
  }
  if (!sig.varargs && n > sig.max_positional)
    throw_too_many(sig.name.c_str(), sig.max_positional, n, sig.min_positional);
  if (!unknown.empty()) throw TypeError(cat(sig.name, "() got an unexpected keyword argument '", unknown, "'"));
  return n;
}

}  // namespace gl::lt
