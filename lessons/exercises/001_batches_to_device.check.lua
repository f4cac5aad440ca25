-- Checker for 001_batches_to_device.lua
-- needs: 1 GPU
local run_batches = need_function('run_batches')
if not run_batches then return end
fresh_seed()
local device = torch.device('cuda:' .. (gpus() - 1))
local rows, width, batch = 40 + math.random(0, 30), 3 + math.random(0, 3), 16
local data = torch.utils.data.TensorDataset(torch.randn{rows, width})
local loader = torch.utils.data.DataLoader(data, {batch_size = batch})
local nbatches = (rows + batch - 1) // batch
local model = nn.Linear(width, 2):to(device)
local trace, ok, seen = traced(run_batches, model, loader, device)
if not ok then
  if tostring(seen):find('same device') then
    fail('run_batches raised "' .. first_line(seen) .. '": the batch is on the CPU and the model on '
         .. tostring(device) .. '; move each batch with :to(device) before model(...)')
  else
    fail('run_batches raised an error: ' .. first_line(seen))
  end
  return
end
if not check(model.weight.device.type == 'cuda', 'the model was moved off the GPU: move the batches to the model, '
             .. 'not the model to the batches') then return end
if ops(trace, 'mm', device) == 0 and ops(trace, 'mm', 'cpu') == 0 then
  fail('the model never ran: call model(input) on each batch (and count output:size(0))')
  return
end
if ops(trace, 'mm', 'cpu') > 0 then
  fail('part of the model ran on the CPU: move each batch to `device` and run the model there')
  return
end
if not check(seen == rows, 'run_batches should return the number of rows the model saw (' .. rows
             .. ' for this data set), it returned ' .. tostring(seen)) then return end
check(trace.h2d.calls == nbatches, 'each batch should cross to the GPU once (' .. nbatches .. ' batches), '
      .. 'but there were ' .. trace.h2d.calls .. ' copies to the GPU')
check(trace.d2h.calls == 0 and syncs(trace) == 0, 'run_batches copied results back to the host (' .. trace.d2h.calls
      .. ' copies): count rows with output:size(0), which needs no copy, and leave the outputs on the GPU')
