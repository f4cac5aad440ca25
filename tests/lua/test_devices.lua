-- Devices: torch.device, torch.cuda queries, set_device, CUDA_VISIBLE_DEVICES,
-- memory counters and events on virtual devices. Run with --virtual-gpus 4.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local ok, eq = T.check, T.check_eq

-- The gpulab binary, for child processes (arg[-n] as in lua.c).
local exe = arg[-1]
for i = -1, -10, -1 do if arg[i] then exe = arg[i] end end
local function run(env, flags, code)
  local p = io.popen(env .. ' "' .. exe .. '" ' .. flags .. " -e '" .. code .. "' 2>&1")
  local out = p:read('a'); p:close()
  return out
end

eq(torch.cuda.device_count(), 4, 'device_count')
ok(torch.cuda.is_available(), 'is_available')
ok(torch.cuda.is_virtual(0), 'is_virtual says so')
ok(torch.cuda.get_device_name(0):find('virtual', 1, true) ~= nil, 'name says virtual')
eq(tostring(torch.device('cuda', 1)), 'cuda:1')
eq(repr(torch.device('cuda', 1)), "device(type='cuda', index=1)")
eq(repr(torch.device('cpu')), "device(type='cpu')")
ok(torch.device('cuda:1') == torch.device('cuda', 1), 'device equality by value')
eq(torch.device('cuda:1').index, 1)
eq(torch.device('cuda:1').type, 'cuda')

-- set_device changes what 'cuda' means.
eq(torch.cuda.current_device(), 0)
torch.cuda.set_device(2)
eq(torch.cuda.current_device(), 2)
eq(tostring(torch.ones(1, {device = 'cuda'}).device), 'cuda:2', "'cuda' follows set_device")
eq(tostring(torch.ones(1):cuda().device), 'cuda:2', ':cuda() follows set_device')
torch.cuda.set_device(0)

-- Every creation function takes device=.
for _, name in ipairs({'zeros', 'ones', 'empty', 'rand', 'randn'}) do
  eq(tostring(torch[name](2, {device = 'cuda:3'}).device), 'cuda:3', name .. ' device=')
end
eq(tostring(torch.full({2}, 7, {device = 'cuda:1'})), "tensor([7, 7], device='cuda:1')", 'full')
eq(tostring(torch.arange(3, {device = 'cuda:1'})), "tensor([0, 1, 2], device='cuda:1')", 'arange')
eq(tostring(torch.eye(2, {device = 'cuda:1'}).device), 'cuda:1', 'eye')
eq(tostring(torch.linspace(0, 1, 3, {device = 'cuda:1'}).device), 'cuda:1', 'linspace')
eq(tostring(torch.randint(0, 5, {3}, {device = 'cuda:1'}).device), 'cuda:1', 'randint')
eq(tostring(torch.tensor({1}, {device = torch.device('cuda:2')}).device), 'cuda:2', 'tensor with a device object')
eq(tostring(torch.zeros_like(torch.ones(2, {device = 'cuda:1'})).device), 'cuda:1', 'zeros_like keeps the device')

-- Transfer forms.
local x = torch.ones(2)
eq(tostring(x:to('cuda:1').device), 'cuda:1', 'to(string)')
eq(tostring(x:to(torch.device('cuda:1')).device), 'cuda:1', 'to(device)')
eq(tostring(x:to(1).device), 'cuda:1', 'to(int)')
eq(tostring(x:to{device = 'cuda:1', dtype = torch.float64}), "tensor([1., 1.], device='cuda:1', dtype=torch.float64)", 'to{device, dtype}')
eq(tostring(x:to('cuda:1', torch.int32)), "tensor([1, 1], device='cuda:1', dtype=torch.int32)", 'to(device, dtype)')
local other = torch.zeros(1, {device = 'cuda:2', dtype = torch.float16})
eq(tostring(x:to(other)), "tensor([1., 1.], device='cuda:2', dtype=torch.float16)", 'to(other tensor)')
ok(x:to(torch.float32) == x, 'to(same dtype) is identity')
ok(not pcall(x.to, x, {device = 'cuda:1', dtyp = torch.float64}), 'to{} refuses an unknown keyword')
ok(not pcall(x.to, x, 'cuda', 'cpu'), 'to(device, device) is an error')
eq(x:cuda(1):get_device(), 1, 'get_device')
eq(x:get_device(), -1, 'get_device on cpu')

