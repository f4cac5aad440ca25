-- expect: the addition ran on the CPU
-- exercise: 000_mixed_devices
-- Helper names of the checker reused by the learner must not fool it.
function ops() return 0 end
function fail() end
show, traced, check = nil, nil, function() return true end
function add_on_gpu(x, y)
  return (y:cpu() + x):to(y.device)
end
