-- torch.utils.data: Dataset (subclassable), TensorDataset, Subset,
-- default_collate and DataLoader. Indices count from 0 as in PyTorch.
--   local D = torch.utils.data.Dataset:extend('D')
--   function D:__init(n) self.x = torch.randn(n, 5) end
--   function D:__getitem(i) return self.x[i] end       -- or D:get(i)
--   function D:__len() return self.x:size(0) end        -- or D:len()
--   for batch in torch.utils.data.DataLoader(D(100), {batch_size = 30, shuffle = true}) do ... end
local U = torch._util
torch.utils = torch.utils or {}
torch.utils.data = torch.utils.data or {}
local data = torch.utils.data

-- ---- Dataset ---------------------------------------------------------------
-- ds[i] calls __getitem (or get); #ds calls __len (or len). The methods are
-- looked up on the class, so a plain field like `self.len = n` (as in the
-- DataParallel tutorial) does not hide them.
local item, length
local function base_item(self, i) return item(self, i) end
local function base_length(self) return length(self) end

-- `return x, y` from __getitem is Python's `return x, y`: one tuple (ds[i]
-- keeps one value, so a second result would be lost on the way).
local function packed(...)
  local n = select('#', ...)
  if n <= 1 then return (...) end
  local t = {...}
  if n ~= #t then t.n = n end
  return torch._tuple(t)
end

function item(self, i)
  local cls = U.class_of(self)
  if cls.__getitem ~= base_item then return packed(cls.__getitem(self, i)) end
  if cls.get ~= base_item then return packed(cls.get(self, i)) end
  error(('NotImplementedError: Subclasses of Dataset should implement __getitem (%s does not)'):format(cls.__name), 0)
end

function length(self)
  local cls = U.class_of(self)
  if cls.__len ~= base_length then return cls.__len(self) end
  if cls.len ~= base_length then return cls.len(self) end
  error(("TypeError: object of type '%s' has no len()"):format(cls.__name), 0)
end

local function make_meta(cls)
  return {
    __name = cls.__name,
    __index = function(self, k)
      if math.type(k) == 'integer' then return item(self, k) end
      return cls[k]
    end,
    __len = length,
    __tostring = function(self) return self:__tostring() end,
  }
end

local Dataset = U.class('Dataset', nil, make_meta)
data.Dataset = Dataset
U.doc(Dataset, "Dataset:extend('Name') with __getitem(i) (0-based) and __len(), or get(i) and len().")
function Dataset.new(cls, ...)
  local self = setmetatable({}, cls.__meta)
  self:__init(...)
  return self
end
function Dataset:__init(...) U.parse('Dataset.__init__', {}, nil, ...) end
-- Python's default repr, <module.Name object at 0x...>: the library's own
-- classes name their PyTorch module, a learner's class is __main__'s.
local MODULES = {Dataset = 'torch.utils.data.dataset', TensorDataset = 'torch.utils.data.dataset',
                 Subset = 'torch.utils.data.dataset', DataLoader = 'torch.utils.data.dataloader'}
for name, mod in pairs(MODULES) do U.class_modules[name] = mod end
U.class_modules.DistributedSampler = 'torch.utils.data.distributed'
local function object_repr(self, cls)
  return ('<%s.%s object at %s>'):format(MODULES[cls.__name] or '__main__', cls.__name, ('%p'):format(self))
end
function Dataset:__tostring() return object_repr(self, U.class_of(self)) end
Dataset.__getitem, Dataset.get, Dataset.__len, Dataset.len = base_item, base_item, base_length, base_length

-- ---- TensorDataset ---------------------------------------------------------
-- Item i is the Lua table {t1[i], t2[i], ...}.
local TensorDataset = Dataset:extend('TensorDataset')
data.TensorDataset = TensorDataset
function TensorDataset:__init(...)
  self.tensors = {...}
  for i = 1, select('#', ...) do
    local t = self.tensors[i]
    if U.is_plain_table(t) and next(t) ~= nil and #t == 0 then  -- TensorDataset(a, {junk=1})
      for k in pairs(t) do error(("TypeError: TensorDataset() got an unexpected keyword argument '%s'"):format(k), 0) end
    end
    if not U.is_tensor(t) then U.type_error('TensorDataset', 'tensors', 'Tensor', t) end
  end
  local n = self.tensors[1] and self.tensors[1]:size(0)
  for _, t in ipairs(self.tensors) do
    if t:size(0) ~= n then error('AssertionError: Size mismatch between tensors', 0) end
  end
