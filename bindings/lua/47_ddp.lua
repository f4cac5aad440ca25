-- nn.parallel.DistributedDataParallel, after torch/nn/parallel/distributed.py:
-- one process per device, each with a full replica. At construction the
-- parameters and buffers are broadcast from rank 0, so every replica starts
-- equal; after each backward the gradients are averaged over the ranks (each
-- divided by world_size, then all-reduced with SUM, as PyTorch's buckets),
-- so every optimizer step is the same everywhere.
--
-- Where PyTorch's reducer fires per bucket from autograd hooks while backward
-- runs, gpulab's autograd engine has no such hooks: Tensor:backward() is
-- wrapped, and when it returns, each DDP module whose forward built the graph
-- all-reduces its gradients in buckets of bucket_cap_mb (25 MiB by default,
-- grouped by device and dtype, the last parameters first, as PyTorch orders
-- its buckets). The values are the same; only the overlap with backward is lost.
local U = torch._util
local nn = torch.nn
local dist = torch.distributed
local Module = nn.Module

nn.parallel = nn.parallel or {}
local DDP = Module:extend('DistributedDataParallel')
nn.parallel.DistributedDataParallel = DDP
U.doc(DDP, 'nn.parallel.DistributedDataParallel(module, {device_ids=, output_device=, broadcast_buffers=true, '
  .. 'bucket_cap_mb=25}):\n  one process per device (gpulab run); gradients are averaged over the ranks after '
  .. 'backward.\n  ddp:no_sync(fn) runs fn without averaging (gradient accumulation); state_dict keys gain "module.".')

local pending = setmetatable({}, {__mode = 'k'})  -- DDP modules whose forward awaits a backward

function DDP:__init(...)
  local a = U.parse('DistributedDataParallel.__init__', {'module:Module!', 'device_ids', 'output_device', 'dim:int',
    'broadcast_buffers:bool', 'process_group', 'bucket_cap_mb', 'find_unused_parameters:bool',
    'check_reduction', 'gradient_as_bucket_view', 'static_graph'},
    {dim = 0, broadcast_buffers = true, bucket_cap_mb = 25, find_unused_parameters = false}, ...)
  if a.process_group ~= nil and a.process_group ~= dist.group.WORLD then
    error('NotImplementedError: DistributedDataParallel: only the default process group exists in gpulab', 0)
  end
  if a.device_ids ~= nil and type(a.device_ids) ~= 'table' then
    U.type_error('DistributedDataParallel.__init__', 'device_ids', 'a list of device ids', a.device_ids)
  end
  local any = false
  for _, p in ipairs(a.module:parameters()) do any = any or p.requires_grad end
  if not any then
    error("RuntimeError: DistributedDataParallel is not needed when a module doesn't have any parameter that "
      .. 'requires a gradient.', 0)
  end
  if a.device_ids ~= nil and #a.device_ids > 1 then
    error('ValueError: device_ids can only be None or contain a single element.', 0)
  end
  Module.__init(self)
  self.module = a.module
  self.dim = a.dim
  self.broadcast_buffers = a.broadcast_buffers
  self.bucket_bytes_cap = math.floor(a.bucket_cap_mb * 1024 * 1024)
  self.require_backward_grad_sync = true
  if a.device_ids ~= nil and #a.device_ids == 1 then
    local d = a.device_ids[1]
    if math.type(d) == 'integer' then d = torch.device('cuda', d) elseif type(d) == 'string' then d = torch.device(d) end
    self.device_ids = {d.index or 0}
    self.device = d
  end
  self.world_size = dist.get_world_size()
  -- Every replica starts from rank 0's parameters and buffers.
  torch.no_grad(function()
    for _, t in ipairs(self.module:parameters()) do dist.broadcast(t, 0) end
    for _, t in ipairs(self.module:buffers()) do dist.broadcast(t, 0) end
  end)
end

-- Moves tensor arguments to the module's device (device_ids[0]), as PyTorch's _to_kwargs.
local function to_device(args, device)
  for i = 1, args.n do
    if U.is_tensor(args[i]) then args[i] = args[i]:to(device) end
  end
  return args
end

function DDP:forward(...)
  if self.broadcast_buffers then
    local bufs = self.module:buffers()
    if #bufs > 0 then torch.no_grad(function() for _, b in ipairs(bufs) do dist.broadcast(b, 0) end end) end
  end
  local args = table.pack(...)
  if self.device then args = to_device(args, self.device) end
  if torch.is_grad_enabled() and self.require_backward_grad_sync then pending[self] = true end
  return self.module(table.unpack(args, 1, args.n))
end

-- Averages the gradients over the ranks, in buckets of one device and dtype.
function DDP:_sync_gradients()
  local params = {}
  for _, p in ipairs(self.module:parameters()) do
    if p.requires_grad then params[#params + 1] = p end
  end
  torch.no_grad(function()
    local buckets, order = {}, {}
    for i = #params, 1, -1 do  -- backward produces the last layers' gradients first
      local p = params[i]
      -- An unused parameter takes part with zeros, so every rank reduces the same buckets.
      if p.grad == nil then p.grad = torch.zeros_like(p) end
      local key = tostring(p.device) .. '/' .. tostring(p.dtype)
      local b = buckets[key]
      local bytes = p:numel() * p:element_size()
      if b == nil or (b.bytes > 0 and b.bytes + bytes > self.bucket_bytes_cap) then
        b = {grads = {}, bytes = 0}
        buckets[key] = b
        order[#order + 1] = b
      end
      b.grads[#b.grads + 1] = p.grad
      b.bytes = b.bytes + bytes
    end
    for _, b in ipairs(order) do
      local flat = {}
      for i, g in ipairs(b.grads) do flat[i] = g:reshape(-1) end
      local buf = #flat == 1 and flat[1]:clone() or torch.cat(flat)
      buf:div_(self.world_size)
      dist.all_reduce(buf)
      local off = 0
      for _, g in ipairs(b.grads) do
        local n = g:numel()
        g:copy_(buf:narrow(0, off, n):view(g.shape))
        off = off + n
      end
    end
  end)
end

-- ddp:no_sync(fn, ...): fn's backward passes keep their gradients local
-- (accumulating); the next backward outside averages the sum.
function DDP:no_sync(fn, ...)
  U.check_callable('no_sync', fn)
  local prev = self.require_backward_grad_sync
  self.require_backward_grad_sync = false
  local r = table.pack(pcall(fn, ...))
  self.require_backward_grad_sync = prev
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

-- Backward, then the pending DDP modules' gradient averaging.
local backward = torch.Tensor.backward
torch.Tensor.backward = function(...)
  local r = table.pack(backward(...))
  local ddps = {}
  for m in pairs(pending) do ddps[#ddps + 1] = m end
  for _, m in ipairs(ddps) do
    pending[m] = nil
    m:_sync_gradients()
  end
  return table.unpack(r, 1, r.n)
end
torch._set_doc(torch.Tensor.backward, torch._doc(backward) or 'y:backward(): accumulate gradients into the leaves.')
