-- torch.utils.data.DistributedSampler, following torch/utils/data/distributed.py:
-- every rank takes every num_replicas-th index of one permutation (randperm
-- from a generator seeded seed + epoch, the same on every rank), padded by
-- repeating its start so that each rank gets num_samples indices, or cut
-- with drop_last. Indices count from 0, as in PyTorch.
local U = torch._util
local data = torch.utils.data

local function sampler_meta(cls)
  return {
    __name = cls.__name,
    __index = cls,
    __len = function(self) return self:__len() end,
    __call = function(self, _, ctrl)  -- `for i in sampler do`: a generic for over the object
      if ctrl == nil then self._it = self:iter() end
      local i = self._it()
      if i == nil then self._it = nil end
      return i
    end,
    __tostring = function(self)
      return ('<torch.utils.data.distributed.%s object at %s>'):format(cls.__name, self._addr)
    end,
  }
end
local DistributedSampler = U.class('DistributedSampler', nil, sampler_meta)
data.DistributedSampler = DistributedSampler
U.doc(DistributedSampler, 'DistributedSampler(dataset, {num_replicas=world_size, rank=rank, shuffle=true, seed=0, '
  .. 'drop_last=false}):\n  this rank\'s share of the dataset\'s indices; call sampler:set_epoch(e) before each '
  .. 'epoch to reshuffle.\n  DataLoader(ds, {batch_size=, sampler=sampler})')

function DistributedSampler.new(cls, ...)
  local a = U.parse('DistributedSampler', {'dataset!', 'num_replicas', 'rank', 'shuffle:bool', 'seed:int', 'drop_last:bool'},
                    {shuffle = true, seed = 0, drop_last = false}, ...)
  local dist = torch.distributed
  local replicas, rank = a.num_replicas, a.rank
  if replicas == nil or rank == nil then
    if not dist.is_initialized() then error('RuntimeError: Requires distributed package to be available', 0) end
    replicas = replicas or dist.get_world_size()
    rank = rank or dist.get_rank()
  end
  if math.type(replicas) ~= 'integer' then U.type_error('DistributedSampler', 'num_replicas', 'int', replicas) end
  if math.type(rank) ~= 'integer' then U.type_error('DistributedSampler', 'rank', 'int', rank) end
  if rank >= replicas or rank < 0 then
    error(('ValueError: Invalid rank %d, rank should be in the interval [0, %d]'):format(rank, replicas - 1), 0)
  end
  local n = #a.dataset
  local num_samples
  if a.drop_last and n % replicas ~= 0 then
    -- math.ceil((n - replicas) / replicas), in integers
    num_samples = -((replicas - n) // replicas)
  else
    num_samples = -(-n // replicas)
  end
  return setmetatable({dataset = a.dataset, num_replicas = replicas, rank = rank, epoch = 0, drop_last = a.drop_last,
                       num_samples = num_samples, total_size = num_samples * replicas, shuffle = a.shuffle,
                       seed = a.seed, _addr = tostring({}):match('0x%x+') or '0x0'}, cls.__meta)
end

function DistributedSampler:set_epoch(epoch)
  if math.type(epoch) ~= 'integer' then U.type_error('set_epoch', 'epoch', 'int', epoch) end
  self.epoch = epoch
end

function DistributedSampler:__len() return self.num_samples end

-- This rank's indices for the current epoch, as a Lua array of integers from 0.
function DistributedSampler:indices()
  local n = #self.dataset
  local all
  if self.shuffle then
    all = U.randperm_list(n, torch.Generator():manual_seed(self.seed + self.epoch))
  else
    all = {}
    for i = 1, n do all[i] = i - 1 end
  end
  -- PyTorch pads the list to total_size by repeating it from the start (so
  -- position i holds all[i % n]) or cuts it to total_size (drop_last); this
  -- rank takes positions rank, rank + num_replicas, ... of it, num_samples in all.
  local mine = {}
  for k = 0, self.num_samples - 1 do
    mine[k + 1] = all[(self.rank + k * self.num_replicas) % n + 1]
  end
  return mine
end

-- for i in sampler:iter() do ... end (and `for i in sampler do`).
function DistributedSampler:iter()
  local idx, k = self:indices(), 0
  return function()
    k = k + 1
    return idx[k]
  end
end
