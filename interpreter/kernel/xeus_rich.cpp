#include "interpreter/kernel/xeus_rich.h"

#include <vector>

#include <lua.hpp>

#include "interpreter/session.h"

namespace gl::interp {
namespace {

// What kind of value it is, and the text to lay out: ("matrix", rows, cols) for
// a 2-D tensor (its echo is laid out), ("table", text) for nvidia-smi's table
// and memory_summary()'s. Never raises (tostring of odd values is pcalled).
constexpr const char* kKind = R"lua(
local v = ...
if torch.is_tensor(v) then
  if v:dim() == 2 and v:numel() > 0 then return 'matrix', v:size(0), v:size(1) end
  return nil
end
if type(v) == 'string' and v:find('PyTorch CUDA memory summary', 1, true) then return 'table', v end
if type(v) == 'table' and type(rawget(v, 'text')) == 'string' and rawget(v, 'text'):find('smi', 1, true)
   and getmetatable(v) and getmetatable(v).__tostring then
  return 'table', rawget(v, 'text')
end
return nil
)lua";

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\n") - a + 1);
}

// A 2-D tensor's echo, "tensor([[1., 2.],\n        [3., 4.]], device='cuda:0')",
// as an HTML table of the same numbers (the repr's formatting, so it matches
// text/plain); a summarised row or column ("...") becomes an ellipsis cell.
// The "tensor of shape (R, C), device=..." line heads it in a div of its own,
// not a <caption>: a caption is at most as wide as the table, so a narrow
// tensor's wrapped into a column of words (seen in the classic notebook).
std::string matrix_html(const std::string& text, long long rows, long long cols) {
  size_t open = text.find("[[");
  size_t close = text.rfind("]]");
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  std::string prefix = trim(text.substr(0, open));  // "tensor(" or "Parameter containing:\ntensor("
  std::string suffix = text.substr(close + 2);
  if (!suffix.empty() && suffix.back() == ')') suffix.pop_back();
  suffix = trim(suffix);
  if (!suffix.empty() && suffix[0] == ',') suffix = trim(suffix.substr(1));
  std::string body = text.substr(open + 1, close - open);  // "[...], ..., [...]"
  std::string html = "<div class=\"gpulab-tensor\">\n<div style=\"font-family: monospace\">";
  html += escape(prefix.rfind("tensor(", 0) == 0 ? "tensor" : prefix.substr(0, prefix.find('\n')));
  html += " of shape (" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  if (!suffix.empty()) html += ", " + escape(suffix);
  html += "</div>\n<table style=\"font-family: monospace\">\n";
  size_t i = 0;
  while (i < body.size()) {
    size_t row_open = body.find('[', i);
    std::string between = body.substr(i, row_open == std::string::npos ? std::string::npos : row_open - i);
    if (between.find("...") != std::string::npos) html += "<tr><td>\u22ee</td></tr>\n";
    if (row_open == std::string::npos) break;
    size_t row_close = body.find(']', row_open);
    if (row_close == std::string::npos) return "";
    std::string row = body.substr(row_open + 1, row_close - row_open - 1);
    html += "<tr>";
    size_t start = 0;
    for (;;) {
      size_t comma = row.find(',', start);
      std::string cell = trim(row.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      html += "<td style=\"text-align: right\">" + escape(cell == "..." ? "\u2026" : cell) + "</td>";
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    html += "</tr>\n";
    i = row_close + 1;
  }
  return html + "</table>\n</div>";
}

bool separator(const std::string& line) { return line.find_first_not_of("|+-= ") == std::string::npos; }

// nvidia-smi's and memory_summary()'s box tables ('|' columns, '+---' and
// '|===' rules) as an HTML table: a rule starts a new group of rows.
std::string box_table_html(const std::string& text) {
  std::vector<std::vector<std::string>> rows;  // an empty row: a rule
  size_t widest = 1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() : end + 1;
    if (line.empty()) {
      rows.push_back({});
      continue;
    }
    if (separator(line)) {
      if (!rows.empty() && !rows.back().empty()) rows.push_back({});
      continue;
    }
    std::vector<std::string> cells;
    size_t a = line[0] == '|' ? 1 : 0;
    for (;;) {
      size_t bar = line.find('|', a);
      std::string cell = line.substr(a, bar == std::string::npos ? std::string::npos : bar - a);
      if (bar != std::string::npos || !trim(cell).empty()) cells.push_back(cell);
      if (bar == std::string::npos) break;
      a = bar + 1;
    }
    widest = std::max(widest, cells.size());
    rows.push_back(cells);
  }
  std::string html = "<table class=\"gpulab-table\" style=\"font-family: monospace; border-collapse: collapse\">\n";
  bool rule = false;
  for (const auto& cells : rows) {
    if (cells.empty()) {
      rule = true;
      continue;
    }
    html += rule ? "<tr style=\"border-top: 1px solid\">" : "<tr>";
    rule = false;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string span =
          (c + 1 == cells.size() && cells.size() < widest) ? " colspan=\"" + std::to_string(widest - c) + "\"" : "";
      html += "<td style=\"white-space: pre; text-align: left\"" + span + ">" + escape(trim(cells[c])) + "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</table>";
}

}  // namespace

void add_rich_forms(lua_State* L, int value_ref, const std::string& text, nlohmann::json* data) {
  if (value_ref == LUA_NOREF || value_ref == LUA_REFNIL) return;
  const int top = lua_gettop(L);
  if (luaL_loadstring(L, kKind) != LUA_OK) {
    lua_settop(L, top);
    return;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, value_ref);
  if (protected_call(L, 1, 3, ErrorStyle::MessageOnly) != LUA_OK || lua_type(L, top + 1) != LUA_TSTRING) {
    lua_settop(L, top);
    return;
  }
  const std::string kind = lua_tostring(L, top + 1);
  std::string html;
  if (kind == "matrix") {
    html = matrix_html(text, lua_tointeger(L, top + 2), lua_tointeger(L, top + 3));
  } else if (kind == "table" && lua_type(L, top + 2) == LUA_TSTRING) {
    html = box_table_html(lua_tostring(L, top + 2));
  }
  lua_settop(L, top);
  if (!html.empty()) (*data)["text/html"] = html;
}

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 | (unsigned char)bytes[i + 2];
    for (int k = 18; k >= 0; k -= 6) out += digits[(v >> k) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = (unsigned char)bytes[i] << 16;
    if (i + 1 < bytes.size()) v |= (unsigned char)bytes[i + 1] << 8;
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

nlohmann::json mime_json(lua_State* L, int value_ref, const MimeBundle& bundle) {
  nlohmann::json data = nlohmann::json::object();
  for (const auto& [mime, content] : bundle.items) {
    const bool binary = mime == "image/png" || mime == "image/jpeg" || mime == "image/gif" || mime == "application/pdf";
    data[mime] = binary ? base64(content) : content;
  }
  if (!bundle.from_value) add_rich_forms(L, value_ref, bundle.items[0].second, &data);
  return data;
}

}  // namespace gl::interp
