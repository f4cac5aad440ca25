-- nn.parallel.DistributedDataParallel, after torch/nn/parallel/distributed.py:
-- one process per device, each with a full replica. At construction the
-- parameters and buffers are broadcast from rank 0, so every replica starts
-- equal; after each backward the gradients are averaged over the ranks (each
-- divided by world_size, then all-reduced with SUM, as PyTorch's buckets),
-- so every optimizer step is the same everywhere.
--
-- As PyTorch's reducer, the gradients are bucketed (bucket_cap_mb, 25 MiB by
-- default, one device and dtype per bucket, the last parameters first, in the
-- order backward produces them), and a bucket's all-reduce starts as soon as
-- backward has produced its last gradient (a hook of the autograd engine,
-- armed only while such a backward runs), on gloo's worker thread, while
-- backward goes on. Tensor:backward() is wrapped: when it returns, each
-- pending DDP module starts the buckets still waiting (unused parameters
-- take part with zero gradients), waits for all of them and copies the
-- averages back into the .grad tensors. Buckets start in the same order on
-- every rank, so the collectives always match.
local U = torch._util
local nn = torch.nn
local dist = torch.distributed
local Module = nn.Module

nn.parallel = nn.parallel or {}
local DDP = Module:extend('DistributedDataParallel')
nn.parallel.DistributedDataParallel = DDP
U.doc(DDP, 'nn.parallel.DistributedDataParallel(module, {device_ids=, output_device=, broadcast_buffers=true, '
  .. 'bucket_cap_mb=25}):\n  one process per device (gpulab run); gradients are averaged over the ranks, in buckets, as '
  .. 'backward produces them.\n  ddp:no_sync(fn) runs fn without averaging (gradient accumulation); state_dict keys gain "module.".')

local pending = setmetatable({}, {__mode = 'k'})  -- DDP modules whose forward awaits a backward
local ddp_backward  -- Tensor.backward while one does (below)

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
  self:_make_buckets()
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
  if torch.is_grad_enabled() and self.require_backward_grad_sync then
    pending[self] = true
    torch.Tensor.backward = ddp_backward
  end
  return self.module(table.unpack(args, 1, args.n))
end

