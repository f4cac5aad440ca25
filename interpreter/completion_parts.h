// The pieces of tab completion (interpreter/completion.h) shared by its files:
// scanning the line, evaluating an index/field chain without calling any Lua
// function, and listing what an object has.
#pragma once
#include <cctype>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <lua.hpp>

namespace gl::interp::completion {

inline constexpr const char* kTensorMT = "torch.Tensor";

inline constexpr const char* kKeywords[] = {"and",      "break",  "do",   "else", "elseif", "end",  "false", "for",
                                            "function", "goto",   "if",   "in",   "local",  "nil",  "not",   "or",
                                            "repeat",   "return", "then", "true", "until",  "while"};

inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A name that can follow '.': an identifier that is not a keyword.
inline bool is_identifier(const char* s) {
  if (s == nullptr || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char* p = s; *p; ++p)
    if (!ident_char(*p)) return false;
  for (const char* k : kKeywords)
    if (std::strcmp(s, k) == 0) return false;
  return true;
}

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// ---- completion_chain.cpp ----

struct Scan {
  bool in_string = false;
  size_t string_start = 0;  // first character inside the open string
  bool in_comment = false;
  std::vector<size_t> open;  // positions of unclosed ( [ {
};
Scan scan(std::string_view s);

// Start of the expression chain (names, '.', ':', balanced brackets) ending at `end`.
size_t chain_start(std::string_view s, size_t end);

// What a chain gave: a real value (on the stack top), a tensor known only by
// its type (a call's result), a module made by calling its class (the class on
// the stack), or nothing usable.
enum class Kind { Value, Tensor, Instance, None };

// Evaluates the chain `expr` (e.g. `net[0].weight`, `torch.zeros(2)`). On Value
// or Instance one value is pushed; otherwise the stack is as it was.
Kind evaluate_chain(lua_State* L, std::string_view expr);

bool is_tensor(lua_State* L, int idx);
bool is_module(lua_State* L, int idx);

// Pushes obj[key] (true) or leaves the stack as it was (false); calls only the
// bindings' C __index functions, never a Lua one.
bool lookup(lua_State* L, int obj, int key);

// ---- completion_members.cpp ----

using Names = std::set<std::string>;

// String keys of the table at idx that are identifiers and do not start with
// "_" (unless the user typed one); only function values when `functions`.
void table_keys(lua_State* L, int idx, const std::string& partial, bool functions, Names* out);
void tensor_members(lua_State* L, bool method, const std::string& partial, Names* out);
void class_methods(lua_State* L, int idx, const std::string& partial, Names* out);
void value_members(lua_State* L, int idx, bool method, const std::string& partial, Names* out);

}  // namespace gl::interp::completion
