-- Prints what `gpulab run` gives each rank (tests/dist/run.sh checks it).
local pid = io.open('/proc/self/stat'):read('l'):match('^(%d+)')
local dir = arg[1]
if dir then
  local f = io.open(dir .. '/pid.' .. os.getenv('RANK'), 'w')
  f:write(pid)
  f:close()
end
for _, k in ipairs({'RANK', 'LOCAL_RANK', 'WORLD_SIZE', 'LOCAL_WORLD_SIZE', 'GROUP_RANK', 'MASTER_ADDR'}) do
  io.write(k, '=', os.getenv(k) or 'nil', ' ')
end
print()
io.stderr:write('to stderr\n')
io.write('no newline at the end')
