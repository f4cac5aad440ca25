-- Neural-network computing on the GPU (PyTorch study notes) § 1: Summary
-- needs: 1 gpu
-- %% The four rules in brief
-- The note opens with a summary; the later sections (a2 … a5) show each
-- point in detail. Here is each rule, then one cell per rule.
--
-- 1. By default data is stored in host memory and the CPU computes.
-- 2. Everything one operation touches (tensors, parameters) must be on
--    one device.
-- 3. `:cuda()` copies a tensor (or moves a model) to a GPU; `:cpu()` brings
--    it back.
-- 4. Pick the device once, then move everything with `:to(device)`.
-- %% 1. The CPU is the default
torch.tensor({1, 2, 3}).device
-- %% 2. One device per operation
-- A tensor on the GPU plus a tensor in host memory is refused.
g = torch.tensor({1, 2, 3}):cuda()
ok, err = pcall(function() return g + torch.tensor({1, 2, 3}) end)
print((tostring(err):match("[^\n]*")))
-- %% 3. :cuda() and :cpu()
print(g, g:cpu())
-- %% 4. One device variable, chosen once
-- A GPU when there is one, the CPU otherwise: the same script then runs on
-- any machine.
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
print("device =", device)
-- %% The same line then works everywhere
torch.tensor({1, 2, 3}):to(device)
