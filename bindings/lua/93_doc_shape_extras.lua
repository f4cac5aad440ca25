-- Docs (signature, description) and help() examples of flip, roll, tile,
-- unfold, F.pad's modes and embedding, in 93_doc_learner_apis.lua's form:
-- functions as rows {path, parameters, description, example}, methods as
-- {function, doc, example}.
local U = torch._util

local functions = U.doc_functions
local function methods(rows)
  for _, m in ipairs(rows) do
    torch._set_doc(m[1], m[2])
    U.examples[m[1]] = m[3]
  end
end

local M = 'torch.arange(6):reshape(2, 3)'
functions({
  {'torch.flip', 'input, dims', 'a copy with the entries in reverse order along each of dims (a table)',
   'torch.flip(' .. M .. ', {1})'},
  {'torch.fliplr', 'input', 'flip(input, {1}): the columns right to left (input of at least 2 dims)',
   'torch.fliplr(' .. M .. ')'},
  {'torch.flipud', 'input', 'flip(input, {0}): the rows bottom to top (input of at least 1 dim)',
   'torch.flipud(' .. M .. ')'},
  {'torch.roll', 'input, shifts, dims=nil',
   'entries moved shifts places along dims (an int or a table each), those past the end wrapping to the start; '
   .. 'without dims the flattened tensor rolls', 'torch.roll(' .. M .. ', 1, 1)'},
  {'torch.tile', 'input, dims', 'input repeated dims[d] times along each dim; dims shorter than input.dim() gets '
   .. 'leading 1s (x:repeat the other way round)', 'torch.tile(torch.tensor({1, 2}), {2, 2})'},
  {'nn.functional.pad', "input, pad, mode='constant', value=nil",
   'input padded: pad is {left, right} for the last dim, then {top, bottom} for the one before, ...; '
   .. "mode 'constant' fills with value (nil: 0), negative pads crop; 'reflect' mirrors without the edge, "
   .. "'replicate' repeats the edge, 'circular' wraps around (those pad the last 1, 2 or 3 dims of a "
   .. '(batch,) channel, ... input)', "nn.functional.pad(torch.arange(3.):reshape(1, 3), {2, 1}, 'reflect')"},
  {'nn.functional.embedding', 'input, weight, padding_idx=nil',
   'the rows of weight (num_embeddings x embedding_dim) at the int64 indices in input, shaped input.shape + '
   .. '(embedding_dim,); the padding_idx row gets no gradient',
   'nn.functional.embedding(torch.tensor({2, 0}), torch.arange(6.):reshape(3, 2))'},
  {'torch.embedding', 'weight, indices, padding_idx=-1, scale_grad_by_freq=false, sparse=false',
   "F.embedding's op: the rows of weight at indices (padding_idx -1: none; scale_grad_by_freq and sparse: false only)",
   'torch.embedding(torch.arange(6.):reshape(3, 2), torch.tensor({2, 0}))'},
})

methods({
  {torch.Tensor.flip, 'x:flip(dims...): a copy with the entries in reverse order along each of dims (varargs or a '
   .. 'table)', M .. ':flip(0, 1)'},
  {torch.Tensor.fliplr, 'x:fliplr(): x:flip(1)', M .. ':fliplr()'},
  {torch.Tensor.flipud, 'x:flipud(): x:flip(0)', M .. ':flipud()'},
  {torch.Tensor.roll, 'x:roll(shifts, dims=nil): torch.roll(x, shifts, dims)', M .. ':roll(1)'},
  {torch.Tensor.tile, 'x:tile(dims...): torch.tile(x, dims)', 'torch.tensor({1, 2}):tile(2)'},
  {torch.Tensor.unfold, 'x:unfold(dimension, size, step): a view of every window of size entries along dimension, '
   .. 'step apart, each window a new last dim', 'torch.arange(5):unfold(0, 2, 1)'},
  {nn.Embedding.from_pretrained, 'nn.Embedding.from_pretrained(embeddings, freeze=true, padding_idx=nil): an '
   .. 'Embedding whose weight is embeddings (2-d), frozen unless freeze=false',
   'nn.Embedding.from_pretrained(torch.eye(3))'},
})
U.examples[nn.Embedding] = 'nn.Embedding(10, 3, {padding_idx=0})'
torch._set_doc(nn.Embedding.reset_parameters,
  'emb:reset_parameters(): weight drawn again from N(0, 1), the padding_idx row zeroed, as at construction')
U.examples[nn.Embedding.reset_parameters] = 'nn.Embedding(3, 2):reset_parameters()'
U.examples[nn.Embedding.forward] = 'nn.Embedding.from_pretrained(torch.eye(3)):forward(torch.tensor({2, 0}))'
U.examples[nn.Embedding.extra_repr] = 'nn.Embedding(10, 3, {padding_idx=0}):extra_repr()'
