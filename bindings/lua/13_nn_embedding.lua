-- nn.Embedding and F.embedding, as PyTorch's torch/nn/modules/sparse.py and
-- torch/nn/functional.py: padding_idx is checked and made non-negative here,
-- the lookup and its gradient are torch.embedding's (bindings/shape_extras.cpp).
local U = torch._util
local nn = torch.nn
local Module = nn.Module
local F = nn.functional

local function assertion(msg) error('AssertionError: ' .. msg, 0) end

-- PyTorch's check of padding_idx against num_embeddings; a negative one counts from the end.
local function padding_index(padding_idx, num_embeddings)
  if padding_idx == nil then return nil end
  if padding_idx > 0 and padding_idx >= num_embeddings then assertion('Padding_idx must be within num_embeddings') end
  if padding_idx < 0 then
    if padding_idx < -num_embeddings then assertion('Padding_idx must be within num_embeddings') end
    padding_idx = num_embeddings + padding_idx
  end
  return padding_idx
end

local function unsupported(a)
  if a.max_norm ~= nil then error('NotImplementedError: gpulab: embedding max_norm is not supported', 0) end
  if a.scale_grad_by_freq then
    error('NotImplementedError: gpulab: embedding scale_grad_by_freq=true is not supported', 0)
  end
  if a.sparse then error('NotImplementedError: gpulab: sparse gradients are not supported', 0) end
end

local F_NAMES = {'input:Tensor!', 'weight:Tensor!', 'padding_idx:int', 'max_norm', 'norm_type:float',
  'scale_grad_by_freq:bool', 'sparse:bool'}
function F.embedding(...)
  local a = U.parse('embedding', F_NAMES, {norm_type = 2.0, scale_grad_by_freq = false, sparse = false}, ...)
  local padding_idx = a.padding_idx ~= nil and padding_index(a.padding_idx, a.weight:size(0)) or -1
  unsupported(a)
  return torch.embedding(a.weight, a.input, padding_idx)
end
torch._set_doc(F.embedding, 'F.embedding(input, weight, padding_idx=None): the rows of weight at the indices in input '
  .. '(int64 or int32), shaped input.shape + (embedding_dim,); the padding_idx row gets no gradient.')

local Embedding = Module:extend('Embedding')
nn.Embedding = Embedding
U.doc(Embedding, 'nn.Embedding(num_embeddings, embedding_dim, {padding_idx=, device=, dtype=}): a lookup table of '
  .. 'num_embeddings vectors; weight starts N(0, 1), the padding_idx row zero (and gets no gradient).')

local NAMES = {'num_embeddings:int!', 'embedding_dim:int!', 'padding_idx:int', 'max_norm', 'norm_type:float',
  'scale_grad_by_freq:bool', 'sparse:bool', '_weight:Tensor', '_freeze:bool', 'device', 'dtype'}
function Embedding:__init(...)
  local a = U.parse('Embedding.__init__', NAMES,
                    {norm_type = 2.0, scale_grad_by_freq = false, sparse = false, _freeze = false}, ...)
  Module.__init(self)
  self.num_embeddings, self.embedding_dim = a.num_embeddings, a.embedding_dim
  self.padding_idx = padding_index(a.padding_idx, a.num_embeddings)
  unsupported(a)
  self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse = nil, a.norm_type, false, false
  if a._weight == nil then
    local opts = (a.device or a.dtype) and {device = a.device, dtype = a.dtype} or nil
    local w = opts and torch.empty(a.num_embeddings, a.embedding_dim, opts)
      or torch.empty(a.num_embeddings, a.embedding_dim)
    self.weight = nn.Parameter(w, not a._freeze)
    self:reset_parameters()
  else
    local w = a._weight
    if w:dim() ~= 2 or w:size(0) ~= a.num_embeddings or w:size(1) ~= a.embedding_dim then
      assertion('Shape of weight does not match num_embeddings and embedding_dim')
    end
    self.weight = nn.Parameter(a._weight, not a._freeze)
  end
end

-- N(0, 1), then the padding row zeroed, as PyTorch's reset_parameters.
function Embedding:reset_parameters()
  nn.init.normal_(self.weight)
  if self.padding_idx ~= nil then
    U.with_grad_mode(false, function() self.weight[self.padding_idx]:fill_(0) end)
  end
end

function Embedding:forward(...)
  local input = U.parse('Embedding.forward', {'input:Tensor!'}, nil, ...).input
  return F.embedding(input, self.weight, self.padding_idx)
end

function Embedding:extra_repr()
  local s = ('%d, %d'):format(self.num_embeddings, self.embedding_dim)
  if self.padding_idx ~= nil then s = s .. (', padding_idx=%d'):format(self.padding_idx) end
  return s
end

-- nn.Embedding.from_pretrained(embeddings, freeze=true, padding_idx=nil): the
-- rows given (2-d), frozen unless freeze=false; the padding row is left as given.
function Embedding.from_pretrained(...)
  local a = U.parse('from_pretrained', {'embeddings:Tensor!', 'freeze:bool', 'padding_idx:int', 'max_norm',
    'norm_type:float', 'scale_grad_by_freq:bool', 'sparse:bool'},
    {freeze = true, norm_type = 2.0, scale_grad_by_freq = false, sparse = false}, ...)
  if a.embeddings:dim() ~= 2 then assertion('Embeddings parameter is expected to be 2-dimensional') end
  return Embedding(a.embeddings:size(0), a.embeddings:size(1), {padding_idx = a.padding_idx, max_norm = a.max_norm,
    scale_grad_by_freq = a.scale_grad_by_freq, sparse = a.sparse, _weight = a.embeddings, _freeze = a.freeze})
end
