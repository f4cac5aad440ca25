-- torch.where(condition) with one argument: the indices of the true elements,
-- one tensor per dim (torch.nonzero(condition, {as_tuple=true})). With three
-- arguments it is the elementwise choice bound in C++.
local where3 = torch.where
function torch.where(...)
  if select('#', ...) == 1 then
    local cond = ...
    if torch.is_tensor(cond) then return torch.nonzero(cond, {as_tuple = true}) end
  end
  return where3(...)
end
torch._set_doc(torch.where, (torch._doc(where3) or 'torch.where(condition, input, other)')
  .. '\ntorch.where(condition): the indices where condition is true, one tensor per dim (nonzero(condition, {as_tuple=true})).')
