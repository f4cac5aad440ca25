-- gpulab reproduces PyTorch's LeNet run (bench/lenet.py's script, short): with the
-- same manual_seed, the lazy layers' and Xavier's initial weights, the
-- DataLoader's batch order and every step's loss are PyTorch's
-- (tests/pytorch/gen_lenet_run.py wrote the expected values).
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local E = dofile(dir .. '/lenet_run_expected.lua')

local function params_match(net, want, what)
  for i, p in ipairs(net:parameters()) do
    T.near(p:sum():item(), want[i][1], 2e-4, ('%s: parameter %d sum'):format(what, i))
    local first = p:flatten():narrow(0, 0, 3):tolist()
    for k = 1, 3 do T.near(first[k], want[i][2][k], 1e-7, ('%s: parameter %d value %d'):format(what, i, k)) end
  end
end

local function run(device)
  torch.manual_seed(0)
  local X = torch.rand(512, 1, 28, 28)
  local y = torch.randint(0, 10, {512})
  local net = nn.Sequential(nn.LazyConv2d(6, 5, {padding = 2}), nn.Sigmoid(), nn.AvgPool2d(2, 2),
    nn.LazyConv2d(16, 5), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
    nn.LazyLinear(120), nn.Sigmoid(), nn.LazyLinear(84), nn.Sigmoid(), nn.LazyLinear(10))
  net(torch.rand(1, 1, 28, 28))
  params_match(net, E.lazy, 'lazy init')
  net:apply(function(m)
    local c = torch._util.class_of(m)
    if c == nn.Linear or c == nn.Conv2d then nn.init.xavier_uniform_(m.weight) end
  end)
  params_match(net, E.xavier, 'xavier')
  net:to(device)
  local loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y, torch.arange(512)),
    {batch_size = 64, shuffle = true})
  local test = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X:narrow(0, 0, 128), y:narrow(0, 0, 128)),
    {batch_size = 64})
  local opt = torch.optim.SGD(net:parameters(), {lr = 0.9})
  local loss = nn.CrossEntropyLoss()
  local step = 0
  for _ = 1, 2 do
    for b in loader do
      step = step + 1
      local ids = b[3]:narrow(0, 0, 4):tolist()
      for k = 1, 4 do T.eq(ids[k], E.order[step][k], ('batch %d sample %d'):format(step, k)) end
      opt:zero_grad()
      local l = loss(net(b[1]:to(device)), b[2]:to(device))
      l:backward()
      opt:step()
      T.near(l:item(), E.losses[step], 1e-4, ('loss at step %d on %s'):format(step, device))
    end
    torch.no_grad(function() for b in test do net(b[1]:to(device)) end end)
  end
  T.eq(step, #E.losses, 'steps')
  local after = torch.rand(2):tolist()
  T.near(after[1], E.after[1], 1e-7, 'generator after the run')
  T.near(after[2], E.after[2], 1e-7, 'generator after the run')
end

T.test('LeNet on the CPU: same init, batches and losses as PyTorch', function() run('cpu') end)
T.test('LeNet on a virtual GPU: the same', function() run('cuda:0') end)
T.finish()
