-- init_process_group over tcp://HOST:PORT and file:///PATH (rank= and
-- world_size= given, here from the launcher's environment), then one
-- all_reduce; and the rendezvous errors as PyTorch words them.
-- arg[1]: 'tcp' or 'file'; arg[2]: a port or a file path.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/../lua/testlib.lua')
local dist = torch.distributed
local rank, world = tonumber(os.getenv('RANK')), tonumber(os.getenv('WORLD_SIZE'))
T.test('rendezvous errors', function()
  T.raises(function() dist.init_process_group{init_method = 'tcp://127.0.0.1:1', world_size = 2} end,
    'ValueError: Error initializing torch.distributed using tcp:// rendezvous: rank parameter missing')
  T.raises(function() dist.init_process_group{init_method = 'file:///tmp/x', rank = 0} end,
    'ValueError: Error initializing torch.distributed using file:// rendezvous: world size parameter missing')
  T.raises(function() dist.init_process_group{init_method = 'foo://x'} end, 'RuntimeError: No rendezvous handler for foo://')
  T.eq(dist.is_initialized(), false, 'still not initialized')
end)
T.test(arg[1] .. ':// rendezvous', function()
  local url = arg[1] == 'tcp' and ('tcp://127.0.0.1:' .. arg[2]) or ('file://' .. arg[2])
  dist.init_process_group{backend = 'gloo', init_method = url, rank = rank, world_size = world, timeout = 30}
  T.eq(dist.get_rank(), rank, 'rank')
  local x = torch.tensor({rank + 1.0})
  dist.all_reduce(x)
  T.eq(x:item(), world * (world + 1) / 2, 'sum')
  dist.destroy_process_group()
end)
T.finish()
