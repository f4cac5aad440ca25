// F.pad(input, pad, mode='constant', value=nil): pad lists (left, right)
// pairs from the last dim backwards (tensor/ops/pad.cpp).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/shape_ops.h"

namespace gl::lt {

namespace {

int pad(lua_State* L) {
  Args a(L, 1, "pad");
  Tensor& x = a.tensor(0, "input");
  std::vector<int64_t> p;
  if (const int idx = a.at(1, "pad")) {
    GL_CHECK_T(TypeError, lua_type(L, idx) == LUA_TTABLE, "pad(): argument 'pad' must be tuple of ints, not ",
               type_name(L, idx));
    p = a.int_list(1, "pad");
  } else {
    // F.pad(x, {}): the empty table reads as the options, and means no padding
    GL_CHECK_T(TypeError, a.empty_options(), "pad() missing 1 required positional argument: 'pad'");
  }
  const std::string mode = a.string(2, "mode", "constant");
  const std::optional<double> value = a.opt_number(3, "value");
  a.finish(4);
  push_tensor(L, gl::pad(x, p, mode, value));
  return 1;
}

}  // namespace

const Reg kNnPad[] = {{"pad", pad, nullptr},  // docs: 93_doc_learner_apis.lua
                      {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
