// The function tables each bindings file exports, and the openers.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "bindings/luaT.h"

namespace gl {
struct Node;
}

namespace gl::lt {
extern const Reg kTensorOps[];          // tensor_ops.cpp: methods that are also torch functions
extern const Reg kTensorMatrixOps[];    // tensor_matrix_ops.cpp: matmul, mm, bmm, dot, addmm, softmax (the same)
extern const Reg kTensorReduceOps[];    // tensor_reduce_ops.cpp: sum, mean, max, var, cumsum, ... (the same)
extern const Reg kTensorMethods[];      // tensor_methods.cpp: methods only
extern const Reg kTensorConversions[];  // tensor_conversions.cpp: to, cuda, cpu, the dtype casts
extern const Reg kTensorViewMethods[];  // tensor_view_methods.cpp: the methods that view or reshape
extern const Reg kTorchFunctions[];     // torch_lib.cpp
extern const Reg kFunctional[];         // torch_lib.cpp: torch.nn.functional
extern const Reg kLinalg[];             // torch_lib.cpp: torch.linalg
extern const Reg kNnConv[];             // nn_conv.cpp: F.conv2d, pooling, batch_norm, layer_norm
extern const Reg kTernaryOps[];         // ternary_ops.cpp: addcmul, addcdiv, lerp (methods and torch functions)
extern const Reg kTernaryInplace[];     // ternary_ops.cpp: addcmul_, addcdiv_, lerp_ (methods)
extern const Reg kSortOps[];            // sort_ops.cpp: sort, topk, median, unique, ... (methods and torch functions)
extern const Reg kShapeOps[];           // shape_ops.cpp: tril, diag, outer, mv, ... (methods and torch functions)
extern const Reg kShapeFunctions[];     // shape_ops.cpp: logspace, meshgrid (torch functions)
extern const Reg kReduceExtra[];        // linalg_extra.cpp: logsumexp (method and torch function)
extern const Reg kEinsum[];             // linalg_extra.cpp: torch.einsum
extern const Reg kThreadFunctions[];    // threads_lib.cpp: torch.get_num_threads, set_num_threads
extern const Reg kLinalgExtra[];        // linalg_extra.cpp: torch.linalg norms, solve, inv, det
extern const Reg kMatrixFunctions[];    // linalg_extra.cpp: inverse, det (method and torch function)
extern const Reg kFunctionalExtra[];    // linalg_extra.cpp: F.one_hot
extern const Reg kNnActivation[];       // nn_activation.cpp: F.gelu, F.silu
extern const Reg kNnPad[];              // nn_pad.cpp: F.pad
extern const Reg kMomentFunctions[];    // tensor_reduce_ops.cpp: var_mean, std_mean (torch functions only)
extern const Reg kAutograd[];           // autograd_lib.cpp: torch.autograd (C half)
// shape_extras.cpp: the methods flip, fliplr, flipud, roll, tile, unfold, and
// the torch functions flip, fliplr, flipud, roll, tile, embedding.
extern const Reg kShapeExtraMethods[];
extern const Reg kShapeExtraFunctions[];
void open_method_functions(lua_State* L);  // shape_ops.cpp: torch.transpose & co. into the torch table on the stack
void open_tensor_type(lua_State* L);       // tensor_object.cpp: the metatable; leaves torch.Tensor class table on stack
void open_grad_fn_type(lua_State* L);      // grad_fn_object.cpp: the grad_fn metatables (called by open_tensor_type)
void open_objects(lua_State* L);           // objects.cpp: device/dtype/Size metatables and torch.device/Size
void open_trace(lua_State* L);             // trace_lib.cpp: torch._trace table on the stack
void open_cuda(lua_State* L);              // cuda_lib.cpp: torch.cuda table on the stack
void open_cuda_setup(lua_State* L);        // cuda_setup.cpp: use_virtual & co. into the table on the stack
void open_io(lua_State* L);                // io_lib.cpp: torch.save/torch.load into the table on the stack
void open_plot(lua_State* L);              // plot_lib.cpp: torch._plot_render and friends (plot/)
void open_idx(lua_State* L);               // idx_lib.cpp: torch._read_idx into the table on the stack
void open_distributed(lua_State* L);       // dist_lib.cpp: torch.distributed (C half) on the stack
int repr(lua_State* L);                    // repr.cpp: the global repr()
void open_repr(lua_State* L);              // echo.cpp: torch._echo, _pyfloat, _tuple into the table on the stack
// repr_names.cpp: the dotted global name of the table or function at idx
// (empty if none), and a namespace's one-line summary (false if not one).
std::string global_name(lua_State* L, int idx);
bool namespace_summary(lua_State* L, int idx, std::string& out);
// repr.cpp: Python's tuple, a Lua array with the "tuple" metatable (the echo
// shows (a, b)). mark_tuple gives the table at idx that metatable;
// push_tensor_tuple pushes ts as one.
void mark_tuple(lua_State* L, int idx);
int push_tensor_tuple(lua_State* L, const std::vector<Tensor>& ts);
// grad_fn_object.cpp: pushes y.grad_fn's userdata, or nil for no node.
void push_grad_fn(lua_State* L, const std::shared_ptr<Node>& n);
// named_tuple.cpp: mark_named_tuple records the two tensors on the top
// of the stack as NAME(field1=first, field2=second) and leaves them there;
// push_named_tuple_field pushes first's `key` field and returns true if it has one.
void mark_named_tuple(lua_State* L, const char* name, const char* field1, const char* field2);
// Raises for f(...)[i] on a function returning a pair as two Lua results
// (Note [Indexing a pair of results]); mark_named_tuple calls it.
void refuse_indexed_pair(lua_State* L, const char* name, const char* first, const char* second, bool named);
bool push_named_tuple_field(lua_State* L, int idx, const char* key);
// named_tuple.cpp: pushes {name, field1, field2, first, second} for the tensor
// at idx and returns true, or pushes nothing and returns false.
bool push_named_tuple_record(lua_State* L, int idx);
// py_text.cpp: Python's repr of a float (shortest round-trip digits) and of a
// str (a Lua string's bytes: UTF-8 kept, the rest escaped, NUL included).
std::string py_float_repr(double x);
std::string py_str_repr(const char* s, size_t n);
void open_args(lua_State* L);        // args_lua.cpp: torch._parse_args, torch._too_many
void open_grad_scope(lua_State* L);  // grad_scope.cpp: torch._with_grad_mode, torch._grad_guard
void open_autocast(lua_State* L);    // autocast_lib.cpp: torch.is_autocast_enabled & co., torch._autocast_guard
void open_op_rows(lua_State* L);     // op_rows_lib.cpp: torch._op_rows
void open_warnings(lua_State* L);    // warnings_lib.cpp: gl::warn once per Lua call site; torch._warn
// grad_hooks.cpp: torch._register_hook / _remove_grad_hook (x:register_hook;
// Note [Tensor hooks]); autograd_function.cpp: torch._record_function
// (torch.autograd.Function). Both call Lua back from the engine
// (lua_callback.h: HookScope sets the state a pass calls back into).
void open_grad_hooks(lua_State* L);
void open_autograd_function(lua_State* L);
// versions_lib.cpp: torch._cuda_version, torch._cudnn_version (torch.version, torch.backends.cudnn).
void open_versions(lua_State* L);
// random_lib.cpp: rand & co. with generator= (replacing kTorchFunctions' rand,
// randn, randint, randperm), the samplers, and the torch.Generator metatable.
extern const Reg kRandomFunctions[];
void push_default_generator(lua_State* L);  // torch.default_generator
extern const Reg kRandomMethods[];
void open_random(lua_State* L);
// index_lib.cpp: gather, scatter & co., nonzero, take, tobytes/frombuffer.
extern const Reg kIndexFunctions[];
extern const Reg kIndexMethods[];
}  // namespace gl::lt
