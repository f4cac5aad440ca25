// F.gelu and F.silu: the rows Gelu, GeluTanh and Silu of op_rows.def
// (GL_NN_UNARY: PyTorch has them in torch.nn.functional only), with their
// options. nn.GELU and nn.SiLU (13_nn_layers.lua) call these.
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/ops/composite.h"

namespace gl::lt {

namespace {

int gelu(lua_State* L) {
  Args a(L, 1, "gelu");
  Tensor& x = a.tensor(0, "input");
  const std::string approximate = a.string(-1, "approximate", "none");
  a.finish(1);
  push_tensor(L, gl::gelu(x, approximate));
  return 1;
}

// silu(input, inplace=false): in place, the input itself comes back.
int silu(lua_State* L) {
  Args a(L, 1, "silu");
  Tensor& x = a.tensor(0, "input");
  const bool inplace = a.boolean(1, "inplace", false);
  a.finish(2);
  if (!inplace) {
    push_tensor(L, gl::silu(x));
    return 1;
  }
  gl::silu_(x);
  lua_pushvalue(L, a.at(0, "input"));
  return 1;
}

}  // namespace

const Reg kNnActivation[] = {{"gelu", gelu, nullptr},  // docs: 93_doc_learner_apis.lua
                             {"silu", silu, nullptr},
                             {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
