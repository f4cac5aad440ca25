-- Docs and help() examples of automatic mixed precision (19_amp.lua,
-- 20_grad_scaler.lua, bindings/autocast_lib.cpp), in 93_doc_learner_apis.lua's
-- form. The examples run on the CPU, where autocast's dtype is bfloat16.
local U = torch._util

local functions = U.doc_functions
local lookup = U.lookup_path

local AUTOCAST = 'device_type, {dtype=nil, enabled=true, cache_enabled=nil}, fn=nil, ...'
local MM = 'torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype'
functions({
  {'torch.autocast', AUTOCAST,
   'automatic mixed precision. Inside, matrix products and convolutions run in dtype (float16 on CUDA, bfloat16 '
     .. 'on the CPU by default) and ops that need range in float32; the rest keeps its inputs\' dtype. With fn: '
     .. 'fn(...) runs inside and its results come back; without: a guard, local _ <close> = torch.autocast(\'cuda\'), '
     .. 'for the rest of the block (Python\'s `with torch.autocast(...):`). Backward runs outside it. '
     .. 'Also torch.amp.autocast',
   "torch.autocast('cpu', function() return " .. MM .. ' end)'},
  {'torch.cuda.amp.autocast', '{enabled=true, dtype=torch.float16, cache_enabled=true}, fn=nil, ...',
   "deprecated: torch.autocast('cuda', ...)", 'torch.cuda.amp.autocast(function() return 1 end)'},
  {'torch.cpu.amp.autocast', '{enabled=true, dtype=torch.bfloat16, cache_enabled=true}, fn=nil, ...',
   "deprecated: torch.autocast('cpu', ...)", 'torch.cpu.amp.autocast(function() return ' .. MM .. ' end)'},
  {'torch.is_autocast_enabled', 'device_type=nil', "-> bool: whether autocast is on for device_type ('cuda' when nil)",
   "torch.autocast('cpu', function() return torch.is_autocast_enabled('cpu') end)"},
  {'torch.set_autocast_enabled', 'device_type, enabled', 'switches autocast on or off; torch.autocast does it for a region',
   "torch.set_autocast_enabled('cpu', torch.is_autocast_enabled('cpu'))"},
  {'torch.get_autocast_dtype', 'device_type', '-> dtype: what autocast runs products in',
   "torch.get_autocast_dtype('cuda')"},
  {'torch.set_autocast_dtype', 'device_type, dtype', 'sets that dtype',
   "torch.set_autocast_dtype('cpu', torch.get_autocast_dtype('cpu'))"},
  {'torch.is_autocast_cache_enabled', '', "-> bool: whether autocast casts each weight once per region",
   'torch.is_autocast_cache_enabled()'},
  {'torch.set_autocast_cache_enabled', 'enabled', 'switches that cache on or off',
   'torch.set_autocast_cache_enabled(torch.is_autocast_cache_enabled())'},
  {'torch.clear_autocast_cache', '', "drops the cached weight casts (the outermost region's end does it)",
   'torch.clear_autocast_cache()'},
  {'torch.autocast_increment_nesting', '', '-> int: one more region open (torch.autocast does it)',
   'torch.autocast_increment_nesting()'},
  {'torch.autocast_decrement_nesting', '', '-> int: one region closed (torch.autocast does it)',
   'torch.autocast_decrement_nesting()'},
  {'torch._amp_foreach_non_finite_check_and_unscale_', 'grads, found_inf, inv_scale',
   "GradScaler's unscale: each gradient times inv_scale in place; found_inf becomes 1 if any value was inf or nan",
   '(function() local g, f = {torch.tensor({2., math.huge})}, torch.zeros(1); '
     .. 'torch._amp_foreach_non_finite_check_and_unscale_(g, f, torch.tensor({0.5})); return g[1], f end)()'},
  {'torch._amp_update_scale_', 'scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval',
   "-> scale: GradScaler's update, in place: backoff after an overflow, growth after growth_interval good steps",
   'torch._amp_update_scale_(torch.tensor({4.}), torch.tensor({0}, {dtype=torch.int32}), torch.tensor({1.}), 2, 0.5, 2)'},
})
for _, name in ipairs({'torch.cuda.amp.autocast', 'torch.cpu.amp.autocast', 'torch.autocast_increment_nesting',
                       'torch.autocast_decrement_nesting'}) do
  U.examples_not_run[lookup(name)] = 'it changes the autocast state'
end

