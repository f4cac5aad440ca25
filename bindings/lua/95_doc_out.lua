-- Last of the doc chunks: every torch function that takes out= (Note [out=],
-- tensor/ops/out.cpp; its checked signature says `out=None`) lists `out=nil`
-- among the options on its doc's first line, wherever that doc was written.
local function with_out(line)
  local open = line:find('(', 1, true)
  local close = open and torch._util.closing_paren(line, open)
  if not close then return nil end
  local params = line:sub(open + 1, close - 1)
  if params:find('out=', 1, true) then return nil end
  if params:find('}%s*$') then params = params:gsub('}%s*$', ', out=nil}')
  else params = params .. (params ~= '' and ', ' or '') .. '{out=nil}' end
  return line:sub(1, open) .. params .. line:sub(close)
end

for _, fn in pairs(torch) do
  local sig = type(fn) == 'function' and torch._signature(fn)
  if sig and sig:find('out=None', 1, true) then
    local doc = torch._doc(fn) or ''
    local first, rest = doc:match('^([^\n]*)(.*)$')
    local patched = first and with_out(first)
    if patched then torch._set_doc(fn, patched .. rest) end
  end
end
