-- One rank fails in the middle of a step while the others wait in a
-- collective: `gpulab run` must stop them and exit with that rank's status.
-- arg[1]: a directory for pid files; arg[2]: 'error', 'early' or 'kill'.
local dist = torch.distributed
local dir, how = arg[1], arg[2]
local pid = io.open('/proc/self/stat'):read('l'):match('^(%d+)')
local f = io.open(dir .. '/pid.' .. os.getenv('RANK'), 'w')
f:write(pid)
f:close()
-- 'early': rank 1 fails before the rendezvous, which the others would wait
-- for until the timeout: only the launcher can stop them.
if how == 'early' and os.getenv('RANK') == '1' then error('boom on rank 1') end
dist.init_process_group{backend = 'gloo', timeout = 600}
local rank = dist.get_rank()
local x = torch.ones(1000)
dist.all_reduce(x)  -- everyone is up
print('step 1 done')
if rank == 1 then
  if how == 'kill' then os.execute('kill -KILL ' .. pid) end
  error('boom on rank 1')
end
dist.all_reduce(x)  -- rank 0 (and 2, 3) wait here for rank 1
print('not reached')
