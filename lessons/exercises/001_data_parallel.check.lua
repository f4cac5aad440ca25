-- Checker for 001_data_parallel.lua
-- needs: 1 GPU
local n = torch.cuda.device_count()
if model == nil then check(false, "model is still a blank: replace `...` with nn.DataParallel(model)") return end
local name = tostring(model):match("^(%w+)")
if n > 1 and name ~= 'DataParallel' then
  check(false, "model is not wrapped in nn.DataParallel although " .. n .. " GPUs are visible")
  return
end
local inner = name == 'DataParallel' and model.module or model
if inner == nil or inner.fc == nil then
  check(false, "the wrapper should hold the original Model (as model.module)")
  return
end
local dev = inner.fc.weight.device
if dev.type ~= 'cuda' then
  check(false, "the model is still on cpu: call model:to(device) after wrapping it")
  return
end
check(dev.index == 0, "the parameters should be on cuda:0 (DataParallel's first device), they are on " .. tostring(dev))
seen_batch_sizes = {}
local trace, ok, out = traced(function() return model(torch.randn{30, 5}:to(device)) end)
if not check(ok, "model(input) failed: " .. tostring(out):match("[^\n]*")) then return end
check(out:size(0) == 30 and out:size(1) == 2, "the gathered output should be [30, 2], got " .. tostring(out:size()))
if n > 1 then
  check(#seen_batch_sizes == n, "expected one forward per GPU (" .. n .. "), saw " .. #seen_batch_sizes)
  local per = (30 + n - 1) // n  -- the batch is cut into chunks of ceil(30 / n) rows
  check(seen_batch_sizes[1] == per, "each replica should see " .. per .. " rows, the first saw "
        .. tostring(seen_batch_sizes[1]))
  for d = 0, n - 1 do
    if not check(ops(trace, 'mm', 'cuda:' .. d) > 0, "no part of the batch ran on cuda:" .. d
                 .. ": DataParallel should use every visible GPU (leave device_ids out)") then break end
  end
end
check(ops(trace, 'mm', 'cpu') == 0, "part of the forward pass ran on the CPU: keep the model on `device`")
