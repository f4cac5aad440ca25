-- Signatures and examples for the random samplers, the generator, the index
-- ops, the byte conversions and torch.distributions (random_lib.cpp,
-- index_lib.cpp, 14_distributions.lua, 15_index.lua), in the form of
-- 91_doc_signatures.lua and 92_doc_examples.lua.
local U = torch._util

-- name -> {signature, example}; 'x:' names are tensor methods.
local entries = {
  ['torch.normal'] = {'torch.normal(mean, std=1, size=nil, {generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false})',
    'torch.normal(torch.zeros(3), 0.1)'},
  ['torch.bernoulli'] = {'torch.bernoulli(input, p=nil, {generator=nil})', 'torch.bernoulli(torch.tensor({0.1, 0.5, 0.9}))'},
  ['torch.multinomial'] = {'torch.multinomial(input, num_samples, replacement=false, {generator=nil})',
    'torch.multinomial(torch.tensor({0.1, 0.2, 0.7}), 5, true)'},
  ['torch.initial_seed'] = {'torch.initial_seed()', 'torch.initial_seed()'},
  ['torch.seed'] = {'torch.seed()', nil},
  ['torch.get_rng_state'] = {'torch.get_rng_state()', 'torch.get_rng_state().shape'},
  ['torch.set_rng_state'] = {'torch.set_rng_state(new_state)', 'torch.set_rng_state(torch.get_rng_state())'},
  ['torch.Generator'] = {"torch.Generator(device='cpu')", 'torch.Generator():manual_seed(0):initial_seed()'},
  ['x:bernoulli'] = {'x:bernoulli(p=nil, {generator=nil})', 'torch.full({4}, 0.5):bernoulli()'},
  ['x:bernoulli_'] = {'x:bernoulli_(p=0.5, {generator=nil})', 'torch.zeros(4):bernoulli_(0.5)'},
  ['x:exponential_'] = {'x:exponential_(lambd=1, {generator=nil})', 'torch.empty(3):exponential_(2)'},
  ['x:multinomial'] = {'x:multinomial(num_samples, replacement=false, {generator=nil})',
    'torch.tensor({0.2, 0.8}):multinomial(4, true)'},
  ['torch.gather'] = {'torch.gather(input, dim, index)',
    'torch.tensor({{1, 2}, {3, 4}}):gather(1, torch.tensor({{0, 0}, {1, 0}}))'},
  ['torch.scatter'] = {'torch.scatter(input, dim, index, src=nil, value=nil, {reduce=nil})',
    'torch.zeros(2, 3):scatter(1, torch.tensor({{2}, {0}}), 1.5)'},
  ['x:scatter_'] = {'x:scatter_(dim, index, src=nil, value=nil, {reduce=nil})',
    "torch.zeros(3):scatter_(0, torch.tensor({0, 2}), torch.ones(2), {reduce='add'})"},
  ['torch.scatter_add'] = {'torch.scatter_add(input, dim, index, src)',
    'torch.zeros(3):scatter_add(0, torch.tensor({0, 0, 2}), torch.ones(3))'},
  ['x:scatter_add_'] = {'x:scatter_add_(dim, index, src)', 'torch.zeros(3):scatter_add_(0, torch.tensor({1, 1}), torch.ones(2))'},
  ['torch.index_add'] = {'torch.index_add(input, dim, index, source, {alpha=1})',
    'torch.zeros(3, 2):index_add(0, torch.tensor({0, 2}), torch.ones(2, 2))'},
  ['x:index_add_'] = {'x:index_add_(dim, index, source, {alpha=1})',
    'torch.zeros(3):index_add_(0, torch.tensor({0, 0}), torch.ones(2), {alpha=2})'},
  ['torch.index_put'] = {'torch.index_put(input, indices, values, accumulate=false)',
    'torch.zeros(2, 2):index_put({torch.tensor({0, 1}), torch.tensor({1, 0})}, torch.tensor(7.))'},
  ['x:index_put_'] = {'x:index_put_(indices, values, accumulate=false)',
    'torch.zeros(3):index_put_({torch.tensor({0, 0})}, torch.ones(2), true)'},
  ['torch.take'] = {'torch.take(input, index)', 'torch.tensor({{1, 2}, {3, 4}}):take(torch.tensor({0, 3}))'},
  ['torch.nonzero'] = {'torch.nonzero(input, {as_tuple=false})', 'torch.tensor({{0, 1}, {2, 0}}):nonzero()'},
  ['torch.frombuffer'] = {'torch.frombuffer(buffer, {dtype=nil, count=-1, offset=0, requires_grad=false})',
    'torch.frombuffer(torch.tensor({1.5, 2}):tobytes(), {dtype=torch.float32})'},
  ['x:tobytes'] = {'x:tobytes()', '#torch.zeros(3, {dtype=torch.float64}):tobytes()'},
}

