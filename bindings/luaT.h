// The bindings' plumbing (after Torch7's luaT): the trampoline that turns C++
// exceptions into Lua errors, userdata for tensors/devices/dtypes/sizes, and
// argument parsing for PyTorch-style calls.
//
// Note [Trampoline]: Lua is built as C and raises errors with longjmp, which
// must never cross a live C++ destructor. So every bound function is a plain
// `int f(lua_State*)` that may throw but never calls an erroring Lua API
// (no luaL_check*, no lua_error, no metamethod-triggering gets); it is
// registered through `trampoline`, which catches, lets every C++ object die,
// and only then calls lua_error.
#pragma once
#include <lua.hpp>
#include <exception>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl::lt {

using Fn = int (*)(lua_State*);
struct Reg {
  const char* name;
  Fn fn;
  const char* doc;
};

// Pushes a closure that runs fn under the trampoline, and records its doc.
void push_function(lua_State* L, Fn fn, const char* doc);
// Like push_function, with the `nup` values on top of the stack as upvalues
// 2..nup+1 (upvalue 1 holds fn).
void push_closure(lua_State* L, Fn fn, int nup);
// Sets each entry as a field of the table at the top of the stack. With a
// sig_prefix, each call is first checked against the signature registered as
// sig_prefix + name (Note [Strict arguments]); `method`: called as x:f(...).
void set_functions(lua_State* L, const Reg* regs, const char* sig_prefix = nullptr, bool method = false);
// push_function, checked against the signature registered as sig_key.
void push_checked(lua_State* L, Fn fn, const char* doc, const std::string& sig_key, bool method = false);
// The signature text of a bound function at idx ("sum(input, dim=None, ...)"), or nullptr.
const char* signature_of(lua_State* L, int idx);
// PyTorch's TypeError for too many positionals: "f() takes 2 positional arguments but 3 were given".
// "f() takes 2 positional arguments but 3 were given", or "takes from 1 to 2"
// where min_positional (default: max_positional) of them are required.
[[noreturn]] void throw_too_many(const char* fname, int max_positional, int given, int min_positional = -1);
// Pushes the text of a C++ exception as a Lua error value ("TypeError: ...\nhint: ...").
void push_error(lua_State* L, std::exception_ptr ep);
// An error raised by Lua code the C++ side called back (a gradient hook), on
// its way out through C++ frames: push_error raises its message unchanged.
struct LuaCallbackError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The doc string of a function value at idx, or nullptr.
const char* doc_of(lua_State* L, int idx);
// Attaches a doc string to the function at idx (for functions written in Lua).
void set_doc(lua_State* L, int idx, const char* doc);

// ---- userdata ----
void push_tensor(lua_State* L, const Tensor& t);  // same impl -> same userdata (Note [Tensor identity])
Tensor* to_tensor(lua_State* L, int idx);         // nullptr if not a tensor
Tensor& check_tensor(lua_State* L, int idx, const char* what);
void push_device(lua_State* L, Device d);
std::optional<Device> to_device(lua_State* L, int idx);  // device, "cuda:1", or an int
void push_dtype(lua_State* L, DType d);
std::optional<DType> to_dtype(lua_State* L, int idx);          // dtype object or "float32" (throws on other strings)
std::optional<DType> to_dtype_or_null(lua_State* L, int idx);  // nullopt for non-dtype strings
void push_size(lua_State* L, const Shape& s);
void push_scalar(lua_State* L, Scalar s);
std::optional<Scalar> to_scalar(lua_State* L, int idx);  // number or boolean
// Note [Python type names]: errors name a value's type as PyTorch's would
// (Tensor, int, float, str, bool, NoneType, list, dict, torch.device, or a
// class such as Linear), so that a learner reads the text PyTorch prints;
// a plain Lua table is a list when it has [1] or is empty, else a dict.
// U.type_name (bindings/lua/05_base.lua) follows the same rule.
std::string type_name(lua_State* L, int idx);
void register_types(lua_State* L);  // metatables; call once

// ---- arguments ----
// Note [NumPy keyword aliases]: as PyTorch's argument parser, a parameter
// named dim also answers to axis, keepdim to keepdims, input to x, a and x1,
// other to x2 (d2l writes A.sum(axis=1, keepdims=True)). The canonical name a
// key stands for, or nullptr.
const char* numpy_alias_of(const char* key);

// A call `f(a, b, {k=v})` or `f{a, b, k=v}`: positionals and keywords.
class Args {
 public:
  Args(lua_State* L, int first, const char* fname);
  int n() const { return int(pos_.size()); }
  // Stack index of positional i (0-based) or keyword `name`; 0 when absent.
  int at(int i, const char* name = nullptr);
  bool has(int i, const char* name = nullptr) { return at(i, name) != 0; }
  Tensor& tensor(int i, const char* name);
  int64_t integer(int i, const char* name);
  std::optional<int64_t> opt_integer(int i, const char* name);
  double number(int i, const char* name);
  std::optional<double> opt_number(int i, const char* name);
  bool boolean(int i, const char* name, bool dflt);
  std::string string(int i, const char* name, const char* dflt);
  std::optional<DType> dtype(int i, const char* name);
  std::optional<Device> device(int i, const char* name);
  // The factory keywords dtype (default dflt), device (default cpu),
  // requires_grad and pin_memory (a CPU tensor only; see created()).
  TensorOptions tensor_options(DType dflt);
  // A factory's result, moved to pinned memory when pin_memory=true was given.
  Tensor created(Tensor t);
  Scalar scalar(int i, const char* name);
  // Sizes given as ints from positional `from` on, or one table / torch.Size.
  Shape shape_from(int from, const char* name);
  std::vector<int64_t> int_list(int i, const char* name);  // int or table of ints
  std::vector<Tensor> tensor_list(int i, const char* name);
  // Errors for unknown keywords / too many positionals.
  void finish(int max_positional, int min_positional = -1);
  // Whether the call ended in an empty `{}` taken as the options table.
  bool empty_options() const { return empty_options_; }
  // Stack index of the keywords table, 0 when the call has none.
  int kw_index() const { return kw_; }
  lua_State* L;
  const char* fname;

 private:
  std::vector<int> pos_;
  int kw_ = 0;
  bool empty_options_ = false;
  bool pin_memory_ = false;
  bool requires_grad_ = false;
  std::vector<std::string> used_;
};

[[noreturn]] void type_error(const char* fname, const char* arg, const char* expected, const std::string& got);

}  // namespace gl::lt
