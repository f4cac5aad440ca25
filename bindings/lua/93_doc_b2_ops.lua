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
  {'torch.tril', 'input, diagonal=0', 'the lower triangle (col - row <= diagonal) of the last two dims, zeros above',
   'torch.tril(torch.ones(3, 3))'},
  {'torch.triu', 'input, diagonal=0', 'the upper triangle (col - row >= diagonal) of the last two dims, zeros below',
   'torch.triu(torch.ones(3, 3), 1)'},
  {'torch.diag', 'input, diagonal=0', 'a vector on the diagonal of a square matrix, or the diagonal of a matrix as a vector',
   'torch.diag(torch.tensor({1, 2}))'},
  {'torch.trace', 'input', 'the sum of the diagonal of a matrix', 'torch.trace(torch.arange(9.):reshape(3, 3))'},
  {'torch.outer', 'input, vec2', 'the outer product input[i] * vec2[j]', 'torch.outer(torch.tensor({1, 2}), torch.tensor({1, 10, 100}))'},
  {'torch.mv', 'input, vec', 'matrix (n x m) times vector (m)', 'torch.mv(torch.ones(2, 3), torch.tensor({1., 2, 3}))'},
  {'torch.repeat_interleave', 'input, repeats=nil, dim=nil, {output_size=nil}',
   'each element repeated (repeats: an int or a tensor, one per element along dim; flattened without dim)',
   'torch.repeat_interleave(torch.tensor({1, 2}), 2)'},
  {'torch.unflatten', 'input, dim, sizes', 'dim split into the given sizes (one may be -1)', 'torch.unflatten(torch.arange(6), 0, {2, 3})'},
  {'torch.swapaxes', 'input, axis0, axis1', "transpose's alias (NumPy's name)", 'torch.swapaxes(torch.zeros(2, 3), 0, 1).shape'},
  {'torch.swapdims', 'input, dim0, dim1', "transpose's alias", 'torch.swapdims(torch.zeros(2, 3), 0, 1).shape'},
  {'torch.squeeze', 'input, dim=nil', 'size-1 dims removed: all of them, dim, or each dim in a table',
   'torch.squeeze(torch.zeros(1, 2, 1), {0, 2}).shape'},
  {'torch.amax', 'input, dim=nil, keepdim=false', 'the maximum over dim (an int or a table of ints; every dim when nil)',
   'torch.amax(torch.tensor({{1, 5}, {4, 2}}), {0, 1})'},
  {'torch.amin', 'input, dim=nil, keepdim=false', 'the minimum over dim (an int or a table of ints; every dim when nil)',
   'torch.amin(torch.tensor({{1, 5}, {4, 2}}), 1)'},
  {'torch.logspace', 'start, end, steps, base=10.0, {dtype=nil, device=nil, requires_grad=false}',
   'steps values base^x, x evenly spaced from start to end', 'torch.logspace(0, 2, 3)'},
  {'torch.meshgrid', "tensors..., {indexing='ij'}",
   "one grid per 1-d tensor, each expanded over the others' sizes ('xy': the first two swapped, as NumPy)",
   "torch.meshgrid(torch.tensor({1, 2}), torch.tensor({3, 4, 5}), {indexing='ij'})"},
  {'torch.logsumexp', 'input, dim, keepdim=false', 'log(sum(exp(input))) over dim (an int or a table), without overflow',
   'torch.logsumexp(torch.tensor({{1., 2.}, {1000., 1000.}}), 1)'},
  {'torch.einsum', 'equation, operands...',
   "sums of products named by subscripts: 'ij,jk->ik' (matmul), 'ii->i', 'ij->ji', 'bij,bjk->bik', 'i,j->ij', '...ij->...ji'",
   "torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 2))"},
  {'torch.linalg.vector_norm', 'input, ord=2, dim=nil, keepdim=false, {dtype=nil, x=nil}', 'the ord-norm of input taken as a vector (over dim); ord: a number, math.huge, 0; x= is another name of input (PyTorch documents it so)',
   'torch.linalg.vector_norm(torch.tensor({3., -4.}))'},
  {'torch.linalg.matrix_norm', "input, ord='fro', dim=nil, keepdim=false, {dtype=nil}", "a matrix norm over dim (default {-2, -1}): 'fro', 'nuc', 1, -1, 2, -2, math.huge, -math.huge (nuc, 2, -2: no backward yet)",
   'torch.linalg.matrix_norm(torch.tensor({{1., -2.}, {3., 4.}}), 1)'},
  {'torch.linalg.svdvals', 'A', 'the singular values of each matrix of A (..., m, n), descending (LAPACK gesdd, as PyTorch on the CPU; no backward yet)',
   'torch.linalg.svdvals(torch.tensor({{1., -2.}, {3., 4.}}))'},
  {'torch.linalg.norm', 'input, ord=nil, dim=nil, keepdim=false, {dtype=nil}', 'a vector norm, or a matrix norm for a string ord or two dims',
   'torch.linalg.norm(torch.tensor({{1., -2.}, {3., 4.}}))'},
  {'torch.linalg.solve', 'A, B', 'X with A X = B for square A (..., n, n) and B a matrix (..., n, k) or a vector, by LU (LAPACK getrf/getrs)',
   'torch.linalg.solve(torch.tensor({{2., 1.}, {1., 3.}}), torch.tensor({1., 2.}))'},
  {'torch.linalg.inv', 'A', 'the inverse of each square matrix of A; a singular one is torch._C._LinAlgError',
   'torch.linalg.inv(torch.tensor({{2., 1.}, {1., 3.}}))'},
  {'torch.linalg.det', 'A', 'the determinant of each square matrix of A (LU: the product of the pivots, signed)',
   'torch.linalg.det(torch.tensor({{2., 1.}, {1., 3.}}))'},
  {'torch.inverse', 'input', 'torch.linalg.inv under its old name', 'torch.inverse(torch.tensor({{2., 1.}, {1., 3.}}))'},
  {'torch.det', 'input', 'torch.linalg.det under its old name', 'torch.det(torch.tensor({{2., 1.}, {1., 3.}}))'},
  {'nn.functional.one_hot', 'tensor, num_classes=-1', 'int64 rows with a 1 at each index (num_classes: the largest index + 1 by default)',
   'nn.functional.one_hot(torch.tensor({0, 2}), 4)'},
}
U.doc_b2_rows = rows

for _, r in ipairs(rows) do
  local path, params, desc, example = r[1], r[2], r[3], r[4]
  local sep = desc:sub(1, 2) == '->' and ' ' or ': '
  local fn = U.doc_function(path, params, desc, example)
  local bare = path:match('^torch%.([%w_]+)$')
  local m = bare and rawget(torch.Tensor, bare)
  if type(m) == 'function' and m ~= fn then
    torch._set_doc(m, 'x:' .. bare .. '(' .. params:gsub('^[^,]*,?%s*', '', 1) .. ')' .. sep .. desc)
    U.examples[m] = example:gsub('^torch%.' .. bare .. '%(([^,]+%b())', '%1:' .. bare .. '(', 1):gsub('%(, ', '(')
  end
end
