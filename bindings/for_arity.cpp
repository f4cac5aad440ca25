// How many variables the generic `for` calling an iterator declares, read
// from the calling function's bytecode (Note [for X, y in loader]).
#include "bindings/for_arity.h"

#include <lua.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gl::bindings {

namespace {

// Note [for X, y in loader]. Python unpacks what an iterator yields to the
// loop's names: `for X, y in loader:` gets the batch's two tensors, and
// `for batch in loader:` the whole batch. A Lua iterator returns values and
// the loop keeps as many as it declares, so the iterator must know the count
// to give both forms their Python meaning. Lua does not pass it, but the
// count is in the loop's own bytecode: OP_TFORCALL's C operand is the number
// of declared variables, and the instruction carries the `for` line, which
// is the caller's current line while the iterator runs. The function's dump
// (lua_dump, Lua 5.4's format: ldump.c) gives both. Which opcode is
// TFORCALL is learnt from probe loops, not assumed. Anything unexpected (a C
// caller, a stripped chunk, another Lua version, two loops on one line with
// different counts) answers 0: unknown, and the iterator keeps Lua's rule.

struct Reader {
  const std::string& s;
  size_t pos = 0;
  bool ok = true;

  uint8_t byte() {
    if (pos >= s.size()) {
      ok = false;
      return 0;
    }
    return static_cast<uint8_t>(s[pos++]);
  }
  uint64_t size() {  // ldump.c's dumpSize: 7 bits a byte, most significant first, last byte marked 0x80
    uint64_t x = 0;
    for (int i = 0; i < 10 && ok; ++i) {
      const uint8_t b = byte();
      x = (x << 7) | (b & 0x7f);
      if (b & 0x80) return x;
    }
    ok = false;
    return 0;
  }
  void skip(uint64_t n) {
    if (n > s.size() - pos) ok = false;
    else pos += n;
  }
  void string() {
    const uint64_t n = size();
    if (n > 0) skip(n - 1);
  }
};

struct Function {
  int64_t linedefined = 0;
  std::vector<uint32_t> code;
  std::vector<int8_t> lineinfo;
  std::vector<std::pair<int64_t, int64_t>> abslineinfo;  // (pc, line)
};

// Reads one function of the dump; `top` receives it, nested ones are skipped.
void read_function(Reader& r, Function* top, int depth) {
  if (depth > 200) r.ok = false;
  if (!r.ok) return;
  r.string();  // source
  const int64_t linedefined = static_cast<int64_t>(r.size());
  r.size();   // lastlinedefined
  r.skip(3);  // numparams, is_vararg, maxstacksize
  const uint64_t ncode = r.size();
  if (!r.ok || ncode > (r.s.size() - r.pos) / 4) {
    r.ok = false;
    return;
  }
  if (top) {
    top->linedefined = linedefined;
    top->code.resize(ncode);
    std::memcpy(top->code.data(), r.s.data() + r.pos, ncode * 4);
  }
  r.skip(ncode * 4);
  const uint64_t nk = r.size();
  for (uint64_t i = 0; i < nk && r.ok; ++i) {
    switch (r.byte()) {
      case 0x13:  // float (LUA_VNUMFLT)
      case 0x03:  // integer (LUA_VNUMINT)
        r.skip(8);
        break;
      case 0x04:  // short string
      case 0x14:  // long string
        r.string();
        break;
      default:  // nil, false, true: no payload
        break;
    }
  }
  r.skip(3 * r.size());  // upvalues: instack, idx, kind
  const uint64_t np = r.size();
  for (uint64_t i = 0; i < np && r.ok; ++i) read_function(r, nullptr, depth + 1);
  const uint64_t nline = r.size();
  if (top && r.ok && nline <= r.s.size() - r.pos) {
    top->lineinfo.resize(nline);
    std::memcpy(top->lineinfo.data(), r.s.data() + r.pos, nline);
  }
  r.skip(nline);
  const uint64_t nabs = r.size();
  for (uint64_t i = 0; i < nabs && r.ok; ++i) {
    const auto pc = static_cast<int64_t>(r.size());
    const auto line = static_cast<int64_t>(r.size());
    if (top) top->abslineinfo.emplace_back(pc, line);
  }
  const uint64_t nloc = r.size();
  for (uint64_t i = 0; i < nloc && r.ok; ++i) {
    r.string();
    r.size();
    r.size();
  }
  const uint64_t nupname = r.size();
  for (uint64_t i = 0; i < nupname && r.ok; ++i) r.string();
}

// The top function of a Lua 5.4 dump; false if the dump is not one.
bool read_dump(const std::string& dump, Function* f) {
  static const char kHeader[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08";
  constexpr size_t kHeaderLen = sizeof(kHeader) - 1;
  if (dump.size() < kHeaderLen + 17 || std::memcmp(dump.data(), kHeader, kHeaderLen) != 0) return false;
  Reader r{dump, kHeaderLen + 16 + 1};  // LUAC_INT, LUAC_NUM, the main closure's upvalue count
  read_function(r, f, 0);
  return r.ok && f->lineinfo.size() == f->code.size();
}

int writer(lua_State*, const void* p, size_t n, void* ud) {
  static_cast<std::string*>(ud)->append(static_cast<const char*>(p), n);
  return 0;
}

// The dump of the function on top of the stack (left there).
std::string dump_top(lua_State* L) {
  std::string out;
  if (lua_dump(L, writer, &out, 0) != 0) out.clear();
  return out;
}

int opcode(uint32_t i) { return static_cast<int>(i & 0x7f); }
int operand_c(uint32_t i) { return static_cast<int>((i >> 24) & 0xff); }

// The opcodes whose C operand equals `n` in a probe loop of n variables.
std::vector<int> probe_opcodes(lua_State* L, int n) {
  std::string src = "local f for v1";
  for (int i = 2; i <= n; ++i) src += ", v" + std::to_string(i);
  src += " in f do end";
  std::vector<int> ops;
  if (luaL_loadstring(L, src.c_str()) != LUA_OK) {
    lua_pop(L, 1);
    return ops;
  }
  Function f;
  if (read_dump(dump_top(L), &f))
    for (uint32_t ins : f.code)
      if (operand_c(ins) == n) ops.push_back(opcode(ins));
  lua_pop(L, 1);
  return ops;
}

// OP_TFORCALL's number: the one opcode with the loop's count in C in probes
// of 3 and 5 variables; -1 if that does not single one out.
int tforcall_opcode(lua_State* L) {
  static int op = -2;
  if (op != -2) return op;
  op = -1;
  for (int a : probe_opcodes(L, 3))
    for (int b : probe_opcodes(L, 5))
      if (a == b) {
        if (op != -1 && op != a) {
          op = -1;
          return op;
        }
        op = a;
      }
  return op;
}

}  // namespace

int tforcall_arity(const std::string& dump, int tforcall, int line) {
  Function f;
  if (tforcall < 0 || !read_dump(dump, &f)) return 0;
  int64_t cur = f.linedefined;
  size_t abs = 0;
  int found = 0;
  for (size_t pc = 0; pc < f.code.size(); ++pc) {
    if (abs < f.abslineinfo.size() && f.abslineinfo[abs].first == static_cast<int64_t>(pc))
      cur = f.abslineinfo[abs++].second;
    else cur += f.lineinfo[pc];
    if (cur != line || opcode(f.code[pc]) != tforcall) continue;
    const int c = operand_c(f.code[pc]);
    if (found != 0 && found != c) return 0;  // two loops on the line disagree
    found = c;
  }
  return found;
}

int for_loop_arity(lua_State* L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Slf", &ar)) return 0;
  int n = 0;
  if (std::strcmp(ar.what, "C") != 0 && ar.currentline > 0)
    n = tforcall_arity(dump_top(L), tforcall_opcode(L), ar.currentline);
  lua_pop(L, 1);
  return n;
}

}  // namespace gl::bindings
