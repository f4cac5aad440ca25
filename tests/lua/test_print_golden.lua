-- Printing checked against PyTorch: tests/golden/print_cases.txt holds each
-- gpulab expression and the text real PyTorch printed for the same tensor
-- (regenerate with tests/golden/make_print_cases.py). test_op_golden.lua runs
-- this file on another case file (GOLDEN_CASES).
local dir = (GOLDEN_DIR or arg[0]):match('^(.*)/lua/[^/]*$') or 'tests'
local f = assert(io.open(dir .. '/golden/' .. (GOLDEN_CASES or 'print_cases.txt')))
local cases, cur = {}, nil
for line in f:lines() do
  if line:sub(1, 3) == '@@ ' then
    cur = {expr = line:sub(4), lines = {}}
    cases[#cases + 1] = cur
  elseif cur then
    cur.lines[#cur.lines + 1] = line
  end
end
f:close()
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
for _, c in ipairs(cases) do
  local want = table.concat(c.lines, '\n')
  local opts, expr = c.expr:match('^with (%b{}) :: (.*)$')
  if opts then assert(load('torch.set_printoptions' .. opts))() end
  local fn = assert(load('return ' .. (expr or c.expr)))
  local ok, got = pcall(function() return repr(fn()) end)
  torch.set_printoptions{profile = 'default'}
  T.check(ok and got == want, c.expr .. '\n--- PyTorch:\n' .. want .. '\n--- gpulab:\n' .. tostring(got))
end
T.finish()
