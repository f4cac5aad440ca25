#include "interpreter/kernel/cell.h"

#include <cctype>

#include <lua.hpp>

namespace gl::interp {
namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (;;) {
    size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return lines;
    start = end + 1;
  }
}

bool loads(lua_State* L, const std::string& code) {
  bool ok = luaL_loadbuffer(L, code.data(), code.size(), "=check") == LUA_OK;
  lua_pop(L, 1);
  return ok;
}

}  // namespace

std::vector<CellPart> split_cell(const std::string& cell) {
  std::vector<CellPart> parts;
  std::vector<std::string> lines = lines_of(cell);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const int number = int(i) + 1;
    size_t first = line.find_first_not_of(" \t");
    const bool open_lua = !parts.empty() && parts.back().kind == CellPart::Lua;
    // A line that starts a shell command or a magic where a statement may start.
    // (Neither is Lua, so such a line is never part of a statement.)
    if (first != std::string::npos && (line[first] == '!' || line[first] == '%')) {
      parts.push_back({line[first] == '!' ? CellPart::Shell : CellPart::Magic, line.substr(first), number});
      continue;
    }
    std::string text = line;
    if (auto help = help_request(line)) text = *help;
    if (open_lua) {
      parts.back().text += '\n';
      parts.back().text += text;
    } else {
      parts.push_back({CellPart::Lua, text, number});
    }
  }
  return parts;
}

CellChunk load_cell_chunk(lua_State* L, const std::string& source, const char* chunkname, int first_line) {
  CellChunk result;
  Compilation whole = compile_input(L, source, chunkname, first_line);
  if (whole.status == Compiled::Ok && whole.expression) {
    result.status = Compiled::Ok;
    result.echo = !echo_suppressed(source);
    result.echoed = source;
    return result;
  }
  // ("x = 1\nx.y" reads as an unfinished statement too: try the splits first.)
  const bool statements = whole.status == Compiled::Ok;
  if (statements) lua_pop(L, 1);
  const std::string padding(first_line > 1 ? first_line - 1 : 0, '\n');
  // The last statement, tried from the end ("y = 2; y" splits at the ';').
  const std::vector<size_t> starts = statement_starts(source);
  for (size_t k = starts.size(); k-- > 0;) {
    std::string expr = trim(source.substr(starts[k]));
    if (expr.empty() || (statements && joins_previous(source, starts[k]))) continue;
    bool echo = true;
    if (expr.back() == ';') {  // `x;` runs without echo, as at the prompt
      expr.pop_back();
      echo = false;
    }
    if (!loads(L, "return " + expr)) continue;
    const std::string head = source.substr(0, starts[k]);
    if (!loads(L, head)) continue;
    const std::string code = padding + head + "return (function(...) return ... end)(" + expr + "\n)";
    if (luaL_loadbuffer(L, code.data(), code.size(), chunkname) != LUA_OK) {
      lua_pop(L, 1);
      continue;
    }
    result.status = Compiled::Ok;
    result.echo = echo;
    result.echoed = expr;
    return result;
  }
  if (statements) {  // plain statements after all: load them again
    const std::string code = padding + source;
    luaL_loadbuffer(L, code.data(), code.size(), chunkname);
    result.status = Compiled::Ok;
    return result;
  }
  result.status = whole.status == Compiled::Incomplete ? Compiled::Incomplete : Compiled::Error;
  result.error = whole.error;
  return result;
}

}  // namespace gl::interp
