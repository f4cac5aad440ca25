-- Note [Undefined names]: Lua reads a global or a field that does not exist as
-- nil, so a Python habit or a typo ran on with a default and no word:
-- x:requires_grad_(True) left requires_grad false, {dtype=torch.flaot32} made
-- float32, {lr=l} (l undefined) trained at the default rate. In the learner's
-- cells (the REPL, a notebook) and in a file under `gpulab check`, such a read
-- is an error, as Python's NameError and AttributeError; the REPL explains it
-- (06_repl_errors.lua: "NameError: name 'True' is not defined" with its hint,
-- "module 'torch' has no attribute 'flaot32'. Did you mean: 'float32'?"). A
-- script keeps Lua's rule for globals, where an optional global is an idiom,
-- except for True, False and None, which no Lua program reads on purpose; a
-- name missing from torch's modules is an error there too, as Python's
-- AttributeError (a script that probes one writes rawget(torch, name)),
-- since {dtype=torch.flaot16} silently made float32. The library's own code,
-- lessons, checkers and chunks made with load() read nil as Lua does: whose
-- read it is comes from the reading function's source.
local U = torch._util
local debug, error, rawget, setmetatable, type = debug, error, rawget, setmetatable, type

local strict = {}
-- The interpreter names the file `gpulab check` grades (check.cpp).
function U.strict_source(source) strict[source] = true end

-- Names no Lua program reads on purpose: a script gets Python's error for these alone.
local PYTHON = {True = true, False = true, None = true}

-- How strict the reads of the function at `level` (of the caller) are: 'all'
-- for the learner's cells, 'python' for a script, nil for everything else.
local function strictness(level)
  local info = debug.getinfo(level + 1, 'S')
  local src = info and info.source or ''
  if src:sub(1, 4) == '=In[' then return 'all' end
  if strict[src] then return 'checked' end
  if src:sub(1, 1) == '@' or src == '=(command line)' or src == '=stdin' then return 'python' end
end

-- The message is Lua's own wording for a nil it trips on, which the REPL
-- turns into Python's error with did-you-mean and hints. An exercise's
-- blanks (TODO, ___) stay nil, so that its checker can say what to write.
local BLANKS = {TODO = true, ___ = true}
setmetatable(_G, {__index = function(_, k)
  if type(k) ~= 'string' then return nil end
  local how = strictness(2)
  if how == 'all' or (how == 'checked' and not BLANKS[k]) or (how == 'python' and PYTHON[k]) then
    error(("attempt to read a nil value (global '%s')"):format(k), 2)
  end
end})

local function strict_namespace(t)
  if type(t) ~= 'table' or getmetatable(t) ~= nil then return end
  setmetatable(t, {__namespace = true, __index = function(_, k)
    local how = type(k) == 'string' and strictness(2)
    if how == 'python' then  -- a script: Python's text at once (the REPL rewrites Lua's own, with a caret)
      error(U.with_suggestion(("AttributeError: module '%s' has no attribute '%s'"):format(U.module_name(t) or 'torch', k),
        k, U.names_of(t)), 2)
    end
    if how then error(("attempt to read a nil value (field '%s')"):format(k), 2) end
  end})
end
for _, t in ipairs({torch, torch.nn, torch.nn.functional, torch.nn.init, torch.optim, torch.optim.lr_scheduler,
                    torch.cuda, torch.linalg, torch.utils, torch.utils.data, torch.distributions, torch.backends, torch.accelerator}) do
  strict_namespace(t)
end

-- The last chunk of the library proper: classes made from here on are a
-- learner's (__main__'s, U.class in 05_base.lua).
torch._util.loading_library = false