for name, e in torch._util.sorted_pairs(entries) do
  local fn
  local method = name:match('^x:(.+)$')
  if method then fn = rawget(torch.Tensor, method) else fn = rawget(torch, name:match('^torch%.(.+)$')) end
  if type(fn) == 'function' then
    local old = torch._doc(fn) or ''
    local rest = old:match('^[%w_.:]+%b()[:.]?%s*(.*)$') or old
    torch._set_doc(fn, rest ~= '' and e[1] .. ': ' .. rest or e[1])
    if e[2] then U.examples[fn] = e[2] end
    -- the torch.NAME function and the x:NAME method are often the same C function
    if not method then
      local m = rawget(torch.Tensor, name:match('^torch%.(.+)$'))
      local params = e[1]:match('^torch%.[%w_]+%(input,? ?(.*)$')
      if type(m) == 'function' and m ~= fn and params then
        torch._set_doc(m, 'x:' .. name:match('^torch%.(.+)$') .. '(' .. params)
        if e[2] then U.examples[m] = e[2] end
      end
    end
  end
end
U.examples_not_run[torch.seed] = 'not run here: it would reseed your generator'
U.examples[torch.seed] = 'torch.seed()'

local D = torch.distributions
U.examples[D.Normal] = 'torch.distributions.Normal(0., 1.)'
U.examples[D.Categorical] = 'torch.distributions.Categorical(torch.tensor({0.25, 0.75})).probs'
U.examples[D.Multinomial] = 'torch.distributions.Multinomial(10, torch.ones(6) / 6):sample()'

-- The distributions' methods (help(d.sample) and the docs test read these).
local methods = {
  Normal = {
    new = {'Normal:new(loc, scale, validate_args=nil): what calling the class does', 'D.Normal:new(0., 1.)'},
    extend = {'Normal:extend(name): a subclass', "D.Normal:extend('MyNormal')"},
    sample = {'d:sample(sample_shape={}): samples without gradient, shape sample_shape + batch_shape', 'D.Normal(0., 1.):sample({2})'},
    rsample = {'d:rsample(sample_shape={}): samples loc + eps * scale, differentiable in loc and scale', 'D.Normal(0., 1.):rsample({2})'},
    log_prob = {'d:log_prob(value): the log density at value', 'D.Normal(0., 1.):log_prob(torch.tensor(0.))'},
    entropy = {'d:entropy(): the entropy, per batch element', 'D.Normal(0., 1.):entropy()'},
    cdf = {'d:cdf(value): the cumulative distribution function at value', 'D.Normal(0., 1.):cdf(torch.tensor(0.))'},
    icdf = {'d:icdf(value): the inverse cdf (quantile) at probability value', 'D.Normal(0., 1.):icdf(torch.tensor(0.975))'},
  },
  Categorical = {
    new = {'Categorical:new(probs=nil, logits=nil, validate_args=nil): what calling the class does', 'D.Categorical:new(torch.ones(3))'},
    extend = {'Categorical:extend(name): a subclass', "D.Categorical:extend('MyCategorical')"},
    sample = {'d:sample(sample_shape={}): category indices, shape sample_shape + batch_shape', 'D.Categorical(torch.ones(3)):sample({4})'},
    log_prob = {'d:log_prob(value): the log probability of category value', 'D.Categorical(torch.ones(4)):log_prob(torch.tensor(1))'},
    entropy = {'d:entropy(): the entropy, per batch element', 'D.Categorical(torch.ones(4)):entropy()'},
  },
  Multinomial = {
    new = {'Multinomial:new(total_count=1, probs=nil, logits=nil, validate_args=nil): what calling the class does',
      'D.Multinomial:new(5, torch.ones(2))'},
    extend = {'Multinomial:extend(name): a subclass', "D.Multinomial:extend('MyMultinomial')"},
    sample = {'d:sample(sample_shape={}): counts per category, shape sample_shape + batch_shape + (categories,)',
      'D.Multinomial(10, torch.ones(6) / 6):sample({2})'},
    log_prob = {'d:log_prob(value): the log probability of the counts value',
      'D.Multinomial(10, torch.tensor({0.5, 0.5})):log_prob(torch.tensor({3., 7.}))'},
    entropy = {'d:entropy(): the entropy, per batch element', 'D.Multinomial(3, torch.tensor({0.2, 0.8})):entropy()'},
  },
}
for cls_name, ms in torch._util.sorted_pairs(methods) do
  local cls = D[cls_name]
  for m, e in torch._util.sorted_pairs(ms) do
    local fn = rawget(cls, m)
    if type(fn) == 'function' then
      torch._set_doc(fn, e[1])
      U.examples[fn] = (e[2]:gsub('^D%.', 'torch.distributions.'))
    end
  end
end
