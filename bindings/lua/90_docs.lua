-- Doc strings for the functions written in Lua, so that help(f) answers for
-- them as for the bound C functions (tests/lua/test_docs.lua checks that every
-- public function has one). Runs after every other file of the Lua half, at the
-- first read of a doc (Note [Docs on first use], bindings/open.cpp).
-- Keyed by name, not by function: a name some build lacks is skipped.

-- The doc chunks walk their tables in sorted order: where two names reach one
-- function (torch.multinomial and x:multinomial are one C function), the same
-- name's doc and example win on every start, which pairs' order (it follows
-- Lua's per-state hash seed) did not promise.
function torch._util.sorted_pairs(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end
end

local docs = {
  ['torch.save'] = 'torch.save(obj, path): write a tensor, a table of tensors or a state_dict to path\n'
    .. 'in the safetensors format, recording each tensor\'s device. The file is replaced atomically.',
  ['torch.load'] = 'torch.load(path, {map_location=}): read what torch.save wrote (or any safetensors file).\n'
    .. 'map_location: a device string, a torch.device, or a table such as {["cuda:1"]="cuda:0"}.',
  ['torch.no_grad'] = 'torch.no_grad(fn, ...): run fn without recording gradients and return its results;\n'
    .. 'torch.no_grad() alone returns a guard for `local _ <close> = torch.no_grad()`.',
  ['torch.enable_grad'] = 'torch.enable_grad(fn, ...): run fn with gradient recording on (inside no_grad);\n'
    .. 'torch.enable_grad() alone returns a guard for `local _ <close> = torch.enable_grad()`.',
  ['torch.randperm'] = 'torch.randperm(n, {dtype=torch.int64, device=, generator=}): a random permutation of 0..n-1,\n'
    .. 'drawn as PyTorch draws it on the CPU (the same numbers after the same manual_seed).',
  ['torch.Generator'] = 'torch.Generator(): a CPU random generator of its own (mt19937, as PyTorch\'s);\n'
    .. 'g:manual_seed(s) seeds it, and functions that take {generator=g} draw from it.',
  ['nn.Parameter'] = 'nn.Parameter(tensor, requires_grad=true): a tensor a module registers as its parameter\n'
    .. 'when assigned to one of its fields; prints as "Parameter containing:".',
  ['torch.utils.data.default_collate'] = 'default_collate(samples): stack a list of samples into a batch\n'
    .. '(tensors stacked along a new dim 0, numbers into a tensor, tables field by field).',
  ['torch.as_tensor'] = 'torch.as_tensor(data, {dtype=, device=}): data as a tensor; a tensor that already has this\n'
    .. 'dtype and device is returned itself (no copy), others are converted; a Lua table goes through torch.tensor.',
  ['torch.utils.data.random_split'] = 'random_split(dataset, lengths, {generator=}): Subsets of a random permutation, as PyTorch\'s\n'
    .. '(lengths: counts, or fractions summing to 1); one result per split: local train, val = random_split(ds, {0.8, 0.2}).',
}
local init = {
  calculate_gain = 'calculate_gain(nonlinearity, param): the recommended gain for an init (relu: sqrt(2), tanh: 5/3, ...).',
  constant_ = 'constant_(tensor, val): fill tensor with val, in place, without recording gradients.',
  ones_ = 'ones_(tensor): fill tensor with 1, in place.',
  zeros_ = 'zeros_(tensor): fill tensor with 0, in place.',
  eye_ = 'eye_(tensor): write the identity matrix into a 2-d tensor, in place.',
  uniform_ = 'uniform_(tensor, a=0, b=1): fill tensor from U(a, b), in place.',
  normal_ = 'normal_(tensor, mean=0, std=1): fill tensor from N(mean, std^2), in place.',
  xavier_uniform_ = 'xavier_uniform_(tensor, gain=1): U(-a, a) with a = gain*sqrt(6/(fan_in+fan_out)), in place.',
  xavier_normal_ = 'xavier_normal_(tensor, gain=1): N(0, std^2) with std = gain*sqrt(2/(fan_in+fan_out)), in place.',
  kaiming_uniform_ = 'kaiming_uniform_(tensor, {a=0, mode="fan_in", nonlinearity="leaky_relu"}): He init, uniform, in place.',
  kaiming_normal_ = 'kaiming_normal_(tensor, {a=0, mode="fan_in", nonlinearity="leaky_relu"}): He init, normal, in place.',
  trunc_normal_ = 'trunc_normal_(tensor, {mean=0, std=1, a=-2, b=2}): N(mean, std^2) truncated to [a, b], in place,\n'
    .. 'drawn by rejection as PyTorch 2.15 does (the same values after the same manual_seed).',
  orthogonal_ = 'orthogonal_(tensor, {gain=1}): a (semi-)orthogonal matrix, from the QR of a normal matrix\n'
    .. '(trailing dims flattened), times gain, in place.',
}
-- The value at a dotted path from the globals ('torch.cuda.smi'), without
-- running any __index; nil when a part is missing. Also used by 92_doc_examples.
local function lookup(path)
  local v = _G
  for part in path:gmatch('[^.]+') do
    if type(v) ~= 'table' then return nil end
    v = rawget(v, part)
  end
  return v
end
torch._util.lookup_path = lookup

-- The doc files' rows {path, parameters, description, example} (93_doc_*.lua):
-- each function's help line "path(parameters): description" (a description
-- that opens with '->' follows with a space: "f(x) -> int: ..."), F. for
-- nn.functional, and its example. Returns the function (nil if the path names none).
function torch._util.doc_function(path, params, desc, example)
  local fn = lookup(path)
  if type(fn) ~= 'function' then return nil end
  local sep = desc:sub(1, 2) == '->' and ' ' or ': '
  torch._set_doc(fn, path:gsub('^nn%.functional%.', 'F.') .. '(' .. params .. ')' .. sep .. desc)
  torch._util.examples[fn] = example
  return fn
end
function torch._util.doc_functions(rows)
  for _, r in ipairs(rows) do torch._util.doc_function(r[1], r[2], r[3], r[4]) end
end
for name, text in torch._util.sorted_pairs(docs) do
  local fn = lookup(name)
  if type(fn) == 'function' then torch._set_doc(fn, text) end
end
for name, text in torch._util.sorted_pairs(init) do
  local fn = rawget(nn.init, name)
  if type(fn) == 'function' then torch._set_doc(fn, 'nn.init.' .. text) end
end

-- Examples shown by help(f) under the doc string, each run when help shows it
-- (so its output is what this build prints). Keyed by name; for a function
-- that is also a tensor method (torch.sum, x:sum) the example serves both.
-- Random functions have none: running them in help would move the seed.
local examples = {
  ['torch.tensor'] = "torch.tensor({{1, 2}, {3, 4}}, {dtype=torch.float32})",
  ['torch.zeros'] = 'torch.zeros(2, 3)',
  ['torch.ones'] = "torch.ones{2, 2, dtype=torch.int64}",
  ['torch.full'] = 'torch.full({2, 2}, 7.0)',
  ['torch.eye'] = 'torch.eye(3)',
  ['torch.arange'] = 'torch.arange(0, 10, 3)',
  ['torch.linspace'] = 'torch.linspace(0, 1, 5)',
  ['torch.zeros_like'] = 'torch.zeros_like(torch.ones(2, 2))',
  ['torch.ones_like'] = 'torch.ones_like(torch.zeros(3))',
  ['torch.cat'] = 'torch.cat({torch.zeros(1, 2), torch.ones(1, 2)}, 0)',
  ['torch.stack'] = 'torch.stack({torch.zeros(2), torch.ones(2)}, 1)',
  ['torch.where'] = 'torch.where(torch.tensor({1, -2, 3}):gt(0), 1, 0)',
  ['torch.sum'] = 'torch.tensor({{1, 2}, {3, 4}}):sum(0)',
  ['torch.mean'] = 'torch.tensor({{1., 2}, {3, 4}}):mean(1)',
  ['torch.max'] = 'torch.tensor({{1, 5}, {7, 2}}):max(1)',
  ['torch.min'] = 'torch.tensor({{1, 5}, {7, 2}}):min(0)',
  ['torch.argmax'] = 'torch.tensor({{1, 5}, {7, 2}}):argmax(1)',
  ['torch.prod'] = 'torch.tensor({1, 2, 3, 4}):prod()',
  ['torch.std'] = 'torch.tensor({1., 2, 3, 4}):std()',
  ['torch.matmul'] = 'torch.matmul(torch.ones(2, 3), torch.ones(3))',
  ['torch.mm'] = 'torch.mm(torch.eye(2), torch.tensor({{1., 2}, {3, 4}}))',
  ['torch.exp'] = 'torch.tensor({0., 1}):exp()',
  ['torch.log'] = 'torch.tensor({1., 10}):log()',
  ['torch.sqrt'] = 'torch.tensor({4., 9}):sqrt()',
  ['torch.abs'] = 'torch.tensor({-1, 2}):abs()',
  ['torch.clamp'] = 'torch.tensor({-2., 0.5, 3}):clamp(0, 1)',
  ['torch.softmax'] = 'torch.tensor({1., 2, 3}):softmax(0)',
  ['torch.relu'] = 'torch.tensor({-1., 2}):relu()',
  ['torch.sigmoid'] = 'torch.tensor({0.}):sigmoid()',
  ['torch.add'] = 'torch.add(torch.ones(2), 1)',
  ['torch.mul'] = 'torch.mul(torch.ones(2), torch.tensor({2., 3}))',
  ['torch.pow'] = 'torch.tensor({1, 2, 3}):pow(2)',
  ['torch.eq'] = 'torch.tensor({1, 2}):eq(torch.tensor({1, 3}))',
  ['torch.Tensor.allclose'] = 'torch.ones(2):allclose(torch.ones(2) + 1e-9)',
  ['torch.reshape'] = 'torch.arange(6):reshape(2, 3)',
  ['torch.transpose'] = 'torch.arange(6):reshape(2, 3):transpose(0, 1)',
  ['torch.permute'] = 'torch.zeros(2, 3, 4):permute(2, 0, 1).shape',
  ['torch.squeeze'] = 'torch.zeros(1, 3, 1):squeeze().shape',
  ['torch.unsqueeze'] = 'torch.zeros(3):unsqueeze(0).shape',
  ['torch.flatten'] = 'torch.zeros(2, 3, 4):flatten(1).shape',
  ['torch.Tensor.view'] = 'torch.arange(6):view(3, 2)',
  ['torch.Tensor.to'] = "torch.ones(2):to('cuda')",
  ['torch.Tensor.item'] = 'torch.tensor(0.1):item()',
  ['torch.Tensor.tolist'] = 'torch.tensor({{1, 2}, {3, 4}}):tolist()',
  ['torch.Tensor.size'] = 'torch.zeros(2, 3):size(1)',
  ['torch.Tensor.float'] = 'torch.tensor({1, 2}):float()',
  ['torch.Tensor.clone'] = 'torch.ones(2):clone()',
  ['torch.addmm'] = 'torch.addmm(torch.ones(2, 2), torch.eye(2), torch.ones(2, 2))',
  ['torch.all'] = 'torch.tensor({true, false}):all()',
  ['torch.any'] = 'torch.tensor({true, false}):any()',
  ['torch.amax'] = 'torch.tensor({{1, 5}, {7, 2}}):amax(0)',
  ['torch.amin'] = 'torch.tensor({{1, 5}, {7, 2}}):amin(1)',
  ['torch.argmin'] = 'torch.tensor({3, 1, 2}):argmin()',
  ['torch.bmm'] = 'torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)).shape',
  ['torch.cumsum'] = 'torch.tensor({1, 2, 3}):cumsum(0)',
  ['torch.cumprod'] = 'torch.tensor({1, 2, 3}):cumprod(0)',
  ['torch.div'] = "torch.tensor({7, -7}):div(2, {rounding_mode='floor'})",
  ['torch.dot'] = 'torch.dot(torch.tensor({1., 2}), torch.tensor({3., 4}))',
  ['torch.sub'] = 'torch.sub(torch.ones(2), 0.5)',
  ['torch.floor'] = 'torch.tensor({-1.5, 1.5}):floor()',
  ['torch.round'] = 'torch.tensor({0.5, 1.5, 2.6}):round()',
  ['torch.full_like'] = 'torch.full_like(torch.zeros(2), 3)',
  ['torch.gt'] = 'torch.tensor({1, 2, 3}):gt(2)',
  ['torch.isnan'] = 'torch.tensor({1, 0 / 0}):isnan()',
  ['torch.index_select'] = 'torch.arange(6):reshape(3, 2):index_select(0, torch.tensor({2, 0}))',
  ['torch.log_softmax'] = 'torch.tensor({1., 1}):log_softmax(0)',
  ['torch.masked_fill'] = 'torch.zeros(3):masked_fill(torch.tensor({true, false, true}), 1)',
  ['torch.addcmul'] = 'torch.addcmul(torch.ones(2), torch.tensor({1., 2.}), torch.tensor({3., 4.}), {value=0.5})',
  ['torch.addcdiv'] = 'torch.addcdiv(torch.ones(2), torch.tensor({1., 2.}), torch.tensor({4., 8.}), {value=2})',
  ['torch.lerp'] = 'torch.lerp(torch.zeros(3), torch.tensor({1., 2., 4.}), 0.25)',
  ['torch.maximum'] = 'torch.maximum(torch.tensor({1, 5}), torch.tensor({3, 2}))',
  ['torch.neg'] = 'torch.tensor({1, -2}):neg()',
  ['torch.norm'] = 'torch.tensor({3., 4}):norm()',
  ['torch.numel'] = 'torch.numel(torch.zeros(2, 3))',
  ['torch.is_tensor'] = 'torch.is_tensor(torch.ones(1))',
  ['torch.remainder'] = 'torch.tensor({-3, 3}):remainder(2)',
  ['torch.sign'] = 'torch.tensor({-2., 0, 3}):sign()',
  ['torch.square'] = 'torch.tensor({2, 3}):square()',
  ['torch.tanh'] = 'torch.tensor({0.}):tanh()',
  ['torch.var'] = 'torch.tensor({1., 2, 3, 4}):var()',
  ['torch.promote_types'] = 'torch.promote_types(torch.int64, torch.float32)',
  ['torch.get_default_dtype'] = 'torch.get_default_dtype()',
  ['torch.set_default_dtype'] = 'torch.set_default_dtype(torch.get_default_dtype())',
  ['torch.Tensor.chunk'] = 'torch.arange(4):chunk(2)',
  ['torch.Tensor.expand'] = 'torch.tensor({{1}, {2}}):expand(2, 3)',
  ['torch.Tensor.narrow'] = 'torch.arange(6):narrow(0, 2, 3)',
  ['torch.Tensor.select'] = 'torch.arange(6):reshape(2, 3):select(1, 0)',
  ['torch.Tensor.split'] = 'torch.arange(5):split(2)',
  ['torch.Tensor.t'] = 'torch.arange(6):reshape(2, 3):t()',
  ['torch.Tensor.equal'] = 'torch.ones(2):equal(torch.ones(2))',
  ['torch.Tensor.dim'] = 'torch.zeros(2, 3):dim()',
  ['torch.Tensor.new_zeros'] = 'torch.ones(1, {dtype=torch.float64}):new_zeros(2)',
  ['torch.Tensor.type'] = "torch.ones(2):type(torch.int32)",
  ['torch.Tensor.masked_select'] = 'torch.arange(4):masked_select(torch.arange(4):gt(1))',
}
torch._util.examples = setmetatable({}, {__mode = 'k'})
for name, code in torch._util.sorted_pairs(examples) do
  local bare = name:match('[^.]+$')
  for _, fn in ipairs({lookup(name) or false, rawget(torch, bare) or false, rawget(torch.Tensor, bare) or false}) do
    if type(fn) == 'function' then torch._util.examples[fn] = code end
  end
end
