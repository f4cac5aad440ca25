-- Using GPUs in PyTorch (a course deck) § 3: torch.cuda helpers and CUDA_VISIBLE_DEVICES
-- needs: 4 gpus
-- %% How many GPUs, and what are they?
-- This lesson is written for four GPUs (without a GPU, gpulab gives it four
-- virtual ones). With fewer, it uses the GPUs there are.
print("device_count:", torch.cuda.device_count())
for i = 0, torch.cuda.device_count() - 1 do
  print(i, torch.cuda.get_device_name(i))
end
-- %% Without an argument, get_device_name names the current device
torch.cuda.get_device_name()
-- %% Seeds for the GPU generators
-- Every GPU has its own random generator. torch.cuda.manual_seed(s) seeds the
-- current GPU only; torch.cuda.manual_seed_all(s) seeds every visible GPU.
-- (torch.manual_seed(s) seeds the CPU and all GPUs at once.)
torch.cuda.manual_seed(7)
a = torch.rand{3, device = 'cuda:0'}
torch.cuda.manual_seed(7)
b = torch.rand{3, device = 'cuda:0'}
print("same seed, same numbers on cuda:0:", a:equal(b))
other = math.min(1, torch.cuda.device_count() - 1)  -- cuda:1, or cuda:0 with one GPU
torch.cuda.manual_seed_all(7)
c = torch.rand{3, device = 'cuda:' .. other}
print("after manual_seed_all(7), cuda:" .. other .. " draws the same numbers too:", c:cpu():equal(a:cpu()))
-- %% set_device: what 'cuda' means
-- 'cuda' without an index is the current device. set_device changes it for
-- the rest of the program, which is easy to forget, so it is discouraged:
-- name devices explicitly ('cuda:1') or use CUDA_VISIBLE_DEVICES instead.
print("current device:", torch.cuda.current_device(),
      "-> a 'cuda' tensor lands on", torch.zeros{1, device = 'cuda'}.device)
torch.cuda.set_device(other)
print("after set_device(" .. other .. "):", torch.cuda.current_device(),
      "-> a 'cuda' tensor lands on", torch.zeros{1, device = 'cuda'}.device)
torch.cuda.set_device(0)
print("back to", torch.cuda.current_device())
-- %% CUDA_VISIBLE_DEVICES
-- This environment variable picks which physical GPUs a process may see, and
-- in which order; they are renumbered from 0. It is read once, when the
-- process first uses CUDA, so it must be set before that: in the shell, or
-- at the very top of a Python script (os.environ.setdefault(...) before any
-- torch.cuda call). Setting it later changes nothing.
-- `torch.cuda.run_with_visible_devices(visible, code)` starts a second
-- gpulab with the variable set and prints what it prints. With four GPUs
-- the child sees only GPUs 2 and 3, renumbered cuda:0 and cuda:1; with
-- fewer, only the last one.
visible = torch.cuda.device_count() >= 4 and "2,3" or tostring(torch.cuda.device_count() - 1)
print("CUDA_VISIBLE_DEVICES=" .. visible)
torch.cuda.run_with_visible_devices(visible, [[
print("device_count: " .. torch.cuda.device_count())
for i = 0, torch.cuda.device_count() - 1 do
  print("  cuda:" .. i .. " is " .. torch.cuda.get_device_name(i))
end
]])
