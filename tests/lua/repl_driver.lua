-- Feeds inputs to a gpulab REPL on piped stdin and returns, per input, what
-- it printed (stdout and stderr together, prompts removed). Used by the REPL
-- golden tests: local run = dofile(dir .. '/repl_driver.lua')
local function binary()
  local i = -1
  while arg[i - 1] ~= nil do i = i - 1 end
  return arg[i]
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- run(inputs, setup): inputs is a list of REPL inputs (each may span lines);
-- returns a list of outputs, one per input, with trailing newlines removed.
return function(inputs, setup)
  local path = os.tmpname()
  local f = assert(io.open(path, 'w'))
  for _, line in ipairs(setup or {}) do f:write(line, '\n') end
  for i, input in ipairs(inputs) do
    f:write("print('@@" .. i .. "')\n", input, '\n')
  end
  f:write("print('@@end')\n")
  f:close()
  -- -i: piped input goes on after an error (as python -i), so every input is seen.
  local p = assert(io.popen('NO_COLOR=1 ' .. shell_quote(binary()) .. ' -i < ' .. shell_quote(path) .. ' 2>&1'))
  local text = p:read('a')
  p:close()
  os.remove(path)
  local out, cur = {}, nil
  for line in (text .. '\n'):gmatch('(.-)\n') do
    repeat
      local stripped = line:gsub('^>>> ', ''):gsub('^%.%.%. ', '')
      if stripped == line then break end
      line = stripped
    until false
    local n = line:match('^@@(%w+)$')
    if n then
      cur = tonumber(n)
      if cur then out[cur] = {} end
    elseif cur then
      table.insert(out[cur], line)
    end
  end
  for i = 1, #inputs do out[i] = table.concat(out[i] or {'<no output>'}, '\n'):gsub('\n+$', '') end
  return out
end
