-- Reference solution for exercises/002_strip_module_prefix.lua
FooNet = nn.Module:extend('FooNet')
function FooNet:__init()
  self.linears = nn.Sequential(nn.Linear(3, 3, false), nn.Linear(3, 3, false))
end
function FooNet:forward(x) return self.linears(x) end

trained = nn.DataParallel(FooNet())
state_dict_load = trained:state_dict()

new_state_dict = {}
for k, v in pairs(state_dict_load) do
  local namekey = k:sub(1, 7) == 'module.' and k:sub(8) or k
  new_state_dict[namekey or k] = v
end
plain = FooNet()
plain:load_state_dict(new_state_dict)
