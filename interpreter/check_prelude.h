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
lib.check = check
-- (Re)defines the helpers as globals: the learner's code may have reused a name.
local function install()
  for k, v in pairs(lib) do _G[k] = v end
end
return failures, install
)";

}  // namespace gl::interp
