-- torch.utils.data: Dataset subclasses, TensorDataset, collate, DataLoader.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_data.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local data = torch.utils.data

-- The DataParallel tutorial's dataset (a plain `len` field next to __len).
local RandomDataset = data.Dataset:extend('RandomDataset')
function RandomDataset:__init(size, length)
  self.len = length
  self.data = torch.randn(length, size)
end
function RandomDataset:__getitem(index) return self.data[index] end
function RandomDataset:__len() return self.len end

local function sizes(loader)
  local out = {}
  for batch in loader do
    local t = type(batch) == 'table' and batch[1] or batch
    out[#out + 1] = t:size(0)
  end
  return table.concat(out, ',')
end

T.test('Dataset subclass: 0-based items and #', function()
  local ds = RandomDataset(5, 100)
  T.eq(#ds, 100)
  T.eq(tostring(ds[0].shape), 'torch.Size([5])')
  T.eq(ds[99]:eq(ds.data[99]):all():item(), true)
  T.eq(ds:get(3):eq(ds[3]):all():item(), true, 'get() is an alias of __getitem')
  -- the other spelling: get/len methods
  local Squares = data.Dataset:extend('Squares')
  function Squares:get(i) return i * i end
  function Squares:len() return 4 end
  local sq = Squares()
  T.eq(#sq, 4)
  T.eq(sq[3], 9)
  T.raises(function() return data.Dataset()[0] end, 'Subclasses of Dataset should implement __getitem', true)
end)

T.test("__getitem's `return x, y` is one tuple, as Python's, and batches both", function()
  local Sq = torch.utils.data.Dataset:extend('Sq')
  function Sq:__len() return 3 end
  function Sq:__getitem(i) return torch.tensor({i * 1.0}), i * i end
  T.eq(tostring(Sq()[2]), '(tensor([2.]), 4)')
  local ys = {}
  for x, y in torch.utils.data.DataLoader(Sq(), {batch_size = 2}) do ys[#ys + 1] = tostring(y) end
  T.eq(table.concat(ys, ' '), 'tensor([0, 1]) tensor([4])')
  local One = torch.utils.data.Dataset:extend('One')
  function One:__len() return 1 end
  function One:__getitem(i) return torch.ones(1) end
  T.truthy(torch.is_tensor(One()[0]), 'one result stays itself')
end)

T.test('TensorDataset items are tuples of rows', function()
  local x, y = torch.arange(10):view(5, 2), torch.arange(5)
  local ds = data.TensorDataset(x, y)
  T.eq(#ds, 5)
  local item = ds[2]
  T.close(item[1], {4, 5})
  T.eq(item[2]:item(), 2)
  T.eq(torch._echo(item), '(tensor([4, 5]), tensor(2))', "a tuple, as PyTorch's dataset[2]")
  T.raises(function() data.TensorDataset(x, torch.arange(4)) end, 'AssertionError: Size mismatch between tensors')
end)

T.test('batch counts and sizes, drop_last', function()
  local ds = RandomDataset(5, 100)
  local loader = data.DataLoader{dataset = ds, batch_size = 30, shuffle = true}
  T.eq(#loader, 4)
  T.eq(sizes(loader), '30,30,30,10')
  local dl = data.DataLoader(ds, {batch_size = 30, drop_last = true})
  T.eq(#dl, 3)
  T.eq(sizes(dl), '30,30,30')
  T.eq(#data.DataLoader(ds), 100, 'batch_size defaults to 1')
  local b = data.DataLoader(ds, {batch_size = 30})
  for batch in b do
    T.eq(tostring(batch.shape), 'torch.Size([30, 5])')
    T.eq(batch:eq(ds.data:narrow(0, 0, 30)):all():item(), true, 'unshuffled order')
    break
  end
end)

T.test('shuffle follows torch.manual_seed and covers every item', function()
  local ds = data.TensorDataset(torch.arange(20))
  local loader = data.DataLoader(ds, {batch_size = 8, shuffle = true})
  local function epoch()
    local out = {}
    for batch in loader do
      for _, v in ipairs(batch[1]:tolist()) do out[#out + 1] = v end
    end
    return out
  end
  torch.manual_seed(3)
  local a = epoch()
  local b = epoch()
  torch.manual_seed(3)
  local c = epoch()
  T.eq(table.concat(a, ','), table.concat(c, ','), 'same seed, same order')
  T.truthy(table.concat(a, ',') ~= table.concat(b, ','), 'a new epoch reshuffles')
  local expect = {}
  for i = 0, 19 do expect[#expect + 1] = i end
  table.sort(a)
  T.eq(table.concat(a, ','), table.concat(expect, ','))
  T.truthy(table.concat(c, ',') ~= table.concat(expect, ','), 'shuffled')
end)

-- The orders PyTorch 2.x gives after torch.manual_seed(0):
--   [b.tolist() for b in DataLoader(list(range(10)), batch_size=4, shuffle=True)]   (twice)
--   then DataLoader(..., batch_size=5, shuffle=True, drop_last=True), then torch.randn(2)
local function batches(loader)
  local out = {}
  for b in loader do
    local t = type(b) == 'table' and b[1] or b
    out[#out + 1] = table.concat(t:tolist(), ',')
  end
  return table.concat(out, ' ')
end
local function range(n) local t = {} for i = 1, n do t[i] = i - 1 end return t end

T.test('shuffled orders and the default generator advance exactly as in PyTorch', function()
  torch.manual_seed(0)
  T.eq(batches(data.DataLoader(range(10), {batch_size = 4, shuffle = true})), '6,7,1,4 2,0,9,8 3,5')
  T.eq(batches(data.DataLoader(range(10), {batch_size = 4, shuffle = true})), '2,4,7,0 8,9,5,3 6,1')
  T.eq(batches(data.DataLoader(range(10), {batch_size = 5, shuffle = true, drop_last = true})), '7,4,5,1,9 3,8,2,0,6')
  -- an unshuffled epoch draws its base seed too
  T.eq(batches(data.DataLoader(data.TensorDataset(torch.arange(7)), {batch_size = 3})), '0,1,2 3,4,5 6')
  T.close(torch.randn(2), {-0.7830641269683838, 1.0621709823608398}, 1e-7)
end)

T.test('torch.Generator: its own stream, for randperm and DataLoader', function()
  local g = torch.Generator()
  T.eq(g:initial_seed(), 67280421310721)
  T.eq(g:manual_seed(5), g)
  -- DataLoader(list(range(9)), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(5)), twice,
  -- then the same generator in DataLoader(list(range(8)), batch_size=4, shuffle=True, drop_last=True), twice
  local dl = data.DataLoader(range(9), {batch_size = 3, shuffle = true, generator = g})
  T.eq(batches(dl), '7,6,8 0,1,4 5,3,2')
  T.eq(batches(dl), '3,8,2 6,1,0 7,4,5')
  local dl2 = data.DataLoader(range(8), {batch_size = 4, shuffle = true, drop_last = true, generator = g})
  T.eq(batches(dl2), '1,0,6,2 3,7,4,5')
  T.eq(batches(dl2), '3,7,0,5 4,6,1,2')
  T.eq(table.concat(torch.randperm(6, {generator = g}):tolist(), ','), '0,3,4,2,5,1')
  local a = torch.Generator():manual_seed(123)
  local b = torch.Generator():manual_seed(123)
  T.eq(table.concat(torch.randperm(50, {generator = a}):tolist(), ','), table.concat(torch.randperm(50, {generator = b}):tolist(), ','))
  T.raises(function() data.DataLoader(range(3), {generator = 1}) end,
    'TypeError: DataLoader: generator must be a torch.Generator, got number')
end)

T.test('batch_size=false is PyTorch\'s None: items one by one', function()
  torch.manual_seed(0)
  local loader = data.DataLoader(range(5), {batch_size = false, shuffle = true})
  T.eq(#loader, 5)
  local out = {}
  for v in loader do out[#out + 1] = v end
  T.eq(table.concat(out, ','), '1,4,2,3,0')  -- [int(b) for b in DataLoader(list(range(5)), batch_size=None, shuffle=True)]
end)

T.test('each for loop is a new epoch; iter() and enumerate()', function()
  local loader = data.DataLoader(data.TensorDataset(torch.arange(10)), {batch_size = 4})
  local n = 0
  for _ in loader do n = n + 1; break end
  T.eq(sizes(loader), '4,4,2', 'a loop after a break starts over')
  local it = loader:iter()
  T.close(it()[1], {0, 1, 2, 3})
  T.close(it()[1], {4, 5, 6, 7})
  local idx = {}
  for i, batch in loader:enumerate() do idx[#idx + 1] = i .. ':' .. batch[1]:size(0) end
  T.eq(table.concat(idx, ' '), '0:4 1:4 2:2')
end)

T.test('default_collate', function()
  local c = data.default_collate
  T.eq(c({1, 2, 3}).dtype, torch.int64)
  T.eq(c({1.5, 2.5}).dtype, torch.float64)
  local batch = c({{torch.ones(2), 1}, {torch.zeros(2), 0}})
  T.eq(tostring(batch[1].shape), 'torch.Size([2, 2])')
  T.close(batch[2], {1, 0})
  local d = c({{x = torch.ones(3), label = 'a'}, {x = torch.ones(3), label = 'b'}})
  T.eq(tostring(d.x.shape), 'torch.Size([2, 3])')
  T.eq(table.concat(d.label, ','), 'a,b')
  -- a custom dataset returning tables goes through collate too
  local Pairs = data.Dataset:extend('Pairs')
  function Pairs:__getitem(i) return {torch.full({2}, i), i} end
  function Pairs:__len() return 5 end
  local loader = data.DataLoader(Pairs(), {batch_size = 2})
  local first = loader:iter()()
  T.close(first[1], {{0, 0}, {1, 1}})
  T.close(first[2], {0, 1})
end)

T.test('Subset and plain arrays as datasets', function()
  local sub = data.Subset(data.TensorDataset(torch.arange(10)), {7, 3})
  T.eq(#sub, 2)
  T.eq(sub[0][1]:item(), 7)
  local loader = data.DataLoader({10, 20, 30}, {batch_size = 2})
  local out = {}
  for b in loader do out[#out + 1] = tostring(b:tolist()[1]) end
  T.eq(table.concat(out, ','), '10,30')
end)

T.test("datasets and loaders print as Python's default repr", function()
  local ds = torch.utils.data.TensorDataset(torch.ones(2))
  T.truthy(tostring(ds):match('^<torch%.utils%.data%.dataset%.TensorDataset object at 0x%x+>$'), tostring(ds))
  local dl = torch.utils.data.DataLoader(ds)
  T.truthy(tostring(dl):match('^<torch%.utils%.data%.dataloader%.DataLoader object at 0x%x+>$'), tostring(dl))
  local D = torch.utils.data.Dataset:extend('MyData')
  T.truthy(tostring(D()):match('^<__main__%.MyData object at 0x%x+>$'), tostring(D()))
end)

-- Note [for X, y in loader]: the loop's names decide, as Python's unpacking.
T.test('for X, y in loader unpacks each batch; for batch in loader keeps it whole', function()
  local X, y = torch.arange(20.):reshape(10, 2), torch.arange(10)
  local loader = data.DataLoader(data.TensorDataset(X, y), {batch_size = 4})
  local seen = {}
  for Xb, yb in loader do seen[#seen + 1] = {Xb:size(0), yb:sum():item(), Xb[0][1]:item()} end
  T.eq(#seen, 3)
  T.eq(seen[1][1], 4); T.eq(seen[1][2], 6); T.eq(seen[3][1], 2); T.eq(seen[3][3], 17)
  local wholes = 0
  for batch in loader do
    T.eq(#batch, 2); T.truthy(torch.is_tensor(batch[2]))
    wholes = wholes + 1
  end
  T.eq(wholes, 3)
  -- a loop started again starts a new epoch in either form, nested in another loop too
  local sums = {}
  for _ = 1, 2 do for _, yb in loader do sums[#sums + 1] = yb:sum():item() end end
  T.eq(table.concat(sums, ' '), '6 22 17 6 22 17')
  -- enumerate: (i, batch) or (i, X, y), i from 0
  local got = {}
  for i, Xb, yb in loader:enumerate() do got[#got + 1] = i .. ':' .. Xb:size(0) .. ':' .. yb[0]:item() end
  T.eq(table.concat(got, ' '), '0:4:0 1:4:4 2:2:8')
  for i, b in loader:enumerate() do T.eq(#b, 2, 'enumerate with two names keeps the batch') end
  -- two loops on one line: the same count is known; different counts cannot
  -- be told apart, and the batch comes whole, as Lua's rule has it
  local a, b = 0, 0
  for Xb, yb in loader do a = a + yb:size(0) end for Xb, yb in loader do b = b + Xb:size(0) end
  T.eq(a, 10); T.eq(b, 10)
  for Xb, yb in loader do a = yb end for batch in loader do b = batch end
  T.eq(a, nil); T.eq(#b, 2)
  -- batch_size=false (None): each item is a tuple, unpacked the same way
  for Xi, yi in data.DataLoader(data.TensorDataset(X, y), {batch_size = false}) do
    T.eq(Xi:dim(), 1); T.eq(yi:item(), 0)
    break
  end
end)

T.test("unpacking a batch into the wrong number of names is Python's ValueError", function()
  local loader = data.DataLoader(data.TensorDataset(torch.ones(4, 2), torch.zeros(4)), {batch_size = 2})
  T.raises(function() for a, b, c in loader do end end, 'ValueError: not enough values to unpack (expected 3, got 2)')
  local three = data.DataLoader(data.TensorDataset(torch.ones(4, 2), torch.zeros(4), torch.zeros(4)), {batch_size = 2})
  T.raises(function() for a, b in three do end end, 'ValueError: too many values to unpack (expected 2)')
  -- a dataset of single tensors yields tensors, whatever the names
  local rows = data.DataLoader(torch.ones(4, 3):unbind(), {batch_size = 2})
  for a, b in rows do T.eq(a:size(0), 2); T.eq(b, nil) end
end)

T.test("iter() and next(), as Python's: X, y = next(iter(loader))", function()
  local ds = data.TensorDataset(torch.arange(8.):reshape(4, 2), torch.arange(4))
  local loader = data.DataLoader(ds, {batch_size = 2})
  local X, y = next(iter(loader))
  T.eq(tostring(X.shape), 'torch.Size([2, 2])')
  T.eq(tostring(y), 'tensor([0, 1])')
  local batch = next(iter(loader))
  T.eq(#batch, 2, 'one name keeps the batch whole')
  local it = iter(loader)
  T.eq(rawequal(iter(it), it), true, 'iter of an iterator is itself')
  local _, y2 = next(it)
  local _, y3 = next(it)
  T.eq(y2[0]:item() .. y3[0]:item(), '02')
  T.eq(next(it, 'done'), 'done')
  T.eq(next(it, nil), nil, 'an explicit nil default')
  T.raises(function() next(it) end, 'StopIteration')
  T.raises(function() local a, b, c = next(iter(loader)) end, 'ValueError: not enough values to unpack (expected 3, got 2)')
  T.raises(function() next(loader) end,
           "TypeError: 'DataLoader' object is not an iterator\nhint: iter(loader) makes one: X, y = next(iter(loader))")
  T.raises(function() iter(3) end, "TypeError: 'int' object is not iterable")
  -- lists, tuples, tensors, datasets, functions
  T.eq(next(iter({'a', 'b'})), 'a')
  T.eq(next(iter(torch.arange(5):split(2)))[0]:item(), 0)
  T.eq(tostring(next(iter(torch.arange(6):reshape(3, 2)))), 'tensor([0, 1])')
  local Xi, yi = next(iter(ds))
  T.eq(yi:item(), 0)
  local n = 0
  T.eq(next(iter(function() n = n + 1; return n end)), 1)
  -- a loop over an iterator unpacks as a loop over the loader
  local seen = {}
  for Xb, yb in iter(loader) do seen[#seen + 1] = yb:sum():item() end
  T.eq(table.concat(seen, ' '), '1 5')
  -- Lua's next on tables is Lua's
  local k, v = next({x = 1})
  T.eq(k .. v, 'x1')
  T.eq(next({}), nil)
  T.eq(tostring(iter(loader)):match('^<torch%.utils%.data%.dataloader%._SingleProcessDataLoaderIter object at 0x%x+>$') ~= nil, true)
end)

T.finish()
