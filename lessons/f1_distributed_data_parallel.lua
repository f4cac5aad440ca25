-- Several processes (PyTorch's DDP tutorial) § 1: DistributedDataParallel, one process per GPU
-- needs: 2 gpus
-- %% Why leave DataParallel
-- nn.DataParallel (lessons b5, c4) runs in one process: on every step it
-- copies the model to each GPU, scatters the batch, gathers the outputs on
-- the first GPU and sums the gradients there. One process drives every GPU,
-- and the first GPU does extra work. PyTorch's documentation recommends
-- DistributedDataParallel instead: one process per GPU, each with its own
-- replica for the whole run and its own share of the data; after backward
-- the processes average their gradients with an all-reduce, so every
-- replica takes the same optimizer step. It also works across machines.
-- The processes are started by a launcher: `gpulab run --nproc-per-node 2
-- --virtual-gpus 2 train.lua` (PyTorch's `torchrun`). Here,
-- torch.distributed.spawn(2, code) runs it and prints what each rank prints,
-- every line prefixed with its rank.
print("visible GPUs:", torch.cuda.device_count())
-- %% A process group
-- Each process joins the group with init_process_group: the launcher has set
-- RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (env://). Rank i uses cuda:i.
-- The ranks print at the same time, in no fixed order; to keep this page
-- readable, rank 0 alone prints, what `gathered` collects from every rank
-- with all_gather (a list: rank 0's value first).
prelude = [[
local dist = torch.distributed
dist.init_process_group{backend = 'gloo'}
local rank, world = dist.get_rank(), dist.get_world_size()
local device = torch.device('cuda', rank)
local function gathered(t)
  local out = {}
  for r = 1, world do out[r] = torch.zeros_like(t) end
  dist.all_gather(out, t)
  return out
end
]]
torch.distributed.spawn(2, prelude .. [[
local all = gathered(torch.tensor({rank, torch.cuda.current_device()}))
if rank == 0 then
  for _, t in ipairs(all) do print(('rank %d of %d on cuda:%d'):format(t[0]:item(), world, t[1]:item())) end
end
]])
-- %% All-reduce: every rank ends with the sum
-- all_reduce replaces each rank's tensor with the reduction over all ranks
-- (SUM by default; AVG, MAX, MIN, PRODUCT too). This is what DDP does with
-- the gradients.
torch.distributed.spawn(2, prelude .. [[
local x = torch.full({3}, rank + 1.0, {device = device})
local before = gathered(x:cpu())
dist.all_reduce(x)
local after = gathered(x:cpu())
if rank == 0 then
  for r = 1, world do print('rank', r - 1, 'before', before[r], 'after', after[r]) end
end
]])
-- %% A share of the data for each rank
-- DistributedSampler gives rank r every world_size-th index of one
-- permutation, the same permutation on every rank (seeded with seed +
-- epoch): the shares never overlap. Call set_epoch(e) each epoch to reshuffle.
torch.distributed.spawn(2, prelude .. [[
local ds = torch.utils.data.TensorDataset(torch.arange(10))
local sampler = torch.utils.data.DistributedSampler(ds, {shuffle = true, seed = 0})
for epoch = 0, 1 do
  sampler:set_epoch(epoch)
  local all = gathered(torch.tensor(sampler:indices()))
  if rank == 0 then
    for r = 1, world do print('epoch', epoch, 'rank', r - 1, all[r]) end
  end
end
]])
-- %% Training with DistributedDataParallel
-- Wrapping the model broadcasts rank 0's parameters, so every replica starts
-- equal. Each rank trains on its own half of every batch; after backward the
-- gradients are averaged, so the replicas stay equal, step after step.
torch.distributed.spawn(2, prelude .. [[
torch.manual_seed(0)
local X, Y = torch.randn(64, 4), torch.randn(64, 1)
local ds = torch.utils.data.TensorDataset(X, Y)
local sampler = torch.utils.data.DistributedSampler(ds, {seed = 0})
local loader = torch.utils.data.DataLoader(ds, {batch_size = 16, sampler = sampler})
torch.manual_seed(rank)  -- different on purpose: DDP copies rank 0's weights
local model = nn.Linear(4, 1):to(device)
local ddp = nn.parallel.DistributedDataParallel(model, {device_ids = {rank}})
if rank == 0 then print(ddp) end
local opt = torch.optim.SGD(ddp:parameters(), {lr = 0.1})
for epoch = 0, 2 do
  sampler:set_epoch(epoch)
  local total = 0
  for batch in loader do
    opt:zero_grad()
    local loss = nn.functional.mse_loss(ddp(batch[1]), batch[2]:to(device))
    loss:backward()
    opt:step()
    total = total + loss:item()
  end
  local losses = gathered(torch.tensor({total / #loader}))
  if rank == 0 then
    print(('epoch %d: mean loss on each shard: %.4f %.4f'):format(epoch, losses[1]:item(), losses[2]:item()))
  end
end
local weights = gathered(model.weight.data:cpu())
if rank == 0 then print('every replica has the same weights:', weights[1]:equal(weights[2])) end
]])
-- %% Running it yourself
-- Put the script in a file and start it with the launcher:
--   gpulab run --nproc-per-node 2 --virtual-gpus 2 train.lua
-- On a cluster, one launcher per machine: --nnodes, --node-rank,
-- --master-addr and --master-port say how they find each other (see the
-- README). When one rank fails, the launcher stops the others and exits
-- with that rank's status, naming it.
print("ranks per GPU: 1; gradients averaged by all_reduce after backward")
