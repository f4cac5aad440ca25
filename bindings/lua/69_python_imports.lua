-- The names PyTorch code binds with its imports, bound here so that code
-- copied from a tutorial finds them (torch and nn: bindings/open.cpp):
--   import torch.nn.functional as F
--   import torch.optim as optim
F = torch.nn.functional
optim = torch.optim
