-- Conv2d forward + backward (input, weight and bias gradients) on LeNet's two
-- convolutions (batch 256) and a ResNet-18 block's (batch 32). Same workload
-- as conv_bench.py. Prints "name median min max" (seconds per iteration over
-- REPS timed iterations after 2 untimed ones).
-- Usage: gpulab bench/conv_bench.lua [device]   (GPULAB_CPU_CONV=im2col: the CPU's im2col + BLAS path)
local device = arg[1] or 'cpu'
local clock = time.perf_counter
local sync = device:find('^cuda') and torch.cuda.synchronize or function() end
local F = nn.functional

local cases = {
  {'lenet_conv1', {256, 1, 28, 28}, {6, 1, 5, 5}, 2, 20},
  {'lenet_conv2', {256, 6, 14, 14}, {16, 6, 5, 5}, 0, 20},
  {'resnet_block_conv', {32, 64, 56, 56}, {64, 64, 3, 3}, 1, 5},
}
torch.manual_seed(0)
for _, c in ipairs(cases) do
  local name, xs, ws, pad, reps = table.unpack(c)
  reps = tonumber(os.getenv('REPS') or reps)
  local x = torch.randn(xs, {device = device}):requires_grad_()
  local w = torch.randn(ws, {device = device}):requires_grad_()
  local b = torch.randn(ws[1], {device = device}):requires_grad_()
  local g
  local function step()
    x.grad, w.grad, b.grad = nil, nil, nil
    local y = F.conv2d(x, w, b, {padding = pad})
    g = g or torch.ones_like(y)
    y:backward(g)
  end
  for _ = 1, 2 do step() end
  sync()
  local t = {}
  for i = 1, reps do
    local t0 = clock()
    step()
    sync()
    t[i] = clock() - t0
  end
  table.sort(t)
  print(('%s %.6g %.6g %.6g'):format(name, t[(reps + 1) // 2], t[1], t[reps]))
end
