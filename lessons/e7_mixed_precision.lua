-- PyTorch's recipe "Automatic Mixed Precision": training in float16 with torch.autocast and a GradScaler
-- needs: 1 gpu
-- %% Two smaller floats
-- float32 spends 32 bits on every number; float16 and bfloat16 spend 16.
-- That halves the memory and the bytes to move, and a GPU's tensor cores
-- multiply 16-bit numbers many times faster than float32 ones (an H100:
-- about 990 TFLOP/s of float16 against 67 of float32). The price is range
-- or precision. float16 keeps 10 bits of mantissa, but its largest number
-- is 65504 and below 6e-8 everything is 0; bfloat16 has float32's range and
-- only 7 bits (2 or 3 decimal digits).
for _, dt in ipairs({torch.float32, torch.float16, torch.bfloat16}) do
  local fi = torch.finfo(dt)
  pyprint(dt, 'max', fi.max, 'smallest normal', fi.tiny, 'eps', fi.eps)
end
big_small_fine = torch.tensor({70000., 1e-8, 1 + 1 / 512})
print(big_small_fine:half())
print(big_small_fine:bfloat16())
-- %% torch.autocast: each op in the dtype that suits it
-- Python's `with torch.autocast(device_type="cuda"):` is written
-- torch.autocast('cuda', function() ... end) here, or
-- `local _ <close> = torch.autocast('cuda')` inside a do ... end block.
-- Inside, the products (matmul, linear, convolutions) run in float16; the
-- ops that need range or precision (exp, log, softmax, sums, the losses) in
-- float32; everything else in the dtype of its inputs (relu of a float16
-- tensor is float16). The weights stay float32: autocast casts a float16
-- copy of each for the product, once per region.
torch.manual_seed(0)
device = try_gpu()
net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)):to(device)
X = torch.randn(256, 20, {device = device})
y = (X[':, :4'] * torch.tensor({1., -2., 3., 0.5}, {device = device})):argmax(1)
torch.autocast('cuda', function()
  local h = net[0](X)
  pyprint('linear: ', h.dtype)
  pyprint('relu:   ', torch.relu(h).dtype)
  pyprint('softmax:', torch.softmax(h, 1).dtype)
  pyprint('loss:   ', nn.functional.cross_entropy(net(X), y).dtype)
end)
pyprint('the weight, after:', net[0].weight.dtype)
-- %% Backward: after the region, in the forward's dtypes
-- backward() runs outside autocast: each op's gradient is computed in the
-- dtype the op ran in, and the float32 weights get float32 gradients
-- through the casts. The optimizer then updates float32 numbers.
loss = torch.autocast('cuda', function() return nn.functional.cross_entropy(net(X), y) end)
loss:backward()
pyprint(loss.dtype, net[0].weight.grad.dtype)
-- %% Why float16 needs a GradScaler
-- Gradients are often tiny, and in float16 a tiny number is 0 ("underflow"):
-- the last of these three does not survive. Multiply first by 65536 and
-- it does: that is loss scaling.
g = torch.tensor({1e-3, 1e-6, 1e-8})
print(g:half())
print((g * 65536):half():float() / 65536)
-- torch.amp.GradScaler does it for training: scaler:scale(loss) multiplies
-- the loss by its scale (65536 at first), so every gradient is that much
-- larger while it flows in float16; scaler:step(opt) divides the float32
-- gradients by it before the optimizer reads them; scaler:update() sets the
-- scale for the next step.
-- %% The training loop
-- PyTorch's recipe, line for line: zero the gradients, forward under
-- autocast, backward through the scaler, step and update. The printed
-- scale stays at 65536 while no gradient overflows. Exercise
-- 007_amp_training_step asks for this step as a function of your own.
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)):to(device)
opt = torch.optim.SGD(net:parameters(), {lr = 0.5})
scaler = torch.amp.GradScaler('cuda')
for epoch = 1, 8 do
  opt:zero_grad()
  loss = torch.autocast('cuda', function() return nn.functional.cross_entropy(net(X), y) end)
  scaler:scale(loss):backward()
  scaler:step(opt)
  scaler:update()
  if epoch % 2 == 0 then pyprint('epoch', epoch, ('loss %.3f'):format(loss:item()), 'scale', scaler:get_scale()) end
end
-- %% An overflow is skipped, and the scale backs off
-- A gradient of inf or nan (here forced with an inf in the batch) means the
-- scale was too large: scaler:step(opt) leaves the weights as they are, and
-- scaler:update() halves the scale. After 2000 good steps in a row it
-- doubles it again, so the scale finds the largest value that does not
-- overflow.
w_before = net[0].weight:clone()
opt:zero_grad()
bad = X:clone()
bad[{0, 0}] = math.huge
loss = torch.autocast('cuda', function() return nn.functional.cross_entropy(net(bad), y) end)
scaler:scale(loss):backward()
scaler:step(opt)
scaler:update()
pyprint('weights unchanged:', torch.equal(w_before, net[0].weight), 'scale', scaler:get_scale())
-- %% bfloat16, and the CPU
-- bfloat16 has float32's range, so it needs no scaler:
-- torch.autocast('cuda', {dtype = torch.bfloat16}) on GPUs that have it
-- (torch.cuda.is_bf16_supported(): Ampere and later). On the CPU,
-- torch.autocast('cpu') runs the products in bfloat16.
out = torch.autocast('cpu', function() return nn.Linear(4, 2)(torch.ones(3, 4)) end)
pyprint(out.dtype)
-- %% What it buys
-- A large product (4096x4096; 1024 in a quick run) in float32 and under
-- autocast, timed with time.timeit (it waits for the GPU). On a GPU with
-- tensor cores the second is several times faster, the cast included; on an
-- emulated GPU both run on this computer's CPU, whose float16 is no faster
-- (torch.cuda.is_virtual() says which this is).
n = d2l.quick() and 1024 or 4096
A = torch.randn(n, n, {device = device})
t32 = time.timeit(function() A:matmul(A) end)
t16 = torch.autocast('cuda', function() return time.timeit(function() A:matmul(A) end) end)
pyprint(('%dx%d: float32 %.4f s, autocast %.4f s: %.2fx faster'):format(n, n, t32, t16, t32 / t16),
        torch.cuda.is_virtual() and '(an emulated GPU)' or '')
