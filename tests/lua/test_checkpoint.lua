-- torch.save / torch.load: safetensors checkpoints that remember devices. Run with --virtual-gpus 4.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local ok, eq, err = T.check, T.check_eq, T.check_err
local test = T.test  -- a test that raises counts as one failure and the file goes on
local function values(t) return repr(t:cpu():tolist()) end
local function same(a, b, what)
  eq(tostring(a.dtype), tostring(b.dtype), what .. ' dtype')
  eq(tostring(a.shape), tostring(b.shape), what .. ' shape')
  eq(values(a), values(b), what .. ' values')
end

-- A scratch directory, the gpulab binary (the lowest arg index) and shell quoting.
local dir = os.tmpname()
os.remove(dir)
local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
assert(os.execute('mkdir -p ' .. q(dir)))
local function path(name) return dir .. '/' .. name end
local exe, i = arg[-1], -1
while arg[i - 1] do i = i - 1 end
exe = arg[i]
local function read_all(p)
  local f = io.open(p, 'rb')
  if not f then return nil end
  local s = f:read('a')
  f:close()
  return s
end
local function write_all(p, s)
  local f = assert(io.open(p, 'wb'))
  f:write(s)
  f:close()
end
-- Runs `code` in a child gpulab, without our GPULAB_VIRTUAL_GPUS, and returns its output.
-- `env`: variables for it; `flags`: its options; `pre`: shell commands before it starts.
local nchild = 0
local function child(env, flags, code, pre)
  nchild = nchild + 1
  local f = path('child' .. nchild .. '.lua')
  write_all(f, code)
  local cmd = ('%s exec env -u GPULAB_VIRTUAL_GPUS %s %s %s %s 2>&1'):format(pre or '', env, q(exe), flags, q(f))
  local p = io.popen('sh -c ' .. q(cmd) .. ' 2>&1')
  local out = p:read('a')
  p:close()
  return out
end

test('every dtype round-trips on the CPU and on cuda:1', function()
  for _, dt in ipairs{'float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool'} do
    local x = torch.tensor({{1, 0, 5}, {3, 4, 1}}, {dtype = torch[dt]})
    for _, dev in ipairs{'cpu', 'cuda:1'} do
      local p = path('t_' .. dt .. '_' .. dev .. '.safetensors')
      torch.save(x:to(dev), p)
      local y = torch.load(p)
      ok(torch.is_tensor(y), dt .. ': a saved tensor loads as a tensor')
      eq(tostring(y.device), dev, dt .. ' device')
      same(y, x, dt .. ' on ' .. dev)
    end
  end
  local nc = torch.arange(12):view(3, 4):t()
  torch.save(nc, path('nc.st'))
  same(torch.load(path('nc.st')), nc, 'non-contiguous')
  torch.save(torch.tensor(2.5), path('scalar.st'))
  eq(tostring(torch.load(path('scalar.st'))), 'tensor(2.5000)')
end)

test("a PyTorch .pt file is named as one, with how to convert it", function()
  for name, head in pairs({zip = 'PK\3\4\20\0\0\0\0\0', pickle = '\128\2\138\10\108\252\156\70\249\32'}) do
    local p = path(name .. '.pt')
    local f = assert(io.open(p, 'wb'))
    f:write(head, ('\0'):rep(64))
    f:close()
    local ok_, e = pcall(torch.load, p)
    eq(ok_, false, name)
    eq(e, "RuntimeError: '" .. p .. "' is a PyTorch checkpoint (torch.save's " .. name .. ' format), which gpulab does '
       .. 'not read: its torch.save and torch.load use safetensors. Convert it in PyTorch: from safetensors.torch import '
       .. "save_file; save_file(torch.load('" .. p .. "'), 'model.safetensors')", name)
  end
end)

