-- expect: move x without changing its dtype
-- exercise: 000_mixed_devices
function add_on_gpu(x, y)
  return y + x:to(y.device):double()
end
