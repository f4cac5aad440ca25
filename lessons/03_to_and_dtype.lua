-- :to() for devices and dtypes
-- %% :to() on a tensor returns a new tensor
-- The original is left untouched, so you must keep the result.
x = torch.ones{3, 3}
x_gpu = x:to('cuda')
print("x is still on", x.device, "; the result is on", x_gpu.device)
print("same object?", x_gpu == x)
-- %% If nothing has to change, :to() hands back the same tensor
print("x_gpu:to('cuda:0') == x_gpu ->", x_gpu:to('cuda:0') == x_gpu)
-- %% :to() also converts the element type
print("Integers in Lua make int64 tensors, floats make float32:")
print(torch.tensor({1, 2, 3}).dtype, torch.tensor({1.5, 2.5}).dtype)
x64 = x:to(torch.float64)
print("x:to(torch.float64) ->", x64.dtype, "; x keeps", x.dtype)
-- %% Device and dtype in one call
both = x:to('cuda:1', torch.float64)
print(both)
-- %% Shorthand conversions
print(x:double().dtype, x:int().dtype, x:to(torch.float16).dtype)
-- %% Converting to an integer type drops the fraction
torch.tensor({1.9, -1.9, 2.5}):to(torch.int32)
-- %% Modules are different
print("For a tensor, :to() returns a new tensor and the old one is unchanged.")
print("For an nn module, net:to(...) changes the module's own parameters in place")
print("(and returns the module itself), so a bare 'net:to(device)' is enough.")
if nn and nn.Linear then
  linear = nn.Linear(2, 2)
  print("before:", linear.weight.device, linear.weight.dtype)
  same = linear:to(torch.float64)
  print("linear:to(torch.float64) returned the same module:", same == linear)
  linear:to(torch.device('cuda'))
  print("after: ", linear.weight.device, linear.weight.dtype, "(bias on " .. tostring(linear.bias.device) .. ")")
end
