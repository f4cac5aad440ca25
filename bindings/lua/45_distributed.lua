-- torch.distributed, the Lua half: PyTorch's signatures and keywords
-- (torch/distributed/distributed_c10d.py), over the C half in
-- bindings/dist_lib.cpp (gloo, in tensor/dist). Timeouts are seconds (PyTorch
-- takes a datetime.timedelta). Ranks and device ids count from 0.
local U = torch._util
local dist = torch.distributed

-- ---- ReduceOp --------------------------------------------------------------
local RedOpType = {__tostring = function(op) return 'RedOpType.' .. op.name end, __name = 'RedOpType'}
RedOpType.__index = RedOpType
dist.ReduceOp = {}
for i, name in ipairs({'SUM', 'AVG', 'PRODUCT', 'MIN', 'MAX', 'BAND', 'BOR', 'BXOR', 'PREMUL_SUM'}) do
  dist.ReduceOp[name] = setmetatable({name = name, value = i - 1}, RedOpType)
end
local function op_name(fname, op)
  if getmetatable(op) ~= RedOpType then U.type_error(fname, 'op', 'torch.distributed.ReduceOp', op) end
  return op.name
end

-- ---- Work: the handle of an async_op ------------------------------------------
local Work = {__name = 'Work'}
Work.__index = Work
Work.__tostring = function(w) return ('<torch.distributed.distributed_c10d.Work object at %s>'):format(w._addr) end
Work.__gc = function(w) dist._drop(w._id) end
function Work:wait(timeout) return dist._wait(self._id) end
function Work:is_completed() return dist._is_completed(self._id) end
-- A recv's sender (after wait(); -1 before), as PyTorch's Work.source_rank().
function Work:source_rank() return dist._source_rank(self._id) end
Work._source_rank = Work.source_rank
local function work(id)
  local w = setmetatable({_id = id}, Work)
  w._addr = tostring({}):match('0x%x+') or '0x0'
  return w
end
-- A blocking call waits on its handle and returns nil, as PyTorch's.
local function finish(id, async_op)
  if async_op then return work(id) end
  dist._wait(id)
  dist._drop(id)
  return nil
end

local function check_group(fname, group)
  if group ~= nil and group ~= dist.group.WORLD then
    error(('NotImplementedError: %s(): only the default group (group=None) exists in gpulab'):format(fname), 0)
  end
end
dist.group = {WORLD = setmetatable({}, {__tostring = function() return '<torch.distributed.ProcessGroup>' end})}

-- ---- process group ------------------------------------------------------------
local c_init = dist._init
function dist.init_process_group(...)
  local a = U.parse('init_process_group', {'backend', 'init_method', 'timeout', 'world_size:int', 'rank:int',
    'store', 'group_name', 'pg_options', 'device_id'}, {world_size = -1, rank = -1}, ...)
  if a.store ~= nil then
    error('NotImplementedError: init_process_group(): store= is not supported in gpulab; use init_method', 0)
  end
  local backend = a.backend or 'gloo'
  if type(backend) ~= 'string' then U.type_error('init_process_group', 'backend', 'str', backend) end
  backend = backend:lower()
  if backend == 'cpu:gloo,cuda:nccl' then backend = 'gloo' end
  local timeout = a.timeout
  if timeout ~= nil and type(timeout) ~= 'number' then
    U.type_error('init_process_group', 'timeout', 'a number of seconds', timeout)
  end
  c_init(backend, a.init_method or 'env://', a.rank, a.world_size, timeout or 1800)
end

-- Under `gpulab run` with devices, rank i's 'cuda' is cuda:LOCAL_RANK from the
-- start (PyTorch scripts call torch.cuda.set_device(local_rank) themselves;
-- that still works). Only then is CUDA looked at here, at start-up.
do
  local lr = os.getenv('GPULAB_RUN') and math.tointeger(tonumber(os.getenv('LOCAL_RANK') or ''))
  if lr and torch.cuda.is_available() and lr < torch.cuda.device_count() then torch.cuda.set_device(lr) end
end
local function doc_fn(f, text) torch._set_doc(f, text) end
doc_fn(dist.init_process_group, "torch.distributed.init_process_group{backend='gloo', init_method='env://', "
  .. "rank=, world_size=, timeout=1800}: joins the default process group. env:// reads MASTER_ADDR, "
  .. "MASTER_PORT, RANK and WORLD_SIZE (gpulab run sets them); tcp://host:port and file:///path need rank= "
  .. "and world_size=. timeout is in seconds.")

-- ---- collectives -----------------------------------------------------------------
local SUM = dist.ReduceOp.SUM

function dist.all_reduce(...)
  local a = U.parse('all_reduce', {'tensor:Tensor!', 'op', 'group', 'async_op'}, {op = SUM}, ...)
  check_group('all_reduce', a.group)
  return finish(dist._all_reduce(a.tensor, op_name('all_reduce', a.op)), a.async_op)
end

