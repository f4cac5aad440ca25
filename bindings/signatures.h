// Note [Strict arguments]: PyTorch raises TypeError for an extra positional
// argument or an unknown keyword, and so do we, for every bound function:
// set_functions looks up the function's signature (signature_table.cpp) and the
// trampoline checks each call against it before the function runs, so a
// learner's typo in an option name never passes unnoticed and nothing has
// happened when the error is raised. The Lua half of the library checks its
// calls with the same rules and wording (05_base.lua, U.parse).
#pragma once
#include "tensor/autocast/autocast.h"
#include <string>
#include <unordered_map>
#include <vector>
#include "bindings/luaT.h"

namespace gl::lt {

struct Signature {
  std::string text;                     // "sum(input, dim=None, keepdim=False, *, dtype=None)"
  std::string name;                     // "sum"
  std::vector<std::string> keywords;    // every name a keyword may take
  std::vector<std::string> positional;  // the positional parameters in order (self not counted for methods)
  int max_positional = 0;               // self not counted for methods
  int min_positional = 0;               // those without a default: "takes from 1 to 2 positional arguments"
  bool has_kw_only = false;             // a `*`: not a METH_NOARGS method in PyTorch ("clone(self, *)")
  bool tensor_method = false;           // x:f(...) of a tensor: "TensorBase.f() takes no arguments" when it has none
  bool varargs = false;                 // sizes one by one: view(2, 3)
  std::string varargs_name;             // its name: "size" for view(*size)
  bool method = false;                  // called as x:f(...): argument 1 is self
  bool no_keywords = false;             // every argument is positional: is_tensor(obj, /)
  bool accepts_out = false;             // torch.f(..., {out=t}) (Note [out=], out_arg.cpp)
  autocast::Op autocast = autocast::Op::none;  // the op a call enters (Note [Autocast])
};

// Every signature's text by key (signature_table.cpp).
const std::unordered_map<std::string, const char*>& signature_table();

// The signature registered under key ("sum", "cuda.synchronize"), or nullptr.
// For a method the first parameter (self / input) is not counted.
const Signature* signature_for(const std::string& key, bool method);

// Throws TypeError when the call on L's stack has too many positionals or an
// unknown keyword. Leaves the stack as it was. Returns how many positionals
// the call gave (trailing nils not counted).
// `shape`, when given, learns where the call's keywords table is (0: none)
// and whether it is the one-table form f{a, b, k=v}.
struct CallShape {
  int kw = 0;
  bool one_table = false;
};
int check_call(lua_State* L, const Signature& sig, CallShape* shape = nullptr);

// Whether torch.<key> has PyTorch's out= keyword (out_arg.cpp).
bool takes_out(const std::string& key);
// Calls fn with the call's out= taken out of its keywords and its results
// written into that tensor (or tuple of tensors), which it returns.
int call_with_out(lua_State* L, Fn fn, const Signature& sig, const CallShape& shape);

}  // namespace gl::lt
