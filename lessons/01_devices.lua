-- Computing devices: CPU, CUDA devices and how to name them
-- %% Where does work happen by default?
-- Unless you ask for something else, every tensor is stored in host memory
-- and every operation on it runs on the CPU.
print("By default tensors live in host memory and the CPU computes on them.")
a = torch.tensor({1, 2, 3})
print("a lives on:", a.device)
-- %% Is there a CUDA device at all?
-- torch.cuda.is_available() answers whether any CUDA device can be used.
torch.cuda.is_available()
-- %% How many devices, and which one is the default?
print("number of CUDA devices:", torch.cuda.device_count())
print("index of the current device:", torch.cuda.current_device())
-- %% What are they called?
for i = 0, torch.cuda.device_count() - 1 do
  print(i, torch.cuda.get_device_name(i))
end
if torch.cuda.is_virtual(0) then
  print("Note: on this machine the CUDA devices are virtual: gpulab emulates them in")
  print("host memory, so they behave like GPUs but are not faster than the CPU.")
end
-- %% An nvidia-smi style overview
-- On a real machine you would run the `nvidia-smi` command in a shell.
-- torch.cuda.smi() returns a similar table as a string.
print("The nvidia-smi command lists GPUs and their memory; torch.cuda.smi() draws the same kind of table:")
print(torch.cuda.smi())
-- %% Device objects
-- A device is a value of its own. 'cuda' alone means the current device;
-- 'cuda:1' names the second one (counting from 0).
cpu, gpu, gpu1 = torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')
print("Devices are values: 'cuda' means the current GPU, 'cuda:1' the second one.")
print(cpu, gpu, gpu1)
-- %% str versus repr
-- Printing a device shows its short name; repr shows how to rebuild it.
print("str(d) is the short name, repr(d) shows how the object is built:")
print(tostring(gpu1))
print(repr(gpu1))
-- %% Helpers that still work without a GPU
-- try_gpu(i) gives cuda:i when that device exists and falls back to the CPU;
-- try_all_gpus() lists every CUDA device, or just the CPU when there is none.
function try_gpu(i)
  i = i or 0
  if torch.cuda.device_count() >= i + 1 then
    return torch.device('cuda:' .. i)
  end
  return torch.device('cpu')
end

function try_all_gpus()
  local devices = {}
  for i = 0, torch.cuda.device_count() - 1 do
    devices[#devices + 1] = torch.device('cuda:' .. i)
  end
  if #devices == 0 then devices[1] = torch.device('cpu') end
  return devices
end

print("try_gpu(i) falls back to the CPU when cuda:i does not exist;")
print("try_all_gpus() lists every CUDA device, or just the CPU when there is none.")
print("try_gpu()   ->", try_gpu())
print("try_gpu(10) ->", try_gpu(10))
local names = {}
for _, d in ipairs(try_all_gpus()) do names[#names + 1] = tostring(d) end
print("try_all_gpus() -> {" .. table.concat(names, ", ") .. "}")
