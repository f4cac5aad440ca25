-- The switches GPU tutorials set before training, as PyTorch has them:
--   torch.backends.cudnn.benchmark = true
--   torch.set_float32_matmul_precision('high')
--   model = torch.compile(model)
-- torch.backends.cudnn's flags are kept and read back; gpulab picks its cuDNN
-- algorithms itself, so benchmark and deterministic change nothing yet.
-- The matmul precision is torch.backends.cuda.matmul.allow_tf32 by another
-- name, as in PyTorch. torch.compile is eager here: it returns the model
-- wrapped as PyTorch's OptimizedModule (same printout, '_orig_mod.' keys),
-- or the function itself.
local U = torch._util

-- torch.version: what this build has (a CPU-only build: cuda is nil, as PyTorch's None).
torch.version = {__version__ = torch.__version__, cuda = torch._cuda_version(), debug = false}

torch.backends.cudnn = {enabled = true, benchmark = false, deterministic = false, allow_tf32 = true}
function torch.backends.cudnn.is_available() return torch._cudnn_version() ~= nil end
function torch.backends.cudnn.version() return torch._cudnn_version() end

local PRECISIONS = {highest = true, high = true, medium = true}
local precision = 'highest'
function torch.get_float32_matmul_precision(...)
  U.parse('get_float32_matmul_precision', {}, nil, ...)
  return precision
end
function torch.set_float32_matmul_precision(...)
  local p = U.parse('set_float32_matmul_precision', {'precision:str!'}, nil, ...).precision
  if not PRECISIONS[p] then
    torch._warn(("%s is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has no "
      .. 'effect.'):format(p))
    return
  end
  precision = p
  torch.backends.cuda.matmul.allow_tf32 = p ~= 'highest'
end

-- ---- torch.compile ---------------------------------------------------------------
local OptimizedModule = nn.Module:extend('OptimizedModule')
rawset(OptimizedModule, '__module', 'torch._dynamo.eval_frame')
function OptimizedModule:__init(mod)
  nn.Module.__init(self)
  self._orig_mod = mod
end
function OptimizedModule:forward(...) return self._orig_mod(...) end

function torch.compile(...)
  local a = U.parse('compile', {'model', 'fullgraph:bool', 'dynamic', 'backend', 'mode', 'options', 'disable:bool'},
                    {fullgraph = false, disable = false}, ...)
  local model = a.model
  if model == nil then  -- torch.compile(mode=...) as a decorator factory: compile(fn) later
    return function(m) return torch.compile(m) end
  end
  if U.is_module and U.is_module(model) or (type(model) == 'table' and type(model.forward) == 'function'
                                            and rawget(model, '_modules') ~= nil) then
    return OptimizedModule(model)
  end
  if type(model) == 'function' or (getmetatable(model) or {}).__call then return model end
  error(('RuntimeError: torch.compile: expected a Module or a function, got %s'):format(U.type_name(model)), 0)
end
