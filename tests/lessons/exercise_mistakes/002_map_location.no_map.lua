-- expect: the tensors are still on cuda:0: a CPU-only machine cannot create them there; pass {map_location = 'cpu'}
net = nn.Linear(4, 2):cuda()
path = os.tmpname()
torch.save(net:state_dict(), path)
state_dict = torch.load(path)
laptop_net = nn.Linear(4, 2)
os.remove(path)
