-- help() for torch.distributed, DistributedDataParallel and DistributedSampler:
-- each doc opens with its signature, and each has an example. The examples
-- need a process group, so they run in one of a single process
-- (torch.distributed._solo) and help shows them without running them.
local U = torch._util
local solo = 'torch.distributed._solo(function() %s end)'
local not_run = 'not run here: it needs a process group (gpulab run --nproc-per-node N script.lua)'
local sampler = "torch.utils.data.DistributedSampler({10, 20, 30, 40, 50}, {num_replicas=2, rank=1, shuffle=false})"
local ddp = 'local m = nn.parallel.DistributedDataParallel(nn.Linear(2, 1)); '

local entries = {
  ['torch.distributed.init_process_group'] = {
    "init_process_group({backend='gloo', init_method='env://', timeout=1800, world_size=-1, rank=-1}): joins the "
      .. 'default process group. env:// reads MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE (gpulab run sets '
      .. 'them); tcp://host:port and file:///path need rank= and world_size=. timeout is in seconds.',
    solo:format('return torch.distributed.get_world_size()')},
  ['torch.distributed.spawn'] = {'spawn(nproc, code): runs the Lua code in nproc processes with gpulab run (the '
    .. 'environment of a process group, this session\'s virtual devices passed on, rank i on cuda:i) and prints '
    .. 'their output, each line prefixed with [rankN]: (gpulab only)',
    "torch.distributed.spawn(2, 'print(os.getenv(\"RANK\"))')"},
  ['torch.distributed.is_initialized'] = {'is_initialized(): has init_process_group run (and no destroy since)?',
    'torch.distributed.is_initialized()', false},
  ['torch.distributed.is_available'] = {'is_available(): is torch.distributed built in? (always true)',
    'torch.distributed.is_available()', false},
  ['torch.distributed.is_gloo_available'] = {'is_gloo_available(): was this gpulab built with gloo (libgloo-dev)?',
    'torch.distributed.is_gloo_available()', false},
  ['torch.distributed.is_nccl_available'] = {'is_nccl_available(): can backend=\'nccl\' run here? (a CUDA build, '
    .. 'and libnccl.so.2 opens at run time; GPULAB_NCCL_LIBRARY names another file)', 'torch.distributed.is_nccl_available()', false},
  ['torch.distributed.get_rank'] = {'get_rank(): this process\'s rank in the default group, from 0',
    solo:format('return torch.distributed.get_rank()')},
  ['torch.distributed.get_world_size'] = {'get_world_size(): the number of processes in the default group',
    solo:format('return torch.distributed.get_world_size()')},
  ['torch.distributed.get_backend'] = {"get_backend(): the default group's backend ('gloo' or 'nccl')",
    solo:format('return torch.distributed.get_backend()')},
  ['torch.distributed.destroy_process_group'] = {'destroy_process_group(): closes the default group (its queued '
    .. 'operations finish first)', solo:format('return torch.distributed.is_initialized()')},
  ['torch.distributed.all_reduce'] = {'all_reduce(tensor, {op=ReduceOp.SUM, group=nil, async_op=false}): every rank '
    .. 'ends with the reduction (SUM, AVG, PRODUCT, MIN, MAX) of all ranks\' tensors, in place; with async_op=true '
    .. 'it returns a Work handle (:wait())',
    solo:format('local x = torch.ones(3); torch.distributed.all_reduce(x); return x')},
  ['torch.distributed.broadcast'] = {'broadcast(tensor, src, {group=nil, async_op=false}): every rank receives rank '
    .. 'src\'s tensor, in place', solo:format('local x = torch.arange(3); torch.distributed.broadcast(x, 0); return x')},
  ['torch.distributed.all_gather'] = {'all_gather(tensor_list, tensor, {group=nil, async_op=false}): '
    .. 'tensor_list[i+1] receives rank i\'s tensor',
    solo:format('local out = {torch.zeros(2)}; torch.distributed.all_gather(out, torch.ones(2)); return out[1]')},
  ['torch.distributed.reduce_scatter'] = {'reduce_scatter(output, input_list, {op=ReduceOp.SUM, group=nil, '
    .. 'async_op=false}): output becomes the reduction over the ranks of their input_list[rank+1]',
    solo:format('local out = torch.zeros(2); torch.distributed.reduce_scatter(out, {torch.ones(2)}); return out')},
  ['torch.distributed.barrier'] = {'barrier({group=nil, async_op=false}): waits until every rank has reached it',
    solo:format('return torch.distributed.barrier()')},
  ['torch.distributed.send'] = {'send(tensor, dst, {group=nil, tag=0}): sends tensor to rank dst (blocks until it '
    .. 'is received)', "-- rank 0: torch.distributed.send(torch.ones(2), 1)\ntorch.distributed.send"},
  ['torch.distributed.recv'] = {'recv(tensor, src, {group=nil, tag=0}): receives rank src\'s tensor into tensor '
    .. '(src=nil: from whichever rank sends first); returns the sender\'s rank',
    "-- rank 1: torch.distributed.recv(buf, 0); any rank: local from = torch.distributed.recv(buf)\n"
    .. "torch.distributed.recv"},
  ['torch.distributed.isend'] = {'isend(tensor, dst, {group=nil, tag=0}): send, returning a Work handle (:wait())',
    "-- rank 0: torch.distributed.isend(torch.ones(2), 1):wait()\ntorch.distributed.isend"},
  ['torch.distributed.irecv'] = {'irecv(tensor, src, {group=nil, tag=0}): recv, returning a Work handle '
    .. '(:wait(), then :source_rank() names the sender; src=nil: from any rank)',
    "-- rank 1: torch.distributed.irecv(buf, 0):wait()\ntorch.distributed.irecv"},
  ['nn.parallel.DistributedDataParallel.forward'] = {'ddp:forward(...): the module\'s forward on this rank\'s '
    .. 'inputs (moved to device_ids[0]); the next backward averages the gradients',
    solo:format(ddp .. 'return m(torch.ones(4, 2)).shape')},
  ['nn.parallel.DistributedDataParallel.no_sync'] = {'ddp:no_sync(fn, ...): runs fn with gradient averaging off '
    .. '(accumulation); the next backward outside averages the sum',
    solo:format(ddp .. 'm:no_sync(function() m(torch.ones(4, 2)):sum():backward() end); return m.module.weight.grad')},
  ['torch.utils.data.DistributedSampler.indices'] = {'sampler:indices(): this rank\'s indices for the current '
    .. 'epoch (from 0)', sampler .. ':indices()', false},
  ['torch.utils.data.DistributedSampler.iter'] = {'sampler:iter(): an iterator over this rank\'s indices (what '
    .. '`for i in sampler` uses)', sampler .. ':iter()()', false},
  ['torch.utils.data.DistributedSampler.set_epoch'] = {'sampler:set_epoch(epoch): reshuffle for this epoch (the same '
    .. 'order on every rank)', sampler .. ':set_epoch(1)', false},
  ['torch.utils.data.DistributedSampler.extend'] = {'DistributedSampler:extend(name): a subclass',
    "torch.utils.data.DistributedSampler:extend('MySampler')", false},
  ['torch.utils.data.DistributedSampler.new'] = {'cls:new(...): make an instance (what calling the class does)',
    "#torch.utils.data.DistributedSampler:new({1, 2, 3}, {num_replicas=2, rank=0})", false},
}

for path, e in torch._util.sorted_pairs(entries) do
  local fn = U.lookup_path(path)
  if type(fn) == 'function' then
    torch._set_doc(fn, e[1])
    U.examples[fn] = e[2]
    if e[3] ~= false then U.examples_not_run[fn] = not_run end
  end
end
