-- torch.autograd.Function, as PyTorch's "defining new autograd functions":
--   local Cube = torch.autograd.Function:extend('Cube')
--   function Cube.forward(ctx, x) ctx:save_for_backward(x); return x ^ 3 end
--   function Cube.backward(ctx, grad) local x = ctx.saved_tensors[1]; return grad * 3 * x ^ 2 end
--   y = Cube.apply(x)
-- forward runs without autograd; when an input needs a gradient, its result
-- gets the node CubeBackward, whose derivative calls backward(ctx, grad) for
-- one gradient (or nil) per input of apply (bindings/autograd_function.cpp).
local U = torch._util
local record = torch._record_function

local Ctx = {__name = 'torch.autograd.function.FunctionCtx'}
Ctx.__index = Ctx
function Ctx:save_for_backward(...)
  self.saved_tensors = torch._tuple({...})
  self.saved_tensors.n = select('#', ...)
end
function Ctx:mark_non_differentiable(...) self._non_differentiable = {...} end
function Ctx:set_materialize_grads(value) self.materialize_grads = value end

local Function = U.class('Function', nil, function(cls) return {__index = cls, __name = cls.__name} end)
rawset(Function, '__module', 'torch.autograd.function')
torch.autograd.Function = Function

local function apply(cls, ...)
  local args = table.pack(...)
  local needs, any = {}, false
  for i = 1, args.n do
    needs[i] = U.is_tensor(args[i]) and args[i].requires_grad  -- as PyTorch's, whatever the grad mode
    any = any or (needs[i] and torch.is_grad_enabled())
  end
  local ctx = setmetatable({needs_input_grad = torch._tuple(needs), materialize_grads = true}, Ctx)
  ctx.needs_input_grad.n = args.n
  local out = table.pack(torch.no_grad(cls.forward, ctx, ...))
  if not any then return table.unpack(out, 1, out.n) end
  if out.n ~= 1 or not U.is_tensor(out[1]) then
    error('NotImplementedError: gpulab: a custom Function with autograd returns one tensor from forward', 0)
  end
  local y = out[1]
  for i = 1, args.n do  -- an input returned as it is: the node goes on a new tensor
    if rawequal(y, args[i]) then y = y:detach():view_as(y) break end
  end
  record(y, args, cls.__name .. 'Backward', function(grad)
    if ctx.materialize_grads == false and grad == nil then return nil end
    return cls.backward(ctx, grad)
  end, ctx.saved_tensors)
  return y
end

-- Function:extend(name): a Function whose .apply(...) runs its forward.
function Function.extend(base, name)
  assert(type(name) == 'string', 'extend(name): the class needs a name')
  local cls = U.class(name, base)
  cls.apply = function(...) return apply(cls, ...) end
  return cls
end
function Function.forward() error('NotImplementedError: You must implement the forward function for custom autograd.Function.', 0) end
function Function.backward()
  error('NotImplementedError: You must implement either the backward or vjp method for your custom autograd.Function to '
    .. 'use it with backward mode AD.', 0)
end
Function.new = function(cls)
  torch._warn(("<class '%s'> should not be instantiated. Methods on autograd functions are all static, so you should "
    .. 'invoke them on the class itself. Instantiating an autograd function will raise an error in a future version of '
    .. 'PyTorch.'):format(U.class_qualname(cls)))
  return setmetatable({}, cls.__meta)
end

U.doc(Function, [[torch.autograd.Function: an op with a gradient of one's own.
  local Cube = torch.autograd.Function:extend('Cube')
  function Cube.forward(ctx, x) ctx:save_for_backward(x); return x ^ 3 end
  function Cube.backward(ctx, grad) return grad * 3 * ctx.saved_tensors[1] ^ 2 end
  y = Cube.apply(x)        -- y.grad_fn is CubeBackward
forward runs without autograd; backward returns one gradient (or nil) per input of apply.]])
