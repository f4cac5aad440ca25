-- exercise: 002_map_location
-- Reference solution
function load_on_cpu(path)
  return torch.load(path, {map_location = 'cpu'})
end

net = nn.Linear(4, 2):cuda()
path = os.tmpname()
torch.save(net:state_dict(), path)
laptop_net = nn.Linear(4, 2)
laptop_net:load_state_dict(load_on_cpu(path))
print(laptop_net.weight)
os.remove(path)
