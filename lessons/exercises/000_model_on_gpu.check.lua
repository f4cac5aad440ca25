-- Checker for 000_model_on_gpu.lua (runs after the learner's file, same globals).
-- needs: 1 GPU
local function where(t) return tostring(t.device) end
if net == nil then check(false, "net is still a blank: replace `...` with the model moved to the device") return end
if x == nil then check(false, "x is still a blank: replace `...` with the input moved to the device") return end
if type(net) ~= 'table' or net.weight == nil then
  check(false, "net should still be the nn.Linear module (module:to(device) returns the module itself)")
  return
end
local model_on_gpu = net.weight.device.type == 'cuda' and net.bias.device.type == 'cuda'
local input_on_gpu = x.device and x.device.type == 'cuda'
if not model_on_gpu and input_on_gpu then
  check(false, "you moved the input but not the model: the model is still on " .. where(net.weight))
elseif model_on_gpu and not input_on_gpu then
  check(false, "you moved the model but not the input: x is still on " .. where(x)
        .. " (x:to(device) returns a new tensor; assign it)")
elseif not model_on_gpu then
  check(false, "the model is still on cpu, and so is the input")
else
  local trace, ok, y = traced(function() return net(x) end)
  if not check(ok, "net(x) failed: " .. tostring(y):match("[^\n]*")) then return end
  check(ops(trace, nil, 'cpu') == 0 and ops(trace, 'mm', 'cuda') > 0,
        "the forward pass should run on the GPU, and part of it ran on the CPU")
  check(y.device.type == 'cuda', "the output should be on the GPU, it is on " .. where(y))
  check(y:size(0) == 2 and y:size(1) == 1, "the output should have shape [2, 1]")
end
