-- torch.accelerator on (virtual) CUDA devices: each function is its
-- torch.cuda counterpart. Without a GPU: tests/cli/fixtures/accelerator.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_accelerator.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local acc = torch.accelerator

T.test("PyTorch's quickstart picks the accelerator", function()
  T.eq(acc.is_available(), true)
  local device = acc.is_available() and acc.current_accelerator().type or 'cpu'
  T.eq(device, 'cuda')
  T.eq(tostring(acc.current_accelerator{check_available = true}), 'cuda')
  T.eq(acc.current_accelerator().index, nil, 'no index, as PyTorch says')
  T.eq(acc.device_count(), torch.cuda.device_count())
  T.eq(nn.Linear(2, 2):to(acc.current_accelerator()).weight.device.type, 'cuda')
end)

T.test('the current device: set_device_index and the device_index guard', function()
  T.eq(acc.current_device_index(), 0)
  acc.set_device_index(2)
  T.eq(torch.cuda.current_device(), 2)
  T.eq(torch.ones(1, {device = 'cuda'}).device.index, 2)
  acc.set_device_index('cuda:1')
  T.eq(acc.current_device_index(), 1)
  acc.set_device_index(torch.device('cuda', 0))
  acc.set_device_index(-1)  -- a negative index changes nothing, as PyTorch's
  T.eq(acc.current_device_index(), 0)
  do
    local _ <close> = acc.device_index(3)
    T.eq(acc.current_device_index(), 3)
  end
  T.eq(acc.current_device_index(), 0, 'restored when the guard closes')
  T.eq(acc.device_index(1, function(a) return torch.zeros(a, {device = 'cuda'}).device.index end, 2), 1)
  T.eq(acc.current_device_index(), 0, 'restored after fn')
  T.raises(function() acc.device_index(2, function() error('inside', 0) end) end, 'inside')
  T.eq(acc.current_device_index(), 0, 'restored after an error')
  do
    local _ <close> = acc.device_index(nil)
    T.eq(acc.current_device_index(), 0, 'nil switches nothing')
  end
  T.raises(function() acc.set_device_index('cpu') end, "ValueError: cpu doesn't match the current accelerator cuda.")
  T.raises(function() acc.set_device_index('cuda') end,
           'ValueError: Expected a torch.device with a specified index or an integer, but got:cuda')
  T.raises(function() acc.device_count(1) end, 'TypeError: device_count() takes 0 positional arguments but 1 was given')
end)

T.test("memory figures are torch.cuda's", function()
  local x = torch.ones(1000, {device = 'cuda:1'})
  acc.synchronize(1)
  acc.synchronize()
  T.eq(acc.memory_allocated(1), torch.cuda.memory_allocated(1))
  T.eq(acc.memory_allocated('cuda:1'), 4096, '4000 bytes in one 512-byte-rounded block')
  T.eq(acc.max_memory_allocated(1) >= 4096, true)
  T.eq(acc.memory_reserved(1), torch.cuda.memory_reserved(1))
  T.eq(acc.memory_stats(1)['allocated_bytes.all.current'], 4096)
  x = nil
  collectgarbage()
  collectgarbage()
  acc.empty_cache()
  T.eq(acc.memory_allocated(1), 0)
  acc.reset_peak_memory_stats(1)
  T.eq(acc.max_memory_allocated(1), 0)
  local free, total = acc.get_memory_info(1)
  T.eq(math.type(free), 'integer')
  T.eq(total >= free, true)
end)

T.test('torch.cuda.device switches the current device for a function or a block; is_bf16_supported; torch.version', function()
  T.eq(torch.cuda.current_device(), 0)
  T.eq(torch.cuda.device(2, function() return torch.ones(1, {device = 'cuda'}).device.index end), 2)
  T.eq(torch.cuda.current_device(), 0)
  do
    local d <close> = torch.cuda.device('cuda:3')
    T.eq(d.idx, 3)
    T.eq(torch.cuda.current_device(), 3)
  end
  T.eq(torch.cuda.current_device(), 0)
  T.raises(function() torch.cuda.device(1, function() error('inside', 0) end) end, 'inside')
  T.eq(torch.cuda.current_device(), 0, 'restored after an error')
  T.eq(tostring(torch.cuda.device(0)):match('^<torch%.cuda%.device object at 0x%x+>$') ~= nil, true)
  T.eq(torch.cuda.is_bf16_supported(), true, 'virtual devices run bfloat16')
  T.eq(torch.version.debug, false)
  T.eq(torch.version.cuda == nil or torch.version.cuda:match('^%d+%.%d+$') ~= nil, true)
end)

T.finish()
