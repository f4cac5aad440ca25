-- Python's iter() and next(), as tutorials use them on a DataLoader:
--   X, y = next(iter(loader))        -- the first batch, unpacked
--   it = iter(loader); batch = next(it)
-- iter(x) makes an iterator object; next(it) takes its next item, unpacked
-- into as many values as the assignment has names (Note [for X, y in loader]:
-- `batch = next(it)` keeps the batch whole), next(it, default) gives default
-- at the end, where next(it) raises StopIteration. Lua's next(t, k) is
-- unchanged for every table that is not such an iterator.
local U = torch._util
local select, type, getmetatable, setmetatable, error = select, type, getmetatable, setmetatable, error
local lua = {next = next}  -- called as lua.next: its errors name 'next

local Iterator = {__name = 'iterator'}
Iterator.__index = Iterator
Iterator.__tostring = function(it) return ('<%s object at %p>'):format(it.what, it) end
-- `for X, y in iter(loader) do`: an iterator iterates too.
Iterator.__call = function(it)
  local names = torch._for_arity()
  return U.unpack_item(it.step(), names)
end

local function iterator(what, step) return setmetatable({what = what, step = step}, Iterator) end

local function sequence(what, n, at)
  local i = -1
  return iterator(what, function()
    i = i + 1
    if i < n then return at(i) end
  end)
end

-- iter(x): a DataLoader's next epoch, a Dataset's items, a list's or tuple's
-- items, a tensor's rows (sub-tensors along dim 0), a Lua iterator function.
function iter(x, ...)
  if select('#', ...) > 0 then
    error(('TypeError: iter expected 1 argument, got %d'):format(1 + select('#', ...)), 0)
  end
  if getmetatable(x) == Iterator then return x end
  if type(x) == 'function' then return iterator('generator', x) end
  if U.is_tensor(x) then
    if x:dim() == 0 then error('TypeError: iteration over a 0-d tensor', 0) end
    return sequence('iterator', x:size(0), function(i) return x[i] end)
  end
  if type(x) == 'table' then
    if type(x._batches) == 'function' then return iterator('torch.utils.data.dataloader._SingleProcessDataLoaderIter', x:_batches()) end
    if U.is_plain_table(x) or U.is_tuple(x) then
      return sequence(U.is_tuple(x) and 'tuple_iterator' or 'list_iterator', #x, function(i) return x[i + 1] end)
    end
    local mt = getmetatable(x)
    if type(rawget(mt or {}, '__len')) == 'function' and rawget(mt, '__index') ~= nil and U.class_of(x) then
      return sequence('iterator', #x, function(i) return x[i] end)  -- a Dataset: items 0 .. #x - 1
    end
  end
  error(("TypeError: '%s' object is not iterable"):format(U.type_name(x)), 0)
end

function next(...)
  local t = ...
  if getmetatable(t) ~= Iterator then
    if type(t) == 'table' and U.class_of(t) and type(t._batches) == 'function' then
      error(("TypeError: '%s' object is not an iterator\nhint: iter(loader) makes one: X, y = next(iter(loader))"):format(
        U.type_name(t)), 0)
    end
    if type(t) ~= 'table' then  -- Lua's own message, at the caller's line
      error(("bad argument #1 to 'next' (table expected, got %s)"):format(select('#', ...) == 0 and 'no value' or type(t)), 2)
    end
    return lua.next(...)
  end
  local item = t.step()
  if item == nil then
    if select('#', ...) > 1 then return (select(2, ...)) end
    error('StopIteration', 0)
  end
  return U.unpack_item(item, torch._results_wanted())
end

torch._set_doc(iter, 'iter(x): an iterator over x, as Python\'s: a DataLoader\'s next epoch of batches, a Dataset\'s or a\n'
  .. 'list\'s items, a tensor\'s rows. next(it) takes the next item: X, y = next(iter(loader))')
torch._set_doc(next, 'next(it, default): the next item of an iterator from iter() (unpacked into the names that\n'
  .. 'receive it: X, y = next(it)); default, or StopIteration, at the end. next(t, k) on a Lua table is Lua\'s next')
