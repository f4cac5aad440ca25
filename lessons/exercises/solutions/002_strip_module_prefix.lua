-- exercise: 002_strip_module_prefix
-- Reference solution
function strip_module_prefix(state_dict)
  local new_state_dict = {}
  for k, v in pairs(state_dict) do
    local namekey = k:sub(1, 7) == 'module.' and k:sub(8) or k
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
state_dict_load = trained:state_dict()
plain = FooNet()
plain:load_state_dict(strip_module_prefix(state_dict_load))
