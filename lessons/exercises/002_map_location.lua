-- Exercise (tutorial 002, loading checkpoints): a checkpoint saved on the GPU
-- has to be opened on a laptop without one. Load it so that every tensor
-- comes back on the CPU (on a CPU-only machine a plain torch.load fails).
-- Run:  gpulab check THIS_FILE --virtual-gpus 2
net = nn.Linear(4, 2):cuda()
path = os.tmpname()
torch.save(net:state_dict(), path)

-- TODO: load `path` with its tensors mapped to the CPU
state_dict = ...

laptop_net = nn.Linear(4, 2)
os.remove(path)
