// The Lua half of `gpulab doctor` (doctor.cpp runs it in a session): every
// kernel family on each CUDA device, compared with the same op on the CPU,
// through the public torch API only. Returns {devices = {...}, checks = {...}}.
#pragma once

namespace gl::interp {

inline constexpr const char* kDoctorChecks = R"lua(
local function maxdiff(x, y)
  if x.shape ~= nil and tostring(x.shape) ~= tostring(y.shape) then
    error("shape " .. tostring(x.shape) .. " instead of " .. tostring(y.shape))
  end
  return (x:double() - y:double()):abs():max():item()
end
local function near(got, want, tol, what)
  local d = maxdiff(got:cpu(), want)
  if d > tol then error(string.format("%s differs from the CPU by %g", what, d), 0) end
end

local families = {
  {"elementwise", function(dev)
    torch.manual_seed(0)
    local a, b = torch.randn(64, 33), torch.randn(64, 33)
    local da, db = a:to(dev), b:to(dev)
    near((da * db + 1):exp():sin(), (a * b + 1):exp():sin(), 1e-4, "sin(exp(a*b+1))")
    near(da:gt(db), a:gt(b), 0, "a > b")
    local i = torch.arange(100)
    near(i:to(dev) * 3 - 7, i * 3 - 7, 0, "int64 arithmetic")
  end},
  {"reduction", function(dev)
    torch.manual_seed(1)
    local a = torch.randn(37, 129)
    local da = a:to(dev)
    near(da:sum(), a:sum(), 1e-2, "sum()")
    near(da:sum(1), a:sum(1), 1e-3, "sum(1)")
    near(da:mean(0), a:mean(0), 1e-4, "mean(0)")
    near(da:amax(1), a:amax(1), 0, "amax(1)")
    near(torch.arange(1000):to(dev):sum(), torch.arange(1000):sum(), 0, "int64 sum")
  end},
  {"matmul", function(dev)
    torch.manual_seed(2)
    local a, b = torch.randn(65, 33), torch.randn(33, 17)
    near(a:to(dev):matmul(b:to(dev)), a:matmul(b), 1e-2, "float32 matmul")
    local c, d = a:double(), b:double()
    near(c:to(dev):matmul(d:to(dev)), c:matmul(d), 1e-9, "float64 matmul")
    local i, j = torch.arange(12):view(3, 4), torch.arange(8):view(4, 2)
    near(i:to(dev):matmul(j:to(dev)), i:matmul(j), 0, "int64 matmul")
  end},
  {"copy", function(dev)
    torch.manual_seed(3)
    local a = torch.randn(30, 40)
    near(a:t():to(dev), a:t(), 0, "a transposed copy to the device")
    near(a:to(dev):t():contiguous(), a:t():contiguous(), 0, "contiguous() on the device")
    near(a:to(dev):half():float(), a:half():float(), 0, "float16 conversion")
    local n = torch.cuda.device_count()
    if n > 1 then near(a:to(dev):to("cuda:" .. (n - 1)), a, 0, "copy between devices") end
  end},
  {"random", function(dev)
    torch.manual_seed(4)
    local r = torch.rand(20000, {device = dev})
    if r:min():item() < 0 or r:max():item() >= 1 then error("rand outside [0, 1)") end
    local m = r:mean():item()
    if math.abs(m - 0.5) > 0.02 then error("rand mean " .. m .. ", expected about 0.5") end
    local s = torch.randn(20000, {device = dev}):std():item()
    if math.abs(s - 1) > 0.05 then error("randn std " .. s .. ", expected about 1") end
  end},
}

local report = {devices = {}, checks = {}}
for i = 0, torch.cuda.device_count() - 1 do
  local dev = "cuda:" .. i
  local p = torch.cuda.get_device_properties(i)
  report.devices[#report.devices + 1] = {
    name = p.name, total_memory = p.total_memory, major = p.major, minor = p.minor,
    virtual = torch.cuda.is_virtual(i), device = dev}
  for _, f in ipairs(families) do
    local start = os.clock()
    local ok, err = pcall(f[2], dev)
    torch.cuda.synchronize(i)
    report.checks[#report.checks + 1] = {
      device = dev, family = f[1], ok = ok, error = ok and "" or tostring(err),
      ms = (os.clock() - start) * 1000}
  end
end
return report
)lua";

}  // namespace gl::interp
