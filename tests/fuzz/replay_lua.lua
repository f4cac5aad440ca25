-- Replays a fuzz_lua input in plain gpulab (no sanitizers), to see what it
-- does or to debug it with print()s in the driver:
--   gpulab --virtual-gpus 2:256MiB tests/fuzz/replay_lua.lua tests/fuzz/fuzz_lua_driver.lua crash-<sha>
local driver, file = arg[1], arg[2]
local scratch = (os.getenv('TMPDIR') or '/tmp') .. '/fuzz_lua_replay'
os.execute('mkdir -p ' .. scratch)
assert(loadfile(driver))(scratch)
local f = assert(io.open(file, 'rb'))
local bytes = f:read('a')
f:close()
FUZZ_RUN(bytes)
io.stderr:write('replayed ', file, ' without a crash\n')