-- Memory counters rise and fall; mem_get_info agrees.
collectgarbage(); collectgarbage()
local base = torch.cuda.memory_allocated(3)
local free0, total = torch.cuda.mem_get_info(3)
do
  local t = torch.empty(1 << 20, {device = 'cuda:3'})  -- 4 MiB
  eq(torch.cuda.memory_allocated(3), base + 4 * 1024 * 1024, 'allocated counts the tensor')
  local free1 = torch.cuda.mem_get_info(3)
  ok(free1 <= free0 - 4 * 1024 * 1024, 'mem_get_info free drops')
  ok(torch.cuda.max_memory_allocated(3) >= base + 4 * 1024 * 1024, 'peak')
end
collectgarbage(); collectgarbage()
eq(torch.cuda.memory_allocated(3), base, 'back to the start after collectgarbage()')
ok(total == 16 * 1024 * 1024 * 1024, 'default capacity 16 GiB')

-- Events time work on a virtual device.
local s, e = torch.cuda.Event{enable_timing = true}, torch.cuda.Event{enable_timing = true}
s:record(); local y = torch.ones(100, 100, {device = 'cuda'}):mm(torch.ones(100, 100, {device = 'cuda'})); e:record()
e:synchronize()
ok(s:elapsed_time(e) >= 0, 'elapsed_time')

-- Child processes: CUDA_VISIBLE_DEVICES renumbers; a capacity can be given; no flag means no CUDA.
local out = run('CUDA_VISIBLE_DEVICES=1,3', '--virtual-gpus 4', 'print(torch.cuda.device_count(), torch.cuda.get_device_name(0))')
ok(out:find('^2\tgpulab virtual GPU 1') ~= nil, 'CUDA_VISIBLE_DEVICES=1,3 -> 2 devices, cuda:0 is virtual GPU 1: ' .. out)
out = run('CUDA_VISIBLE_DEVICES=', '--virtual-gpus 4', 'print(torch.cuda.device_count())')
ok(out:find('^0') ~= nil, 'empty CUDA_VISIBLE_DEVICES hides all: ' .. out)
out = run('CUDA_VISIBLE_DEVICES=0,0', '--virtual-gpus 4', 'print(torch.cuda.device_count())')
ok(out:find('^0') ~= nil, 'a repeated ordinal in CUDA_VISIBLE_DEVICES hides all, as in PyTorch: ' .. out)
out = run('CUDA_VISIBLE_DEVICES=7', '--virtual-gpus 4', 'print(select(2, pcall(torch.ones, 1, {device = "cuda"})))')
ok(out:find('no CUDA-capable device is detected\nhint: CUDA_VISIBLE_DEVICES', 1, true) ~= nil, 'hidden virtual devices are explained: ' .. out)
out = run('', '--virtual-gpus 2:2MiB', 'local ok, e = pcall(torch.empty, 1 << 20, {device = "cuda"}); print(e)')
ok(out:find('CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 2.00 MiB of which 2.00 MiB is free', 1, true) ~= nil, 'capacity flag: ' .. out)
out = run('GPULAB_EMULATE_GPUS=1', '--virtual-gpus 2', 'print(torch.cuda.get_device_name(1))')
ok(out:find('^gpulab virtual GPU 1 %(emulated in host memory%)') ~= nil, 'GPULAB_EMULATE_GPUS keeps virtual devices in host memory: ' .. out)
-- With a real GPU the virtual devices above are slices of it; without one they are emulated.
local real_gpu = torch.cuda.get_device_name(0):find('emulated', 1, true) == nil
if real_gpu then
  print('skipped: "no virtual devices, no GPU" (this machine has a GPU)')
else
  out = run('GPULAB_VIRTUAL_GPUS=', '', 'print(torch.cuda.is_available(), torch.cuda.device_count()); print(pcall(torch.ones, 1, {device = "cuda"}))')
  ok(out:find('^false\t0') ~= nil, 'no virtual devices, no GPU: ' .. out)
  ok(out:find('--virtual-gpus', 1, true) ~= nil, 'the error tells the learner about --virtual-gpus: ' .. out)
end

T.finish()
