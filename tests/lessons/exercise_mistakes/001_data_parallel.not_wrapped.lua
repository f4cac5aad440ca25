-- expect: model is not wrapped in nn.DataParallel although 2 GPUs are visible
-- exercise: 001_data_parallel
Model = nn.Module:extend('Model')
function Model:__init() self.fc = nn.Linear(5, 2) end
function Model:forward(x) seen_batch_sizes[#seen_batch_sizes + 1] = x:size(0); return self.fc(x) end
seen_batch_sizes = {}
device = torch.device('cuda:0')
model = Model():to(device)