end
-- A tuple, as PyTorch's (dataset[0] echoes (tensor(..), tensor(..))).
function TensorDataset:__getitem(i)
  local out = {}
  for k, t in ipairs(self.tensors) do out[k] = t[i] end
  return torch._tuple(out)
end
function TensorDataset:__len() return self.tensors[1]:size(0) end

-- Subset(dataset, indices): the items of `dataset` at `indices` (0-based).
local Subset = Dataset:extend('Subset')
data.Subset = Subset
function Subset:__init(...)
  local a = U.parse('Subset', {'dataset!', 'indices!'}, nil, ...)
  if type(a.dataset) ~= 'table' or U.is_tensor(a.dataset) then U.type_error('Subset', 'dataset', 'Dataset', a.dataset) end
  if type(a.indices) ~= 'table' then U.type_error('Subset', 'indices', 'a sequence of ints', a.indices) end
  self.dataset = a.dataset
  self.indices = U.is_tensor(a.indices) and a.indices:tolist() or a.indices
end
function Subset:__getitem(i) return self.dataset[self.indices[i + 1]] end
function Subset:__len() return #self.indices end
-- random_split(dataset, lengths, {generator=}): Subsets of a random permutation,
-- as PyTorch's (lengths may be fractions summing to 1, the remainder dealt
-- round-robin); one result per split, so `local train, val = random_split(...)`.
function data.random_split(...)
  local a = U.parse('random_split', {'dataset!', 'lengths!', 'generator'}, nil, ...)
  local n = #a.dataset
  local lengths, total = {}, 0
  for i, v in ipairs(a.lengths) do lengths[i] = v; total = total + v end
  if math.abs(total - 1) <= 1e-9 and total <= 1 then
    local used = 0
    for i, frac in ipairs(lengths) do
      if frac < 0 or frac > 1 then error(('ValueError: Fraction at index %d is not between 0 and 1'):format(i - 1), 0) end
      lengths[i] = math.floor(n * frac)
      used = used + lengths[i]
    end
    for i = 0, n - used - 1 do
      local k = i % #lengths + 1
      lengths[k] = lengths[k] + 1
    end
    for i, len in ipairs(lengths) do
      if len == 0 then torch._warn(('Length of split at index %d is 0. This might result in an empty dataset.'):format(i - 1)) end
    end
    total = n
  end
  if total ~= n then error('ValueError: Sum of input lengths does not equal the length of the input dataset!', 0) end
  local perm = torch.randperm(n, {generator = a.generator}):tolist()
  local out, offset = {}, 0
  for i, len in ipairs(lengths) do
    local idx = {}
    for j = 1, len do idx[j] = perm[offset + j] end
    out[i] = Subset(a.dataset, idx)
    offset = offset + len
  end
  return table.unpack(out)
end

-- A batch at once when the dataset under it can (see fetch below).
function Subset:__getbatch(idx)
  local cls = U.class_of(self.dataset)
  local getbatch = cls and rawget(cls, '__getbatch')
  if not getbatch then return nil end
  local inner = {}
  for i, j in ipairs(idx) do inner[i] = self.indices[j + 1] end
  return getbatch(self.dataset, inner)
end

-- ---- collate ---------------------------------------------------------------
-- Tensors stack along a new dim 0; Lua integers make an int64 tensor and
-- floats a float64 one (as Python ints/floats do); tables collate field by
-- field; strings stay a list.
function data.default_collate(...)
  local batch = U.parse('default_collate', {'batch!'}, nil, ...).batch
  if type(batch) ~= 'table' or U.is_tensor(batch) then U.type_error('default_collate', 'batch', 'a list of samples', batch) end
  local first = batch[1]
  if U.is_tensor(first) then return torch.stack(batch, 0) end
  local t = type(first)
  if t == 'number' then
    if math.type(first) == 'float' then return torch.tensor(batch, {dtype = torch.float64}) end
    return torch.tensor(batch)
  elseif t == 'boolean' then
    return torch.tensor(batch)
  elseif U.is_plain_table(first) or U.is_tuple(first) then  -- a list of tuples collates into a list, as PyTorch's
    local out = {}
    if #first > 0 then
      for j = 1, #first do
        local col = {}
        for i, e in ipairs(batch) do col[i] = e[j] end
        out[j] = data.default_collate(col)
      end
    else
      for k in pairs(first) do
        local col = {}
        for i, e in ipairs(batch) do col[i] = e[k] end
        out[k] = data.default_collate(col)
      end
    end
    return out
  end
  return batch
