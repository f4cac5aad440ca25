-- expect: your code used torch._trace, which belongs to the checker
-- exercise: 000_mixed_devices
function add_on_gpu(x, y)
  local z = (y:cpu() + x):to(y.device)
  torch._trace.start()   -- wipe the evidence
  return z
end
