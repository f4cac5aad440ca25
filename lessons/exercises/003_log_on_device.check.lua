-- Checker for 003_log_on_device.lua
if not check(#norms == 100, "norms should hold 100 entries, it holds " .. #norms) then return end
if type(norms[1]) == 'number' then
  check(false, "norms holds Lua numbers: each :item() copied a value to the host; keep the tensor A:norm()")
  return
end
if not check(torch.is_tensor(norms[1]), "norms should hold tensors") then return end
check(norms[1].device.type == 'cuda', "the norms are on " .. tostring(norms[1].device) .. ": keep them on the GPU")
if log == nil then check(false, "log is still a blank: replace `...` with torch.stack(norms):cpu()") return end
if not check(torch.is_tensor(log), "log should be one tensor, not a table") then return end
check(log.device.type == 'cpu', "log is on " .. tostring(log.device) .. ": copy it to the host once at the end (:cpu())")
check(log:numel() == 100, "log should hold 100 values, it holds " .. log:numel())
check(math.abs(log[99]:item() - norms[100]:item()) < 1e-6, "log's last value should be the last norm")
