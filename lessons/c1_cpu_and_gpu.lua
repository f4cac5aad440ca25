-- Using GPUs in PyTorch (a course deck) § 1: CPU and GPU
-- needs: 1 gpu
-- %% Two kinds of processor
-- A CPU spends its chip on control logic and large caches: a few strong cores
-- that are quick at varied, branching, step-by-step work. A GPU spends it on
-- thousands of simple arithmetic units that all apply the same operation to
-- different data at once. Deep learning is mostly the second kind of work:
-- big tensors where every element is computed the same way, independently.
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
print("this session computes on", device)
-- %% Work that suits a GPU
-- A million independent multiply-adds: every output element depends only on
-- its own input, so they can all be computed at the same time.
x = torch.rand{1000000, device = device}
y = x * 2 + 1
print(y:size(), y.device)
-- %% Work that does not
-- Here every step needs the result of the one before, so there is nothing to
-- do in parallel: such code belongs on the CPU (or must be reformulated).
-- Each step `v = 0.5 * v + 1` halves the distance from v to 2 (1, 1.5, 1.75,
-- ...), so after 10 steps v is 2 - 2^-10 = 1.9990; no step could start
-- before the one before it had finished.
v = 1.0
for step = 1, 10 do v = 0.5 * v + 1 end
print(string.format("after 10 dependent steps: %.4f", v))
-- %% Moving data between them: :to('cuda') and :to('cpu')
-- The same call moves both kinds of data PyTorch has: tensors and modules.
t = torch.ones{2, 2}
t_gpu = t:to('cuda')
print("tensor:", t.device, "->", t_gpu.device, "->", t_gpu:to('cpu').device)
-- %% A module moves the same way
m = nn.Linear(2, 2)
m:to('cuda')
print("module weight after :to('cuda'):", m.weight.device)
m:to('cpu')
print("module weight after :to('cpu'): ", m.weight.device)
