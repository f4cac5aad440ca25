-- Integer remainder / floor_divide / fmod / div(rounding_mode) by every
-- dtype's extreme divisors, on the CPU and a virtual CUDA device. Regression:
-- the kernels' guard against MIN / -1 also caught an unsigned T(-1), so uint8
-- x % 255 gave 0 and x // 255 gave -x.
-- Lua's own integer % and // are floored, as remainder and floor_divide are.
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')

local RANGE = {uint8 = {0, 255}, int8 = {-128, 127}, int16 = {-32768, 32767},
               int32 = {-2147483648, 2147483647}, int64 = {-9007199254740992, 9007199254740992}}

local function trunc_div(a, b)
  local q = a // b
  if q < 0 and q * b ~= a then q = q + 1 end
  return q
end

for dtype, r in pairs(RANGE) do
  local lo, hi = r[1], r[2]
  local as = {lo, lo + 1, -1, 0, 1, 2, 100, hi - 1, hi}
  local bs = {hi, hi - 1, 2, 3}
  if lo < 0 then bs[#bs + 1] = lo; bs[#bs + 1] = -3 end
  local keep = {}
  for _, a in ipairs(as) do if a >= lo and a <= hi then keep[#keep + 1] = a end end
  for _, device in ipairs({'cpu', 'cuda:1'}) do
    for _, b in ipairs(bs) do
      T.test(('%s by %d on %s'):format(dtype, b, device), function()
        local x = torch.tensor(keep, {dtype = torch[dtype], device = device})
        local rem = torch.remainder(x, b):cpu():tolist()
        local fdiv = torch.floor_divide(x, b):cpu():tolist()
        local fm = torch.fmod(x, b):cpu():tolist()
        local tdiv = torch.div(x, b, {rounding_mode = 'trunc'}):cpu():tolist()
        local rem_t = torch.remainder(x, torch.full({#keep}, b, {dtype = torch[dtype], device = device})):cpu():tolist()
        for i, a in ipairs(keep) do
          local what = ('%s: %d by %d'):format(dtype, a, b)
          T.eq(rem[i], a % b, what .. ' remainder')
          T.eq(rem_t[i], a % b, what .. ' remainder (tensor divisor)')
          T.eq(fdiv[i], a // b, what .. ' floor_divide')
          T.eq(fm[i], math.fmod(a, b), what .. ' fmod')
          T.eq(tdiv[i], trunc_div(a, b), what .. ' div trunc')
        end
      end)
    end
  end
end
T.finish()
