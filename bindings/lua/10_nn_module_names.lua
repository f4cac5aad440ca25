-- A module's Python type name, as PyTorch's messages give it (the optimizer's
-- "one of the params is torch.nn.modules.linear.Linear"): the file of torch/nn/modules
-- each built-in class lives in, or __main__ for a learner's own class.
local U = torch._util

local MODULE_FILES = {
  linear = {'Linear', 'Identity', 'Bilinear', 'LazyLinear'},
  sparse = {'Embedding'},
  container = {'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict'},
  activation = {'ReLU', 'Sigmoid', 'Tanh', 'Softmax', 'LogSoftmax', 'GELU', 'SiLU', 'LeakyReLU', 'ELU', 'Softplus'},
  conv = {'Conv1d', 'Conv2d', 'LazyConv2d'},
  pooling = {'MaxPool2d', 'AvgPool2d', 'AdaptiveAvgPool2d'},
  batchnorm = {'BatchNorm1d', 'BatchNorm2d', 'LazyBatchNorm2d'},
  normalization = {'LayerNorm'},
  dropout = {'Dropout'},
  flatten = {'Flatten', 'Unflatten'},
  loss = {'MSELoss', 'L1Loss', 'CrossEntropyLoss', 'NLLLoss', 'BCELoss', 'BCEWithLogitsLoss', 'SmoothL1Loss', 'HuberLoss'},
}
local module_file = {}
for file, names in pairs(MODULE_FILES) do
  for _, name in ipairs(names) do
    module_file[name] = file
    U.class_modules[name] = 'torch.nn.modules.' .. file
  end
end
U.class_modules.Module = 'torch.nn.modules.module'
U.class_modules.DataParallel = 'torch.nn.parallel.data_parallel'
U.class_modules.DistributedDataParallel = 'torch.nn.parallel.distributed'
for name, mod in pairs({Optimizer = 'optimizer', SGD = 'sgd', Adam = 'adam', AdamW = 'adamw', Adagrad = 'adagrad',
                        RMSprop = 'rmsprop'}) do
  U.class_modules[name] = 'torch.optim.' .. mod
end
for _, name in ipairs({'LRScheduler', 'StepLR', 'MultiStepLR', 'ExponentialLR', 'CosineAnnealingLR', 'LambdaLR'}) do
  U.class_modules[name] = 'torch.optim.lr_scheduler'
end
for _, name in ipairs({'Transform', 'Compose', 'ToTensor', 'Normalize', 'Resize'}) do
  U.class_modules[name] = 'torchvision.transforms.transforms'
end
U.class_modules.FashionMNIST = 'torchvision.datasets.mnist'
for _, name in ipairs({'Timer', 'Accumulator', 'Animator'}) do U.class_modules[name] = 'd2l.torch' end
function U.module_qualname(m)
  local name = U.type_name(m)
  local file = module_file[name]
  if file and m._get_name then return 'torch.nn.modules.' .. file .. '.' .. name end
  return m._get_name and ('__main__.' .. name) or name
end
