-- Integer and bool products (kernels/cpu/gemm_int.cpp, Note [Integer products
-- by rows]) on the CPU and on CUDA devices, against float64's exact product.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_matmul_int.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local n_dev = torch.cuda.device_count()
local devices = {'cuda:0', 'cuda:' .. (n_dev - 1)}

-- Note [Integer products by rows]: the integer kernels against float64's BLAS
-- product (exact for these small values), then narrowed as integers wrap.
T.test('integer and bool products equal the exact product on every device, transposed or batched', function()
  local shapes = {{1, 1, 1}, {7, 13, 5}, {5, 64, 3}, {129, 257, 65}, {3, 0, 4}, {6, 2, 1}}
  local dtypes = {torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8}
  local function exact(x, y, dt) return x:double():matmul(y:double()):to(torch.int64):to(dt) end
  for _, dev in ipairs({'cpu', table.unpack(devices)}) do
    for _, dt in ipairs(dtypes) do
      local lo = dt == torch.uint8 and 0 or -3
      for _, s in ipairs(shapes) do
        local m, k, n = s[1], s[2], s[3]
        local a, b = torch.randint(lo, 4, {m, k}, {dtype = dt}), torch.randint(lo, 4, {k, n}, {dtype = dt})
        local what = ('%s %dx%dx%d on %s'):format(tostring(dt), m, k, n, dev)
        local A, B = a:to(dev), b:to(dev)
        T.check(torch.equal(A:matmul(B):cpu(), exact(a, b, dt)), what)
        T.check(torch.equal(A:t():contiguous():t():matmul(B:t():contiguous():t()):cpu(), exact(a, b, dt)),
                what .. ', transposed operands')
      end
      local a, b = torch.randint(lo, 4, {3, 9, 11}, {dtype = dt}), torch.randint(lo, 4, {3, 11, 6}, {dtype = dt})
      T.check(torch.equal(torch.bmm(a:to(dev), b:to(dev)):cpu(), exact(a, b, dt)), tostring(dt) .. ' bmm on ' .. dev)
      local c = torch.randint(lo, 4, {9, 6}, {dtype = dt})
      local want = (exact(a[1], b[1], torch.int64) * 2 + c:to(torch.int64) * 3):to(dt)
      T.check(torch.equal(torch.addmm(c:to(dev), a[1]:to(dev), b[1]:to(dev), {beta = 3, alpha = 2}):cpu(), want),
              tostring(dt) .. ' addmm on ' .. dev)
    end
    -- int8 sums past 127 wrap, as PyTorch's
    local a = torch.full({2, 40}, 3, {dtype = torch.int8})
    T.eq(a:to(dev):matmul(a:t():to(dev)):cpu():tolist()[1][1], 104)  -- 360 - 256
    local p, q = torch.rand(9, 17):gt(0.7), torch.rand(17, 4):gt(0.7)
    T.check(torch.equal(p:to(dev):matmul(q:to(dev)):cpu(), p:double():matmul(q:double()):gt(0)), 'bool on ' .. dev)
  end
end)

T.finish()
