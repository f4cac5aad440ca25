#include "interpreter/completion.h"

#include <cstdlib>

#include <dirent.h>
#include <sys/stat.h>

#include "interpreter/completion_parts.h"

namespace gl::interp {
namespace {

using namespace completion;

// ---- the kinds of completion ---------------------------------------------------

void file_names(std::string_view typed, Names* out) {
  std::string path(typed);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string open_dir = dir.empty() ? "." : dir;
  if (starts_with(open_dir, "~/")) {
    const char* home = std::getenv("HOME");
    if (home != nullptr) open_dir = std::string(home) + open_dir.substr(1);
  }
  DIR* d = opendir(open_dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (name[0] == '.' && (base.empty() || base[0] != '.')) continue;
    if (!starts_with(name, base)) continue;
    struct stat st {};
    bool is_dir = stat((open_dir + "/" + name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    out->insert(dir + name + (is_dir ? "/" : ""));
  }
  closedir(d);
}

// Option names (`name=`) that the doc of the function at the stack top mentions.
void option_names(lua_State* L, const std::string& partial, Names* out) {
  int f = lua_gettop(L);
  if (lua_getglobal(L, "torch") == LUA_TTABLE && lua_getfield(L, -1, "_doc") == LUA_TFUNCTION) {
    lua_pushvalue(L, f);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
      std::string doc = lua_tostring(L, -1);
      for (size_t i = 0; i < doc.size(); ++i) {
        if (doc[i] != '=' || i == 0 || (i + 1 < doc.size() && doc[i + 1] == '=') || doc[i - 1] == '=') continue;
        size_t b = i;
        while (b > 0 && ident_char(doc[b - 1])) --b;
        std::string name = doc.substr(b, i - b);
        if (!name.empty() && is_identifier(name.c_str()) && starts_with(name, partial)) out->insert(name + "=");
      }
    }
  }
  lua_settop(L, f);
}

// Inside `{...}` of a call (`f(a, {dev` or `f{a, dev`): the function, pushed.
bool option_callee(lua_State* L, std::string_view s, const Scan& sc, size_t word) {
  if (sc.open.empty() || s[sc.open.back()] != '{') return false;
  size_t brace = sc.open.back();
  size_t before = word;
  while (before > brace + 1 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
  if (before != brace + 1 && s[before - 1] != ',') return false;  // typing a value, not a name
  size_t end = brace;
  while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  if (end == 0 || !ident_char(s[end - 1])) {  // not f{...}: the '(' around it
    if (sc.open.size() < 2 || s[sc.open[sc.open.size() - 2]] != '(') return false;
    end = sc.open[sc.open.size() - 2];
  }
  std::string_view callee = s.substr(chain_start(s, end), end - chain_start(s, end));
  size_t colon = callee.rfind(':');
  if (colon != std::string_view::npos) {  // x:sum{dim...: the method of x
    Kind kind = evaluate_chain(L, callee.substr(0, colon));
    if (kind == Kind::None) return false;
    std::string name(callee.substr(colon + 1));
    if (kind == Kind::Tensor || is_tensor(L, -1)) {
      if (kind == Kind::Value) lua_pop(L, 1);
      luaL_getmetatable(L, kTensorMT);
      lua_getfield(L, -1, "__methods");
      lua_getfield(L, -1, name.c_str());
      lua_replace(L, -3);
      lua_pop(L, 1);
    } else {
      lua_pushstring(L, name.c_str());
      if (!lookup(L, -2, -1)) {
        lua_pop(L, 2);
        return false;
      }
      lua_replace(L, -3);
      lua_pop(L, 1);
    }
    if (lua_isfunction(L, -1)) return true;
    lua_pop(L, 1);
    return false;
  }
  Kind kind = evaluate_chain(L, callee);
  if (kind != Kind::Value) {
    if (kind == Kind::Instance) lua_pop(L, 1);
    return false;
  }
  if (lua_isfunction(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

}  // namespace

Completions complete_line(lua_State* L, std::string_view s) {
  Completions result;
  const int top = lua_gettop(L);
  if (!lua_checkstack(L, 100)) return result;
  Scan sc = scan(s);
  if (sc.in_comment) return result;
  Names names;
  if (sc.in_string) {
    result.start = sc.string_start;
    file_names(s.substr(sc.string_start), &names);
    result.words.assign(names.begin(), names.end());
    return result;
  }
  size_t word = s.size();
  while (word > 0 && ident_char(s[word - 1])) --word;
  std::string partial(s.substr(word));
  if (!partial.empty() && std::isdigit(static_cast<unsigned char>(partial[0]))) return result;
  result.start = word;
  char sep = word > 0 ? s[word - 1] : '\0';
  if ((sep == '.' || sep == ':') && !(word > 1 && s[word - 2] == '.')) {
    size_t begin = chain_start(s, word - 1);
    Kind kind = evaluate_chain(L, s.substr(begin, word - 1 - begin));
    if (kind == Kind::Tensor) tensor_members(L, sep == ':', partial, &names);
    else if (kind == Kind::Instance && sep == ':') class_methods(L, -1, partial, &names);
    else if (kind == Kind::Value) value_members(L, -1, sep == ':', partial, &names);
  } else if (word > 0 && std::isdigit(static_cast<unsigned char>(s[word - 1]))) {
    return result;  // 1.5e<Tab>: a number
  } else {
    if (option_callee(L, s, sc, word)) option_names(L, partial, &names);
    if (names.empty()) {  // a global name or a keyword
      lua_pushglobaltable(L);
      table_keys(L, -1, partial, false, &names);
      for (const char* k : kKeywords)
        if (starts_with(k, partial)) names.insert(k);
    }
  }
  lua_settop(L, top);
  result.words.assign(names.begin(), names.end());
  return result;
}

}  // namespace gl::interp
