-- torch.cuda's memory numbers on virtual devices, derived from PyTorch's CUDA
-- caching allocator (512-byte blocks; 2 MiB segments for requests <= 1 MiB,
-- 20 MiB below 10 MiB, else the request rounded to 2 MiB), prompt reclaim of
-- dropped tensors, and the texts of memory_summary, list_gpu_processes and
-- smi. Run with --virtual-gpus 4 (16 GiB each); each test uses its own device
-- so the numbers start from zero.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local MiB = 1024 * 1024

-- The gpulab binary, for child processes with a small capacity (arg[-n] as in lua.c).
local exe = arg[-1]
for i = -1, -10, -1 do if arg[i] then exe = arg[i] end end
local function run(flags, code, env)
  local p = io.popen((env or '') .. '"' .. exe .. '" ' .. flags .. " -e '" .. code .. "' 2>&1")
  local out = p:read('a')
  p:close()
  return out
end

local function mem(d) return torch.cuda.memory_allocated(d), torch.cuda.memory_reserved(d) end

T.test('torch.ones(2, 3) holds one 512-byte block of a 2 MiB segment', function()
  local x = torch.ones(2, 3, {device = 'cuda:1'})
  T.eq(torch.cuda.memory_allocated(1), 512, 'allocated')
  T.eq(torch.cuda.memory_reserved(1), 2097152, 'reserved')
  T.eq(torch.cuda.memory_stats(1)['requested_bytes.all.current'], 24, 'requested')
  x = nil
  T.eq(torch.cuda.memory_allocated(1), 0, 'x = nil frees it before the next reading')
  T.eq(torch.cuda.memory_reserved(1), 2097152, 'the segment stays cached')
  torch.cuda.empty_cache()
  T.eq(torch.cuda.memory_reserved(1), 0, 'empty_cache gives the whole segment back')
end)

T.test('a sequence of allocations and frees, with peaks', function()
  local d = 'cuda:2'
  local a = torch.empty(1000, {device = d})                 -- 4000 B -> 4096, small pool: 2 MiB segment
  local b = torch.empty(3 * 262144, {device = d})           -- 3 MiB, large: a 20 MiB segment, split
  local c = torch.empty(5 * 262144, {device = d})           -- 5 MiB from the rest of it
  local e = torch.empty(13 * 262144, {device = d})          -- 13 MiB > the 12 MiB rest: a 14 MiB segment, unsplit (1 MiB rest)
  local al, re = mem(2)
  T.eq(al, 4096 + 22 * MiB, 'allocated: e holds its whole 14 MiB block')
  T.eq(re, 2 * MiB + 20 * MiB + 14 * MiB, 'reserved')
  local s = torch.cuda.memory_stats(2)
  T.eq(s['segment.all.current'], 3, 'segments')
  T.eq(s['allocation.all.current'], 4, 'allocations')
  T.eq(s['inactive_split_bytes.large_pool.current'], 12 * MiB, 'non-releasable: the 12 MiB rest of the 20 MiB segment')
  T.eq(s['requested_bytes.all.current'], 4000 + 21 * MiB, 'requested: before rounding')
  b = nil
  al, re = mem(2)
  T.eq(al, 4096 + 19 * MiB, 'b dropped')
  T.eq(torch.cuda.max_memory_allocated(2), 4096 + 22 * MiB, 'peak stays')
  torch.cuda.empty_cache()
  T.eq(torch.cuda.memory_reserved(2), 2 * MiB + 20 * MiB + 14 * MiB, 'split segments cannot be released')
  c = nil
  e = nil
  torch.cuda.empty_cache()
  T.eq(torch.cuda.memory_reserved(2), 2 * MiB, 'whole free segments go back')
  T.eq(torch.cuda.max_memory_reserved(2), 36 * MiB, 'peak reserved')
  torch.cuda.reset_peak_memory_stats(2)
  T.eq(torch.cuda.max_memory_allocated(2), 4096, 'peak reset to the current value')
  T.eq(torch.cuda.max_memory_reserved(2), 2 * MiB, 'peak reserved reset')
  local again = torch.empty(3 * 262144, {device = d})       -- needs a new 20 MiB segment again
  T.eq(torch.cuda.max_memory_reserved(2), 22 * MiB, 'new peak')
  again, a = nil, nil
  torch.cuda.empty_cache()
  T.eq(select(2, mem(2)), 0, 'all given back')
end)

