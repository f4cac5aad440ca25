// The function tables each bindings file exports, and the openers.
#pragma once
#include "bindings/luaT.h"

namespace gl::lt {
extern const Reg kTensorOps[];      // tensor_ops.cpp: methods that are also torch functions
extern const Reg kTensorMethods[];  // tensor_methods.cpp: methods only
extern const Reg kTorchFunctions[]; // torch_lib.cpp
extern const Reg kFunctional[];     // torch_lib.cpp: torch.nn.functional
extern const Reg kLinalg[];         // torch_lib.cpp: torch.linalg
void open_tensor_type(lua_State* L);   // tensor_object.cpp: the metatable; leaves torch.Tensor class table on stack
void open_objects(lua_State* L);       // objects.cpp: device/dtype/Size metatables and torch.device/Size
void open_cuda(lua_State* L);          // cuda_lib.cpp: torch.cuda table on the stack
void open_io(lua_State* L);            // io_lib.cpp: torch.save/torch.load into the table on the stack
void open_grad_scope(lua_State* L);    // grad_scope.cpp: torch._with_grad_mode, torch._grad_guard
int repr(lua_State* L);                // the global repr()
}  // namespace gl::lt
