-- expect: X went through the host
-- exercise: 003_copy_between_gpus
function add_on_second(X, Y)
  return Y + X:cpu():to(Y.device)
end