test('tables: nesting, devices, plain values', function()
  local obj = {w = torch.ones(2, 3), gpu = torch.arange(4, {device = 'cuda:1'}),
               sub = {b = torch.tensor({true, false}, {device = 'cuda:0'}), deeper = {x = torch.zeros(1)}, ['a.b'] = torch.eye(2)},
               epoch = 7, lr = 0.125, name = 'run-1', done = false, empty = {}}
  torch.save(obj, path('table.st'))
  local t = torch.load(path('table.st'))
  eq(getmetatable(t), nil, 'a plain table loads as a plain table')
  same(t.w, obj.w, 'w')
  eq(tostring(t.gpu.device), 'cuda:1')
  eq(tostring(t.sub.b.device), 'cuda:0')
  same(t.sub.deeper.x, obj.sub.deeper.x, 'sub.deeper.x')
  same(t.sub['a.b'], obj.sub['a.b'], "a key with a dot inside a nested table")
  eq(math.type(t.epoch), 'integer')
  eq(t.epoch, 7)
  eq(t.lr, 0.125)
  eq(t.name, 'run-1')
  eq(t.done, false)
  eq(type(t.empty), 'table', 'empty tables come back')
  err(function() torch.save({a = torch.ones(1), ['a'] = nil, f = print}, path('x.st')) end,
      'TypeError: torch.save: cannot save a function (at "f")')
  err(function() torch.save({[true] = torch.ones(1)}, path('x.st')) end,
      'TypeError: torch.save: table keys must be strings or integers, got the bool key true')
  err(function() torch.save({['a.b'] = torch.ones(1), a = {b = torch.ones(1)}}, path('x.st')) end,
      'two entries are both named "a.b"')
  local cyc = {}
  cyc.self = cyc
  err(function() torch.save(cyc, path('x.st')) end, 'reference cycle')
  err(function() torch.save(5, path('x.st')) end, 'TypeError: torch.save: cannot save a number')
  err(function() torch.save(torch.ones(1), 5) end, 'TypeError: torch.save(obj, f): f must be a file path')
end)

test('state_dict: order, devices, load_state_dict', function()
  torch.manual_seed(0)
  local net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)):to('cuda:1')
  torch.save(net:state_dict(), path('sd.st'))
  local sd = torch.load(path('sd.st'))
  ok(torch._util.is_od(sd), 'a state_dict loads as an OrderedDict')
  local keys = {}
  for k, v in pairs(sd) do keys[#keys + 1] = k; eq(tostring(v.device), 'cuda:1', k) end
  eq(table.concat(keys, ' '), '0.weight 0.bias 2.weight 2.bias', 'key order kept')
  local fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
  eq(tostring(fresh:load_state_dict(torch.load(path('sd.st'), 'cpu'))), '<All keys matched successfully>')
  same(fresh[0].weight.data, net[0].weight.data, 'weights restored')
  err(function() torch.save(net, path('x.st')) end, 'save its state_dict() instead')
end)

test('map_location forms', function()
  torch.save({a = torch.ones(2, {device = 'cuda:1'}), b = torch.ones(2)}, path('ml.st'))
  local function devs(t) return tostring(t.a.device) .. ' ' .. tostring(t.b.device) end
  eq(devs(torch.load(path('ml.st'))), 'cuda:1 cpu', 'recorded devices')
  eq(devs(torch.load(path('ml.st'), 'cpu')), 'cpu cpu', 'string')
  eq(devs(torch.load(path('ml.st'), torch.device('cpu'))), 'cpu cpu', 'torch.device')
  eq(devs(torch.load(path('ml.st'), {map_location = 'cuda:2'})), 'cuda:2 cuda:2', 'keyword')
  eq(devs(torch.load{path('ml.st'), map_location = torch.device('cuda', 3)}), 'cuda:3 cuda:3', 'one-table form')
  eq(devs(torch.load(path('ml.st'), {['cuda:1'] = 'cuda:0'})), 'cuda:0 cpu', 'mapping table')
  eq(devs(torch.load(path('ml.st'), {map_location = {['cuda:1'] = torch.device('cpu'), cpu = 'cuda:2'}})), 'cpu cuda:2',
     'mapping table of devices')
  eq(devs(torch.load(path('ml.st'), {map_location = 'cuda', weights_only = true})), 'cuda:0 cuda:0', "'cuda' is the current device")
  -- PyTorch's quickstart: torch.load("model.pth", weights_only=True), no map_location
  eq(devs(torch.load(path('ml.st'), {weights_only = true})), 'cuda:1 cpu', 'weights_only alone keeps the devices')
  eq(devs(torch.load(path('ml.st'), {mmap = false})), 'cuda:1 cpu', 'mmap alone')
  err(function() torch.load(path('ml.st'), 'cuda:7') end,
      'RuntimeError: Attempting to deserialize object on CUDA device 7 but torch.cuda.device_count() is 4. Please use torch.load with map_location to map your storages to an existing device.')
  err(function() torch.load(path('ml.st'), 'gpu') end, 'invalid device string "gpu"')
  err(function() torch.load(path('ml.st'), {bogus = 1, map_location = 'cpu'}) end, "load() got an unexpected keyword argument 'bogus'")
  err(function() torch.load(path('ml.st'), {bogus = 'cpu'}) end, 'invalid device string "bogus"')
  err(function() torch.load(path('ml.st'), 'cpu', 'cpu') end, 'TypeError: load() takes from 1 to 2 positional arguments but 3 were given')
end)

