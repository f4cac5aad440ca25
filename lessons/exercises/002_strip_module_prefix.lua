-- exercise: 002_strip_module_prefix
-- Load a DataParallel checkpoint into a plain model (lesson c6)
-- nn.DataParallel keeps the model as `.module`, so every key of its state
-- dict starts with 'module.' and a plain model refuses them. Make
-- strip_module_prefix(state_dict) return a new table with the same tensors
-- under the keys without that leading prefix (other keys unchanged). The
-- checker calls it on fresh state dicts, not only on the one below.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function strip_module_prefix(state_dict)
  local new_state_dict = {}
  for k, v in pairs(state_dict) do
    -- TODO: the key without a leading 'module.'
    local namekey = TODO
    new_state_dict[namekey] = v
  end
  return new_state_dict
end

FooNet = nn.Module:extend('FooNet')
function FooNet:__init()
  self.linears = nn.Sequential(nn.Linear(3, 3, false), nn.Linear(3, 3, false))
end
function FooNet:forward(x) return self.linears(x) end

trained = nn.DataParallel(FooNet():to(try_gpu()))
state_dict_load = trained:state_dict()   -- keys: module.linears.0.weight, ...
plain = FooNet()
plain:load_state_dict(strip_module_prefix(state_dict_load))
