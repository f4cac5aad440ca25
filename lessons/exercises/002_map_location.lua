-- exercise: 002_map_location
-- Open a GPU checkpoint without a GPU (lesson c6)
-- A checkpoint saved from a GPU remembers that its tensors were on cuda:0;
-- on a laptop without a GPU a plain torch.load(path) fails. Make
-- load_on_cpu(path) return the state dict with every tensor on the CPU,
-- never passing through a GPU. The checker saves fresh checkpoints and loads
-- them with your function.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function load_on_cpu(path)
  -- TODO: torch.load with its tensors mapped to the CPU
  return TODO
end

net = nn.Linear(4, 2):cuda()
path = os.tmpname()
torch.save(net:state_dict(), path)
laptop_net = nn.Linear(4, 2)
laptop_net:load_state_dict(load_on_cpu(path))
print(laptop_net.weight)
os.remove(path)
