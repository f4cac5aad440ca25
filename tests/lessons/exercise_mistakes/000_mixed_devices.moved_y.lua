-- expect: the sum is on cpu, y was on cuda:0: you moved y to the CPU instead of x to the GPU
-- exercise: 000_mixed_devices
function add_on_gpu(x, y)
  return y:cpu() + x
end