end

-- ---- DataLoader ------------------------------------------------------------
-- `for batch in loader do` starts a new epoch (a new shuffle) each time the
-- loop starts; loader:iter() returns an independent iterator function and
-- loader:enumerate() yields (i, batch) with i from 0. #loader = batches.
-- A loop with more names than one unpacks the batch as Python's for does:
-- `for X, y in loader do` (Note [for X, y in loader]).

local function passed_on(self, b, ...)
  if b == nil then self._it = nil end
  return b, ...
end

local function loader_meta(cls)
  return {
    __name = cls.__name,
    __index = cls,
    __len = function(self) return self:__len() end,
    __call = function(self, _, ctrl)
      if ctrl == nil then self._it = self:iter(torch._for_arity()) end
      return passed_on(self, self._it())
    end,
    __tostring = function(self) return object_repr(self, cls) end,
  }
end
local DataLoader = U.class('DataLoader', nil, loader_meta)
data.DataLoader = DataLoader
U.doc(DataLoader, 'DataLoader(dataset, {batch_size=1, shuffle=false, drop_last=false, collate_fn=, generator=}):\n'
  .. '  (batch_size=false is PyTorch\'s None: items one by one, not collated)\n'
  .. '  for X, y in loader do ... end    -- each batch unpacked, as Python\'s for; #loader batches\n'
  .. '  for batch in loader do ... end   -- the whole batch, {X, y}\n'
  .. '  for i, X, y in loader:enumerate() do ... end   -- i from 0')

function DataLoader.new(cls, ...)
  local a = U.parse('DataLoader', {'dataset', 'batch_size', 'shuffle', 'sampler', 'batch_sampler', 'num_workers',
                                   'collate_fn', 'pin_memory', 'drop_last', 'timeout', 'worker_init_fn',
                                   'multiprocessing_context', 'generator'},
                    {batch_size = 1, shuffle = false, num_workers = 0, pin_memory = false, drop_last = false}, ...)
  if a.dataset == nil then error("TypeError: DataLoader() missing 1 required positional argument: 'dataset'", 0) end
  -- A dataset is anything indexable with a length (a Dataset, a Lua array of samples).
  if type(a.dataset) ~= 'table' or U.is_tensor(a.dataset) then U.type_error('DataLoader', 'dataset', 'Dataset', a.dataset) end
  if a.batch_size ~= false and math.type(a.batch_size) ~= 'integer' then
    U.type_error('DataLoader', 'batch_size', 'int', a.batch_size)
  end
  if a.batch_size and a.batch_size <= 0 then
    error(('ValueError: batch_size should be a positive integer value, but got batch_size=%d'):format(a.batch_size), 0)
  end
  U.check('DataLoader', 'shuffle', 'bool', a.shuffle)
  U.check('DataLoader', 'drop_last', 'bool', a.drop_last)
  if a.collate_fn ~= nil and type(a.collate_fn) ~= 'function' then
    U.type_error('DataLoader', 'collate_fn', 'callable', a.collate_fn)
  end
  if a.sampler ~= nil and a.shuffle then error('ValueError: sampler option is mutually exclusive with shuffle', 0) end
  if (a.sampler ~= nil and type(a.sampler) ~= 'table') or a.batch_sampler ~= nil then  -- sampler: its :indices() (DistributedSampler)
    error('NotImplementedError: gpulab: DataLoader supports batch_size, shuffle, sampler, drop_last and collate_fn', 0)
  end
  if a.generator ~= nil and not U.is_generator(a.generator) then
    error(('TypeError: DataLoader: generator must be a torch.Generator, got %s'):format(U.kind(a.generator)), 0)
  end
  return setmetatable({dataset = a.dataset, batch_size = a.batch_size, shuffle = a.shuffle,
                       drop_last = a.drop_last, collate_fn = a.collate_fn or data.default_collate,
                       num_workers = a.num_workers, pin_memory = a.pin_memory, generator = a.generator,
                       sampler = a.sampler}, cls.__meta)
