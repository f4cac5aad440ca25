-- Every keyword option that help(f) lists for a bound C++ function is one the
-- function accepts: called with it, no "unexpected keyword argument" comes
-- back. Generated from the doc table (torch._util.doc_signatures, which the
-- doc strings are built from); the positionals are sample values by name.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local function sample(name)
  local m = {input = torch.ones(2, 2), other = torch.ones(2, 2), mat2 = torch.ones(2, 2), mat1 = torch.ones(2, 2),
    tensor = torch.ones(2), dim = 0, index = torch.tensor({0}), mask = torch.ones(2, 2):bool(),
    condition = torch.ones(2, 2):bool(), data = {1.0}, n = 2, start = 0, ['end'] = 3, steps = 2, low = 0, high = 3,
    fill_value = 1, tensors = {torch.ones(1)}, exponent = 2, value = 1, size = {2}, sizes = {2}, dim0 = 0, dim1 = 1,
    chunks = 1, split_size_or_sections = 1, length = 1, src = torch.ones(2, 2), type = 'cpu', type1 = torch.int64,
    type2 = torch.float32, target = torch.ones(2, 2), weight = torch.ones(2), A = torch.eye(2), obj = 1, mode = true,
    repeats = 1, shape = 4, dims = 0, gradient = torch.ones(2, 2), bias = torch.ones(2), m = 2, step = 1,
    dtype = torch.float32, device = 'cpu', requires_grad = false, pin_memory = false, keepdim = false, alpha = 1,
    beta = 1, rounding_mode = 'floor', non_blocking = false, copy = false, p = 2, unbiased = true, correction = 0, decimals = 1, min = 0, max = 1,
    start_dim = 0, end_dim = -1, reduction = 'mean', ignore_index = -100, label_smoothing = 0.0, training = false,
    rtol = 1e-5, atol = 1e-8, ['from'] = 0, to = 1, mean = 0, std = 1, enable_timing = false, retain_graph = true, create_graph = false,
    precision = 4, threshold = 1000, generator = torch.Generator(), edgeitems = 3, linewidth = 80, profile = 'default', sci_mode = false, abbreviated = false,
    stride = 1, padding = 0, dilation = 1, groups = 1, ceil_mode = false, count_include_pad = true, divisor_override = false,
    return_indices = false, eps = 1e-5, momentum = 0.1}
  return m[name]
end

T.test('every option a doc lists is accepted by the function', function()
  local rejected, unknown, probed = {}, {}, 0
  for key, s in pairs(torch._util.doc_signatures.cpp) do
    local method, params = s[1], s[2]
    local plain, kw = params:match('^(.-)%s*,?%s*{(.*)}$')
    if not plain then plain, kw = params, '' end
    local pos, opts = {}, {}
    for p in plain:gmatch('[^,]+') do
      p = p:gsub('^%s+', '')
      local name = p:match('^([%w_]+)=')
      if name then opts[#opts + 1] = name else pos[#pos + 1] = sample((p:gsub('%.%.%.$', ''))) end
    end
    for name in kw:gmatch('([%w_]+)=') do opts[#opts + 1] = name end
    local prefix, bare = key:match('^(%a+)%.(.+)$')
    local fn
    if prefix == 'F' then fn = rawget(nn.functional, bare)
    elseif prefix == 'linalg' then fn = rawget(torch.linalg, bare)
    elseif prefix == 'cuda' then fn = rawget(torch.cuda, bare)
    elseif prefix == nil then fn = method and torch.Tensor[key] or rawget(torch, key) end
    -- seeding and the current device are left alone; the rest is harmless on small tensors
    if fn and not key:match('seed') and key ~= 'cuda.set_device' then
      if method then table.insert(pos, 1, torch.ones(2, 2):requires_grad_(key == 'backward' or key == 'retain_grad')) end
      for _, o in ipairs(opts) do
        local v = sample(o)
        if v == nil then unknown[#unknown + 1] = key .. '.' .. o
        else
          local args = {table.unpack(pos)}
          args[#args + 1] = {[o] = v}
          probed = probed + 1
          local ok, e = pcall(fn, table.unpack(args))
          if not ok and tostring(e):find("unexpected keyword argument '" .. o .. "'", 1, true) then
            rejected[#rejected + 1] = key .. '.' .. o
          end
        end
      end
    end
  end
  table.sort(rejected)
  table.sort(unknown)
  T.eq(table.concat(rejected, ' '), '', 'documented options the function rejects')
  T.eq(table.concat(unknown, ' '), '', 'options without a sample value in this test')
  T.truthy(probed > 150, 'options probed: ' .. probed)
end)

T.finish()
