-- A receive that nothing answers ends with gloo's timeout error (PyTorch's
-- text) after init_process_group's timeout. As in PyTorch, gloo then closes
-- the connection: the group cannot be used again.
-- Run by tests/dist/run.sh with 2 ranks.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/../lua/testlib.lua')
local dist = torch.distributed
dist.init_process_group{backend = 'gloo', init_method = 'env://', timeout = 3}
local rank = dist.get_rank()
-- With the argument all_reduce: the same for a float all_reduce, which runs on
-- the sync-mode mesh (a read timeout of its own, reported in the same words).
local what = arg[1] or 'recv'
T.test(what .. ' times out with gloo\'s message', function()
  if rank == 1 then
    local t0 = os.time()
    local ok, err
    if what == 'all_reduce' then ok, err = pcall(dist.all_reduce, torch.ones(4))
    else ok, err = pcall(dist.recv, torch.zeros(2), 0, {tag = 99}) end
    T.eq(ok, false, what .. ' failed')
    T.truthy(tostring(err):find('^RuntimeError: .*Timed out waiting 3000ms for recv operation to complete'), tostring(err))
    T.truthy(os.time() - t0 <= 10, 'within the timeout')
  else
    local t0 = os.clock()
    while os.clock() - t0 < 4 do end  -- busy for longer than rank 1's timeout
  end
end)
dist.destroy_process_group()
T.finish()
