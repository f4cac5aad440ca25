-- Issue 17's data row: how long reading Fashion-MNIST takes in gpulab. Times
-- (1) the 60,000 training images and labels read from Debian's IDX files
-- (gzip through zlib) into a torchvision.datasets.FashionMNIST, and (2) one
-- pass of a DataLoader over it with ToTensor (batch 256, shuffled), i.e. every
-- image turned into a float tensor as an epoch does. Best of REPEATS runs.
-- Usage: gpulab bench/fashion_mnist_load.lua   (REPEATS=5 by default)
local REPEATS = tonumber(os.getenv('REPEATS') or '5')
local tv = torchvision
local read_best, pass_best = math.huge, math.huge
local n
for _ = 1, REPEATS do
  collectgarbage()
  local t0 = time.perf_counter()
  local ds = tv.datasets.FashionMNIST{train = true, transform = tv.transforms.ToTensor()}
  local t1 = time.perf_counter()
  n = 0
  for b in torch.utils.data.DataLoader(ds, {batch_size = 256, shuffle = true}) do n = n + b[1]:size(0) end
  local t2 = time.perf_counter()
  read_best, pass_best = math.min(read_best, t1 - t0), math.min(pass_best, t2 - t1)
end
print(('fashion_mnist_read_60000 %.4f s'):format(read_best))
print(('fashion_mnist_totensor_pass %.4f s (%d images)'):format(pass_best, n))
