-- MLP training benchmark (issue 5): 784-256-10, ReLU, CrossEntropyLoss, SGD
-- (lr 0.01, momentum 0.9), batch 64. Same workload as mlp_bench.py.
-- Prints "name seconds" lines: mlp_step (median time per training step over
-- STEPS timed steps, after WARMUP untimed ones) and mlp_loss (final loss, as a
-- sanity check that both sides train).
-- MLP_AMP=1: the forward pass and the loss under torch.autocast (bfloat16 on
-- the CPU; float16 on CUDA, with a GradScaler), as PyTorch's AMP recipe.
-- Usage: gpulab bench/mlp_bench.lua [device]     (device: cpu (default), cuda, cuda:1)
local STEPS = tonumber(os.getenv('MLP_STEPS') or '200')
local WARMUP = tonumber(os.getenv('MLP_WARMUP') or '20')
local device = arg[1] or 'cpu'
local clock = time.perf_counter
local sync = device:find('^cuda') and torch.cuda.synchronize or function() end

torch.manual_seed(0)
local N, BATCH = 6400, 64
local X = torch.randn(N, 784):to(device)
local Y = torch.randint(0, 10, {N}):to(device)
local model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)):to(device)
local loss_fn = nn.CrossEntropyLoss()
local opt = torch.optim.SGD(model:parameters(), {lr = 0.01, momentum = 0.9})
local nbatches = N // BATCH
local amp = os.getenv('MLP_AMP') == '1'
local dev_type = device:match('^%a+')
local scaler = amp and dev_type == 'cuda' and torch.amp.GradScaler('cuda') or nil

local loss
local function step(i)
  local k = (i % nbatches) * BATCH
  local xb, yb = X:narrow(0, k, BATCH), Y:narrow(0, k, BATCH)
  opt:zero_grad()
  if not amp then
    loss = loss_fn(model(xb), yb)
    loss:backward()
    opt:step()
    return
  end
  loss = torch.autocast(dev_type, function() return loss_fn(model(xb), yb) end)
  if scaler then
    scaler:scale(loss):backward()
    scaler:step(opt)
    scaler:update()
  else
    loss:backward()
    opt:step()
  end
end

for i = 1, WARMUP do step(i) end
sync()
local times = {}
for i = 1, STEPS do
  local t0 = clock()
  step(i)
  sync()
  times[i] = clock() - t0
end
table.sort(times)
local total = 0
for _, t in ipairs(times) do total = total + t end
print(('mlp_step %.9g'):format(times[(STEPS + 1) // 2]))
print(('mlp_step_mean %.9g'):format(total / STEPS))
print(('mlp_loss %.6f'):format(loss:item()))
