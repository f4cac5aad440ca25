-- An optimizer's state_dict() and load_state_dict() (Note [Optimizer
-- state_dict]); the optimizers themselves are in 20_optim.lua, which names
-- each class's _group_keys and _state_keys.
local U = torch._util
local Optimizer = torch.optim.Optimizer

-- The entries of t as {key, value} pairs for U.dict: the keys of `first` in
-- their order (an absent one as None when keep_absent, else left out), then
-- t's other keys sorted, `skip` left out.
local function ordered_entries(t, first, keep_absent, skip)
  local entries, seen = {}, {}
  if skip ~= nil then seen[skip] = true end
  for _, k in ipairs(first) do
    if keep_absent or t[k] ~= nil then entries[#entries + 1] = {k, t[k]} end
    seen[k] = true
  end
  local extra = {}
  for k in pairs(t) do
    if not seen[k] then extra[#extra + 1] = k end
  end
  table.sort(extra, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(extra) do entries[#entries + 1] = {k, t[k]} end
  return entries
end

-- Note [Optimizer state_dict]: PyTorch's layout, so that a checkpoint reads
-- the same in both: {'state': {i: {...}}, 'param_groups': [{..., 'params': [i, ...]}]}
-- with the parameters numbered from 0 across the groups in order. A group's
-- hyper-parameters come in the order of the class's defaults (PyTorch's dict
-- order; _group_keys), then any other keys sorted (a scheduler's initial_lr);
-- unset options print None. A state's entries come in the order PyTorch
-- creates them (_state_keys); its step is a float32 CPU tensor, counted in
-- place, as PyTorch keeps it. The tensors are the optimizer's own, not
-- copies, as in PyTorch: a state_dict taken earlier sees later steps.
function Optimizer:state_dict(...)
  if select('#', ...) > 0 then U.too_many('state_dict', 1, 1 + select('#', ...)) end
  local index, order, groups = {}, {}, {}
  for gi, g in ipairs(self.param_groups) do
    local first = self._group_keys or {}
    local entries = ordered_entries(g, first, true, 'params')
    for i = 1, #first do  -- betas print as PyTorch's tuple
      if U.is_plain_table(entries[i][2]) then entries[i][2] = U.tuple(entries[i][2]) end
    end
    local ids = {}
    for i, p in ipairs(g.params) do
      if index[p] == nil then
        order[#order + 1] = p
        index[p] = #order - 1
      end
      ids[i] = index[p]
    end
    entries[#entries + 1] = {'params', ids}
    groups[gi] = U.dict(entries)
  end
  local state = {}
  for _, p in ipairs(order) do
    local st = self.state[p]
    if st ~= nil and next(st) ~= nil then
      local entries = ordered_entries(st, self._state_keys or {}, false)
      for _, e in ipairs(entries) do  -- a hand-made state's number step
        if e[1] == 'step' and type(e[2]) == 'number' then e[2] = torch.tensor(e[2] + 0.0) end
      end
      state[#state + 1] = {index[p], U.dict(entries)}
    end
  end
  return U.dict{{'state', U.dict(state)}, {'param_groups', groups}}
end

-- The saved state and hyper-parameters replace the optimizer's own; the
-- parameters stay the optimizer's (matched by position, group by group).
-- Floating-point state moves to its parameter's device and dtype, as PyTorch's
-- load_state_dict casts it, so a checkpoint saved on cuda:0 resumes on the CPU.
function Optimizer:load_state_dict(state_dict, ...)
  if select('#', ...) > 0 then U.too_many('load_state_dict', 2, 2 + select('#', ...)) end
  if type(state_dict) ~= 'table' or U.is_tensor(state_dict) then
    U.type_error('load_state_dict', 'state_dict', 'dict', state_dict)
  end
  local saved_groups, saved_state = state_dict.param_groups, state_dict.state
  if saved_groups == nil then error("KeyError: 'param_groups'", 0) end
  if saved_state == nil then error("KeyError: 'state'", 0) end
  if type(saved_groups) ~= 'table' or #saved_groups ~= #self.param_groups then
    error('ValueError: loaded state dict has a different number of parameter groups', 0)
  end
  local by_id = {}
  for i, g in ipairs(self.param_groups) do
    local ids = saved_groups[i].params
    if type(ids) ~= 'table' or #ids ~= #g.params then
      error("ValueError: loaded state dict contains a parameter group that doesn't match the size of optimizer's group", 0)
    end
    for j, p in ipairs(g.params) do by_id[ids[j]] = p end
  end
  local state = {}
  for id, saved in pairs(saved_state) do
    local p = by_id[id]
    if p ~= nil then
      local st = {}
      for k, v in pairs(saved) do
        if k == 'step' then  -- a tensor kept as it is, as PyTorch keeps it (on the CPU)
          if type(v) == 'number' then v = torch.tensor(v + 0.0) end
        elseif U.is_tensor(v) and v:is_floating_point() and p:is_floating_point() then
          v = v:to{dtype = p.dtype, device = p.device}
        elseif U.is_tensor(v) then
          v = v:to(p.device)
        end
        st[k] = v
      end
      state[p] = st
    end
  end
  for i, g in ipairs(self.param_groups) do
    local new = {params = g.params}
    for k, v in pairs(saved_groups[i]) do
      if k ~= 'params' then new[k] = U.is_tuple(v) and table.move(v, 1, #v, 1, {}) or v end
    end
    self.param_groups[i] = new
  end
  self.state = state
end
