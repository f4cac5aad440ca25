-- Writes its pid, then keeps a core busy for 30 s (tests/dist/run.sh kills
-- the launcher meanwhile: the ranks must not outlive it).
local f = io.open(arg[1] .. '/pid.' .. os.getenv('RANK'), 'w')
f:write(io.open('/proc/self/stat'):read('l'):match('^(%d+)'))
f:close()
local t = os.clock()
while os.clock() - t < 30 do end