T.test('a dropped tensor is reclaimed without collectgarbage()', function()
  local big = torch.empty(256 * 262144, {device = 'cuda:3'})  -- 256 MiB
  T.eq(torch.cuda.memory_allocated(3), 256 * MiB, 'allocated')
  local free0, total = torch.cuda.mem_get_info(3)
  T.eq(total - free0, 256 * MiB, 'mem_get_info counts the reserved segment')
  big = nil
  T.eq(torch.cuda.memory_allocated(3), 0, 'freed at the next reading, as at del')
  torch.cuda.empty_cache()
  T.eq(torch.cuda.mem_get_info(3), total, 'and empty_cache returns it')
  -- Dropped tensors are reused before a new segment is taken.
  torch.cuda.reset_peak_memory_stats(3)
  for _ = 1, 5 do local t = torch.empty(64 * 262144, {device = 'cuda:3'}) end
  T.eq(torch.cuda.max_memory_reserved(3), 64 * MiB, 'a loop of dropped 64 MiB tensors reuses one segment')
  torch.cuda.empty_cache()
end)

T.test('out of memory only after collecting garbage', function()
  local out = run('--virtual-gpus 1:64MiB',
    'big = torch.empty(40 * 262144, {device = "cuda"}); big = nil; ' ..
    'again = torch.empty(40 * 262144, {device = "cuda"}); print(torch.cuda.memory_reserved()); ' ..
    'local ok, e = pcall(torch.empty, 30 * 262144, {device = "cuda"}); print(e); ' ..
    'print(torch.cuda.memory_stats()["num_ooms"], torch.cuda.memory_stats()["num_alloc_retries"])')
  T.truthy(out:find('^41943040\n'), 'the 40 MiB of big were reused: ' .. out)
  T.truthy(out:find('CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total capacity of 64.00 MiB of which 24.00 MiB is free. Of the allocated memory 40.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.', 1, true), out)
  T.truthy(out:find('\n1\t1\n'), 'one OOM after one retry: ' .. out)
end)

T.test('before CUDA is first used: zeros, as in PyTorch', function()
  local out = run('--virtual-gpus 2', 'torch.cuda.empty_cache(); ' ..
    'print(torch.cuda.memory_allocated(), torch.cuda.max_memory_reserved(1), next(torch.cuda.memory_stats()))')
  T.eq(out, '0\t0\tnil\n')
end)

T.test('memory_stats keys as PyTorch names them', function()
  local s = torch.cuda.memory_stats(0)
  for _, k in ipairs({'allocated_bytes.all.current', 'allocated_bytes.small_pool.peak', 'reserved_bytes.large_pool.freed',
                      'active_bytes.all.allocated', 'inactive_split_bytes.all.current', 'requested_bytes.all.current',
                      'allocation.all.current', 'segment.all.peak', 'active.all.current', 'inactive_split.all.current',
                      'oversize_allocations.current', 'oversize_segments.peak', 'num_alloc_retries', 'num_ooms',
                      'num_sync_all_streams', 'num_device_alloc', 'num_device_free', 'max_split_size'}) do
    T.eq(math.type(s[k]), 'integer', k)
  end
  T.eq(s.max_split_size, -1, 'max_split_size: no limit')
end)

