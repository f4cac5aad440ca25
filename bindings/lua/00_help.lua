-- help(): doc strings for everything bound, and module listings.
local docs = ...  -- chunk name; the doc table comes from C++ via torch._doc
local function first_line(s) return (s or ''):match('[^\n]*') end

local intro = [[
gpulab: PyTorch-style tensors with CUDA devices, in Lua.

  x = torch.tensor({1, 2, 3}, {device='cuda'})   -- options as a trailing table
  y = torch.ones{2, 3, device='cuda:1'}          -- or one table mixing both
  x:cuda(1), x:to('cpu'), x.device, x.shape      -- methods with ':', fields with '.'
  Indices and dims count from 0, as in PyTorch: x[0], x:sum(0), net[0].
  Slices are strings in Python's syntax: x[':, 1'], x['1:3'].
  `==` on tensors is identity (Python's `is`); use x:eq(y) for values.

help(torch), help(torch.cuda), help(nn), help(torch.zeros), help(x) for a tensor's methods.
Lessons: run `gpulab lessons` in a shell. No GPU? torch.cuda.use_virtual(2) before the
first CUDA use (or start gpulab with --virtual-gpus 2). Timing: time.timeit(f).]]

local function list(t, title)
  local names = {}
  for k, v in pairs(t) do
    if type(k) == 'string' and not k:match('^_') then names[#names + 1] = k end
  end
  table.sort(names)
  local out = {title}
  for _, k in ipairs(names) do
    local v = t[k]
    local d = type(v) == 'function' and torch._doc(v) or nil
    local kind = type(v) == 'table' and '(module)' or ''
    out[#out + 1] = string.format('  %-24s %s', k, d and first_line(d) or kind)
  end
  return table.concat(out, '\n')
end

function help(x)
  if x == nil then print(intro) return end
  if type(x) == 'function' then
    print(torch._doc(x) or 'no documentation for this function')
  elseif torch.is_tensor(x) then
    print(list(torch.Tensor, 'Tensor methods (call as x:name(...)):'))
  elseif type(x) == 'table' then
    local mt = getmetatable(x)
    if mt and mt.__doc then print(mt.__doc) end
    print(list(x, 'Contents:'))
  else
    print('help: no documentation for a ' .. type(x))
  end
end
