-- Shapes whose element count is zero but whose other dims overflow int64 when
-- multiplied (found by the fixed-seed fuzz run in CI): PyTorch refuses them
-- when it computes the strides, and so must gpulab, without undefined behaviour.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

T.test('zero-element shapes whose strides overflow', function()
  local msg = 'RuntimeError: Stride calculation overflowed'
  T.raises(function() return torch.empty(0, 3, 2 ^ 62) end, msg)
  T.raises(function() return torch.ones(2):new_empty{0, 3, 1 << 62} end, msg)
  T.raises(function() return torch.zeros{0, 1 << 32, 1 << 32} end, msg)
  -- the same dims without the overflow are fine, and have PyTorch's strides
  local x = torch.empty(0, 3, 1 << 40)
  T.eq(x:numel(), 0)
  T.eq(x:stride(0), 3 << 40)
  T.eq(x:stride(1), 1 << 40)
end)

T.finish()
