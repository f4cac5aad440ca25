-- expect: build the new table from its argument (not from a model of your own, such as trained.module)
-- exercise: 002_strip_module_prefix
FooNet = nn.Module:extend('FooNet')
function FooNet:__init()
  self.linears = nn.Sequential(nn.Linear(3, 3, false), nn.Linear(3, 3, false))
end
function FooNet:forward(x) return self.linears(x) end
trained = nn.DataParallel(FooNet():to(try_gpu()))
function strip_module_prefix(state_dict)
  return trained.module:state_dict()
end
