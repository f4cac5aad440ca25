-- Docs (signature, description) and help() examples of the sorting, shape,
-- linear-algebra and reduction ops added for d2l readers (bindings/sort_ops.cpp
-- and the rest), in the form 91_doc_signatures.lua and 92_doc_examples.lua
-- give the others. A row: {path, parameters, description, example}; a
-- 'torch.' path documents the method x:NAME too, without its first parameter.
local U = torch._util

local rows = {
  {'torch.sort', 'input, dim=-1, descending=false, {stable=false}', '-> (values, indices) sorted along dim, NaN last (first when descending)',
   'torch.sort(torch.tensor({3., 1., 2.}))'},
  {'torch.argsort', 'input, dim=-1, descending=false, {stable=false}', '-> LongTensor: the indices that sort input along dim',
   'torch.argsort(torch.tensor({3., 1., 2.}))'},
  {'torch.topk', 'input, k, dim=-1, largest=true, sorted=true', '-> (values, indices): the k largest (smallest with largest=false) along dim',
   'torch.topk(torch.tensor({3., 1., 2.}), 2)'},
  {'torch.kthvalue', 'input, k, dim=-1, keepdim=false', '-> (values, indices): the k-th smallest along dim, k counted from 1',
   'torch.kthvalue(torch.tensor({3., 1., 2.}), 2)'},
  {'torch.median', 'input, dim=nil, keepdim=false', '-> Tensor without dim; (values, indices) with it: the lower median, NaN if any',
   'torch.median(torch.tensor({{3., 1., 2.}, {0., 4., 4.}}), 1)'},
  {'torch.mode', 'input, dim=-1, keepdim=false', '-> (values, indices): the most frequent value along dim, the smallest on ties',
   'torch.mode(torch.tensor({3, 1, 3, 1, 2}))'},
  {'torch.unique', 'input, sorted=true, return_inverse=false, return_counts=false, dim=nil',
   '-> values[, inverse][, counts]: the distinct values, sorted; inverse: where each element went; counts: how many of each',
   'torch.unique(torch.tensor({3, 1, 3, 1, 2}), {return_counts=true})'},
}
U.doc_b2_rows = rows

local function lookup(path)
  local v = _G
  for part in path:gmatch('[^.]+') do v = type(v) == 'table' and rawget(v, part) or nil end
  return v
end

for _, r in ipairs(rows) do
  local path, params, desc, example = r[1], r[2], r[3], r[4]
  local sep = desc:sub(1, 2) == '->' and ' ' or ': '
  local fn = lookup(path)
  if type(fn) == 'function' then
    torch._set_doc(fn, path .. '(' .. params .. ')' .. sep .. desc)
    U.examples[fn] = example
  end
  local bare = path:match('^torch%.([%w_]+)$')
  local m = bare and rawget(torch.Tensor, bare)
  if type(m) == 'function' and m ~= fn then
    torch._set_doc(m, 'x:' .. bare .. '(' .. params:gsub('^[^,]*,?%s*', '', 1) .. ')' .. sep .. desc)
    U.examples[m] = example:gsub('^torch%.' .. bare .. '%(([^,]+%b())', '%1:' .. bare .. '(', 1):gsub('%(, ', '(')
  end
end