test("PyTorch's errors for CUDA checkpoints on machines without those devices", function()
  torch.save({w = torch.ones(2, {device = 'cuda:0'})}, path('on0.st'))
  torch.save({w = torch.ones(2, {device = 'cuda:3'})}, path('on3.st'))
  local out = child('CUDA_VISIBLE_DEVICES=', '', ('local ok, e = pcall(torch.load, %q); print(e)\n'
    .. 'print(torch.load(%q, {map_location = torch.device("cpu")}).w.device)'):format(path('on0.st'), path('on0.st')))
  eq(out, "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.\ncpu\n",
     'no CUDA (child without --virtual-gpus)')
  out = child('', '--virtual-gpus 2', ('local ok, e = pcall(torch.load, %q); print(e)\n'
    .. "print(torch.load(%q, {['cuda:3'] = 'cuda:1'}).w.device)"):format(path('on3.st'), path('on3.st')))
  eq(out, 'RuntimeError: Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 2. Please use torch.load with map_location to map your storages to an existing device.\ncuda:1\n',
     'device index too high (child with 2 devices)')
end)

test('writes are atomic', function()
  local p = path('keep.st')
  torch.save({w = torch.arange(3)}, p)
  local before = read_all(p)
  err(function() torch.save(torch.ones(1), path('no/such/dir/x.st')) end,
      'RuntimeError: Parent directory ' .. path('no/such/dir') .. ' does not exist.')
  err(function() torch.save({w = torch.ones(1), bad = print}, p) end, 'cannot save a function')
  eq(read_all(p) == before, true, 'a refused save leaves the old file')
  err(function() torch.save(torch.ones(1), dir) end, 'is a directory')
  -- A save killed half-way (the file size limit: SIGXFSZ) never destroys the previous checkpoint.
  child('', '--virtual-gpus 2', ('torch.save({w = torch.zeros(1000000)}, %q)'):format(p), 'ulimit -c 0; ulimit -f 64;')
  eq(read_all(p) == before, true, 'an interrupted save leaves the old file')
  eq(values(torch.load(p).w), '[0, 1, 2]')
end)

