// The Lua helpers every exercise checker sees (`gpulab check`). A checker runs
// after the learner's file, in the same state, and calls these:
//   check(cond, msg) / fail(msg)   record a failure (check returns cond)
//   need_function(name)            the learner's global function, or a failure
//   traced(fn, ...)                trace, ok, results...: fn run under torch._trace
//   trace_peek()                   the counts so far, inside traced()
//   ops(trace, name, device)       how many `name` ops ran on `device` ("cuda"
//                                  matches any GPU; nil name or device: any)
//   syncs(trace, what, device)     how many times the host waited for `device`
//                                  (what: item, tolist, print, cpu, copy,
//                                  synchronize; nil what or device: any)
//   fresh_seed()                   reseed torch from the clock: fresh inputs
//   first_line(err), show(t)       short texts for messages
//   gpus()                         the visible device count
// and, for exercises that run a net on a device over a loader's batches:
//   probe_net(make_body)           Probe, probe: an nn.Module class whose
//                                  instances wrap make_body(...)'s module and
//                                  record each call (training, grad mode, the
//                                  input's device) in probe.calls
//   run_on_device(name, probe, device, fn, ...)
//                                  trace, result: fn(...) traced, with the
//                                  failures such exercises share (an error,
//                                  a batch left on the host, a net that never
//                                  ran or ran elsewhere); trace nil on failure
//   check_device_traffic(trace, nbatches, running, h2d_per_batch)
//                                  at most one read back to the host (of the
//                                  running `running`) and h2d_per_batch copies
//                                  to the device per batch; true when both hold
#pragma once

namespace gl::interp {

constexpr const char* kCheckPrelude = R"(
local failures = {}
local function check(cond, message)
  if not cond then
    failures[#failures + 1] = message ~= nil and tostring(message) or 'check failed'
  end
  return cond
end
local lib = {}
-- The trace is the checker's: code under check that reaches for torch._trace
-- (to reset the counts, say) is reported instead of believed.
local trace_api, tampered = torch._trace, false
torch._trace = setmetatable({}, {__index = function(_, k) tampered = true; return trace_api[k] end})
function lib.trace_peek() return trace_api.peek() end
function lib.fail(message) return check(false, message) end
function lib.first_line(err) return (tostring(err):match('[^\n]*')) end
function lib.show(t)
  if not torch.is_tensor(t) then return tostring(t) end
  local text = tostring(t):gsub('%s*\n%s*', ' ')
  return text
end
function lib.gpus() return torch.cuda.device_count() end
function lib.need_function(name)
  local f = rawget(_G, name)
  if type(f) ~= 'function' then
    check(false, '`' .. name .. '` is missing (or not a function): keep the function '
          .. name .. ' from the exercise and fill in its body')
    return nil
  end
  return f
end
function lib.traced(fn, ...)
  local args = table.pack(...)
  tampered = false
  trace_api.start()
  local results = table.pack(pcall(fn, table.unpack(args, 1, args.n)))
  local trace = trace_api.stop()
  if tampered then
    return trace, false, 'your code used torch._trace, which belongs to the checker: leave it alone'
  end
  return trace, table.unpack(results, 1, results.n)
end
-- Calls f(...) with PyTorch's own functions watched, fns = {{table, key}, ...}:
-- the names of those that ran (in the order met), then f's results. An
-- exercise that asks for a formula refuses a call to the op that computes it,
-- which would pass every comparison (x:softmax(1) for softmax by hand).
function lib.watching(fns, f, ...)
  local called, seen, saved = {}, {}, {}
  for i, w in ipairs(fns) do
    local t, k = w[1], w[2]
    saved[i] = rawget(t, k)
    if saved[i] ~= nil then
      rawset(t, k, function(...)
        if not seen[k] then
          seen[k] = true
          called[#called + 1] = k
        end
        return saved[i](...)
      end)
    end
  end
  local results = table.pack(pcall(f, ...))
  for i, w in ipairs(fns) do
    if saved[i] ~= nil then rawset(w[1], w[2], saved[i]) end
  end
  if not results[1] then error(results[2], 0) end
  return called, table.unpack(results, 2, results.n)
end
local function device_matches(device, want)
  if want == nil then return true end
  if want == 'cuda' then return device:sub(1, 4) == 'cuda' end
  return device == tostring(want)
end
-- The count of the entries of list whose `field` is value (any when nil) on device.
local function count(list, field, value, device)
  local n = 0
  for _, e in ipairs(list) do
    if (value == nil or e[field] == value) and device_matches(e.device, device) then n = n + e.count end
  end
  return n
end
function lib.ops(trace, name, device) return count(trace.ops, 'name', name, device) end
function lib.syncs(trace, what, device) return count(trace.syncs, 'what', what, device) end
local seed_counter = 0
function lib.fresh_seed()
  seed_counter = seed_counter + 1
  local seed = (os.time() * 7919 + math.floor(os.clock() * 1e6) + seed_counter * 104729) % 2147483647
  torch.manual_seed(seed)
  return seed
end
function lib.probe_net(make_body)
  local probe = {calls = {}}
  local Probe = nn.Module:extend('Probe')
  function Probe:__init(...) self.body = make_body(...) end
  function Probe:forward(x)
    probe.calls[#probe.calls + 1] = {training = self.training, grad = torch.is_grad_enabled(), device = tostring(x.device)}
    return self.body(x)
  end
  return Probe, probe
end
function lib.run_on_device(name, probe, device, fn, ...)
  probe.calls = {}
  local trace, ok, result = lib.traced(fn, ...)
  if not ok then
    local err = tostring(result)
    if err:find('same device') or err:find('should be the same') then
      lib.fail(name .. ' raised "' .. lib.first_line(result) .. '": the net is on ' .. tostring(device)
               .. ' and the batch is not; move each batch there (X:to(device), y:to(device), with the `device` argument)')
    else
      lib.fail(name .. ' raised an error: ' .. lib.first_line(result))
    end
    return nil
  end
  if #probe.calls == 0 then lib.fail('the net never ran: call net(X) on each batch') return nil end
  for _, c in ipairs(probe.calls) do
    if c.device ~= tostring(device) then
      lib.fail('the net ran on a batch on ' .. c.device .. ', not on the `device` argument (' .. tostring(device) .. ')')
      return nil
    end
  end
  return trace, result
end
function lib.check_device_traffic(trace, nbatches, running, h2d_per_batch)
  local reads = lib.syncs(trace, 'item') + lib.syncs(trace, 'tolist') + lib.syncs(trace, 'print')
  local ok = check(reads <= 1, ('the host read values back from the GPU %d times for %d batches (:item() in the loop?): '
        .. 'keep the running %s a tensor on the device and read it once, at the end'):format(reads, nbatches, running))
  return check(trace.h2d.calls <= h2d_per_batch * nbatches + 1, ('%d copies to the GPU for %d batches: move each batch once'):format(
        trace.h2d.calls, nbatches)) and ok
end
lib.check = check
-- (Re)defines the helpers as globals: the learner's code may have reused a name.
local function install()
  for k, v in pairs(lib) do _G[k] = v end
end
return failures, install
)";

}  // namespace gl::interp
