// What the instruction calling a function wants back, read from the calling
// function's bytecode: the names of a generic `for`, the values of an
// assignment (Note [for X, y in loader]).
#include "bindings/call_site.h"

#include <lua.hpp>

#include "bindings/luaT.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gl::bindings {

namespace {

// Note [for X, y in loader]. Python unpacks what an iterator yields to the
// loop's names: `for X, y in loader:` gets the batch's two tensors, and
// `for batch in loader:` the whole batch; `X, y = next(it)` and
// `batch = next(it)` likewise. A Lua function returns values and the caller
// keeps as many as it asked for, so the function must know that count to
// give both forms their Python meaning. Lua does not pass it, but it is in
// the caller's bytecode: OP_TFORCALL's C operand is the number of loop
// names, OP_CALL's C is the number of results plus one (0: all of them).
// The instruction is the one on the caller's current line (a `for` carries
// its own line) whose A operand is the caller's register the called function
// sits in (A + 4 for TFORCALL, which calls a copy of the iterator); that
// register is one past the caller's last slot debug's getlocal can reach,
// as its stack ends where the callee's begins. The function's dump (lua_dump,
// Lua 5.4's format: ldump.c) gives the instructions and their lines. Which
// opcodes are TFORCALL and CALL is learnt from probe chunks, not assumed.
// Anything unexpected (a C caller, a tail call, a stripped chunk, another
// Lua version) answers "unknown", and the function keeps Lua's rule.

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
int operand_a(uint32_t i) { return static_cast<int>((i >> 7) & 0xff); }
int operand_b(uint32_t i) { return static_cast<int>((i >> 16) & 0xff); }
int operand_c(uint32_t i) { return static_cast<int>((i >> 24) & 0xff); }

// The pcs of f's instructions on source line `line` with opcode `op` and A
// operand `a` (any A when a < 0), in order.
std::vector<size_t> instructions_on_line(const Function& f, int64_t line, int op, int a) {
  std::vector<size_t> pcs;
  int64_t cur = f.linedefined;
  size_t abs = 0;
  for (size_t pc = 0; pc < f.code.size(); ++pc) {
    if (abs < f.abslineinfo.size() && f.abslineinfo[abs].first == static_cast<int64_t>(pc))
      cur = f.abslineinfo[abs++].second;
    else cur += f.lineinfo[pc];
    const uint32_t ins = f.code[pc];
    if (cur == line && opcode(ins) == op && (a < 0 || operand_a(ins) == a)) pcs.push_back(pc);
  }
  return pcs;
}

// The opcodes of `src`'s main function whose C operand is `c`.
std::vector<int> opcodes_with_c(lua_State* L, const std::string& src, int c) {
  std::vector<int> ops;
  if (luaL_loadstring(L, src.c_str()) != LUA_OK) {
    lua_pop(L, 1);
    return ops;
  }
  Function f;
  if (read_dump(dump_top(L), &f))
    for (uint32_t ins : f.code)
      if (operand_c(ins) == c) ops.push_back(opcode(ins));
  lua_pop(L, 1);
  return ops;
}

// The one opcode whose C operand is 3 in probe(3) and 5 in probe(5); -1 if
// that does not single one out.
int learn_opcode(lua_State* L, std::string (*probe)(int)) {
  int op = -1;
  for (int a : opcodes_with_c(L, probe(3), 3))
    for (int b : opcodes_with_c(L, probe(5), 5))
      if (a == b) {
        if (op != -1 && op != a) return -1;
        op = a;
      }
  return op;
}

std::string names(int n) {
  std::string s = "v1";
  for (int i = 2; i <= n; ++i) s += ", v" + std::to_string(i);
  return s;
}
// a loop of n names (TFORCALL's C = n); n - 1 results of a call (CALL's C = n)
std::string loop_probe(int n) { return "local f for " + names(n) + " in f do end"; }
std::string call_probe(int n) { return "local f local " + names(n - 1) + " = f()"; }

int tforcall_opcode(lua_State* L) {
  static int op = learn_opcode(L, loop_probe);
  return op;
}
int call_opcode(lua_State* L) {
  static int op = learn_opcode(L, call_probe);
  return op;
}
// a call's result indexed by the constant n (GETI's C = n)
std::string index_probe(int n) { return "local f local v = f()[" + std::to_string(n) + "]"; }
int geti_opcode(lua_State* L) {
  static int op = learn_opcode(L, index_probe);
  return op;
}

// The registers of the frame at `level` that getlocal reaches: its stack up
// to the function it is calling, so the register that function sits in.
int reachable_slots(lua_State* L, lua_Debug* ar) {
  int n = 0;
  while (n < 256 && lua_getlocal(L, ar, n + 1)) {
    lua_pop(L, 1);
    ++n;
  }
  return n;
}

// How far above its register the function at `level` has moved: a vararg
// Lua function copies itself and its fixed parameters above its arguments
// (ltm.c's luaT_adjustvarargs), by one more than the arguments it got.
int moved_by(lua_State* L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Su", &ar)) return -1;
  if (std::strcmp(ar.what, "C") == 0 || !ar.isvararg) return 0;
  int extra = 0;
  while (extra < 256 && lua_getlocal(L, &ar, -(extra + 1))) {
    lua_pop(L, 1);
    ++extra;
  }
  return 1 + ar.nparams + extra;
}

// The register of the call from the frame at `level` and that frame's
// function pushed (for its dump), or -1 and nothing pushed.
int calling_register(lua_State* L, int level, lua_Debug* ar) {
  if (level < 1 || !lua_getstack(L, level, ar) || !lua_getinfo(L, "Slt", ar)) return -1;
  if (std::strcmp(ar->what, "C") == 0 || ar->currentline <= 0) return -1;
  lua_Debug callee;
  if (!lua_getstack(L, level - 1, &callee) || !lua_getinfo(L, "t", &callee) || callee.istailcall) return -1;
  const int moved = moved_by(L, level - 1);
  if (moved < 0) return -1;
  const int a = reachable_slots(L, ar) - moved;
  if (!lua_getinfo(L, "f", ar)) return -1;
  return a;
}

// The C operand of the instruction calling from the frame at `level`, or -1.
int calling_c(lua_State* L, int level, int op, int a_offset) {
  lua_Debug ar;
  const int a = op < 0 ? -1 : calling_register(L, level, &ar);
  if (a < 0) return -1;
  const int c = call_operand_c(dump_top(L), op, ar.currentline, a - a_offset);
  lua_pop(L, 1);
  return c;
}

}  // namespace