-- ---- torch.amp.GradScaler ----
local GS = torch.amp.GradScaler
local SCALER = "torch.amp.GradScaler('cpu')"
U.doc(GS, "torch.amp.GradScaler(device='cuda', {init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5, "
  .. 'growth_interval=2000, enabled=true}): loss scaling for float16 training. Each step: '
  .. 'scaler:scale(loss):backward(); scaler:step(optimizer); scaler:update(). A step whose gradients overflowed '
  .. 'is skipped and the scale halved; after growth_interval good steps it doubles')
U.examples[GS] = SCALER .. ':get_scale()'
local STEP = '(function() local w = torch.ones(2, {requires_grad=true}); local opt = torch.optim.SGD({w}, {lr=0.1}); '
  .. 'local s = ' .. SCALER .. '; s:scale((w * 2):sum()):backward(); s:step(opt); s:update(); return w, w.grad end)()'
local methods = {
  {GS.scale, 'scaler:scale(outputs): outputs (a tensor or a list of them) times the scale', SCALER .. ':scale(torch.ones(2))'},
  {GS.unscale_, "scaler:unscale_(optimizer): divides optimizer's gradients by the scale now (before clipping them); "
     .. 'step then does not again',
   '(function() local w = torch.ones(2, {requires_grad=true}); local opt = torch.optim.SGD({w}, {lr=0.1}); '
     .. 'local s = ' .. SCALER .. '; s:scale(w:sum()):backward(); s:unscale_(opt); return w.grad end)()'},
  {GS.step, 'scaler:step(optimizer, ...): optimizer:step(...) unless the gradients hold inf or nan', STEP},
  {GS.update, 'scaler:update(new_scale=nil): the scale for the next iteration (backoff or growth, or new_scale)', STEP},
  {GS.get_scale, 'scaler:get_scale() -> float: the current scale (1.0 when disabled)', SCALER .. ':get_scale()'},
  {GS.get_growth_factor, 'scaler:get_growth_factor() -> float', SCALER .. ':get_growth_factor()'},
  {GS.set_growth_factor, 'scaler:set_growth_factor(new_factor)',
   '(function() local s = ' .. SCALER .. '; s:set_growth_factor(4.0); return s:get_growth_factor() end)()'},
  {GS.get_backoff_factor, 'scaler:get_backoff_factor() -> float', SCALER .. ':get_backoff_factor()'},
  {GS.set_backoff_factor, 'scaler:set_backoff_factor(new_factor)',
   '(function() local s = ' .. SCALER .. '; s:set_backoff_factor(0.25); return s:get_backoff_factor() end)()'},
  {GS.get_growth_interval, 'scaler:get_growth_interval() -> int', SCALER .. ':get_growth_interval()'},
  {GS.set_growth_interval, 'scaler:set_growth_interval(new_interval)',
   '(function() local s = ' .. SCALER .. '; s:set_growth_interval(100); return s:get_growth_interval() end)()'},
  {GS.is_enabled, 'scaler:is_enabled() -> bool: false when made disabled, or on CUDA without a GPU', SCALER .. ':is_enabled()'},
  {GS.state_dict, 'scaler:state_dict() -> table: scale, factors, interval and growth tracker, for a checkpoint',
   SCALER .. ':state_dict()'},
  {GS.load_state_dict, 'scaler:load_state_dict(state_dict): restores them',
   '(function() local s = ' .. SCALER .. '; s:load_state_dict({scale = 1024.0, growth_factor = 2.0, '
     .. 'backoff_factor = 0.5, growth_interval = 2000, _growth_tracker = 0}); return s:get_scale() end)()'},
}
for _, m in ipairs(methods) do
  torch._set_doc(m[1], m[2])
  U.examples[m[1]] = m[3]
end
torch._set_doc(GS.new, 'cls:new(...): make an instance (what calling the class does)')
U.examples[GS.new] = "torch.amp.GradScaler:new('cpu'):get_scale()"
torch._set_doc(GS.extend, 'torch.amp.GradScaler:extend(name): a subclass')
U.examples[GS.extend] = "torch.amp.GradScaler:extend('MyScaler')"
for _, device in ipairs({'cuda', 'cpu'}) do
  local fn = torch[device].amp.GradScaler
  torch._set_doc(fn, ('torch.%s.amp.GradScaler({init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5, '
    .. "growth_interval=2000, enabled=true}): deprecated: torch.amp.GradScaler('%s', ...)"):format(device, device))
  U.examples[fn] = ('torch.%s.amp.GradScaler():get_scale()'):format(device)
  U.examples_not_run[fn] = 'it warns that it is deprecated'
end
