-- Docs (signature, description) and help() examples of the APIs added for
-- d2l / PyTorch learners, in the form 91_doc_signatures.lua and
-- 92_doc_examples.lua give the others: functions as rows {path, parameters,
-- description, example} (93_doc_b2_ops.lua's form), methods as {function,
-- doc (nil: the one 91_doc_signatures_set.lua gave), example}.
local U = torch._util

local functions = U.doc_functions
local function methods(rows)
  for _, m in ipairs(rows) do
    if m[2] then torch._set_doc(m[1], m[2]) end
    U.examples[m[1]] = m[3]
  end
end

-- ---- nn.ModuleList ----
local ML = 'nn.ModuleList({nn.Linear(2, 2), nn.ReLU()})'
U.examples[nn.ModuleList] = ML
methods({
  {nn.ModuleList.append, 'ml:append(module): add a module at the end; returns ml', ML .. ':append(nn.Tanh())'},
  {nn.ModuleList.extend, 'ml:extend(modules): add each module of a table (or ModuleList, Sequential) at the end; returns ml',
   ML .. ':extend({nn.Tanh(), nn.Sigmoid()})'},
  {nn.ModuleList.insert, 'ml:insert(index, module): put module at index (0-based), the later ones one further',
   '(function() local ml = ' .. ML .. '; ml:insert(0, nn.Tanh()); return ml end)()'},
  {nn.ModuleList.pop, 'ml:pop(key): remove the module at key (0-based) and return it', ML .. ':pop(0)'},
  {nn.ModuleList.forward, 'ml:forward(): a ModuleList has no forward (calling it is an error); `for m in ml do` iterates it',
   '(function() local n = 0; for m in ' .. ML .. ' do n = n + 1 end; return n end)()'},
})

-- ---- hooks (11_nn_hooks.lua) ----
methods({
  {torch.Tensor.register_hook, 'x:register_hook(hook) -> RemovableHandle: hook(grad) runs during backward when '
     .. "x's gradient is computed; a tensor it returns replaces that gradient",
   '(function() local x = torch.ones(2, {requires_grad=true}); x:register_hook(function(g) return g * 10 end); '
     .. 'x:sum():backward(); return x.grad end)()'},
  {nn.Module.register_forward_pre_hook, 'm:register_forward_pre_hook(hook) -> RemovableHandle: hook(module, args) runs '
     .. 'before forward; a value it returns replaces the args (a tuple, or one value)',
   '(function() local m = nn.Linear(2, 1); m:register_forward_pre_hook(function(mod, args) return args[1] * 0 end); '
     .. 'return m(torch.ones(1, 2)) - m.bias end)()'},
  {nn.Module.register_forward_hook, 'm:register_forward_hook(hook) -> RemovableHandle: hook(module, args, output) runs '
     .. 'after forward; a value it returns replaces the output',
   '(function() local acts = {}; local m = nn.Sequential(nn.Linear(2, 3), nn.ReLU()); '
     .. 'm[1]:register_forward_hook(function(mod, args, out) acts[#acts + 1] = out.shape end); m(torch.ones(1, 2)); '
     .. 'return acts[1] end)()'},
})

-- ---- torch.inference_mode (17_autograd.lua) ----
functions({
  {'torch.inference_mode', 'mode=true, fn=nil, ...',
   "fn(...) in inference mode: no autograd, as torch.no_grad (gpulab makes ordinary tensors there, not PyTorch's "
     .. 'inference tensors); without fn a guard: local _ <close> = torch.inference_mode()',
   '(function() local w = torch.ones(2, {requires_grad=true}); '
     .. 'return torch.inference_mode(function() return (w * 2).requires_grad, torch.is_inference_mode_enabled() end) end)()'},
  {'torch.is_inference_mode_enabled', '', '-> bool: whether torch.inference_mode is on', 'torch.is_inference_mode_enabled()'},
})

-- ---- anomaly detection (17_autograd_anomaly.lua) ----
functions({
  {'torch.autograd.set_detect_anomaly', 'mode, check_nan=true',
   'anomaly detection on or off: each autograd node keeps where its forward ran; a failing backward warns with that '
     .. 'place before its error, and with check_nan a gradient holding a NaN is an error naming its node (slow: '
     .. 'for finding a bug)',
   '(function() torch.autograd.set_detect_anomaly(true, {check_nan=false}); '
     .. 'local on = torch.is_anomaly_enabled(); torch.autograd.set_detect_anomaly(false); return on end)()'},
  {'torch.autograd.detect_anomaly', '{check_nan=true}, fn, ...',
   "fn(...) with anomaly detection on, as Python's `with torch.autograd.detect_anomaly():`, then the mode as it "
     .. 'was; without fn a guard: local _ <close> = torch.autograd.detect_anomaly()',
   'torch.autograd.detect_anomaly(function() local z = torch.zeros(1, {requires_grad=true}); '
     .. 'return pcall(function() (z / z):backward() end) end)'},
  {'torch.is_anomaly_enabled', '', '-> bool: whether anomaly detection is on', 'torch.is_anomaly_enabled()'},
  {'torch.is_anomaly_check_nan_enabled', '', '-> bool: whether anomaly detection checks gradients for NaN',
   'torch.is_anomaly_check_nan_enabled()'},
})

-- ---- torch.autograd.Function (17_autograd_function.lua) ----
local CUBE = "local Cube = torch.autograd.Function:extend('Cube'); "
  .. 'function Cube.forward(ctx, x) ctx:save_for_backward(x); return x ^ 3 end; '
  .. 'function Cube.backward(ctx, g) return g * 3 * ctx.saved_tensors[1] ^ 2 end; '
