-- torch.distributions against PyTorch's output (b1_cases.lua).
local dir = (arg[0]:match('^(.*)[/\\]') or '.')
local T = dofile(dir .. '/testlib.lua')
local run_cases = loadfile(dir .. '/b1_cases.lua')
run_cases(T, 'dist_')
T.finish()
