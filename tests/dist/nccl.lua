-- NCCL at world size 1 on cuda:0 (scripts/gpu-check.sh runs it where a GPU is
-- lent; a machine without one says so in PyTorch's words instead, see run.sh):
-- all_reduce, broadcast, all_gather, reduce_scatter and a DDP step.
local dist = torch.distributed
dist.init_process_group{backend = 'nccl', init_method = 'tcp://127.0.0.1:' .. (arg[1] or '29631'), rank = 0, world_size = 1}
assert(dist.get_backend() == 'nccl', dist.get_backend())
local passed, failed = 0, 0
local function check(name, ok)
  if ok then passed = passed + 1 else failed = failed + 1; print('FAIL ' .. name) end
end
local dev = 'cuda:0'
for _, dt in ipairs({torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.uint8}) do
  local x = torch.arange(6, {dtype = dt, device = dev})
  local want = x:clone()
  dist.all_reduce(x)
  check('all_reduce ' .. tostring(dt), torch.equal(x:cpu(), want:cpu()))
  for _, op in ipairs({dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.PRODUCT}) do
    local y = want:clone()
    dist.all_reduce(y, {op = op})
    check('all_reduce ' .. tostring(op) .. ' ' .. tostring(dt), torch.equal(y:cpu(), want:cpu()))
  end
end
local a = torch.tensor({1.5, -2.0}, {device = dev})
dist.all_reduce(a, {op = dist.ReduceOp.AVG})
check('all_reduce AVG', torch.equal(a:cpu(), torch.tensor({1.5, -2.0})))
local nc = torch.arange(12.0, {device = dev}):reshape(3, 4):t()  -- not contiguous: staged and written back
dist.all_reduce(nc)
check('all_reduce, non-contiguous', torch.equal(nc:cpu(), torch.arange(12.0):reshape(3, 4):t()))
local b = torch.tensor({7, 8, 9}, {device = dev})
dist.broadcast(b, 0)
check('broadcast', torch.equal(b:cpu(), torch.tensor({7, 8, 9})))
local outs = {torch.zeros(2, 3, {device = dev})}
dist.all_gather(outs, torch.ones(2, 3, {device = dev}))
check('all_gather', torch.equal(outs[1]:cpu(), torch.ones(2, 3)))
local rs = torch.zeros(4, {device = dev})
dist.reduce_scatter(rs, {torch.full({4}, 3.0, {device = dev})})
check('reduce_scatter', torch.equal(rs:cpu(), torch.full({4}, 3.0)))
local w = dist.all_reduce(torch.ones(3, {device = dev}), {async_op = true})
w:wait()
check('async handle', w:is_completed())
local ok, err = pcall(dist.all_reduce, torch.ones(2))
check('a CPU tensor is refused', not ok and tostring(err):find('No backend type associated with device type cpu', 1, true))
dist.barrier()

-- One DDP step: with one rank, the same gradient and weights as the plain model.
torch.manual_seed(0)
local model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)):to(dev)
local ref = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)):to(dev)
ref:load_state_dict(model:state_dict())
local ddp = nn.parallel.DistributedDataParallel(model, {device_ids = {0}})
local x, y = torch.randn(32, 8, {device = dev}), torch.randn(32, 2, {device = dev})
local opt, ropt = torch.optim.SGD(ddp:parameters(), {lr = 0.1}), torch.optim.SGD(ref:parameters(), {lr = 0.1})
for _ = 1, 3 do
  opt:zero_grad(); nn.functional.mse_loss(ddp(x), y):backward(); opt:step()
  ropt:zero_grad(); nn.functional.mse_loss(ref(x), y):backward(); ropt:step()
end
local p, q = model:parameters(), ref:parameters()
for i = 1, #p do check('DDP step, parameter ' .. i, torch.allclose(p[i]:cpu(), q[i]:cpu(), {atol = 1e-6})) end
torch.cuda.synchronize()
dist.destroy_process_group()
print(('%d passed, %d failed'):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
