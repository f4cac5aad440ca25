-- torch.autograd.grad: the gradients of outputs with respect to inputs,
-- without touching any .grad (the engine's pass that backward() also runs,
-- Note [One engine] in tensor/autograd/engine.cpp). They come back as
-- Python's tuple, one entry per input.
local U = torch._util
local c_grad = torch.autograd._grad

-- An unused input's gradient is None: a Lua array with a hole does not keep
-- its length, so such a tuple carries it in n (as table.pack does; the echo reads it).
local function tuple_n(t, n)
  if n ~= #t then t.n = n end
  return torch._tuple(t)
end

function torch.autograd.grad(...)
  return tuple_n(c_grad(...))
end

-- torch.inference_mode, as torch.no_grad is written here: inference_mode(fn,
-- ...) runs fn without autograd, inference_mode() returns a to-be-closed
-- guard, inference_mode(false, ...) leaves inference mode (grad mode as it
-- is). gpulab has no inference tensors: what is made inside is an ordinary
-- tensor without a graph, as under no_grad (PyTorch would refuse to save it
-- for a later backward); torch.is_inference_mode_enabled() says whether the
-- mode is on.
local inference = false
local with_grad_mode, grad_guard = torch._with_grad_mode, torch._grad_guard
function torch.is_inference_mode_enabled(...)
  U.parse('is_inference_mode_enabled', {}, nil, ...)
  return inference
end

local function restore(prev, ok, ...)
  inference = prev
  if not ok then error((...), 0) end
  return ...
end

local Guard = {__name = 'torch.inference_mode', __scope = 'torch.inference_mode'}  -- Note [Guards left on the prompt]
Guard.__tostring = function(g) return ('<torch.autograd.grad_mode.inference_mode object at %p>'):format(g) end
Guard.__close = function(g)
  inference = g.prev
  if g.grad then getmetatable(g.grad).__close(g.grad) end
end

local function enter(on, fn, ...)
  U.check_callable('inference_mode', fn)
  local prev = inference
  if fn == nil then  -- the guard form: local _ <close> = torch.inference_mode()
    local g = setmetatable({prev = prev}, Guard)
    if on then g.grad = grad_guard(false, 'inference_mode') end
    inference = on
    return g
  end
  inference = on
  if on then return restore(prev, pcall(with_grad_mode, false, fn, ...)) end
  return restore(prev, pcall(fn, ...))
end

function torch.inference_mode(...)
  if type((...)) == 'boolean' then return enter(...) end
  return enter(true, ...)
end
