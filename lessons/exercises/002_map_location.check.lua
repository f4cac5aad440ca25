-- Checker for 002_map_location.lua
-- needs: 1 GPU
local load_on_cpu = need_function('load_on_cpu')
if not load_on_cpu then return end
fresh_seed()
local saved = nn.Linear(4, 2):cuda()
local path = os.tmpname()
torch.save(saved:state_dict(), path)
local trace, ok, sd = traced(load_on_cpu, path)
os.remove(path)
if not ok then fail('load_on_cpu(path) raised an error: ' .. first_line(sd)) return end
if sd == nil then fail('load_on_cpu returns nothing yet: replace TODO with torch.load(path, ...)') return end
if not check(type(sd) == 'table', 'load_on_cpu should return the state dict (a table of tensors), not a '
             .. type(sd)) then return end
local w, b = sd['weight'], sd['bias']
if not check(torch.is_tensor(w) and torch.is_tensor(b),
             "the state dict has no tensors 'weight' and 'bias': load the file at `path` and return what torch.load gives") then
  return
end
if w.device.type ~= 'cpu' or b.device.type ~= 'cpu' then
  local dev = w.device.type ~= 'cpu' and w.device or b.device
  fail('the tensors are still on ' .. tostring(dev)
       .. ": a CPU-only machine cannot create them there; pass {map_location = 'cpu'}")
  return
end
if not check(w:equal(saved.weight.data:cpu()) and b:equal(saved.bias.data:cpu()),
             'the tensors differ from the checkpoint at `path`: load_on_cpu must read the file it is given '
             .. '(not copy weights from a live model)') then return end
check(trace.h2d.calls == 0 and ops(trace, nil, 'cuda') == 0,
      'load_on_cpu put the tensors on the GPU and then moved them to the CPU: on a machine without a GPU '
      .. "the first step fails; let torch.load map them to the CPU ({map_location = 'cpu'})")
