-- Using GPUs in PyTorch (a course deck) § 6: Loading GPU checkpoints: map_location and the "module." prefix
-- needs: 2 gpus
-- %% A model trained on the GPU
-- Three bias-free linear layers, trained for a few steps on cuda:0.
FooNet = nn.Module:extend('FooNet')
function FooNet:__init(neural_num, layers)
  self.linears = nn.Sequential()
  for l = 0, layers - 1 do
    self.linears:add_module(tostring(l), nn.Linear(neural_num, neural_num, false))
  end
end
function FooNet:forward(x) return self.linears(x) end
device = try_gpu()
net = FooNet(3, 3):to(device)
opt = torch.optim.SGD(net:parameters(), {lr = 0.1})
x, y = torch.randn{16, 3, device = device}, torch.randn{16, 3, device = device}
for step = 1, 5 do
  opt:zero_grad()
  loss = nn.MSELoss()(net(x), y)
  loss:backward()
  opt:step()
end
print(string.format("trained on %s, final loss %.4f", tostring(device), loss:item()))
-- %% Saving the state_dict
-- The file records, for every tensor, the device it was on when saved.
path_state_dict = os.tmpname()
torch.save(net:state_dict(), path_state_dict)
for name, t in pairs(torch.load(path_state_dict)) do print(name, t.device) end
-- %% Loading it on a machine without a GPU
-- We play the CPU-only machine with a second gpulab that sees no GPU:
-- `CUDA_VISIBLE_DEVICES` set to the empty string hides every GPU (a handy
-- trick for testing CPU code paths). As a file saved on a GPU says where
-- its tensors were, plain `torch.load` fails there.
code = string.format([[
print("cuda available:", torch.cuda.is_available())
local ok, err = pcall(torch.load, %q)
print((tostring(err):match("[^\n]*")))
]], path_state_dict)
torch.cuda.run_with_visible_devices('', code)
-- %% The fix: map_location
-- `map_location` tells `torch.load` where to put the tensors instead of the
-- device they were saved from: 'cpu' here (a torch.device works too).
code = string.format([[
local sd = torch.load(%q, {map_location = "cpu"})
for name, t in pairs(sd) do print(name, t.device) end
]], path_state_dict)
torch.cuda.run_with_visible_devices('', code)
-- %% map_location can also pick another GPU
-- try_gpu(1) is cuda:1 when it exists (the CPU otherwise).
sd_on_1 = torch.load(path_state_dict, {map_location = try_gpu(1)})
print("loaded with map_location=" .. tostring(try_gpu(1)))
-- %% Where the first weight landed
sd_on_1['linears.0.weight'].device
-- %% A model trained with DataParallel
-- DataParallel keeps the real model as its submodule 'module', so every key of
-- its state_dict starts with 'module.'.
dp_net = nn.DataParallel(FooNet(3, 3)):to(device)
torch.save(dp_net:state_dict(), path_state_dict)
state_dict_load = torch.load(path_state_dict, {map_location = 'cpu'})
print("saved the DataParallel model's state_dict and loaded it back")
-- %% Its keys
for name in pairs(state_dict_load) do print(name) end
-- %% Loading those keys into a plain model fails
-- load_state_dict is strict by default: every key must match exactly.
plain = FooNet(3, 3)
ok, err = pcall(function() return plain:load_state_dict(state_dict_load) end)
print(err)
-- %% Fix 1: load into a DataParallel wrapper, or save model.module
-- Wrapping the new model the same way makes the keys match; its .module is
-- then the plain model. Better still, save dp_net.module:state_dict() in the
-- first place: those keys have no prefix.
wrapped = nn.DataParallel(FooNet(3, 3))
print(wrapped:load_state_dict(state_dict_load))
plain = wrapped.module
-- %% The keys of dp_net.module:state_dict() have no prefix
for name in pairs(dp_net.module:state_dict()) do print(name) end
-- %% Fix 2: strip the prefix
-- Build a new table whose keys lose a leading 'module.' (7 characters).
new_state_dict = {}
for k, v in pairs(state_dict_load) do
  local namekey = k:sub(1, 7) == 'module.' and k:sub(8) or k
  new_state_dict[namekey] = v
end
plain = FooNet(3, 3)
print(plain:load_state_dict(new_state_dict))
-- %% Same weights either way
os.remove(path_state_dict)  -- the checkpoint file is no longer needed
print("stripped keys give the DataParallel model's weights:",
      plain.linears[0].weight.data:equal(dp_net.module.linears[0].weight.data:cpu()))
-- %% In short
-- - A checkpoint remembers the devices its tensors were on. To load it where
--   those devices do not exist, pass `map_location` ('cpu', or another GPU).
-- - A model wrapped in DataParallel saves its keys as `module.<name>`. Save
--   `model.module:state_dict()` instead, wrap before loading, or strip the
--   prefix.
