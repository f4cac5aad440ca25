-- Signatures with their keyword options, in PyTorch's order and defaults, for
-- every public function: help(f) shows them on its first line, and the REPL
-- completes option names inside `{...}` from them (interpreter/completion.cpp
-- reads `name=` in the doc). Lua spelling: positionals, then the keyword-only
-- options as the trailing table; `size...` takes sizes one by one or a table.
-- Only the options the bindings accept are listed (test_docs.lua compares them
-- with torch._signature where the bindings expose one). The description that
-- followed the old signature in each doc string is kept after this one.
local U = torch._util

-- C++ functions: {is_method, parameters}; 'F.', 'linalg.', 'cuda.' prefixes
-- name nn.functional, torch.linalg and torch.cuda; the rest are torch.NAME
-- and, where the tensor has the method, x:NAME.
local cpp = {
  ['add'] = {false, 'input, other, {alpha=1}'},
  ['add_'] = {true, 'other, {alpha=1}'},
  ['sub'] = {false, 'input, other, {alpha=1}'},
  ['sub_'] = {true, 'other, {alpha=1}'},
  ['div'] = {false, 'input, other, {rounding_mode=nil}'},
  ['div_'] = {true, 'other, {rounding_mode=nil}'},
  ['true_divide'] = {false, 'input, other'},
  ['mul'] = {false, 'input, other'},
  ['mul_'] = {true, 'other'},
  ['pow'] = {false, 'input, exponent'},
  ['pow_'] = {true, 'exponent'},
  ['remainder'] = {false, 'input, other'},
  ['remainder_'] = {true, 'other'},
  ['fmod'] = {false, 'input, other'},
  ['fmod_'] = {true, 'other'},
  ['floor_divide'] = {false, 'input, other'},
  ['floor_divide_'] = {true, 'other'},
  ['maximum'] = {false, 'input, other'},
  ['maximum_'] = {true, 'other'},
  ['minimum'] = {false, 'input, other'},
  ['minimum_'] = {true, 'other'},
  ['atan2'] = {false, 'input, other'},
  ['atan2_'] = {true, 'other'},
  ['eq'] = {false, 'input, other'},
  ['eq_'] = {true, 'other'},
  ['ne'] = {false, 'input, other'},
  ['ne_'] = {true, 'other'},
  ['lt'] = {false, 'input, other'},
  ['lt_'] = {true, 'other'},
  ['le'] = {false, 'input, other'},
  ['le_'] = {true, 'other'},
  ['gt'] = {false, 'input, other'},
  ['gt_'] = {true, 'other'},
  ['ge'] = {false, 'input, other'},
  ['ge_'] = {true, 'other'},
  ['logical_and'] = {false, 'input, other'},
  ['logical_and_'] = {true, 'other'},
  ['logical_or'] = {false, 'input, other'},
  ['logical_or_'] = {true, 'other'},
  ['logical_xor'] = {false, 'input, other'},
  ['logical_xor_'] = {true, 'other'},
  ['bitwise_and'] = {false, 'input, other'},
  ['bitwise_and_'] = {true, 'other'},
  ['bitwise_or'] = {false, 'input, other'},
  ['bitwise_or_'] = {true, 'other'},
  ['bitwise_xor'] = {false, 'input, other'},
  ['bitwise_xor_'] = {true, 'other'},
  ['logical_not'] = {false, 'input'},
  ['logical_not_'] = {true, ''},
  ['neg'] = {false, 'input'},
  ['neg_'] = {true, ''},
  ['negative'] = {false, 'input'},
  ['abs'] = {false, 'input'},
  ['abs_'] = {true, ''},
  ['exp'] = {false, 'input'},
  ['exp_'] = {true, ''},
  ['log'] = {false, 'input'},
  ['log_'] = {true, ''},
  ['log2'] = {false, 'input'},
  ['log2_'] = {true, ''},
  ['log1p'] = {false, 'input'},
  ['log1p_'] = {true, ''},
  ['expm1'] = {false, 'input'},
  ['expm1_'] = {true, ''},
  ['sqrt'] = {false, 'input'},
  ['sqrt_'] = {true, ''},
  ['rsqrt'] = {false, 'input'},
  ['rsqrt_'] = {true, ''},
  ['sin'] = {false, 'input'},
  ['sin_'] = {true, ''},
  ['cos'] = {false, 'input'},
  ['cos_'] = {true, ''},
  ['tan'] = {false, 'input'},
  ['tan_'] = {true, ''},
  ['tanh'] = {false, 'input'},
  ['tanh_'] = {true, ''},
  ['sigmoid'] = {false, 'input'},
  ['sigmoid_'] = {true, ''},
  ['relu'] = {false, 'input'},
  ['relu_'] = {true, ''},
  ['sign'] = {false, 'input'},
  ['sign_'] = {true, ''},
  ['floor'] = {false, 'input'},
  ['floor_'] = {true, ''},
  ['ceil'] = {false, 'input'},
  ['ceil_'] = {true, ''},
  ['round'] = {false, 'input'},
  ['round_'] = {true, ''},
  ['trunc'] = {false, 'input'},
  ['trunc_'] = {true, ''},
  ['reciprocal'] = {false, 'input'},
  ['reciprocal_'] = {true, ''},
  ['square'] = {false, 'input'},
  ['square_'] = {true, ''},
  ['erf'] = {false, 'input'},
  ['erf_'] = {true, ''},
  ['erfinv'] = {false, 'input'},
  ['erfinv_'] = {true, ''},
  ['isnan'] = {false, 'input'},
  ['isnan_'] = {true, ''},
  ['isinf'] = {false, 'input'},
  ['isinf_'] = {true, ''},
  ['isfinite'] = {false, 'input'},
  ['isfinite_'] = {true, ''},
  ['clamp'] = {false, 'input, min=nil, max=nil'},
  ['clip'] = {false, 'input, min=nil, max=nil'},
  ['clamp_'] = {true, 'min=nil, max=nil'},
  ['where'] = {false, 'condition, input, other'},
  ['masked_fill'] = {false, 'input, mask, value'},
  ['sum'] = {false, 'input, dim=nil, keepdim=false, {dtype=nil}'},
  ['mean'] = {false, 'input, dim=nil, keepdim=false, {dtype=nil}'},
  ['prod'] = {false, 'input, dim=nil, keepdim=false'},
  ['amax'] = {false, 'input, dim=nil, keepdim=false'},
  ['amin'] = {false, 'input, dim=nil, keepdim=false'},
  ['argmax'] = {false, 'input, dim=nil, keepdim=false'},
  ['argmin'] = {false, 'input, dim=nil, keepdim=false'},
  ['any'] = {false, 'input, dim=nil, keepdim=false'},
  ['all'] = {false, 'input, dim=nil, keepdim=false'},
  ['max'] = {false, 'input, dim=nil, keepdim=false'},
  ['min'] = {false, 'input, dim=nil, keepdim=false'},
  ['norm'] = {false, 'input, p=2, dim=nil, keepdim=false'},
  ['var'] = {false, 'input, dim=nil, unbiased=true, keepdim=false'},
  ['std'] = {false, 'input, dim=nil, unbiased=true, keepdim=false'},
  ['cumsum'] = {false, 'input, dim, {dtype=nil}'},
  ['cumprod'] = {false, 'input, dim, {dtype=nil}'},
  ['index_select'] = {false, 'input, dim, index'},
  ['matmul'] = {false, 'input, other'},
  ['mm'] = {false, 'input, mat2'},
  ['bmm'] = {false, 'input, mat2'},
  ['dot'] = {false, 'input, tensor'},
  ['addmm'] = {false, 'input, mat1, mat2, {beta=1, alpha=1}'},
  ['softmax'] = {false, 'input, dim, dtype=nil'},
  ['log_softmax'] = {false, 'input, dim, dtype=nil'},
  ['size'] = {true, 'dim=nil'},
  ['stride'] = {true, 'dim=nil'},
  ['dim'] = {true, ''},
  ['ndimension'] = {true, ''},
  ['numel'] = {false, 'input'},
  ['nelement'] = {true, ''},
  ['element_size'] = {true, ''},
  ['is_contiguous'] = {true, ''},
  ['is_floating_point'] = {true, ''},
  ['contiguous'] = {true, ''},
  ['clone'] = {true, ''},
  ['detach'] = {true, ''},
  ['item'] = {true, ''},
  ['tolist'] = {true, ''},
  ['to'] = {true, 'device=nil, dtype=nil, non_blocking=false, copy=false'},
  ['cuda'] = {true, 'device=nil'},
  ['cpu'] = {true, ''},
  ['type'] = {true, 'dtype=nil'},
  ['type_as'] = {true, 'other'},
  ['get_device'] = {true, ''},
  ['float'] = {true, ''},
  ['double'] = {true, ''},
  ['half'] = {true, ''},
  ['bfloat16'] = {true, ''},
  ['long'] = {true, ''},
  ['int'] = {true, ''},
  ['short'] = {true, ''},
  ['char'] = {true, ''},
  ['byte'] = {true, ''},
  ['bool'] = {true, ''},
  ['view'] = {true, 'size...'},
  ['reshape'] = {true, 'shape...'},
  ['view_as'] = {true, 'other'},
  ['reshape_as'] = {true, 'other'},
  ['expand'] = {true, 'size...'},
  ['expand_as'] = {true, 'other'},
  ['t'] = {true, ''},
  ['transpose'] = {true, 'dim0, dim1'},
  ['permute'] = {true, 'dims...'},
  ['unsqueeze'] = {true, 'dim'},
  ['squeeze'] = {true, 'dim=nil'},
  ['flatten'] = {true, 'start_dim=0, end_dim=-1'},
  ['narrow'] = {true, 'dim, start, length'},
  ['select'] = {true, 'dim, index'},
  ['chunk'] = {true, 'chunks, dim=0'},
  ['split'] = {true, 'split_size_or_sections, dim=0'},
  ['unbind'] = {true, 'dim=0'},
  ['masked_select'] = {true, 'mask'},
  ['repeat'] = {true, 'repeats...'},
  ['copy_'] = {true, 'src'},
  ['fill_'] = {true, 'value'},
  ['zero_'] = {true, ''},
  ['uniform_'] = {true, 'from=0, to=1, {generator=nil}'},
  ['normal_'] = {true, 'mean=0, std=1, {generator=nil}'},
  ['requires_grad_'] = {true, 'requires_grad=true'},
  ['retain_grad'] = {true, ''},
  ['backward'] = {true, 'gradient=nil, retain_graph=nil'},
  ['equal'] = {true, 'other'},
  ['allclose'] = {true, 'other, rtol=1e-05, atol=1e-08'},
  ['new_zeros'] = {true, 'size..., {dtype=nil, device=nil}'},
  ['new_ones'] = {true, 'size..., {dtype=nil, device=nil}'},
  ['new_empty'] = {true, 'size..., {dtype=nil, device=nil}'},
  ['new_full'] = {true, 'size, fill_value, {dtype=nil, device=nil}'},
  ['new_tensor'] = {true, 'data, {dtype=nil, device=nil, requires_grad=false}'},
  ['tensor'] = {false, 'data, {dtype=nil, device=nil, requires_grad=false}'},
  ['empty'] = {false, 'size..., {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['zeros'] = {false, 'size..., {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['ones'] = {false, 'size..., {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['rand'] = {false, 'size..., {generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['randn'] = {false, 'size..., {generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['empty_like'] = {false, 'input, {dtype=nil, device=nil, requires_grad=false}'},
  ['zeros_like'] = {false, 'input, {dtype=nil, device=nil, requires_grad=false}'},
  ['ones_like'] = {false, 'input, {dtype=nil, device=nil, requires_grad=false}'},
  ['rand_like'] = {false, 'input, {dtype=nil, device=nil, requires_grad=false}'},
  ['randn_like'] = {false, 'input, {dtype=nil, device=nil, requires_grad=false}'},
  ['full'] = {false, 'size, fill_value, {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['full_like'] = {false, 'input, fill_value, {dtype=nil, device=nil}'},
  ['arange'] = {false, 'start, end=nil, step=1, {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['linspace'] = {false, 'start, end, steps, {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['eye'] = {false, 'n, m=nil, {dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['randint'] = {false, 'low, high=nil, size=nil, {generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['randint_like'] = {false, 'input, low, high=nil'},
  ['randperm'] = {false, 'n, {generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false}'},
  ['cat'] = {false, 'tensors, dim=0'},
  ['concat'] = {false, 'tensors, dim=0'},
  ['stack'] = {false, 'tensors, dim=0'},
  ['manual_seed'] = {false, 'seed'},
  ['is_tensor'] = {false, 'obj'},
  ['is_grad_enabled'] = {false, ''},
  ['set_grad_enabled'] = {false, 'mode'},
  ['set_printoptions'] = {false, 'precision=nil, threshold=nil, edgeitems=nil, linewidth=nil, {profile=nil, sci_mode=nil}'},
  ['get_default_dtype'] = {false, ''},
  ['promote_types'] = {false, 'type1, type2'},
  ['device'] = {false, 'type, index=nil'},
  ['Size'] = {false, 'sizes={}'},
  ['F.linear'] = {false, 'input, weight, bias=nil'},
  ['F.mse_loss'] = {false, "input, target, {reduction='mean'}"},
  ['F.cross_entropy'] = {false, "input, target, weight=nil, {ignore_index=-100, reduction='mean', label_smoothing=0.0}"},
  ['F.dropout'] = {false, 'input, p=0.5, training=true'},
  ['F.conv2d'] = {false, "input, weight, bias=nil, {stride=1, padding=0, dilation=1, groups=1}"},
  ['F.max_pool2d'] = {false, 'input, kernel_size, {stride=nil, padding=0, dilation=1, ceil_mode=false, return_indices=false}'},
  ['F.avg_pool2d'] = {false, 'input, kernel_size, {stride=nil, padding=0, ceil_mode=false, count_include_pad=true, divisor_override=nil}'},
  ['F.adaptive_avg_pool2d'] = {false, 'input, output_size'},
  ['F.batch_norm'] = {false, 'input, running_mean, running_var, {weight=nil, bias=nil, training=false, momentum=0.1, eps=1e-05}'},
  ['F.layer_norm'] = {false, 'input, normalized_shape, {weight=nil, bias=nil, eps=1e-05}'},
  ['linalg.qr'] = {false, "A, mode='reduced'"},
  ['cuda.is_available'] = {false, ''},
  ['cuda.device_count'] = {false, ''},
  ['cuda.current_device'] = {false, ''},
  ['cuda.set_device'] = {false, 'device'},
  ['cuda.get_device_name'] = {false, 'device=nil'},
  ['cuda.get_device_properties'] = {false, 'device'},
  ['cuda.get_device_capability'] = {false, 'device=nil'},
  ['cuda.is_virtual'] = {false, 'device=nil'},
  ['cuda.manual_seed'] = {false, 'seed'},
  ['cuda.manual_seed_all'] = {false, 'seed'},
  ['cuda.synchronize'] = {false, 'device=nil'},
  ['cuda.mem_get_info'] = {false, 'device=nil'},
  ['cuda.memory_allocated'] = {false, 'device=nil'},
  ['cuda.max_memory_allocated'] = {false, 'device=nil'},
  ['cuda.memory_reserved'] = {false, 'device=nil'},
  ['cuda.max_memory_reserved'] = {false, 'device=nil'},
  ['cuda.reset_peak_memory_stats'] = {false, 'device=nil'},
  ['cuda.reset_accumulated_memory_stats'] = {false, 'device=nil'},
  ['cuda.memory_stats'] = {false, 'device=nil'},
  ['cuda.memory_summary'] = {false, 'device=nil, abbreviated=false'},
  ['cuda.list_gpu_processes'] = {false, 'device=nil'},
  ['cuda.empty_cache'] = {false, ''},
  ['cuda.smi'] = {false, ''},
  ['cuda.Event'] = {false, 'enable_timing=false'},
  ['Event.record'] = {true, ''},
  ['Event.synchronize'] = {true, ''},
  ['Event.query'] = {true, ''},
  ['Event.elapsed_time'] = {true, 'end_event'},
}

-- Functions written in Lua: the full first line, by the name a learner types.
local lua = {
  ['torch.save'] = 'torch.save(obj, f)',
  ['torch.load'] = 'torch.load(f, {map_location=nil, weights_only=nil, mmap=nil})',
  ['torch.no_grad'] = 'torch.no_grad(fn=nil, ...)',
  ['torch.enable_grad'] = 'torch.enable_grad(fn=nil, ...)',
  ['torch.Generator'] = "torch.Generator(device='cpu')",
  ['nn.Parameter'] = 'nn.Parameter(data, requires_grad=true)',
  ['torch.cuda.use_virtual'] = 'torch.cuda.use_virtual(n)',
  ['torch.cuda.is_emulated'] = 'torch.cuda.is_emulated(device=nil)',
  ['torch.cuda.run_with_visible_devices'] = 'torch.cuda.run_with_visible_devices(visible, code)',
  ['time.perf_counter'] = 'time.perf_counter()',
  ['time.timeit'] = 'time.timeit(f, {number=1, repeat=3, warmup=1})',
  ['nn.Module.float'] = "m:float(): cast floating parameters and buffers to float32; returns m",
  ['nn.Module.double'] = "m:double(): cast floating parameters and buffers to float64; returns m",
  ['nn.Module.half'] = "m:half(): cast floating parameters and buffers to float16; returns m",
  ['nn.Module.extend'] = "nn.Module:extend(name): a subclass of nn.Module named name: define its __init and forward",
  ['nn.Module.new'] = "cls:new(...): make an instance (what calling the class does)",
  ['torch.optim.Optimizer.step'] = 'opt:step(closure=nil): update every parameter from its .grad; returns closure() when given',
  ['torch.optim.Optimizer.zero_grad'] = "opt:zero_grad(set_to_none=true): clear the .grad of the optimizer's parameters",
  ['torch.optim.Optimizer.add_param_group'] = 'opt:add_param_group(group): add {params=..., lr=...}; unset options take the defaults',
  ['torch.optim.Optimizer.extend'] = 'torch.optim.Optimizer:extend(name): a subclass, for an optimizer of your own',
  ['torch.optim.Optimizer.new'] = 'cls:new(...): make an instance (what calling the class does)',
  ['torch.utils.data.DataLoader.iter'] = 'loader:iter(): an iterator over the batches (what `for batch in loader` uses)',
  ['torch.utils.data.DataLoader.enumerate'] = 'loader:enumerate(): an iterator of (i, batch), i from 0',
  ['torch.utils.data.DataLoader.extend'] = 'DataLoader:extend(name): a subclass',
  ['torch.utils.data.DataLoader.new'] = 'cls:new(...): make an instance (what calling the class does)',
  ['torch.utils.data.Dataset.get'] = 'ds:get(i): item i (0-based); a subclass defines this or __getitem',
  ['torch.utils.data.Dataset.len'] = 'ds:len(): the number of items; a subclass defines this or __len',
  ['torch.utils.data.Dataset.extend'] = "Dataset:extend(name): a dataset class of your own (define __getitem and __len)",
  ['torch.utils.data.Dataset.new'] = 'cls:new(...): make an instance (what calling the class does)',
  ['nn.Linear.reset_parameters'] = 'lin:reset_parameters(): draw weight and bias again, as at construction',
  ['nn.Conv2d.reset_parameters'] = 'conv:reset_parameters(): draw weight and bias again, as at construction',
  ['nn.BatchNorm1d.reset_parameters'] = 'bn:reset_parameters(): running stats to 0 and 1, weight to 1, bias to 0',
  ['nn.BatchNorm2d.reset_parameters'] = 'bn:reset_parameters(): running stats to 0 and 1, weight to 1, bias to 0',
  ['nn.BatchNorm1d.reset_running_stats'] = 'bn:reset_running_stats(): running_mean 0, running_var 1, num_batches_tracked 0',
  ['nn.BatchNorm2d.reset_running_stats'] = 'bn:reset_running_stats(): running_mean 0, running_var 1, num_batches_tracked 0',
  ['nn.LayerNorm.reset_parameters'] = 'ln:reset_parameters(): weight to 1, bias to 0',
  ['nn.UninitializedParameter'] = 'nn.UninitializedParameter(requires_grad=true, device=nil, dtype=nil): the placeholder a lazy layer holds until its first call',
  ['nn.UninitializedBuffer'] = 'nn.UninitializedBuffer(requires_grad=false, device=nil, dtype=nil): the placeholder a lazy batch norm holds until its first call',
  ['nn.Sequential.append'] = 'net:append(module): add a module at the end; returns net',
  ['nn.DataParallel.replicate'] = 'nn.DataParallel.replicate(module, devices): one copy of module per device',
  ['nn.Module.register_parameter'] = "m:register_parameter(name, param): a Parameter (or nil) under name; assigning m.name = nn.Parameter(t) does the same",
  ['nn.Module.register_buffer'] = "m:register_buffer(name, tensor, persistent=true): a tensor saved in state_dict (unless persistent=false) and moved by :to(), not trained",
  ['nn.Module.add_module'] = "m:add_module(name, module): a submodule under name (also register_module); assigning m.name = module does the same",
  ['nn.Module.named_parameters'] = "m:named_parameters(prefix='', recurse=true): a list of {name, parameter} pairs, submodules' names dotted ('0.weight')",
  ['nn.Module.parameters'] = "m:parameters(recurse=true): the list of parameters (submodules' too when recurse), as an optimizer takes them",
  ['nn.Module.named_buffers'] = "m:named_buffers(prefix='', recurse=true): a list of {name, buffer} pairs",
  ['nn.Module.buffers'] = "m:buffers(recurse=true): the list of buffers",
  ['nn.Module.named_children'] = "m:named_children(): a list of {name, module} pairs of the direct submodules",
  ['nn.Module.children'] = "m:children(): the list of direct submodules",
  ['nn.Module.named_modules'] = "m:named_modules(memo=nil, prefix=''): a list of {name, module} pairs of this module and every submodule ('' for itself)",
  ['nn.Module.modules'] = "m:modules(): this module and every submodule, depth first",
  ['nn.Module.train'] = "m:train(mode=true): set training mode (dropout active) on this module and its submodules; returns m",
  ['nn.Module.eval'] = "m:eval(): m:train(false): evaluation mode; returns m",
  ['nn.Module.requires_grad_'] = "m:requires_grad_(requires_grad=true): switch gradient recording of every parameter; returns m",
  ['nn.Module.zero_grad'] = "m:zero_grad(set_to_none=true): clear the parameters' .grad (set to nil, or zeroed when set_to_none=false)",
  ['nn.Module.apply'] = "m:apply(fn): call fn on every submodule and then on m; returns m",
  ['nn.Module.to'] = "m:to(device=nil, dtype=nil): move (device) and/or cast the floating parameters and buffers (dtype), in place; returns m",
  ['nn.Module.cuda'] = "m:cuda(device=nil): m:to('cuda') or m:to('cuda:i'); returns m",
  ['nn.Module.cpu'] = "m:cpu(): m:to('cpu'); returns m",
  ['nn.Module.forward'] = "m:forward(input, ...): what calling m(input) runs; a subclass defines it",
  ['nn.Module.extra_repr'] = "m:extra_repr(): the text inside the parentheses when m prints; a subclass may define it",
  ['nn.Module.state_dict'] = "m:state_dict(destination=nil, prefix='', keep_vars=false): an OrderedDict of parameter and persistent buffer tensors by dotted name",
  ['nn.Module.load_state_dict'] = "m:load_state_dict(state_dict, strict=true): copy tensors in by name; with strict=false, missing and unexpected keys are returned instead of an error",
}

-- The old doc's leading `name(...)` (and ` -> type`) is replaced; what follows is kept.
local function description(doc)
  local open = doc:match('^[%w_.:]+()%(')
  if not open then return doc end
  local depth, close = 0, nil
  for i = open, #doc do
    local c = doc:sub(i, i)
    if c == '(' then depth = depth + 1 elseif c == ')' then depth = depth - 1 end
    if depth == 0 then close = i break end
  end
  if not close then return doc end
  local rest = doc:sub(close + 1)
  local returns = rest:match('^%s*%->%s*([%w_.%[%], ]-)[:.;]') or rest:match('^%s*%->%s*([%w_.%[%], ]-)$')
  if returns then rest = rest:gsub('^%s*%->%s*[%w_.%[%], ]*', '')
  elseif rest:match('^%s*%->') then  -- a return described in prose: "-> free, total (bytes)."
    if rest:find(';', 1, true) or rest:find('\n', 1, true) then return doc end
    return '', (rest:gsub('^%s*%->%s*', ''):gsub('%.$', ''))
  end
  -- an old doc listing several call forms keeps them: "x:size() -> Size; x:size(dim) -> int"
  if rest:match('^[;,] ') or rest:match('^%s*or ') then return doc end
  rest = rest:gsub('^[:.]?%s*', '')
  return rest, returns
end

local function set(fn, sig)
  if type(fn) ~= 'function' then return end
  local old = torch._doc(fn) or ''
  if old:sub(1, #sig) == sig then return end  -- already applied (the same function under two names)
  local rest, returns = description(old)
  if returns then sig = sig .. ' -> ' .. returns end
  if rest == '' then torch._set_doc(fn, sig)
  elseif #sig + #rest < 120 and not rest:find('\n') then torch._set_doc(fn, sig .. ': ' .. rest)
  else torch._set_doc(fn, sig .. '\n' .. rest) end
end

local function strip_first(params)
  return (params:gsub('^[^,{]*,?%s*', '', 1))
end

for key, s in pairs(cpp) do
  local is_method, params = s[1], s[2]
  local prefix, bare = key:match('^(%a+)%.(.+)$')
  if prefix == 'F' then set(rawget(nn.functional, bare), 'F.' .. bare .. '(' .. params .. ')')
  elseif prefix == 'linalg' then set(rawget(torch.linalg, bare), 'torch.linalg.' .. bare .. '(' .. params .. ')')
  elseif prefix == 'cuda' then set(rawget(torch.cuda, bare), 'torch.cuda.' .. bare .. '(' .. params .. ')')
  elseif prefix == nil then
    if is_method then
      set(rawget(torch.Tensor, key), 'x:' .. key .. '(' .. params .. ')')
      if rawget(torch, key) ~= rawget(torch.Tensor, key) then set(rawget(torch, key), 'torch.' .. key .. '(input' .. (params ~= '' and ', ' or '') .. params .. ')') end
    else
      set(rawget(torch, key), 'torch.' .. key .. '(' .. params .. ')')
      local m = rawget(torch.Tensor, key)
      if m ~= nil and m ~= rawget(torch, key) then set(m, 'x:' .. key .. '(' .. strip_first(params) .. ')') end
    end
  end
end
for name, sig in pairs(lua) do
  local v = _G
  for part in name:gmatch('[^.]+') do v = type(v) == 'table' and rawget(v, part) or nil end
  set(v, sig)
end
U.doc_signatures = {cpp = cpp, lua = lua}

-- A layer's own forward and extra_repr (nn.Linear:forward, ...): documented
-- as the nn.Module methods they override, under the layer's name.
local loss_class = {MSELoss = true, CrossEntropyLoss = true}
for name, cls in pairs(nn) do
  if type(cls) == 'table' and rawget(cls, '__name') and cls ~= nn.Module then
    local fwd = rawget(cls, 'forward')
    if type(fwd) == 'function' and (torch._doc(fwd) or '') == '' then
      local args = loss_class[name] and 'input, target' or (name == 'DataParallel' and 'input, ...' or 'input')
      torch._set_doc(fwd, ('nn.%s:forward(%s): what calling the module runs: m(%s)'):format(name, args, args))
    end
    local er = rawget(cls, 'extra_repr')
    if type(er) == 'function' and (torch._doc(er) or '') == '' then
      torch._set_doc(er, ('nn.%s:extra_repr(): the text inside the parentheses when the module prints'):format(name))
    end
  end
end
