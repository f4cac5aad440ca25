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
  return T.echo_code(code, device, {F = F}, function(v) return type(v) == 'string' and v or torch._echo(v) end)
end

T.device_cases(cases, run)
T.finish()
