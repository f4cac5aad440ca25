-- Hooks, as PyTorch's: on a tensor, x:register_hook(fn) (fn(grad) during
-- backward; Note [Tensor hooks] in tensor/autograd/node.h), and on a module,
-- m:register_forward_pre_hook(fn) (fn(module, args) before forward) and
-- m:register_forward_hook(fn) (fn(module, args, output) after it). A hook
-- that returns a value replaces the gradient, the arguments or the output.
-- Each returns a RemovableHandle; handle:remove() takes the hook off (a
-- handle also closes as a to-be-closed variable).
local U = torch._util

local RemovableHandle = {__name = 'torch.utils.hooks.RemovableHandle'}
RemovableHandle.__index = RemovableHandle
RemovableHandle.__tostring = function(h) return ('<torch.utils.hooks.RemovableHandle object at %p>'):format(h) end
local removers = setmetatable({}, {__mode = 'k'})  -- handle -> its remove function
function RemovableHandle:remove()
  local f = removers[self]
  if f then
    removers[self] = nil
    f()
  end
end
RemovableHandle.__close = RemovableHandle.remove
local function handle(id, remove)
  local h = setmetatable({id = id}, RemovableHandle)
  removers[h] = remove
  return h
end

-- ---- tensors ----
local register_tensor_hook, remove_tensor_hook = torch._register_hook, torch._remove_grad_hook
function torch.Tensor.register_hook(self, ...)
  local hook = U.parse('register_hook', {'hook!'}, nil, ...).hook
  local id = register_tensor_hook(self, hook)
  local weak = setmetatable({self}, {__mode = 'v'})  -- the handle does not keep the tensor alive
  return handle(id, function()
    if weak[1] ~= nil then remove_tensor_hook(weak[1], id) end
  end)
end

-- ---- modules ----
local Module = nn.Module
local next_id = 0
local function add_module_hook(self, kind, hook, fname)
  U.check_callable(fname, hook)
  if hook == nil then error(("TypeError: %s() missing 1 required positional argument: 'hook'"):format(fname), 0) end
  local hooks = rawget(self, '_hooks')
  if not hooks then
    hooks = {pre = {}, post = {}}
    rawset(self, '_hooks', hooks)
  end
  next_id = next_id + 1
  local list, id = hooks[kind], next_id
  list[#list + 1] = {id = id, fn = hook}
  return handle(id, function()
    for i, h in ipairs(list) do
      if h.id == id then table.remove(list, i) break end
    end
    if #hooks.pre == 0 and #hooks.post == 0 and rawget(self, '_hooks') == hooks then rawset(self, '_hooks', nil) end
  end)
end
function Module:register_forward_pre_hook(...)
  local a = U.parse('register_forward_pre_hook', {'hook!'}, nil, ...)
  return add_module_hook(self, 'pre', a.hook, 'register_forward_pre_hook')
end
function Module:register_forward_hook(...)
  local a = U.parse('register_forward_hook', {'hook!'}, nil, ...)
  return add_module_hook(self, 'post', a.hook, 'register_forward_hook')
end

-- m(...) with hooks: the pre-hooks see (module, args) and may return new
-- args (a tuple, or one value for one argument); the hooks after forward see
-- (module, args, output) and may return a new output.
function U.call_with_hooks(self, ...)
  local hooks = rawget(self, '_hooks')
  local args = table.pack(...)
  for _, h in ipairs({table.unpack(hooks.pre)}) do
    local r = h.fn(self, torch._tuple(table.move(args, 1, args.n, 1, {n = args.n})))
    if r ~= nil then
      if U.is_tuple(r) then args = table.pack(table.unpack(r, 1, r.n or #r)) else args = table.pack(r) end
    end
  end
  local out = self:forward(table.unpack(args, 1, args.n))
  for _, h in ipairs({table.unpack(hooks.post)}) do
    local r = h.fn(self, torch._tuple(table.move(args, 1, args.n, 1, {n = args.n})), out)
    if r ~= nil then out = r end
  end
  return out
end
