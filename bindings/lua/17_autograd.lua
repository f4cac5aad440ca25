-- torch.autograd.grad: the gradients of outputs with respect to inputs,
-- without touching any .grad (the engine's pass that backward() also runs,
-- Note [One engine] in tensor/autograd/engine.cpp). They come back as
-- Python's tuple, one entry per input.
local U = torch._util
local c_grad = torch.autograd._grad

-- An unused input's gradient is None: a Lua array with a hole does not keep
-- its length, so such a tuple carries it.
local function tuple_n(t, n)
  local tup = U.tuple(t)
  if #tup == n then return tup end
  local mt = {}
  for k, v in pairs(getmetatable(tup)) do mt[k] = v end
  mt.__len = function() return n end
  return setmetatable(t, mt)
end

function torch.autograd.grad(...)
  return tuple_n(c_grad(...))
end
