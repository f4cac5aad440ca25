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
