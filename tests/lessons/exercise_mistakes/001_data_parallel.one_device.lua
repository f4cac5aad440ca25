-- expect: no part of the batch ran on cuda:1
-- exercise: 001_data_parallel
device = torch.device('cuda:0')
Model = nn.Module:extend('Model')
function Model:__init() self.fc = nn.Linear(5, 2) end
function Model:forward(x) seen_batch_sizes[#seen_batch_sizes + 1] = x:size(0); return self.fc(x) end
seen_batch_sizes = {}
model = nn.DataParallel(Model(), {device_ids = {0}}):to(device)