int call_operand_c(const std::string& dump, int op, int line, int a) {
  Function f;
  if (op < 0 || !read_dump(dump, &f)) return -1;
  int found = -1;
  for (size_t pc : instructions_on_line(f, line, op, a)) {
    if (found != -1 && found != operand_c(f.code[pc])) return -1;  // two such calls on the line disagree
    found = operand_c(f.code[pc]);
  }
  return found;
}

bool result_indexed(lua_State* L, int level) {
  const int call = call_opcode(L), geti = geti_opcode(L);
  lua_Debug ar;
  const int a = call < 0 || geti < 0 ? -1 : calling_register(L, level, &ar);
  if (a < 0) return false;
  Function f;
  const bool read = read_dump(dump_top(L), &f);
  lua_pop(L, 1);
  if (!read) return false;
  bool indexed = false, calls = false;
  for (size_t pc : instructions_on_line(f, ar.currentline, call, a)) {
    const bool next = pc + 1 < f.code.size() && opcode(f.code[pc + 1]) == geti && operand_b(f.code[pc + 1]) == a;
    if (calls && next != indexed) return false;  // two such calls on the line disagree
    calls = true;
    indexed = next;
  }
  return indexed;
}

int for_loop_arity(lua_State* L, int level) {
  const int c = calling_c(L, level, tforcall_opcode(L), 4);
  return c < 0 ? 0 : c;
}

int results_wanted(lua_State* L, int level) {
  const int c = calling_c(L, level, call_opcode(L), 0);
  return c < 0 ? -2 : c - 1;
}

namespace {

// The stack level of the frame `level` (argument 1, default 1) above a Lua
// function calling these: one more, kept in range (lua_getstack refuses what
// is past the stack's top).
int call_level(lua_State* L) {
  const lua_Integer level = luaL_optinteger(L, 1, 1);
  return level < 0 || level > 1000 ? 1001 : static_cast<int>(level) + 1;
}

// torch._for_arity([level]): the variables of the generic for that called the
// iterator calling this (level 1), or of one further out.
int for_arity(lua_State* L) {
  lua_pushinteger(L, for_loop_arity(L, call_level(L)));
  return 1;
}

// torch._results_wanted([level]): how many results the call of the function
// calling this keeps (-1: all, -2: unknown).
int results_wanted_fn(lua_State* L) {
  lua_pushinteger(L, results_wanted(L, call_level(L)));
  return 1;
}

}  // namespace

void open_call_site(lua_State* L) {
  lt::push_function(L, for_arity, "internal: torch._for_arity() in an iterator: how many variables its for loop has");
  lua_setfield(L, -2, "_for_arity");
  lt::push_function(L, results_wanted_fn,
                    "internal: torch._results_wanted() in a function: how many results its caller keeps");
  lua_setfield(L, -2, "_results_wanted");
}

}  // namespace gl::bindings