end

function DataLoader:__len()
  local n = self.sampler and #self.sampler or #self.dataset
  if not self.batch_size then return n end  -- batch_size=false: PyTorch's None
  if self.drop_last then return n // self.batch_size end
  return (n + self.batch_size - 1) // self.batch_size
end

-- The order of one epoch, as PyTorch's RandomSampler draws it: a seed from
-- the loader's generator (or the default one, so torch.manual_seed fixes the
-- shuffle), then randperm(n) from a generator seeded with it. With a loader
-- generator, randperm draws from that generator directly.
local function epoch_order(self, n)
  if self.sampler then return self.sampler:indices() end
  if self.shuffle then
    if self.generator ~= nil then return U.randperm_list(n, self.generator) end
    local g = torch.Generator():manual_seed(U.draw_seed(nil))
    return U.randperm_list(n, g)
  end
  local order = {}
  for i = 1, n do order[i] = i - 1 end
  return order
end

-- A plain Lua array or a tuple works as a dataset too (its item 0 is t[1]).
local function get_item(ds, j)
  if U.is_plain_table(ds) or U.is_tuple(ds) then return ds[j + 1] end
  return ds[j]
end

-- A dataset whose class has __getbatch(indices) (gpulab's, as PyTorch's
-- __getitems__ but already collated) returns a whole batch with a few ops
-- instead of n items stacked: same values, far fewer ops. It may return nil
-- to be fetched item by item after all. Only the class's own: a subclass may
-- have changed __getitem.
function TensorDataset:__getbatch(idx)
  local index = torch.tensor(idx)
  local out = {}
  for k, t in ipairs(self.tensors) do out[k] = t:index_select(0, index:to(t.device)) end
  return out
end

local function fetch(self, idx)
  local ds = self.dataset
  local cls = U.class_of(ds)
  local getbatch = cls and rawget(cls, '__getbatch')
  if getbatch and self.collate_fn == data.default_collate then
    local batch = getbatch(ds, idx)
    if batch ~= nil then return batch end
  end
  local items = {}
  for i, j in ipairs(idx) do items[i] = get_item(ds, j) end
  return self.collate_fn(items)
end

-- Each new iterator draws a base seed (PyTorch's _BaseDataLoaderIter does,
-- for its workers) and the shuffle order on the first batch, so the default
-- generator advances exactly as in PyTorch. RandomSampler, reaching the end
-- of an epoch, draws one more (unused) permutation from a loader generator.
function DataLoader:iter(names)
  local it = self:_batches()
  if names == nil or names < 2 then return it end
  return function() return U.unpack_item(it(), names) end
end

function DataLoader:_batches()
  local n = self.sampler and #self.sampler or #self.dataset
  U.draw_seed(self.generator)
  local order, pos, bs, done
  local function finish()
    if not done and self.shuffle and self.generator ~= nil then U.randperm_list(n, self.generator) end
    done = true
  end
  return function()
    order = order or epoch_order(self, n)
    if bs == nil then bs = self.batch_size or false; pos = 0 end
    if not bs then  -- batch_size=false (None): items one by one, not collated
      pos = pos + 1
      if pos > n then finish(); return nil end
      return get_item(self.dataset, order[pos])
    end
    if pos >= n then finish(); return nil end
    local stop = math.min(pos + bs, n)
    if stop - pos < bs then finish() end
    if self.drop_last and stop - pos < bs then return nil end
    local idx = table.move(order, pos + 1, stop, 1, {})
    pos = stop
    return fetch(self, idx)
  end
end

-- `for i, X, y in loader:enumerate()` unpacks the batch too (Python's
-- `for i, (X, y) in enumerate(loader)`).
function DataLoader:enumerate()
  local it, i = nil, -1
  local function numbered(b, ...)
    if b ~= nil then
      i = i + 1
      return i, b, ...
    end
  end
  return function()
    it = it or self:iter(torch._for_arity() - 1)
    return numbered(it())
  end
end
