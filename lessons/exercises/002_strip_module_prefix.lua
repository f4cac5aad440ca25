-- Exercise (tutorial 002, loading checkpoints): load a DataParallel checkpoint
-- into a plain model. Every key of `state_dict_load` starts with 'module.',
-- so plain:load_state_dict(state_dict_load) fails. Build `new_state_dict`
-- with the same tensors under the keys without that prefix.
-- Run:  gpulab check THIS_FILE --virtual-gpus 2
FooNet = nn.Module:extend('FooNet')
function FooNet:__init()
  self.linears = nn.Sequential(nn.Linear(3, 3, false), nn.Linear(3, 3, false))
end
function FooNet:forward(x) return self.linears(x) end

trained = nn.DataParallel(FooNet())
state_dict_load = trained:state_dict()   -- keys: module.linears.0.weight, ...

new_state_dict = {}
for k, v in pairs(state_dict_load) do
  -- TODO: the key without a leading 'module.'
  local namekey = ...
  new_state_dict[namekey or k] = v
end
plain = FooNet()
