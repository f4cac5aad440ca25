// Tab-completion candidates for the REPL, as a function of the text before the
// cursor and the Lua state (no terminal here, so it is unit-tested directly).
//
// What it completes, IPython-like, by what the object really has:
//   x.sh     -> x.shape          (a tensor's fields after '.', its methods after ':')
//   lin.     -> weight, bias     (a module's parameters, buffers, submodules, fields)
//   lin:par  -> lin:parameters   (nn.Module methods along the class chain)
//   net[0].  / torch.zeros(2):   (index/field chains are evaluated without calling
//                                 any function; a call to a tensor factory or a
//                                 tensor method is completed as a tensor, a call
//                                 of an nn class as a module of that class)
//   "tests/c -> "tests/cli/      (file paths inside a string literal)
//   torch.ones(2, {dev -> device= (option names from the function's doc)
#pragma once
#include <string>
#include <string_view>
#include <vector>

struct lua_State;

namespace gl::interp {

struct Completions {
  size_t start = 0;                // the candidates replace line[start, line.size())
  std::vector<std::string> words;  // sorted, unique
};

// `line` is the current line up to the cursor. Never raises a Lua error and
// never calls a Lua function; it leaves the stack as it found it.
Completions complete_line(lua_State* L, std::string_view line);

}  // namespace gl::interp
