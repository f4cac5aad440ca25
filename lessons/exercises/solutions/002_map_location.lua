-- Reference solution for exercises/002_map_location.lua
net = nn.Linear(4, 2):cuda()
path = os.tmpname()
torch.save(net:state_dict(), path)

state_dict = torch.load(path, {map_location = 'cpu'})

laptop_net = nn.Linear(4, 2)
os.remove(path)
