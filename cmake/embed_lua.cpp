// Build-time tool: writes a C++ table of the Lua sources given on the command
// line, each with its bytecode, for the bindings to load at start-up.
//   embed_lua OUT.cpp FILE.lua...
// Compiling the library's Lua at every start was 40M instructions, 43% of a
// `gpulab -e ''` (Note [Bytecode at build time] in bindings/open.cpp). The
// bytecode keeps its debug information (lines, locals, the chunk name), so
// errors and tracebacks read exactly as from the source. It is produced by the
// same liblua the program links, and the source stays beside it for a Lua
// whose bytecode format differs.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <lua.hpp>

namespace {

int writer(lua_State*, const void* p, size_t n, void* ud) {
  auto* out = static_cast<std::string*>(ud);
  out->append(static_cast<const char*>(p), n);
  return 0;
}

void put_bytes(std::ostream& os, const std::string& bytes) {
  int col = 0;
  for (unsigned char c : bytes) {
    os << static_cast<unsigned>(c) << ',';
    if (++col == 32) {
      os << '\n';
      col = 0;
    }
  }
  os << "0";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embed_lua OUT.cpp FILE.lua...\n");
    return 2;
  }
  std::vector<std::string> files(argv + 2, argv + argc);
  std::sort(files.begin(), files.end());
  std::ostringstream body, table;
  body << "// Generated from bindings/lua/*.lua by cmake/embed_lua.cpp; do not edit.\n"
          "#include <cstddef>\nnamespace gl::lua_src {\n"
          "struct Chunk { const char* name; const char* code; std::size_t code_len;"
          " const unsigned char* bytecode; std::size_t bytecode_len; };\n";
  lua_State* L = luaL_newstate();
  for (size_t i = 0; i < files.size(); ++i) {
    std::ifstream in(files[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "embed_lua: cannot read %s\n", files[i].c_str());
      return 1;
    }
    std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string base = files[i].substr(files[i].find_last_of('/') + 1);
    std::string name = base.substr(0, base.rfind(".lua"));
    // The chunk name the bindings give the source too (bindings/open.cpp).
    std::string chunkname = "=[gpulab]/" + name + ".lua";
    if (luaL_loadbuffer(L, src.data(), src.size(), chunkname.c_str()) != LUA_OK) {
      std::fprintf(stderr, "embed_lua: %s\n", lua_tostring(L, -1));
      return 1;
    }
    std::string bc;
    lua_dump(L, writer, &bc, /*strip=*/0);
    lua_pop(L, 1);
    body << "static const char c" << i << "[] = {";
    put_bytes(body, src);
    body << "};\nstatic const unsigned char b" << i << "[] = {";
    put_bytes(body, bc);
    body << "};\n";
    table << "  {\"" << name << "\", c" << i << ", " << src.size() << ", b" << i << ", " << bc.size() << "},\n";
  }
  lua_close(L);
  body << "extern const Chunk chunks[] = {\n" << table.str() << "  {nullptr, nullptr, 0, nullptr, 0}};\n}\n";
  std::ofstream out(argv[1], std::ios::binary);
  out << body.str();
  return out ? 0 : 1;
}