function dist.broadcast(...)
  local a = U.parse('broadcast', {'tensor:Tensor!', 'src:int', 'group', 'async_op', 'group_src:int'}, nil, ...)
  check_group('broadcast', a.group)
  local src = a.src or a.group_src
  U.required('broadcast', 'src', src)
  return finish(dist._broadcast(a.tensor, src), a.async_op)
end

function dist.all_gather(...)
  local a = U.parse('all_gather', {'tensor_list!', 'tensor:Tensor!', 'group', 'async_op'}, nil, ...)
  check_group('all_gather', a.group)
  if not U.is_plain_table(a.tensor_list) then U.type_error('all_gather', 'tensor_list', 'a list of tensors', a.tensor_list) end
  return finish(dist._all_gather(a.tensor_list, a.tensor), a.async_op)
end

function dist.reduce_scatter(...)
  local a = U.parse('reduce_scatter', {'output:Tensor!', 'input_list!', 'op', 'group', 'async_op'}, {op = SUM}, ...)
  check_group('reduce_scatter', a.group)
  if not U.is_plain_table(a.input_list) then U.type_error('reduce_scatter', 'input_list', 'a list of tensors', a.input_list) end
  return finish(dist._reduce_scatter(a.output, a.input_list, op_name('reduce_scatter', a.op)), a.async_op)
end

function dist.barrier(...)
  local a = U.parse('barrier', {'group', 'async_op', 'device_ids'}, nil, ...)
  check_group('barrier', a.group)
  return finish(dist._barrier(), a.async_op)
end

-- ---- point to point -------------------------------------------------------------
function dist.isend(...)
  local a = U.parse('isend', {'tensor:Tensor!', 'dst:int!', 'group', 'tag:int'}, {tag = 0}, ...)
  check_group('isend', a.group)
  return work(dist._send(a.tensor, a.dst, a.tag))
end
-- src=nil: from any other rank; the handle's source_rank() then says which.
function dist.irecv(...)
  local a = U.parse('irecv', {'tensor:Tensor!', 'src:int', 'group', 'tag:int'}, {tag = 0}, ...)
  check_group('irecv', a.group)
  return work(dist._recv(a.tensor, a.src, a.tag))
end
function dist.send(...)
  local a = U.parse('send', {'tensor:Tensor!', 'dst:int!', 'group', 'tag:int'}, {tag = 0}, ...)
  check_group('send', a.group)
  finish(dist._send(a.tensor, a.dst, a.tag), false)
end
-- Returns the sender's rank, as PyTorch's recv; src=nil receives from
-- whichever rank sends first (gloo's recv from any source).
function dist.recv(...)
  local a = U.parse('recv', {'tensor:Tensor!', 'src:int', 'group', 'tag:int'}, {tag = 0}, ...)
  check_group('recv', a.group)
  local id = dist._recv(a.tensor, a.src, a.tag)
  local ok, err = pcall(dist._wait, id)
  local src = ok and dist._source_rank(id)
  dist._drop(id)
  if not ok then error(err, 0) end
  return src
end

function dist.is_available() return true end
-- DDP's first gradient bucket (PyTorch's torch.distributed._DEFAULT_FIRST_BUCKET_BYTES).
dist._DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024

local docs = {
  all_reduce = 'torch.distributed.all_reduce(tensor, {op=ReduceOp.SUM, async_op=false}): every rank ends with '
    .. 'the reduction (SUM, AVG, PRODUCT, MIN, MAX) of all ranks\' tensors, in place.',
  broadcast = 'torch.distributed.broadcast(tensor, src, {async_op=false}): every rank gets rank src\'s tensor.',
  all_gather = 'torch.distributed.all_gather(tensor_list, tensor, {async_op=false}): tensor_list[i+1] receives rank i\'s tensor.',
  reduce_scatter = 'torch.distributed.reduce_scatter(output, input_list, {op=SUM, async_op=false}): output is the '
    .. 'reduction over ranks of input_list[rank+1].',
  barrier = 'torch.distributed.barrier(): waits until every rank has reached it.',
  send = 'torch.distributed.send(tensor, dst, {tag=0}): sends tensor to rank dst (blocks until received).',
  recv = 'torch.distributed.recv(tensor, src, {tag=0}): receives into tensor from rank src (src=nil: from any '
    .. 'rank); returns the sender\'s rank.',
  isend = 'torch.distributed.isend(tensor, dst): send, returning a Work handle (:wait()).',
  irecv = 'torch.distributed.irecv(tensor, src): recv, returning a Work handle (:wait(); :source_rank() after it '
    .. 'names the sender, for src=nil).',
}
for name, text in pairs(docs) do doc_fn(dist[name], text) end

-- torch.distributed._solo(fn): runs fn in a process group of one (this
-- process, rank 0) and closes it; help's examples use it (93_distributed_docs.lua).
function dist._solo(fn)
  dist.init_process_group{backend = 'gloo', init_method = 'tcp://127.0.0.1:0', rank = 0, world_size = 1}
  local r = table.pack(pcall(fn))
  dist.destroy_process_group()
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end
