-- Pooling options checked against PyTorch: max_pool2d(return_indices=true) and
-- nn.MaxPool2d{return_indices=true}, avg_pool2d(divisor_override=), pooling in
-- float64 (and integer max pooling), their gradients and errors. Each case of
-- pool_options_expected.lua (tests/pytorch/gen_pool_options.py) runs on the
-- CPU, where gpulab must print what PyTorch printed, and on a virtual CUDA
-- device, where it must print the same up to the device suffix.
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local cases = dofile(dir .. '/pool_options_expected.lua')
local F = nn.functional

local function run(code, device)
  local env = setmetatable({D = device, F = F}, {__index = _G})
  local fn = assert(load('return ' .. code, code, 't', env))
  local r = table.pack(pcall(fn))
  if not r[1] then return (tostring(r[2]):match('^[^\n]*')), true end
  local parts = {}
  for i = 2, r.n do parts[#parts + 1] = type(r[i]) == 'string' and r[i] or torch._echo(r[i]) end
  return table.concat(parts, '\n'), false
end

T.device_cases(cases, run)
T.finish()
