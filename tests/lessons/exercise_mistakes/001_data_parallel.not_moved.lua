-- expect: the model is still on cpu: call model:to(device) after wrapping it
-- exercise: 001_data_parallel
Model = nn.Module:extend('Model')
function Model:__init() self.fc = nn.Linear(5, 2) end
function Model:forward(x) seen_batch_sizes[#seen_batch_sizes + 1] = x:size(0); return self.fc(x) end
seen_batch_sizes = {}
device = torch.device('cuda:0')
model = nn.DataParallel(Model())
