-- Using several GPUs: torch.cuda helpers, CUDA_VISIBLE_DEVICES, free memory, DataParallel
-- gpus: 4
-- %% How many GPUs, and what are they?
-- This lesson is written for four GPUs (its transcript is recorded with
-- --virtual-gpus 4). With fewer, the parts that need four say so and skip.
print("device_count:", torch.cuda.device_count())
for i = 0, torch.cuda.device_count() - 1 do
  print(i, torch.cuda.get_device_name(i))
end
-- %% Without an argument, get_device_name names the current device
torch.cuda.get_device_name()
-- %% Seeds for the GPU generators
-- Every GPU has its own random generator. torch.cuda.manual_seed(s) seeds the
-- current GPU only; torch.cuda.manual_seed_all(s) seeds every visible GPU.
-- (torch.manual_seed(s) seeds the CPU and all GPUs at once.)
torch.cuda.manual_seed(7)
a = torch.rand{3, device = 'cuda:0'}
torch.cuda.manual_seed(7)
b = torch.rand{3, device = 'cuda:0'}
print("same seed, same numbers on cuda:0:", a:equal(b))
torch.cuda.manual_seed_all(7)
c = torch.rand{3, device = 'cuda:1'}
print("after manual_seed_all(7), cuda:1 draws the same numbers too:", c:cpu():equal(a:cpu()))
-- %% set_device: what 'cuda' means
-- 'cuda' without an index is the current device. set_device changes it for
-- the rest of the program, which is easy to forget, so it is discouraged:
-- name devices explicitly ('cuda:1') or use CUDA_VISIBLE_DEVICES instead.
print("current device:", torch.cuda.current_device(),
      "-> a 'cuda' tensor lands on", torch.zeros{1, device = 'cuda'}.device)
torch.cuda.set_device(1)
print("after set_device(1):", torch.cuda.current_device(),
      "-> a 'cuda' tensor lands on", torch.zeros{1, device = 'cuda'}.device)
torch.cuda.set_device(0)
print("back to", torch.cuda.current_device())
-- %% CUDA_VISIBLE_DEVICES
-- This environment variable picks which physical GPUs a process may see, and
-- in which order; they are renumbered from 0. It is read once, when the
-- process first uses CUDA, so it must be set before that: in the shell, or
-- at the very top of a Python script (os.environ.setdefault(...) before any
-- torch.cuda call). Setting it later changes nothing.
-- To show it, we start a second gpulab (the program running this lesson,
-- found through the arg table) with the variable set.
exe = arg[-1]
i = -1
while arg[i - 1] ~= nil do i = i - 1; exe = arg[i] end
function run_child(env, code)
  local cmd = string.format("%s '%s' --virtual-gpus 4 -e '%s' 2>&1", env, exe, code)
  local p = io.popen(cmd)
  local out = p:read('a')
  p:close()
  io.write(out)
end
child_code = 'print("device_count :" .. torch.cuda.device_count()); '
  .. 'for i = 0, torch.cuda.device_count() - 1 do '
  .. 'print("  cuda:" .. i .. " is " .. torch.cuda.get_device_name(i)) end'
print("A child process with CUDA_VISIBLE_DEVICES=2,3:")
run_child("CUDA_VISIBLE_DEVICES=2,3", child_code)
-- %% Querying free memory on each GPU
-- torch.cuda.mem_get_info(i) returns the free and total bytes of device i
-- (what nvidia-smi reports as Free and Total). To make the devices differ we
-- first fill them unevenly.
blocks = {}
for dev, mib in pairs({[0] = 40, [1] = 120, [2] = 0, [3] = 80}) do
  if mib > 0 and dev < torch.cuda.device_count() then blocks[dev] = torch.empty{mib * 262144, device = 'cuda:' .. dev} end
end
function get_gpu_memory()
  local free_mib = {}
  for i = 0, torch.cuda.device_count() - 1 do
    local free = torch.cuda.mem_get_info(i)
    free_mib[i + 1] = free // (1024 * 1024)
  end
  return free_mib
end
gpu_memory = get_gpu_memory()
print("gpu free memory (MiB): [" .. table.concat(gpu_memory, ", ") .. "]")
-- %% Ordering the GPUs by free memory
-- Most free memory first; a new process can then be started with this order
-- in CUDA_VISIBLE_DEVICES, so its cuda:0 is the emptiest GPU.
order = {}
for i = 1, #gpu_memory do order[i] = i - 1 end
table.sort(order, function(p, q)
  if gpu_memory[p + 1] ~= gpu_memory[q + 1] then return gpu_memory[p + 1] > gpu_memory[q + 1] end
  return p < q
end)
visible = table.concat(order, ",")
print("CUDA_VISIBLE_DEVICES :" .. visible)
print("A child process started with that setting:")
run_child("CUDA_VISIBLE_DEVICES=" .. visible, child_code)
blocks = nil
-- %% DataParallel: scatter, run in parallel, gather
-- A batch of 16 goes in; DataParallel hands each GPU an equal slice, runs one
-- replica of the model per GPU, and concatenates the outputs on the first.
FooNet = nn.Module:extend('FooNet')
function FooNet:__init(neural_num, layers)
  self.linears = nn.Sequential()
  for l = 0, layers - 1 do
    self.linears:add_module(tostring(l), nn.Linear(neural_num, neural_num, false))
  end
end
function FooNet:forward(x)
  print("batch size in forward: " .. x:size(0))
  for _, layer in ipairs(self.linears:children()) do
    x = torch.relu(layer(x))
  end
  return x
end
inputs = torch.randn{16, 3}:to('cuda')
print("inputs:", inputs:size(), "on", inputs.device)
-- %% On two GPUs: 8 rows each
net = nn.DataParallel(FooNet(3, 3), {device_ids = {0, 1}}):to('cuda')
outputs = net(inputs)
print("model outputs.size: " .. tostring(outputs:size()))
-- %% On four GPUs: 4 rows each
-- Without device_ids DataParallel uses every visible GPU.
if torch.cuda.device_count() >= 4 then
  net = nn.DataParallel(FooNet(3, 3)):to('cuda')
  outputs = net(inputs)
  print("model outputs.size: " .. tostring(outputs:size()))
else
  print("fewer than 4 GPUs here: with 4 the batch would split 4 + 4 + 4 + 4")
end
-- %% What changes with fewer GPUs
print("With one GPU DataParallel has nothing to split: the single replica sees all")
print("16 rows. With two, each sees 8; with four, 4. The output is always gathered")
print("back into one [16, 3] tensor on the first device of device_ids.")
if torch.cuda.is_virtual(0) then
  print("The GPUs here are virtual (emulated on the CPU), so the split is shown")
  print("faithfully but nothing runs faster.")
end
