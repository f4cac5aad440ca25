-- Malformed calls, generated: every one must raise a Lua error (never crash,
-- never succeed silently), and the session must carry on with its tensors intact.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local keep = torch.arange(6):view(2, 3)
local keep_text = tostring(keep)

local bad_values = {
  {'nil', nil}, {'string', 'abc'}, {'function', print}, {'table of strings', {'a', 'b'}},
  {'nan', 0 / 0}, {'huge', 1 << 62}, {'negative', -5}, {'bool', true}, {'nested bad', {{1, 2}, {3}}},
}
local a = torch.ones(2, 3)
local b = torch.ones(4, 5)

-- Functions whose first (or only) argument must be a size or tensor.
local creators = {'zeros', 'ones', 'empty', 'rand', 'randn'}
local calls = {}
local function add(name, fn) calls[#calls + 1] = {name, fn} end

for _, c in ipairs(creators) do
  for _, v in ipairs(bad_values) do
    if v[1] ~= 'nil' and v[1] ~= 'bool' then add(c .. '(' .. v[1] .. ')', function() return torch[c](v[2]) end) end
    add(c .. '(2, ' .. v[1] .. ')', function() return torch[c](2, v[2] == nil and 'x' or v[2]) end)
    add(c .. '{2, device=' .. v[1] .. '}', function() return torch[c]{2, device = v[2] == nil and 'gpu' or v[2]} end)
    add(c .. '{2, dtype=' .. v[1] .. '}', function() return torch[c]{2, dtype = v[2] == nil and 'float99' or v[2]} end)
  end
end
-- Binary ops with wrong operands.
for _, op in ipairs({'add', 'sub', 'mul', 'div', 'matmul', 'mm', 'eq', 'lt', 'maximum', 'pow'}) do
  for _, v in ipairs(bad_values) do
    if v[1] ~= 'negative' and v[1] ~= 'nan' and v[1] ~= 'huge' and v[1] ~= 'bool' then
      add(op .. '(t, ' .. v[1] .. ')', function() return a[op](a, v[2]) end)
    end
  end
  if op ~= 'pow' then add(op .. ' shape mismatch', function() return a[op](a, b) end) end
end
-- Dims out of range and bad dim types, on every dim-taking method.
for _, m in ipairs({'sum', 'mean', 'argmax', 'unsqueeze', 'squeeze', 'softmax', 'log_softmax', 'chunk', 'transpose', 'select', 'narrow', 'flatten', 'max', 'min', 'prod', 'norm', 'cumsum_missing'}) do
  for _, d in ipairs({99, -99, 'x', {'bad'}, 2.5}) do
    add(m .. '(dim=' .. tostring(d) .. ')', function()
      if m == 'chunk' then return a:chunk(2, d) end
      if m == 'transpose' then return a:transpose(0, d) end
      if m == 'select' then return a:select(d, 0) end
      if m == 'narrow' then return a:narrow(d, 0, 1) end
      if m == 'flatten' then return a:flatten(d) end
      if m == 'norm' then return a:norm(2, d) end
      if m == 'cumsum_missing' then return a:cumsum(d) end
      return a[m](a, d)
    end)
  end
end
-- Views and indexing.
for _, s in ipairs({{7}, {-2, -2}, {4, 4}, {'a'}, {2.5, 2}}) do
  add('view' .. #s, function() return a:view(table.unpack(s)) end)
  add('reshape' .. #s, function() return a:reshape(table.unpack(s)) end)
  add('expand' .. #s, function() return a:expand(table.unpack(s)) end)
  add('permute' .. #s, function() return a:permute(table.unpack(s)) end)
end
for _, k in ipairs({5, -5, '9', '0,0,0', 'x:y', '::0', 2.5, true, print, {print}, '..., ...'}) do
  add('index ' .. tostring(k), function() return a[k] end)
  add('assign ' .. tostring(k), function() a[k] = 1 end)
end
add('assign string', function() a[0] = 'x' end)
add('assign table', function() a[0] = {} end)
-- Devices.
for _, d in ipairs({'gpu', 'cuda:-1', 'cuda:x', 'cuda:99', 'cpu:1', 'cuda:01', '', 99, -1}) do
  add('device ' .. tostring(d), function() return torch.device(d) ~= nil and torch.ones(1, {device = d}) end)
  add('to ' .. tostring(d), function() return a:to(d) end)
end
add('cuda(99)', function() return a:cuda(99) end)
add('set_device(99)', function() torch.cuda.set_device(99) end)
add('set_device(-1)', function() torch.cuda.set_device(-1) end)
add('huge cuda alloc', function() return torch.empty(1 << 42, {device = 'cuda:0'}) end)
add('huge cpu alloc', function() return torch.empty(1 << 50) end)
add('overflowing shape', function() return torch.empty(1 << 40, 1 << 40) end)
-- Creation functions with bad data.
for _, d in ipairs({{1, 'a'}, {{1, 2}, {1}}, {{1}, 2}, {print}, 'abc'}) do
  add('tensor bad data', function() return torch.tensor(d) end)
end
add('arange step 0', function() return torch.arange(0, 5, 0) end)
add('arange inf', function() return torch.arange(0, 1 / 0) end)
add('arange wrong sign', function() return torch.arange(5, 0, 1) end)
add('randint empty range', function() return torch.randint(5, 5, {3}) end)
add('linspace negative', function() return torch.linspace(0, 1, -1) end)
add('eye negative', function() return torch.eye(-1) end)
add('cat empty', function() return torch.cat({}) end)
add('cat mismatch', function() return torch.cat({a, b}) end)
add('cat not tensors', function() return torch.cat({1, 2}) end)
add('stack mismatch', function() return torch.stack({a, b}) end)
add('item of many', function() return a:item() end)
add('backward no grad', function() a:sum():backward() end)
add('backward non-scalar', function() local w = torch.ones(2, {requires_grad = true}); (w * 2):backward() end)
add('requires_grad on ints', function() torch.ones(2, {dtype = torch.int64}):requires_grad_() end)
add('int division by zero', function() return torch.tensor({1, 2}) % 0 end)
add('integer negative pow', function() return torch.tensor({2}) ^ -1 end)
add('mean of ints', function() return torch.tensor({1, 2}):mean() end)
add('max of empty', function() return torch.tensor({}):max() end)
add('bool negation', function() return -torch.tensor({true}) end)
add('unknown attribute', function() return a.nonexistent end)
add('set unknown attribute', function() a.shape = 3 end)
add('mm dtype mismatch', function() return torch.ones(2, 2):mm(torch.ones(2, 2, {dtype = torch.float64})) end)
add('unexpected keyword', function() return torch.zeros(2, {devcie = 'cpu'}) end)
-- 0-d tensors have no dim 0 to split or read; absent arguments (index 0 on the Lua stack) once crashed.
add('split 0-d', function() return torch.tensor(3):split(1) end)
add('split 0-d no size', function() return torch.tensor(3):split() end)
add('size of 0-d', function() return torch.tensor(3):size(0) end)
add('stride of 0-d', function() return torch.tensor(3):stride(-1) end)
add('unbind 0-d', function() return torch.tensor(3):unbind() end)
add('tensor(nil, opts)', function() return torch.tensor(nil, {dtype = torch.float64}) end)
add('div nil with rounding_mode', function() return torch.div(a, nil, {rounding_mode = 'floor'}) end)
add('add nil with alpha', function() return a:add(nil, {alpha = 2}) end)
add('set_printoptions bad sci_mode', function() torch.set_printoptions{sci_mode = 'yes'} end)
add('set_printoptions bad profile', function() torch.set_printoptions{profile = 'nope'} end)

for _, c in ipairs(calls) do
  local ok, err = pcall(c[2])
  if ok then T.check(false, '(no error) ' .. c[1])
  else
    T.check(type(err) == 'string' and err:match('^%u%a+Error: ') ~= nil,
            '(error without a Python-style kind) ' .. c[1] .. ' -> ' .. tostring(err))
  end
end
-- Random calls (fixed seed): every torch function and tensor method with 0-3
-- arguments drawn from odd values. Only survival is checked (some calls are
-- valid); this found a segfault on 0-d tensors and absent arguments.
do
  local odd = {0, -1, 2, 1 << 62, 0 / 0, 1 / 0, 2.5, true, 'x', '::', {}, {1}, {{1}}, {-1, -1}, {dim = 99}, print,
    torch.ones(2, 3), torch.zeros(0), torch.tensor(3), torch.tensor({true}), torch.ones(2, {device = 'cuda:1'}),
    torch.ones(3, 2, {dtype = torch.float16}), torch.arange(5), torch.float64, torch.device('cuda:1'), torch.Size({2})}
  local bases = {torch.ones(2, 3), torch.zeros(0), torch.tensor(3), torch.tensor({true, false}),
    torch.ones(2, {device = 'cuda:0'}), torch.arange(6):view(2, 3), torch.ones(2, {dtype = torch.float16})}
  local stateful = {save = true, load = true, manual_seed = true, set_printoptions = true, set_grad_enabled = true,
    no_grad = true, enable_grad = true, set_default_dtype = true}
  local names = {}
  for k, v in pairs(torch) do
    if type(v) == 'function' and not stateful[k] and k:sub(1, 1) ~= '_' then names[#names + 1] = k end
  end
  for _, m in ipairs({'view', 'reshape', 'transpose', 'permute', 'unsqueeze', 'squeeze', 'expand', 'chunk', 'split',
    'narrow', 'select', 'flatten', 'item', 'tolist', 'copy_', 'fill_', 'to', 'cuda', 'type', 'size', 'stride',
    'unbind', 'index_select', 'repeat', 'new_full', 'new_tensor', 'uniform_', 'normal_', 'backward'}) do
    names[#names + 1] = m
  end
  table.sort(names)
  math.randomseed(7)
  local survived = 0
  for _, f in ipairs(names) do
    for _ = 1, 30 do
      local args, k = {}, math.random(0, 3)
      for j = 1, k do args[j] = odd[math.random(1, #odd + 1)] end  -- #odd + 1: nil
      local base = bases[math.random(1, #bases)]
      local fn = rawget(torch, f)
      pcall(function() if fn then fn(table.unpack(args, 1, k)) end end)
      pcall(function() local mfn = base[f]; if type(mfn) == 'function' then mfn(base, table.unpack(args, 1, k)) end end)
      survived = survived + 1
    end
  end
  torch.set_printoptions{profile = 'default'}
  collectgarbage()
  T.check(survived == #names * 30, 'random calls')
end
-- Exact errors, kind and text, as PyTorch 2.15 raises them (each checked against it).
local function exact(want, fn)
  local ok, e = pcall(fn)
  T.check(not ok and e == want, '(want ' .. want .. ')\n  got: ' .. tostring(ok and 'no error' or e))
end
local function assign(t, k, v) t[k] = v end
local u8 = {dtype = torch.uint8}
exact('RuntimeError: value cannot be converted to type uint8 without overflow', function() return torch.tensor({300}, u8) end)
exact('RuntimeError: value cannot be converted to type uint8 without overflow', function() return torch.tensor({-256}, u8) end)
exact("RuntimeError: shape '[4611686018427387904, 4611686018427387904]' is invalid for input of size 4", function() return torch.ones(4):view(1 << 62, 1 << 62) end)
exact("RuntimeError: shape '[-1, 4611686018427387904, 4611686018427387904]' is invalid for input of size 4", function() return torch.ones(4):view(-1, 1 << 62, 1 << 62) end)
exact('RuntimeError: numel: integer multiplication overflow', function() return torch.ones(0):view(1 << 62, 1 << 62, 0) end)
exact('RuntimeError: value cannot be converted to type uint8 without overflow', function() return torch.tensor({-0.5}, u8) end)
exact('RuntimeError: value cannot be converted to type uint8 without overflow', function() return torch.tensor(256.0, u8) end)
exact('RuntimeError: value cannot be converted to type int8 without overflow', function() return torch.tensor({1, 200}, {dtype = torch.int8}) end)
exact('RuntimeError: value cannot be converted to type int8 without overflow', function() return torch.tensor({-128.5}, {dtype = torch.int8}) end)
exact('RuntimeError: value cannot be converted to type int16 without overflow', function() return torch.tensor({{1}, {70000}}, {dtype = torch.int16}) end)
exact('RuntimeError: value cannot be converted to type int32 without overflow', function() return torch.tensor({1 << 40}, {dtype = torch.int32}) end)
exact('RuntimeError: value cannot be converted to type int64 without overflow', function() return torch.tensor({0 / 0}, {dtype = torch.int64}) end)
exact('RuntimeError: value cannot be converted to type int64 without overflow', function() return torch.tensor({2.0 ^ 63}, {dtype = torch.int64}) end)
exact('RuntimeError: value cannot be converted to type int32 without overflow', function() return torch.tensor({1 / 0}, {dtype = torch.int32}) end)
exact('RuntimeError: zeros: Dimension size must be non-negative.', function() return torch.zeros(2, -1) end)
exact('RuntimeError: Trying to create tensor with negative dimension -1: [-1]', function() return torch.ones(-1) end)
exact('RuntimeError: narrow(): length must be non-negative.', function() return torch.arange(5):narrow(0, 0, -1) end)
exact('RuntimeError: narrow(): length must be non-negative.', function() return torch.arange(5):narrow(0, 6, -1) end)
exact('IndexError: select(): index 5 out of range for tensor of size [5] at dimension 0', function() return torch.arange(5):select(0, 5) end)
exact('IndexError: select(): index -3 out of range for tensor of size [2, 3] at dimension 0', function() return torch.ones(2, 3):select(0, -3) end)
exact('IndexError: select() cannot be applied to a 0-dim tensor.', function() return torch.tensor(5):select(0, 0) end)
exact('RuntimeError: The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [4]',
      function() assign(torch.zeros(3), ':', torch.ones(4)) end)
exact('RuntimeError: The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [2].  Tensor sizes: [3]',
      function() assign(torch.zeros(2, 3), ':, 0', torch.ones(3)) end)
exact('RuntimeError: expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)',
      function() assign(torch.zeros(3), ':', torch.ones(2, 3)) end)
exact('RuntimeError: expand(torch.LongTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)',
      function() return torch.ones(2, 3, {dtype = torch.int64}):expand(3) end)
exact('RuntimeError: expand(CPUBoolType{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)',
      function() return torch.ones(2, 3, {dtype = torch.bool}):expand(3) end)
exact('RuntimeError: expand(torch.cuda.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)',
      function() return torch.ones(2, 3, {device = 'cuda:0'}):expand(3) end)
exact('RuntimeError: The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [-1, 4].  Tensor sizes: [2, 3]',
      function() return torch.ones(2, 3):expand(-1, 4) end)
exact('RuntimeError: numel: integer multiplication overflow', function() return torch.ones(1):expand(-2) end)
exact('RuntimeError: invalid shape dimension -2 at index 0 of shape [-2]', function() return torch.ones(2):view(-2) end)
exact('RuntimeError: cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any value and is ambiguous',
      function() return torch.ones(0):reshape(0, -1) end)
exact("RuntimeError: amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
      function() return torch.zeros(0):amax() end)
exact('IndexError: amin(): Expected reduction dim 0 to have non-zero size.', function() return torch.zeros(0, 3):amin(0) end)
exact("RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
      function() return torch.zeros(0):max() end)
exact('ValueError: torch.cat(): expected a non-empty list of Tensors', function() return torch.cat({}) end)
exact('RuntimeError: For integral input tensors, argument alpha must not be a floating point number.',
      function() return torch.tensor({true, false}):add(torch.tensor({true, true}), {alpha = 2.5}) end)
exact('RuntimeError: For integral input tensors, argument alpha must not be a floating point number.',
      function() return torch.tensor({1, 2}):add(1, {alpha = 0.5}) end)
exact('RuntimeError: Boolean alpha only supported for Boolean results.', function() return torch.tensor({1, 2}):add(torch.tensor({1, 2}), {alpha = true}) end)
exact('NotImplementedError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
      function() return torch.tensor({1, 2}):sub(torch.tensor({true, false}), {alpha = 2}) end)
local mask = torch.tensor({true, false, true, false})
exact('RuntimeError: shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2]',
      function() assign(torch.arange(4), mask, torch.tensor({1, 2, 3})) end)
exact('RuntimeError: shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of shape [1, 3]',
      function() assign(torch.arange(6):view(2, 3), torch.tensor({true, false}), torch.tensor({7, 8})) end)
exact('RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination and Long for the source.',
      function() assign(torch.zeros(4), mask, torch.tensor({10, 20})) end)
exact('RuntimeError: value cannot be converted to type uint8_t without overflow', function() assign(torch.zeros(4, u8), mask, 300) end)
exact('RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)', function() return torch.ones(2, 3):matmul(torch.ones(2, 3)) end)
exact('RuntimeError: mm: self must be a matrix, got 1-D tensor', function() return torch.ones(3):mm(torch.ones(3, 2)) end)
exact('RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x4 and 3x2)', function() return nn.Linear(3, 2)(torch.ones(2, 4)) end)
exact('RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].',
      function() return torch.ones(2, 2, 3):bmm(torch.ones(3, 3, 2)) end)
exact([[NotImplementedError: "softmax_kernel_impl" not implemented for 'Long']], function() return torch.ones(2, 3, {dtype = torch.int64}):softmax(0) end)
exact([[NotImplementedError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long']],
      function() return torch.nn.functional.cross_entropy(torch.ones(2, 3, {dtype = torch.int64}), torch.tensor({0, 1})) end)
exact('RuntimeError: expected target dtype to be Long or Byte, but got Int',
      function() return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor({0, 1}, {dtype = torch.int32})) end)
exact('RuntimeError: expected target dtype to be Long or Byte, but got Float',
      function() return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor({0.5, 1})) end)
exact('RuntimeError: Expected floating point type for target with class probabilities, got Long',
      function() return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.ones(2, 3, {dtype = torch.int64})) end)
exact('ValueError: Expected input batch_size (2) to match target batch_size (3).',
      function() return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor({0, 1, 2})) end)
exact('ValueError: dropout probability has to be between 0 and 1, but got 1.5', function() return torch.nn.functional.dropout(torch.ones(3), {p = 1.5}) end)
exact('RuntimeError: upper bound and lower bound inconsistent with step sign', function() return torch.arange(0, 5, -1) end)
exact('IndexError: index_select(): Index is supposed to be a vector', function() return torch.ones(2, 3):index_select(0, torch.tensor({{0}})) end)
exact('RuntimeError: index_select(): Index to scalar can have only 1 value, got 2 value(s)', function() return torch.tensor(5.):index_select(0, torch.tensor({0, 0})) end)
exact('RuntimeError: index_select(): Index to scalar can have only 1 value, got 0 value(s)',
      function() return torch.index_select(torch.tensor(5.), 0, torch.tensor({}, {dtype = torch.int64})) end)
exact('IndexError: index out of range in self', function() return torch.tensor(5.):index_select(0, torch.tensor(-1)) end)
exact('IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)', function() return torch.tensor(5.):index_select(1, torch.tensor(0)) end)
exact('TypeError: permute() missing 1 required positional arguments: "dims"', function() return torch.ones(2, 3):permute() end)
exact('RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char',
      function() assign(torch.zeros(3), torch.tensor({1, 0, 1}, u8), 1) end)
exact('NotImplementedError: argmax(): does not support bool input', function() return torch.tensor({true}):argmax() end)
exact('NotImplementedError: argmin(): does not support bool input', function() return torch.tensor({true}):argmin(0) end)
exact('RuntimeError: Only Tensors of floating point and complex dtype can require gradients',
      function() return torch.ones(3, {dtype = torch.int64, requires_grad = true}) end)
exact('RuntimeError: Only Tensors of floating point and complex dtype can require gradients', function() return torch.tensor({1}, {requires_grad = true}) end)
exact('RuntimeError: only Tensors of floating point dtype can require gradients', function() return torch.tensor({1}):requires_grad_() end)
exact('NotImplementedError: Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
      function() return torch.tensor({true}):neg() end)
exact('NotImplementedError: std and var only support floating point and complex dtypes', function() return torch.ones(2, 3, {dtype = torch.int64}):var() end)
exact('RuntimeError: fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.', function() return torch.ones(3):fill_(torch.ones(2)) end)
exact('RuntimeError: value cannot be converted to type c10::Half without overflow', function() return torch.zeros(2, {dtype = torch.float16}):fill_(65520.0) end)
exact('RuntimeError: value cannot be converted to type c10::BFloat16 without overflow', function() return torch.zeros(2, {dtype = torch.bfloat16}):fill_(1e39) end)
exact('RuntimeError: linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity',
      function() return torch.zeros(0):norm(1 / 0) end)
exact('RuntimeError: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0',
      function() return torch.ones(2, 3):masked_select(torch.ones(3, 3):bool()) end)
exact('RuntimeError: split expects split_size be non-negative, but got split_size=-1', function() return torch.ones(2, 3):split(-1) end)
exact('IndexError: start out of range (expected to be in range of [-2, 2], but got -3)', function() return torch.ones(2, 3):narrow(0, -3, 1) end)
exact('IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 5)', function() return torch.tensor(3.):flatten(5) end)
exact('RuntimeError: value cannot be converted to type uint8 without overflow', function() return torch.ones(2):new_tensor({300}, u8) end)

-- torch.set_num_threads: PyTorch's checks and words; the count comes back from get_num_threads.
exact('RuntimeError: set_num_threads expects a positive integer', function() return torch.set_num_threads(0) end)
exact('RuntimeError: set_num_threads expects an int, but got float', function() return torch.set_num_threads(2.5) end)
exact('RuntimeError: set_num_threads expects an int, but got str', function() return torch.set_num_threads('2') end)
exact('RuntimeError: set_num_threads expects an int, but got NoneType', function() return torch.set_num_threads(nil) end)
exact('TypeError: torch.set_num_threads() takes exactly one argument (0 given)', function() return torch.set_num_threads() end)
exact('ValueError: Overflow when unpacking long', function() return torch.set_num_threads(1 << 31) end)
do
  local before = torch.get_num_threads()
  T.check(math.type(before) == 'integer' and before >= 1, 'get_num_threads: ' .. tostring(before))
  torch.set_num_threads(1)
  T.check(torch.get_num_threads() == 1, 'set_num_threads(1) then get_num_threads')
  T.check(torch.ones(1000, 1000):sum():item() == 1e6, 'a parallel-sized sum on one thread')
  torch.set_num_threads(0x7fffffff)  -- reported back, but no more threads than processors run
  T.check(torch.get_num_threads() == 0x7fffffff, 'set_num_threads(2^31 - 1): ' .. torch.get_num_threads())
  T.check(torch.ones(1000, 1000):sum():item() == 1e6, 'a parallel-sized sum after set_num_threads(2^31 - 1)')
  torch.set_num_threads(before)
  T.check(torch.get_num_threads() == before, 'set_num_threads back')
end
T.check(tostring(keep) == keep_text, 'earlier tensor changed')
assert(#calls >= 300, 'expected at least 300 generated calls, got ' .. #calls)
print(string.format('%d malformed calls', #calls))
T.finish()