-- Golden texts (a fresh process, so the numbers are fixed; pids masked).
local summary = [[
|===========================================================================|
|                  PyTorch CUDA memory summary, device ID 0                 |
|---------------------------------------------------------------------------|
|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |
|===========================================================================|
|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
|---------------------------------------------------------------------------|
| Allocated memory      |   4608 B   |   4608 B   |   4608 B   |      0 B   |
|       from large pool |      0 B   |      0 B   |      0 B   |      0 B   |
|       from small pool |   4608 B   |   4608 B   |   4608 B   |      0 B   |
|---------------------------------------------------------------------------|
]]
T.test('memory_summary as PyTorch prints it', function()
  local out = run('--virtual-gpus 1', 'x = torch.ones(2, 3, {device = "cuda"}); y = torch.empty(1000, {device = "cuda"}); ' ..
    'io.write(torch.cuda.memory_summary())')
  T.eq(out:sub(1, #summary), summary, 'head of the table')
  T.truthy(out:find('| GPU reserved memory   |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |', 1, true), 'reserved in KiB: ' .. out)
  T.truthy(out:find('| Requested memory      |   4024 B   |   4024 B   |   4024 B   |      0 B   |', 1, true), 'requested: ' .. out)
  T.truthy(out:find('| Non-releasable memory |   2043 KiB |   2047 KiB |   2047 KiB |   4096 B   |', 1, true), 'non-releasable: ' .. out)
  T.truthy(out:find('| Allocations           |       2    |       2    |       2    |       0    |', 1, true), 'allocations: ' .. out)
  T.truthy(out:find('| Oversize GPU segments |       0    |       0    |       0    |       0    |\n|=====', 1, true), 'tail: ' .. out)
  local _, lines = out:gsub('\n', '')
  T.eq(lines, 47, 'lines')
  local short = run('--virtual-gpus 1', 'io.write(torch.cuda.memory_summary{abbreviated = true})')
  local _, n = short:gsub('\n', '')
  T.eq(n, 29, 'abbreviated: one row per metric')
end)

T.test('list_gpu_processes', function()
  local out = run('--virtual-gpus 2', 'x = torch.ones(2, 3, {device = "cuda"}); print(torch.cuda.list_gpu_processes(0)); ' ..
    'print(torch.cuda.list_gpu_processes(1))')
  out = out:gsub('process +%d+ uses', 'process PID uses')
  T.eq(out, 'GPU:0\nprocess PID uses        2.000 MB GPU memory (this gpulab, on a virtual GPU)\nGPU:1\nno processes are running\n')
end)

local smi = [[
+-----------------------------------------------------------------------------------------+
| gpulab-smi (virtual GPUs, no driver) Driver Version: N/A            CUDA Version: N/A   |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                               |           Memory-Usage | GPU-Util  Temp   Pwr |
|=========================================+========================+======================|
|   0  gpulab virtual GPU 0               |      20MiB /  16384MiB |      N/A   N/A   N/A |
|      (emulated in host memory)          |                        |                      |
+-----------------------------------------+------------------------+----------------------+
|   1  gpulab virtual GPU 1               |       0MiB /  16384MiB |      N/A   N/A   N/A |
|      (emulated in host memory)          |                        |                      |
+-----------------------------------------+------------------------+----------------------+

+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
|        ID   ID                                                               Usage      |
|=========================================================================================|
|    0   N/A  N/A        PID      C   gpulab (virtual GPU)                          20MiB |
+-----------------------------------------------------------------------------------------+
]]
T.test('smi prints the table, echoed or printed', function()
  -- the emulated devices' table, also beside a real GPU
  local out = run('--virtual-gpus 2', 'x = torch.empty(4 * 262144, {device = "cuda"}); print(torch.cuda.smi())',
                  'GPULAB_EMULATE_GPUS=1 ')
  out = out:gsub('N/A  N/A +%d+      C', ('N/A  N/A %10s      C'):format('PID'))
  T.eq(out, smi)
  T.truthy(getmetatable(torch.cuda.smi()).__tostring ~= nil, 'an object that prints as the table')
end)

T.test('pinned host memory: pin_memory, is_pinned, pin_memory=true, non_blocking copies', function()
  local x = torch.arange(6):reshape(2, 3)
  T.eq(x:is_pinned(), false)
  local p = x:pin_memory()
  T.eq(p:is_pinned(), true)
  T.eq(tostring(p), tostring(x), 'the same values')
  T.truthy(p:pin_memory() == p, 'a pinned tensor is returned as it is')
  T.eq(torch.zeros(3, {pin_memory = true}):is_pinned(), true)
  T.eq(torch.ones(2, {device = 'cuda'}):is_pinned(), false)
  T.eq(select(2, pcall(function() return torch.ones(2, {device = 'cuda'}):pin_memory() end)):match('^[^\n]*'),
       "RuntimeError: cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned")
  T.eq(select(2, pcall(torch.ones, 2, {device = 'cuda', pin_memory = true})):match('^[^\n]*'),
       'RuntimeError: Only dense CPU tensors can be pinned')
  local g = p:to('cuda', {non_blocking = true})
  local back = torch.empty(2, 3, {dtype = torch.int64, pin_memory = true})
  back:copy_(g, {non_blocking = true})
  T.eq(tostring(back), tostring(x), 'to the GPU and back through pinned memory')
end)

T.finish()
