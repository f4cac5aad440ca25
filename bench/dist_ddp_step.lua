-- One DDP training step of an MLP (784-512-512-10, batch 128 per rank, SGD),
-- per rank, over gloo; bench/dist_ddp_step.py is PyTorch's side:
--   gpulab run --nproc-per-node 2 bench/dist_ddp_step.lua
--   torchrun --nproc-per-node 2 bench/dist_ddp_step.py
-- Prints, on rank 0, the median step time of 30 after 5 warm-up steps.
local dist = torch.distributed
dist.init_process_group{backend = 'gloo'}
local rank = dist.get_rank()
torch.manual_seed(0)
local model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
local ddp = nn.parallel.DistributedDataParallel(model)
local opt = torch.optim.SGD(ddp:parameters(), {lr = 0.01})
local x, y = torch.randn(128, 784), torch.randint(0, 10, {128})
local loss_fn = nn.CrossEntropyLoss()
local times = {}
for i = 1, 35 do
  local t0 = time.perf_counter()
  opt:zero_grad()
  loss_fn(ddp(x), y):backward()
  opt:step()
  if i > 5 then times[#times + 1] = time.perf_counter() - t0 end
end
table.sort(times)
if rank == 0 then print(('DDP MLP step: %.2f ms (median of %d)'):format(times[#times // 2 + 1] * 1000, #times)) end
dist.destroy_process_group()