local Function = torch.autograd.Function
U.examples[Function] = '(function() ' .. CUBE .. 'local x = torch.tensor({1., 2.}, {requires_grad=true}); '
  .. 'Cube.apply(x):sum():backward(); return x.grad end)()'
methods({
  {Function.extend, "torch.autograd.Function:extend(name) -> a Function class: define its forward(ctx, ...) and "
     .. 'backward(ctx, grad) (one gradient or nil per input of forward), then call Cls.apply(...)',
   '(function() ' .. CUBE .. 'return Cube.apply(torch.tensor({1., 2.}, {requires_grad=true})) end)()'},
  {Function.forward, 'Cls.forward(ctx, ...): the result, computed without autograd; ctx:save_for_backward(t, ...) keeps '
     .. 'tensors for backward, ctx.needs_input_grad says which inputs want a gradient',
   '(function() ' .. CUBE .. 'return Cube.forward(setmetatable({}, {__index = {save_for_backward = function() end}}), '
     .. 'torch.tensor(2.)) end)()'},
  {Function.backward, 'Cls.backward(ctx, grad): one gradient (or nil) per input of forward; ctx.saved_tensors holds '
     .. 'what forward saved',
   '(function() ' .. CUBE .. 'return Cube.backward({saved_tensors = {torch.tensor(2.)}}, torch.tensor(1.)) end)()'},
  {Function.new, "Cls(): PyTorch's deprecation warning: a Function's methods are static, call Cls.apply(...)",
   "'(not run: it only warns)'"},
})

-- ---- the switches of 18_backends.lua ----
functions({
  {'torch.compile', 'model=nil, {fullgraph=false, dynamic=nil, backend=nil, mode=nil, options=nil, disable=false}',
   "model wrapped as PyTorch's OptimizedModule (its printout, '_orig_mod.' keys), or a function as it is: gpulab runs "
     .. 'eagerly, so nothing is compiled; without a model, a function that wraps one',
   'torch.compile(nn.Linear(2, 1))'},
  {'torch.set_float32_matmul_precision', 'precision',
   "'highest' (float32 products), 'high' or 'medium' (TF32 on a GPU that has it): torch.backends.cuda.matmul.allow_tf32",
   "(function() torch.set_float32_matmul_precision('high'); local p = torch.get_float32_matmul_precision(); "
     .. "torch.set_float32_matmul_precision('highest'); return p end)()"},
  {'torch.get_float32_matmul_precision', '', "-> str: 'highest', 'high' or 'medium'", 'torch.get_float32_matmul_precision()'},
})

-- ---- torch.autograd.grad ----
functions({
  {'torch.autograd.grad',
   'outputs, inputs, grad_outputs=nil, retain_graph=nil, create_graph=false, only_inputs=true, allow_unused=nil, '
   .. 'is_grads_batched=false, materialize_grads=false',
   '-> tuple: the gradients of outputs (a tensor or a table) with respect to each of inputs, leaving every .grad alone; '
   .. 'grad_outputs seeds non-scalar outputs; create_graph=true makes them differentiable again (retain_graph defaults to it); '
   .. 'allow_unused=true gives nil (materialize_grads: zeros) for an input the outputs do not use',
   '(function() local x = torch.tensor({1., 2.}, {requires_grad=true}); return torch.autograd.grad((x ^ 2):sum(), x) end)()'},
})

-- ---- F.gelu, F.silu, nn.GELU, nn.SiLU ----
functions({
  {'nn.functional.gelu', "input, {approximate='none'}",
   "input * Phi(input), Phi the standard normal CDF; approximate='tanh': Phi through tanh, as GPT-2's",
   'nn.functional.gelu(torch.tensor({-1., 0., 1.}))'},
  {'nn.functional.silu', 'input, inplace=false', 'input * sigmoid(input) (swish); inplace=true overwrites input',
   'nn.functional.silu(torch.tensor({-1., 0., 1.}))'},
})
U.doc(nn.GELU, "nn.GELU(approximate='none'): F.gelu as a layer (approximate='tanh' for the tanh form)")
U.doc(nn.SiLU, 'nn.SiLU(inplace=false): F.silu as a layer, x * sigmoid(x)')
U.examples[nn.GELU] = 'nn.GELU()(torch.tensor({-1., 0., 1.}))'
U.examples[nn.SiLU] = 'nn.SiLU()(torch.tensor({-1., 0., 1.}))'
methods({
  {nn.GELU.forward, nil, 'nn.GELU():forward(torch.tensor({-1., 0., 1.}))'},
  {nn.GELU.extra_repr, nil, "nn.GELU('tanh'):extra_repr()"},
  {nn.SiLU.forward, nil, 'nn.SiLU():forward(torch.tensor({-1., 0., 1.}))'},
  {nn.SiLU.extra_repr, nil, 'nn.SiLU(true):extra_repr()'},
})

-- F.pad: 93_doc_shape_extras.lua (all its modes)

-- ---- torch.finfo, torch.iinfo (their docs: 17_type_info.lua) ----
U.examples[torch.finfo] = 'torch.finfo(torch.float16)'
U.examples[torch.iinfo] = 'torch.iinfo(torch.int32).max'

-- ---- torch.var_mean, torch.std_mean ----
functions({
  {'torch.var_mean', 'input, dim=nil, unbiased=true, keepdim=false, {correction=nil}',
   '-> (var, mean) over dim (every dim when nil); unbiased=false or correction=0: divide by N, not N - 1',
   'torch.var_mean(torch.tensor({{1., 2.}, {3., 5.}}), 1)'},
  {'torch.std_mean', 'input, dim=nil, unbiased=true, keepdim=false, {correction=nil}',
   '-> (std, mean) over dim (every dim when nil); unbiased=false or correction=0: divide by N, not N - 1',
   'torch.std_mean(torch.tensor({{1., 2.}, {3., 5.}}), 1)'},
})