-- Buckets of parameters (one device and dtype each), in `order` (a list of
-- parameter numbers), by default the last parameters first. As PyTorch's
-- compute_bucket_assignment_by_size, a bucket closes once it holds its limit:
-- 1 MiB for the first (dist._DEFAULT_FIRST_BUCKET_BYTES, so that the last
-- layers' all-reduce starts while backward goes on), bucket_cap_mb after.
function DDP:_make_buckets(order)
  local buckets, open, bucket_of = {}, {}, {}
  local params = self.module:parameters()
  if order == nil then
    order = {}
    for i = #params, 1, -1 do order[#order + 1] = i end
  end
  local first_cap = math.min(dist._DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap)
  local closed = {}  -- per key: buckets closed so far
  for _, i in ipairs(order) do
    local p = params[i]
    if p.requires_grad and bucket_of[p] == nil then
      local key = tostring(p.device) .. '/' .. tostring(p.dtype)
      local b = open[key]
      if b == nil then
        b = {params = {}, bytes = 0, cap = (closed[key] or 0) == 0 and first_cap or self.bucket_bytes_cap}
        open[key] = b
        buckets[#buckets + 1] = b
      end
      b.params[#b.params + 1] = p
      b.bytes = b.bytes + p:numel() * p:element_size()
      bucket_of[p] = b
      if b.bytes >= b.cap then
        open[key] = nil
        closed[key] = (closed[key] or 0) + 1
      end
    end
  end
  self._buckets, self._bucket_of = buckets, bucket_of
end

-- Before a backward: nothing ready, nothing started.
function DDP:_reset_reducer()
  for _, b in ipairs(self._buckets) do b.ready, b.work = 0, nil end
  self._seen, self._next, self._order = {}, 1, {}
end

-- After the first backward, as PyTorch's reducer: the buckets are rebuilt in
-- the order backward produced the gradients (rank 0's order, broadcast, so
-- every rank has the same buckets), so that they fill and start early.
function DDP:_rebuild_buckets()
  self._rebuilt = true
  local params = self.module:parameters()
  local number = {}
  for i, p in ipairs(params) do number[p] = i end
  local order, used = {}, {}
  for _, p in ipairs(self._order) do
    order[#order + 1] = number[p]
    used[number[p]] = true
  end
  for i = #params, 1, -1 do
    if not used[i] and params[i].requires_grad then order[#order + 1] = i end
  end
  -- On the parameters' device: NCCL takes no CPU tensor.
  local t = torch.tensor(order, {dtype = torch.int64, device = params[1].device})
  dist.broadcast(t, 0)
  self:_make_buckets(t:tolist())
end

-- Starts bucket b's all-reduce: the gradients copied into the bucket's flat
-- buffer (kept from step to step, as PyTorch's reducer keeps its buckets),
-- divided by world_size, summed.
local function start_bucket(self, b)
  local p1 = b.params[1]
  if b.flat == nil then b.flat = torch.empty(b.bytes // p1:element_size(), {dtype = p1.dtype, device = p1.device}) end
  local off = 0
  for _, p in ipairs(b.params) do
    local n = p:numel()
    local dst = b.flat:narrow(0, off, n)
    if p.grad == nil then dst:zero_() else dst:copy_(p.grad:reshape(-1)) end
    off = off + n
  end
  b.flat:div_(self.world_size)
  b.work = dist.all_reduce(b.flat, {async_op = true})
end

-- Called as backward finishes p's gradient: starts every complete bucket, in order.
function DDP:_grad_ready(p)
  local b = self._bucket_of[p]
  if b == nil or self._seen[p] then return end
  self._seen[p] = true
  self._order[#self._order + 1] = p
  b.ready = b.ready + 1
  local buckets = self._buckets
  while self._next <= #buckets and buckets[self._next].ready == #buckets[self._next].params do
    start_bucket(self, buckets[self._next])
    self._next = self._next + 1
  end
end

-- After backward: the buckets not started yet (unused parameters), then every
-- bucket's average copied back into the gradients.
function DDP:_finish_reducer()
  torch.no_grad(function()
    local buckets = self._buckets
    for k = self._next, #buckets do start_bucket(self, buckets[k]) end
    self._next = #buckets + 1
    for _, b in ipairs(buckets) do
      b.work:wait()
      local off = 0
      for _, p in ipairs(b.params) do
        local n = p:numel()
        local avg = b.flat:narrow(0, off, n):view(p.shape)
        if p.grad == nil then p.grad = avg:clone() else p.grad:copy_(avg) end
        off = off + n
      end
      b.work = nil
    end
  end)
  if not self._rebuilt then self:_rebuild_buckets() end
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

-- Backward with the reducers of the pending DDP modules listening, then their
-- averaging finished. The hook is disarmed whatever happens. It stands in for
-- Tensor.backward only while a DDP forward awaits its backward, so that a
-- program without DDP meets no DDP frame in its tracebacks.
local backward = torch.Tensor.backward
function ddp_backward(...)
  if next(pending) == nil then
    torch.Tensor.backward = backward
    return backward(...)
  end
  local ddps = {}
  for m in pairs(pending) do
    ddps[#ddps + 1] = m
    m:_reset_reducer()
  end
  dist._arm_grad_hook(function(leaf)
    for _, m in ipairs(ddps) do torch.no_grad(m._grad_ready, m, leaf) end
  end)
  local r = table.pack(pcall(backward, ...))
  dist._disarm_grad_hook()
  if not r[1] then error(r[2], 0) end
  for _, m in ipairs(ddps) do
    pending[m] = nil
    m:_finish_reducer()
  end
  if next(pending) == nil then torch.Tensor.backward = backward end
  return table.unpack(r, 2, r.n)
end
torch._set_doc(ddp_backward, torch._doc(backward) or 'y:backward(): accumulate gradients into the leaves.')