test('hostile and foreign files', function()
  err(function() torch.load(path('missing.st')) end, "FileNotFoundError: [Errno 2] No such file or directory: '" .. path('missing.st') .. "'")
  write_all(path('junk.st'), 'not a checkpoint at all')
  err(function() torch.load(path('junk.st')) end, "invalid safetensors file '" .. path('junk.st') .. "': the header length")
  local good = read_all(path('table.st'))
  write_all(path('cut.st'), good:sub(1, #good - 5))
  err(function() torch.load(path('cut.st')) end, 'invalid safetensors file')
  write_all(path('cut2.st'), good:sub(1, 40))
  err(function() torch.load(path('cut2.st')) end, 'runs past the end of the file')
end)

test('a round trip with Python (safetensors, with torch where installed, else numpy)', function()
  -- scripts/test.sh installs safetensors and numpy; torch is used when present
  -- (it is large, so the test script does not install it).
  if not os.execute("python3 -c 'import safetensors, numpy' >/dev/null 2>&1") then
    print('skipped: the Python round trip (python3 with safetensors and numpy is not available)')
    return
  end
  torch.save({w = torch.arange(6):view(2, 3):float() / 4, i = torch.tensor({-3, 9}), h = torch.tensor({1.5, -2}):half(),
              bf = torch.tensor({0.25}):bfloat16(), m = torch.tensor({true, false}), g = torch.ones(2, {device = 'cuda:1'}),
              u = torch.tensor({200}, {dtype = torch.uint8})}, path('to_py.st'))
  write_all(path('py.py'), ([==[
import sys
from safetensors import safe_open
try:
    import torch
except ImportError:
    torch = None
src, dst = %q, %q
if torch is not None:
    from safetensors.torch import load_file, save_file
    d = load_file(src)
    assert torch.equal(d['w'], torch.arange(6).view(2, 3).float() / 4), d['w']
    assert d['i'].tolist() == [-3, 9] and d['i'].dtype == torch.int64
    assert d['h'].dtype == torch.float16 and d['h'].tolist() == [1.5, -2.0]
    assert d['bf'].dtype == torch.bfloat16 and d['bf'].tolist() == [0.25]
    assert d['m'].tolist() == [True, False] and d['u'].tolist() == [200]
    assert d['g'].tolist() == [1.0, 1.0]
    save_file({'x': torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.5, 'n': torch.tensor([7, -1], dtype=torch.int32),
               'b': torch.tensor([[1.0, 2.0]], dtype=torch.bfloat16)}, dst, metadata={'format': 'pt'})
    print('python (torch) ok')
else:
    import numpy as np
    from safetensors.numpy import save_file
    with safe_open(src, 'np') as f:  # numpy has no bfloat16: every other tensor
        d = {k: f.get_tensor(k) for k in f.keys() if k != 'bf'}
    assert (d['w'] == np.arange(6, dtype=np.float32).reshape(2, 3) / 4).all() and d['w'].dtype == np.float32
    assert d['i'].tolist() == [-3, 9] and d['i'].dtype == np.int64
    assert d['h'].dtype == np.float16 and d['h'].tolist() == [1.5, -2.0]
    assert d['m'].tolist() == [True, False] and d['u'].tolist() == [200]
    assert d['g'].tolist() == [1.0, 1.0]
    save_file({'x': np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5, 'n': np.array([7, -1], dtype=np.int32)},
              dst, metadata={'format': 'pt'})
    print('python (numpy) ok')
with safe_open(src, 'np' if torch is None else 'pt') as f:
    assert f.metadata()['gpulab.device.g'] == 'cuda:1', f.metadata()
]==]):format(path('to_py.st'), path('from_py.st')))
  local p = io.popen('python3 ' .. q(path('py.py')) .. ' 2>&1')
  local out = p:read('a')
  p:close()
  local with_torch = out == 'python (torch) ok\n'
  if not with_torch then eq(out, 'python (numpy) ok\n', 'Python reads what gpulab wrote') end
  print(with_torch and 'Python round trip checked with safetensors + torch'
                   or 'Python round trip checked with safetensors + numpy (torch not installed: bfloat16 not checked)')
  local d = torch.load(path('from_py.st'))
  eq(values(d.x), '[[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]', 'gpulab reads what Python wrote')
  eq(tostring(d.x.dtype) .. ' ' .. tostring(d.n.dtype), 'torch.float64 torch.int32')
  if with_torch then eq(tostring(d.b.dtype) .. ' ' .. values(d.b), 'torch.bfloat16 [[1.0, 2.0]]') end
  eq(values(d.n), '[7, -1]')
  eq(tostring(d.x.device), 'cpu', 'files without gpulab metadata load onto the CPU')
  eq(tostring(torch.load(path('from_py.st'), 'cuda:1').n.device), 'cuda:1')
end)

test('requires_grad and nn.Parameter come back as PyTorch keeps them', function()
  -- python: torch.save(torch.ones(2, requires_grad=True)) loads as tensor([1., 1.], requires_grad=True);
  -- a dict of Parameters loads as Parameters, requires_grad as saved
  torch.save(torch.ones(2, {requires_grad = true}), path('rg.pt'))
  eq(tostring(torch.load(path('rg.pt'))), 'tensor([1., 1.], requires_grad=True)')
  torch.save({p = nn.Parameter(torch.ones(2)), q = nn.Parameter(torch.zeros(1), false), r = torch.ones(1)}, path('p.pt'))
  local d = torch.load(path('p.pt'))
  eq(tostring(d.p), 'Parameter containing:\ntensor([1., 1.], requires_grad=True)')
  eq(tostring(d.q), 'Parameter containing:\ntensor([0.])')
  eq(tostring(d.r), 'tensor([1.])')
  torch.save(nn.Linear(2, 1):state_dict(), path('sd.pt'))
  eq(torch.load(path('sd.pt')).weight.requires_grad, false, "a state_dict's tensors stay plain")
end)

os.execute('rm -rf ' .. q(dir))
T.finish()
