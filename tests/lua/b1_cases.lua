-- Runs the cases of b1_ops_expected.lua (generated from PyTorch by
-- tests/pytorch/gen_b1_ops.py): each Lua chunk on the CPU against PyTorch's
-- text, then, where it names DEV, on a virtual CUDA device against the CPU's
-- result (virtual devices draw from the same mt19937 streams as the CPU).
local T, prefix = ...
local dir = (arg[0]:match('^(.*)[/\\]') or '.')
local cases = dofile(dir .. '/b1_ops_expected.lua')

local function text(v)
  if type(v) == 'table' and (getmetatable(v) == nil or torch._util.is_tuple(v)) then
    local parts = {}
    for i = 1, #v do parts[i] = text(v[i]) end
    return table.concat(parts, '\n')
  end
  if torch.is_tensor(v) then
    -- a device's tensor with autograd prints its own grad_fn, not .cpu()'s ToCopyBackward0
    if v.requires_grad and not v.device.type:find('cpu') then return (tostring(v):gsub(",%s*device='cuda:%d+'", '')) end
    return tostring(v:cpu())
  end
  return tostring(v)
end

local function run(chunk, dev)
  local env = setmetatable({DEV = dev}, {__index = _G})
  local real_gen = torch.Generator
  if dev ~= 'cpu' then  -- a generator for the device the case runs on
    env.torch = setmetatable({Generator = function(d) return real_gen(d or dev) end}, {__index = torch})
  end
  local f = assert(load(chunk, '=case', 't', env))
  local ok, v = pcall(f)
  if not ok then return (tostring(v):gsub('\nhint:.*$', '')) end
  return text(v)
end

-- Note [PyTorch's vector Box-Muller]: on a CPU without AVX2 PyTorch draws its
-- normals another way (and so does gpulab), so the generated numbers do not hold.
local scalar_cpu = torch.backends.cpu.get_cpu_capability() == 'DEFAULT'

for _, c in ipairs(cases) do
  local name, chunk, want = c[1], c[2], c[3]
  if (name:sub(1, #prefix) == prefix or prefix == '') and scalar_cpu and name:find('_avx2_') then
    T.skip(name, 'this CPU has no AVX2, where PyTorch draws these normals with its scalar loop')
  elseif name:sub(1, #prefix) == prefix or prefix == '' then
    T.test(name .. ' (cpu, as PyTorch)', function() T.eq(run(chunk, 'cpu'), want) end)
    if chunk:find('DEV') then
      local what = name .. ' (virtual cuda:1, as the cpu)'
      -- seeded draws on a real GPU are PyTorch's CUDA ones (tests/gpu/oracle.lua)
      if chunk:find('seed') and not T.emulated(1) then
        T.skip(what, "cuda:1 is a slice of a real GPU, whose generator is PyTorch's CUDA Philox")
      else
        T.test(what, function() T.eq(run(chunk, 'cuda:1'), run(chunk, 'cpu')) end)
      end
    end
  end
end
