// The signature of every bound C++ function, in PyTorch's notation, one row
// per key (Note [Strict arguments]); signatures.cpp parses and checks them.
// Keys are the names the functions are registered under, with a prefix for the
// tables whose names would clash ("cuda.", "Event.", "F.", "linalg."). A few
// tables are kept beside their own bindings (sort_ops.cpp, shape_ops.cpp,
// linalg_extra.cpp).
//
// Notation: `name(a, b=None, *rest, *, kw=None)`: a parameter with `=` may be
// left out; `*rest` takes any number of positionals (sizes given one by one);
// names after a lone `*` are keyword-only; names before a `/` are positional-only
// (a function with no keyword at all takes a trailing table as a positional). Every name may also be given as a
// keyword (f{input=x}), as the bindings' Args accept. A `*` with nothing after
// it marks a method whose PyTorch form has keyword-only parameters gpulab does
// not take (clone's memory_format): its extra positionals get the parser's
// "clone() takes 0 positional arguments", not CPython's "TensorBase.exp()
// takes no arguments (1 given)" of a method without parameters.
#include <string>
#include <unordered_map>

#include "bindings/signatures.h"

namespace gl::lt {

#define UNARY(n) \
  {#n, #n "(input)"}, { #n "_", #n "_(self)" }
#define BINARY(n) \
  {#n, #n "(input, other)"}, { #n "_", #n "_(self, other)" }
#define REDUCE(n) \
  { #n, #n "(input, dim=None, keepdim=False)" }

const std::unordered_map<std::string, const char*>& signature_table() {
  static const std::unordered_map<std::string, const char*> t = {
      // ---- tensor ops: torch functions and methods (tensor_ops.cpp) ----
      {"add", "add(input, other, *, alpha=1)"},
      {"add_", "add_(self, other, *, alpha=1)"},
      {"sub", "sub(input, other, *, alpha=1)"},
      {"sub_", "sub_(self, other, *, alpha=1)"},
      {"div", "div(input, other, *, rounding_mode=None)"},
      {"div_", "div_(self, other, *, rounding_mode=None)"},
      {"true_divide", "true_divide(input, other)"},
      {"mul", "mul(input, other)"},
      {"mul_", "mul_(self, other)"},
      {"pow", "pow(input, exponent)"},
      {"pow_", "pow_(self, exponent)"},
      {"negative", "negative(input)"},
      {"round", "round(input, *, decimals=None)"},
      {"round_", "round_(self, *, decimals=None)"},
  // the rows of tensor/ops/op_rows.def with generated bindings (pow's
  // `exponent` and round's `decimals` above come first: a map keeps the
  // first of equal keys)
// clang-format off
#define GL_NN_UNARY(...)  // F.gelu, F.silu: bindings/nn_activation.cpp
#define GL_UNARY(E, name, ...) UNARY(name),
#define GL_BINARY(E, name, policy, bind, ...) GL_SIG_##bind(name)
#define GL_SIG_Plain(name) BINARY(name),
#define GL_SIG_Custom(name)
#include "tensor/ops/op_rows.def"
      // clang-format on
      {"clamp", "clamp(input, min=None, max=None)"},
      {"clip", "clip(input, min=None, max=None)"},
      {"clamp_", "clamp_(self, min=None, max=None)"},
      {"where", "where(condition, input, other)"},
      {"addcmul", "addcmul(input, tensor1, tensor2, *, value=1)"},
      {"addcmul_", "addcmul_(self, tensor1, tensor2, *, value=1)"},
      {"addcdiv", "addcdiv(input, tensor1, tensor2, *, value=1)"},
      {"addcdiv_", "addcdiv_(self, tensor1, tensor2, *, value=1)"},
      {"lerp", "lerp(input, end, weight)"},
      {"lerp_", "lerp_(self, end, weight)"},
      {"masked_fill", "masked_fill(input, mask, value)"},
      {"sum", "sum(input, dim=None, keepdim=False, *, dtype=None)"},
      {"mean", "mean(input, dim=None, keepdim=False, *, dtype=None)"},
  // the rows of tensor/ops/reduce_rows.def (sum's dtype= above comes first)
// clang-format off
#define GL_REDUCE(E, name, ...) REDUCE(name),
#include "tensor/ops/reduce_rows.def"
      // clang-format on
      {"max", "max(input, dim=None, keepdim=False)"},
      {"min", "min(input, dim=None, keepdim=False)"},
      {"norm", "norm(input, p=2, dim=None, keepdim=False)"},
      {"var", "var(input, dim=None, unbiased=True, keepdim=False, *, correction=None)"},
      {"std", "std(input, dim=None, unbiased=True, keepdim=False, *, correction=None)"},
      {"var_mean", "var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None)"},
      {"std_mean", "std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None)"},
      {"cumsum", "cumsum(input, dim, *, dtype=None)"},
      {"cumprod", "cumprod(input, dim, *, dtype=None)"},
      {"index_select", "index_select(input, dim, index)"},
      {"matmul", "matmul(input, other)"},
      {"mm", "mm(input, mat2)"},
      {"bmm", "bmm(input, mat2)"},
      {"dot", "dot(input, tensor)"},
      {"addmm", "addmm(input, mat1, mat2, *, beta=1, alpha=1)"},
      {"softmax", "softmax(input, dim, dtype=None)"},
      {"log_softmax", "log_softmax(input, dim, dtype=None)"},
      // ---- tensor methods only (tensor_methods.cpp) ----
      {"size", "size(self, dim=None)"},
      {"stride", "stride(self, dim=None)"},
      {"dim", "dim(self)"},
      {"ndimension", "ndimension(self)"},
      {"numel", "numel(input)"},
      {"nelement", "nelement(self)"},
      {"element_size", "element_size(self)"},
      {"is_contiguous", "is_contiguous(self, *)"},
      {"storage_offset", "storage_offset(self)"},
      {"data_ptr", "data_ptr(self)"},
      {"is_floating_point", "is_floating_point(self)"},
      {"contiguous", "contiguous(self, *)"},
      {"pin_memory", "pin_memory(self)"},
      {"is_pinned", "is_pinned(self)"},
      {"clone", "clone(self, *)"},
      {"detach", "detach(self)"},
      {"item", "item(self)"},
      {"tolist", "tolist(self)"},
      {"to", "to(self, device=None, dtype=None, non_blocking=False, copy=False)"},
      {"cuda", "cuda(self, device=None)"},
      {"cpu", "cpu(self, *)"},
      {"type", "type(self, dtype=None)"},
      {"type_as", "type_as(self, other)"},
      {"get_device", "get_device(self)"},
      {"float", "float(self, *)"},
      {"double", "double(self, *)"},
      {"half", "half(self, *)"},
      {"bfloat16", "bfloat16(self, *)"},
      {"long", "long(self, *)"},
      {"int", "int(self, *)"},
      {"short", "short(self, *)"},
      {"char", "char(self, *)"},
      {"byte", "byte(self, *)"},
      {"bool", "bool(self, *)"},
      {"view", "view(self, *size)"},
      {"reshape", "reshape(self, *shape)"},
      {"view_as", "view_as(self, other)"},
      {"reshape_as", "reshape_as(self, other)"},
      {"expand", "expand(self, *size)"},
      {"expand_as", "expand_as(self, other)"},
      {"t", "t(self)"},
      {"transpose", "transpose(self, dim0, dim1)"},
      {"permute", "permute(self, *dims)"},
      {"unsqueeze", "unsqueeze(self, dim)"},
      {"squeeze", "squeeze(self, dim=None)"},
      {"flatten", "flatten(self, start_dim=0, end_dim=-1)"},
      {"narrow", "narrow(self, dim, start, length)"},
      {"select", "select(self, dim, index)"},
      {"chunk", "chunk(self, chunks, dim=0)"},
      {"split", "split(self, split_size_or_sections, dim=0)"},
      {"unbind", "unbind(self, dim=0)"},
      {"masked_select", "masked_select(self, mask)"},
      {"repeat", "repeat(self, *repeats)"},
      {"copy_", "copy_(self, src, non_blocking=False)"},
      {"fill_", "fill_(self, value)"},
      {"zero_", "zero_(self)"},
      {"uniform_", "uniform_(self, from=0, to=1, *, generator=None)"},
      {"normal_", "normal_(self, mean=0, std=1, *, generator=None)"},
      {"requires_grad_", "requires_grad_(self, requires_grad=True)"},
      {"retain_grad", "retain_grad(self)"},
      {"backward", "backward(self, gradient=None, retain_graph=None, create_graph=False)"},
      {"equal", "equal(self, other)"},
      {"allclose", "allclose(self, other, rtol=1e-05, atol=1e-08)"},
      {"new_zeros", "new_zeros(self, *size, dtype=None, device=None, requires_grad=False)"},
      {"new_ones", "new_ones(self, *size, dtype=None, device=None, requires_grad=False)"},
      {"new_empty", "new_empty(self, *size, dtype=None, device=None, requires_grad=False)"},
      {"new_full", "new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False)"},
      {"new_tensor", "new_tensor(self, data, *, dtype=None, device=None, requires_grad=False)"},
      // ---- torch (torch_lib.cpp) ----
      {"tensor", "tensor(data, *, dtype=None, device=None, requires_grad=False)"},
      {"empty", "empty(*size, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"zeros", "zeros(*size, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"ones", "ones(*size, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"rand", "rand(*size, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"randn", "randn(*size, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"empty_like", "empty_like(input, *, dtype=None, device=None, requires_grad=False)"},
      {"zeros_like", "zeros_like(input, *, dtype=None, device=None, requires_grad=False)"},
      {"ones_like", "ones_like(input, *, dtype=None, device=None, requires_grad=False)"},
      {"rand_like", "rand_like(input, *, dtype=None, device=None, requires_grad=False)"},
      {"randn_like", "randn_like(input, *, dtype=None, device=None, requires_grad=False)"},
      {"full", "full(size, fill_value, *, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"full_like", "full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False)"},
      {"arange", "arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"linspace", "linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"eye", "eye(n, m=None, *, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"randint",
       "randint(low, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"randint_like", "randint_like(input, low, high=None)"},
      {"randperm", "randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"cat", "cat(tensors, dim=0)"},
      {"concat", "concat(tensors, dim=0)"},
      {"stack", "stack(tensors, dim=0)"},
      {"manual_seed", "manual_seed(seed)"},
      {"is_tensor", "is_tensor(obj, /)"},
      {"is_grad_enabled", "is_grad_enabled()"},
      {"set_grad_enabled", "set_grad_enabled(mode)"},
      {"is_autocast_enabled", "is_autocast_enabled(device_type=None)"},
      {"set_autocast_enabled", "set_autocast_enabled(device_type, enabled)"},
      {"get_autocast_dtype", "get_autocast_dtype(device_type)"},
      {"set_autocast_dtype", "set_autocast_dtype(device_type, dtype)"},
      {"is_autocast_cache_enabled", "is_autocast_cache_enabled()"},
      {"set_autocast_cache_enabled", "set_autocast_cache_enabled(enabled)"},
      {"clear_autocast_cache", "clear_autocast_cache()"},
      {"autocast_increment_nesting", "autocast_increment_nesting()"},
      {"autocast_decrement_nesting", "autocast_decrement_nesting()"},
      {"_amp_foreach_non_finite_check_and_unscale_",
       "_amp_foreach_non_finite_check_and_unscale_(self, found_inf, inv_scale)"},
      {"_amp_update_scale_",
       "_amp_update_scale_(self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval)"},
      {"set_printoptions",
       "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, *, profile=None, sci_mode=None)"},
      {"get_default_dtype", "get_default_dtype()"},
      {"set_default_dtype", "set_default_dtype(d)"},
      {"promote_types", "promote_types(type1, type2)"},
      {"device", "device(type, index=None)"},
      {"Size", "Size(sizes=())"},
      // ---- torch.nn.functional, torch.linalg ----
      {"F.linear", "linear(input, weight, bias=None)"},
      {"F.mse_loss", "mse_loss(input, target, *, reduction='mean')"},
      {"F.cross_entropy",
       "cross_entropy(input, target, weight=None, *, ignore_index=-100, reduction='mean', label_smoothing=0.0)"},
      {"F.dropout", "dropout(input, p=0.5, training=True)"},
      {"F.conv2d", "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)"},
      {"F.max_pool2d",
       "max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)"},
      {"F.avg_pool2d",
       "avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)"},
      {"F.adaptive_avg_pool2d", "adaptive_avg_pool2d(input, output_size)"},
      {"F.batch_norm",
       "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05)"},
      {"F.layer_norm", "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)"},
      {"F.gelu", "gelu(input, *, approximate='none')"},
      {"F.silu", "silu(input, inplace=False)"},
      {"F.pad", "pad(input, pad, mode='constant', value=None)"},
      {"autograd._grad",
       "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, "
       "allow_unused=None, is_grads_batched=False, materialize_grads=False)"},
      {"linalg.qr", "linalg_qr(A, mode='reduced')"},
      {"linalg.svdvals", "linalg_svdvals(A)"},
      // ---- torch.cuda (cuda_lib.cpp) ----
      {"cuda.is_available", "is_available()"},
      {"cuda.device_count", "device_count()"},
      {"cuda.is_initialized", "is_initialized()"},
      {"cuda.current_device", "current_device()"},
      {"cuda.set_device", "set_device(device)"},
      {"cuda.get_device_name", "get_device_name(device=None)"},
      {"cuda.get_device_properties", "get_device_properties(device)"},
      {"cuda.get_device_capability", "get_device_capability(device=None)"},
      {"cuda.is_virtual", "is_virtual(device=None)"},
      {"cuda.manual_seed", "manual_seed(seed)"},
      {"cuda.manual_seed_all", "manual_seed_all(seed)"},
      {"cuda.synchronize", "synchronize(device=None)"},
      {"cuda.mem_get_info", "mem_get_info(device=None)"},
      {"cuda.memory_allocated", "memory_allocated(device=None)"},
      {"cuda.max_memory_allocated", "max_memory_allocated(device=None)"},
      {"cuda.memory_reserved", "memory_reserved(device=None)"},
      {"cuda.max_memory_reserved", "max_memory_reserved(device=None)"},
      {"cuda.reset_peak_memory_stats", "reset_peak_memory_stats(device=None)"},
      {"cuda.empty_cache", "empty_cache()"},
      {"cuda.smi", "smi()"},
      {"cuda.memory_stats", "memory_stats(device=None)"},
      {"cuda.memory_summary", "memory_summary(device=None, abbreviated=False)"},
      {"cuda.list_gpu_processes", "list_gpu_processes(device=None)"},
      {"cuda.reset_accumulated_memory_stats", "reset_accumulated_memory_stats(device=None)"},
      {"cuda.use_virtual", "use_virtual(n)"},
      {"cuda.is_emulated", "is_emulated(device=None)"},
      {"cuda.run_with_visible_devices", "run_with_visible_devices(visible, code)"},
      {"cuda.Event", "Event(enable_timing=False)"},
      {"Event.record", "record(self)"},
      {"Event.synchronize", "synchronize(self)"},
      {"Event.query", "query(self)"},
      {"Event.elapsed_time", "elapsed_time(self, end_event)"},
      // ---- threads_lib.cpp ----
      {"get_num_threads", "get_num_threads()"},
      {"set_num_threads", "set_num_threads(int)"},
      // ---- random_lib.cpp ----
      {"Generator", "Generator(device='cpu')"},
      {"initial_seed", "initial_seed()"},
      {"seed", "seed()"},
      {"get_rng_state", "get_rng_state()"},
      {"set_rng_state", "set_rng_state(new_state)"},
      {"normal",
       "normal(mean, std=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False)"},
      {"bernoulli", "bernoulli(input, p=None, *, generator=None)"},
      {"bernoulli_", "bernoulli_(self, p=0.5, *, generator=None)"},
      {"multinomial", "multinomial(input, num_samples, replacement=False, *, generator=None)"},
      {"exponential_", "exponential_(self, lambd=1, *, generator=None)"},
      {"Generator.manual_seed", "manual_seed(self, seed)"},
      {"Generator.seed", "seed(self)"},
      {"Generator.initial_seed", "initial_seed(self)"},
      {"Generator.get_state", "get_state(self)"},
      {"Generator.set_state", "set_state(self, new_state)"},
      {"Generator._random", "_random(self)"},
      {"Generator._random64", "_random64(self)"},
      // ---- index_lib.cpp ----
      {"gather", "gather(input, dim, index)"},
      {"scatter", "scatter(input, dim, index, src=None, value=None, *, reduce=None)"},
      {"scatter_", "scatter_(self, dim, index, src=None, value=None, *, reduce=None)"},
      {"scatter_add", "scatter_add(input, dim, index, src)"},
      {"scatter_add_", "scatter_add_(self, dim, index, src)"},
      {"index_add", "index_add(input, dim, index, source, *, alpha=1)"},
      {"index_add_", "index_add_(self, dim, index, source, *, alpha=1)"},
      {"index_put", "index_put(input, indices, values, accumulate=False)"},
      {"index_put_", "index_put_(self, indices, values, accumulate=False)"},
      {"take", "take(input, index)"},
      {"nonzero", "nonzero(input, *, as_tuple=False)"},
      {"frombuffer", "frombuffer(buffer, *, dtype=None, count=-1, offset=0, requires_grad=False)"},
      {"tobytes", "tobytes(self)"},
  };
  return t;
}

#undef UNARY
#undef BINARY
#undef REDUCE

}  // namespace gl::lt
