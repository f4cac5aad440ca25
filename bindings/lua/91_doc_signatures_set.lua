-- Puts the signatures of 91_doc_signatures.lua on the first line of every
-- public function's doc string (the description after it is kept), and
-- documents each layer's own forward and extra_repr.
local U = torch._util
local cpp, lua = U.doc_signatures.cpp, U.doc_signatures.lua

-- The position of the `)` that closes the `(` at `open` in s, or nil.
function U.closing_paren(s, open)
  local depth = 0
  for i = open, #s do
    local c = s:sub(i, i)
    if c == '(' then depth = depth + 1 elseif c == ')' then depth = depth - 1 end
    if depth == 0 then return i end
  end
end

-- The old doc's leading `name(...)` (and ` -> type`) is replaced; what follows is kept.
local function description(doc)
  local open = doc:match('^[%w_.:]+()%(')
  if not open then return doc end
  local close = U.closing_paren(doc, open)
  if not close then return doc end
  local rest = doc:sub(close + 1)
  local returns = rest:match('^%s*%->%s*([%w_.%[%], ]-)[:.;]') or rest:match('^%s*%->%s*([%w_.%[%], ]-)$')
  if returns then rest = rest:gsub('^%s*%->%s*[%w_.%[%], ]*', '')
  elseif rest:match('^%s*%->') then  -- a return described in prose: "-> free, total (bytes)."
    if rest:find(';', 1, true) or rest:find('\n', 1, true) then return doc end
    return '', (rest:gsub('^%s*%->%s*', ''):gsub('%.$', ''))
  end
  -- an old doc listing several call forms keeps them: "x:size() -> Size; x:size(dim) -> int"
  if rest:match('^[;,] ') or rest:match('^%s*or ') then return doc end
  rest = rest:gsub('^[:.]?%s*', '')
  return rest, returns
end

local function set(fn, sig)
  if type(fn) ~= 'function' then return end
  local old = torch._doc(fn) or ''
  if old:sub(1, #sig) == sig then return end  -- already applied (the same function under two names)
  local rest, returns = description(old)
  if returns then sig = sig .. ' -> ' .. returns end
  if rest == '' then torch._set_doc(fn, sig)
  elseif #sig + #rest < 120 and not rest:find('\n') then torch._set_doc(fn, sig .. ': ' .. rest)
  else torch._set_doc(fn, sig .. '\n' .. rest) end
end

local function strip_first(params)
  return (params:gsub('^[^,{]*,?%s*', '', 1))
end

for key, s in torch._util.sorted_pairs(cpp) do
  local is_method, params = s[1], s[2]
  local prefix, bare = key:match('^(%a+)%.(.+)$')
  if prefix == 'F' then set(rawget(nn.functional, bare), 'F.' .. bare .. '(' .. params .. ')')
  elseif prefix == 'linalg' then set(rawget(torch.linalg, bare), 'torch.linalg.' .. bare .. '(' .. params .. ')')
  elseif prefix == 'cuda' then set(rawget(torch.cuda, bare), 'torch.cuda.' .. bare .. '(' .. params .. ')')
  elseif prefix == nil then
    if is_method then
      set(rawget(torch.Tensor, key), 'x:' .. key .. '(' .. params .. ')')
      if rawget(torch, key) ~= rawget(torch.Tensor, key) then set(rawget(torch, key), 'torch.' .. key .. '(input' .. (params ~= '' and ', ' or '') .. params .. ')') end
    else
      set(rawget(torch, key), 'torch.' .. key .. '(' .. params .. ')')
      local m = rawget(torch.Tensor, key)
      if m ~= nil and m ~= rawget(torch, key) then set(m, 'x:' .. key .. '(' .. strip_first(params) .. ')') end
    end
  end
end
for name, sig in torch._util.sorted_pairs(lua) do
  local v = _G
  for part in name:gmatch('[^.]+') do v = type(v) == 'table' and rawget(v, part) or nil end
  set(v, sig)
end

-- A layer's own forward and extra_repr (nn.Linear:forward, ...): documented
-- as the nn.Module methods they override, under the layer's name.
local loss_class = {MSELoss = true, CrossEntropyLoss = true, BCEWithLogitsLoss = true, BCELoss = true, L1Loss = true,
                    SmoothL1Loss = true, HuberLoss = true, NLLLoss = true}
for name, cls in torch._util.sorted_pairs(nn) do
  if type(cls) == 'table' and rawget(cls, '__name') and cls ~= nn.Module then
    local fwd = rawget(cls, 'forward')
    if type(fwd) == 'function' and (torch._doc(fwd) or '') == '' then
      local args = loss_class[name] and 'input, target' or (name == 'DataParallel' and 'input, ...' or 'input')
      torch._set_doc(fwd, ('nn.%s:forward(%s): what calling the module runs: m(%s)'):format(name, args, args))
    end
    local er = rawget(cls, 'extra_repr')
    if type(er) == 'function' and (torch._doc(er) or '') == '' then
      torch._set_doc(er, ('nn.%s:extra_repr(): the text inside the parentheses when the module prints'):format(name))
    end
  end
end
