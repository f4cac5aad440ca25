-- expect: and then copied to cpu: return it where it was computed
-- exercise: 000_mixed_devices
function add_on_gpu(x, y)
  return (y + x:to(y.device)):cpu()
end
