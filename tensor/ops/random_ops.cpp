// Random fills and sampling, each with an optional torch.Generator. The fills
// (rand, randn, randint, randperm, uniform_, normal_) call the device's random
// kernel; the samplers are composed from them in PyTorch's order of draws:
// - normal(mean, std): a normal_(0, 1) fill (normal_(0, std) for a number
//   std), then `out * std + mean` in place, as PyTorch's normal_out_impl;
// - bernoulli: one uniform per element, float for float probabilities and
//   double for float64 ones or a number p, then `u < p`;
// - exponential_: one double uniform per element, -log1p(-u) / lambda;
// - multinomial with replacement: one double uniform per sample against the
//   normalised cumulative distribution (the CPU kernel's binary search equals
//   counting the entries below u); without replacement (or one sample):
//   argmax/top-k of p / Exp(1), PyTorch's Gumbel trick.
#include "tensor/autograd/saved.h"
#include "tensor/ops/random_ops.h"

#include <cmath>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

void* random_exec(const Tensor& t, Generator* gen) {
  const DeviceSlot& sl = slot_of(t);
  if (!gen) return sl.exec;
  const char* want = t.device().type == Device::CPU ? "cpu" : "cuda";
  GL_CHECK(gen->device.type == t.device().type, "Expected a '", want, "' device type for generator but found '",
           gen->device.type == Device::CPU ? "cpu" : "cuda", "'");
  GL_CHECK_T(NotImplementedError, sl.host_memory,
             "gpulab: a torch.Generator serves the CPU and CUDA devices emulated in host memory, not a physical GPU; "
             "use torch.cuda.manual_seed for the GPU's own generator");
  return gen->exec;
}

// ---- fills ----

namespace {
void random_fill(Tensor& t, RandomKind kind, double a, double b, Generator* gen, int64_t lo = 0, int64_t hi = 1) {
  if (t.numel() == 0) return;
  void* exec = random_exec(t, gen);
  Tensor target = t.is_contiguous() ? t : empty_on(t.sizes(), t.dtype(), t.device());
  RandomSpec s;
  s.kind = kind;
  s.out.data = target.data_ptr();
  s.out.dtype = target.dtype();
  s.numel = target.numel();
  s.a = a;
  s.b = b;
  s.lo = lo;
  s.hi = hi;
  trace::op("random", target.device());
  slot_of(target).kernels->random(exec, s);
  if (!target.is_same(t)) copy_(t, target);
}

void check_float(DType d, const char* fn) {
  GL_CHECK_T(NotImplementedError, is_floating(d), "\"", fn, "\" not implemented for '", dtype_legacy_name(d), "'");
}

bool all_true(const Tensor& b) { return item(all(b, std::nullopt, false)).to_int() != 0; }
Tensor zero_d(double v, const Tensor& like) {
  return scalar_tensor(Scalar::from_double(v), like.dtype(), like.device());
}

// A new tensor filled with uniforms on [0, 1) in `dtype`.
Tensor uniforms(const Shape& size, DType dtype, Device d, Generator* gen) {
  Tensor u = empty_on(size, dtype, d);
  random_fill(u, RandomKind::Uniform, 0, 1, gen);
  return u;
}
}  // namespace

bool on_real_gpu(Device d) { return d.is_cuda() && !slot_for(d).host_memory; }
bool on_real_gpu(const Tensor& t) { return on_real_gpu(t.device()); }

Tensor gpu_uniforms4(const Shape& size, Device d, bool one_round, int group) {
  Tensor u = empty_on(size, DType::Float32, d);
  if (u.numel() == 0) return u;
  RandomSpec s;
  s.kind = RandomKind::Uniform4;
  s.out.data = u.data_ptr();
  s.out.dtype = DType::Float32;
  s.numel = u.numel();
  s.one_round = one_round;
  s.group = group;
  trace::op("random", d);
  slot_of(u).kernels->random(slot_of(u).exec, s);
  return u;
}

void uniform_(Tensor& t, double lo, double hi, Generator* gen) {
  Mutation written(t);  // Note [Version counter]
  check_inplace_leaf(t);
  check_float(t.dtype(), "check_uniform_bounds");
  GL_CHECK(lo <= hi, "uniform_ expects to return a [from, to) range, but found from=", lo, " > to=", hi);
  random_fill(t, RandomKind::Uniform, lo, hi, gen);
}

void normal_(Tensor& t, double mean, double std, Generator* gen) {
  Mutation written(t);  // Note [Version counter]
  check_inplace_leaf(t);
  check_float(t.dtype(), "normal_kernel_cpu");
  GL_CHECK(std >= 0, "normal expects std >= 0.0, but found std ", std);
  random_fill(t, RandomKind::Normal, mean, std, gen);
}

Tensor rand(const Shape& size, const TensorOptions& o, Generator* gen) {
  check_float(o.dtype, "check_uniform_bounds");
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  random_fill(t, RandomKind::Uniform, 0, 1, gen);
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

Tensor randn(const Shape& size, const TensorOptions& o, Generator* gen) {
  check_float(o.dtype, "normal_kernel_cpu");
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  random_fill(t, RandomKind::Normal, 0, 1, gen);
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

Tensor randint(int64_t low, int64_t high, const Shape& size, const TensorOptions& o, Generator* gen) {
  GL_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  random_fill(t, RandomKind::IntRange, 0, 1, gen, low, high);
  return t;
}

Tensor randperm(int64_t n, const TensorOptions& o, Generator* gen) {
  GL_CHECK(n >= 0, "Trying to create tensor with negative dimension ", n, ": [", n,
           "]");  // PyTorch's wording (from empty)
  Device dev = resolve_device(o.device);
  if (!gen && n > 0 && on_real_gpu(dev)) return gpu_randperm(n, dev, o.dtype);
  if (gen) random_exec(empty_on({0}, DType::Int64, dev), gen);  // the generator's device type must match
  // Fisher-Yates on the host with draws from the CPU generator (or gen's own
  // mt19937, whatever its device), as PyTorch's CPU randperm. Each step takes
  // one raw 32-bit draw modulo the remaining count.
  Tensor draws = empty_on({n > 1 ? n - 1 : 0}, DType::Int64, Device(Device::CPU));
  if (gen && draws.numel()) {
    RandomSpec s;
    s.kind = RandomKind::Bits32;
    s.out.data = draws.data_ptr();
    s.out.dtype = DType::Int64;
    s.numel = draws.numel();
    cpu_kernels().random(gen->exec, s);
  } else {
    random_fill(draws, RandomKind::Bits32, 0, 0, nullptr);
  }
  std::vector<int64_t> r(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) r[size_t(i)] = i;
  const int64_t* d = draws.data<int64_t>();
  for (int64_t i = 0; i + 1 < n; ++i) std::swap(r[size_t(i)], r[size_t(i + d[i] % (n - i))]);
  Tensor host = from_host(r.data(), {n}, DType::Int64, {DType::Int64, Device(Device::CPU)});
  return to(host, dev, o.dtype);
}

// ---- normal ----

namespace {
void check_std_tensor(const Tensor& std) {
  if (std.numel() == 0) return;
  GL_CHECK(item(min_all(std)).to_double() >= 0, "normal expects all elements of std >= 0.0");
}

// PyTorch's normal has no gradient (NormalBackward* pass zeros): sampling is
// not reparameterised (torch.distributions' rsample does that by hand).
void record_zero_grads(Tensor& out, const char* name, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> in;
  for (const Tensor& t : inputs) in.push_back(t);
  if (!any_requires_grad(in)) return;
  SamplerBackward node;
  for (const Tensor& t : inputs) {
    node.sizes.push_back(t.defined() ? t.sizes() : Shape{});
    node.options.push_back(t.defined() ? TensorOptions{t.dtype(), t.device()} : TensorOptions{});
  }
  record(out, name, in, std::move(node));
}
}  // namespace

Tensor normal(const Tensor& mean, const Tensor& std, Generator* gen) {
  common_device({&mean, &std});
  check_float(mean.dtype(), "normal_kernel_cpu");
  check_std_tensor(std);
  Tensor out = empty_on(broadcast_shapes(mean.sizes(), std.sizes()), mean.dtype(), mean.device());
  {
    NoGradGuard ng;
    random_fill(out, RandomKind::Normal, 0, 1, gen);
    binary_(BinaryOp::Mul, out, std);
    binary_(BinaryOp::Add, out, mean);
  }
  record_zero_grads(out, "NormalBackward3", {mean, std});
  return out;
}

Tensor normal(const Tensor& mean, double std, Generator* gen) {
  GL_CHECK(std >= 0, "normal expects std >= 0.0, but found std ", std);
  check_float(mean.dtype(), "normal_kernel_cpu");
  Tensor out = empty_on(mean.sizes(), mean.dtype(), mean.device());
  {
    NoGradGuard ng;
    random_fill(out, RandomKind::Normal, 0, std, gen);
    binary_(BinaryOp::Add, out, mean);
  }
  record_zero_grads(out, "NormalBackward1", {mean});
  return out;
}

Tensor normal(double mean, const Tensor& std, Generator* gen) {
  check_float(std.dtype(), "normal_kernel_cpu");
  check_std_tensor(std);
  Tensor out = empty_on(std.sizes(), std.dtype(), std.device());
  {
    NoGradGuard ng;
    random_fill(out, RandomKind::Normal, 0, 1, gen);
    binary_(BinaryOp::Mul, out, std);
    binary_(BinaryOp::Add, out, zero_d(mean, out));
  }
  record_zero_grads(out, "NormalBackward2", {std});
  return out;
}

Tensor normal(double mean, double std, const Shape& size, const TensorOptions& o, Generator* gen) {
  check_float(o.dtype, "normal_kernel_cpu");
  GL_CHECK(std >= 0, "normal expects std >= 0.0, but found std ", std);
  Tensor t = empty_on(size, o.dtype, resolve_device(o.device));
  random_fill(t, RandomKind::Normal, mean, std, gen);
  if (o.requires_grad) requires_grad_at_creation(t);
  return t;
}

// ---- bernoulli, exponential ----

namespace {
// 0/1 in `dtype` where a uniform drawn per element of `p` (float, or double
// for float64 p) falls below p; on a real GPU, PyTorch's CUDA draws: four
// consecutive elements a draw, `u <= p`.
Tensor bernoulli_draw(const Tensor& p, const Shape& shape, DType dtype, Generator* gen) {
  NoGradGuard ng;
  if (on_real_gpu(p)) return to_dtype(binary(BinaryOp::Le, gpu_uniforms4(shape, p.device(), true), p), dtype);
  const DType ud = p.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  Tensor u = uniforms(shape, ud, p.device(), gen);
  return to_dtype(binary(BinaryOp::Lt, u, to_dtype(p, ud)), dtype);
}

void check_probabilities(const Tensor& p) {
  // PyTorch checks on the CPU only (its CUDA kernel asserts on the device).
  if (p.device().type != Device::CPU || p.numel() == 0) return;
  NoGradGuard ng;
  const bool ok = all_true(binary(BinaryOp::LogicalAnd, binary(BinaryOp::Ge, p, Scalar::from_int(0)),
                                  binary(BinaryOp::Le, p, Scalar::from_int(1))));
  GL_CHECK(ok,
           "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  "
           "If so, please report an enhancement request to PyTorch.)");
}
}  // namespace

Tensor bernoulli(const Tensor& p, Generator* gen) {
  GL_CHECK_T(NotImplementedError, is_floating(p.dtype()), "\"bernoulli_tensor_cpu_p_\" not implemented for '",
             dtype_legacy_name(p.dtype()), "'");
  random_exec(p, gen);
  check_probabilities(p);
  Tensor out = bernoulli_draw(p, p.sizes(), p.dtype(), gen);
  record_zero_grads(out, "BernoulliBackward0", {p});
  return out;
}

Tensor bernoulli(const Tensor& self, double p, Generator* gen) {
  GL_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  random_exec(self, gen);
  NoGradGuard ng;
  // PyTorch draws double uniforms on the CPU; on a GPU, its accscalar type's.
  const bool gpu_float = on_real_gpu(self) && self.dtype() != DType::Float64;
  Tensor u = uniforms(self.sizes(), gpu_float ? DType::Float32 : DType::Float64, self.device(), gen);
  Tensor out = to_dtype(binary(BinaryOp::Lt, u, Scalar::from_double(p)), self.dtype());
  return out;
}

void bernoulli_(Tensor& self, const Tensor& p, Generator* gen) {
  Mutation written(self);  // Note [Version counter]
  GL_CHECK_T(NotImplementedError, is_floating(p.dtype()), "\"bernoulli_tensor_cpu_p_\" not implemented for '",
             dtype_legacy_name(p.dtype()), "'");
  common_device({&self, &p});
  random_exec(self, gen);
  check_inplace_leaf(self);
  Tensor pe = expand(p, self.sizes());  // PyTorch's error when p does not broadcast to self
  check_probabilities(p);
  Tensor v = bernoulli_draw(pe, self.sizes(), self.dtype(), gen);
  NoGradGuard ng;
  copy_(self, v);
}

void bernoulli_(Tensor& self, double p, Generator* gen) {
  Mutation written(self);  // Note [Version counter]
  check_inplace_leaf(self);
  Tensor v = bernoulli(self, p, gen);
  NoGradGuard ng;
  copy_(self, v);
}

void exponential_(Tensor& self, double lambd, Generator* gen) {
  Mutation written(self);  // Note [Version counter]
  GL_CHECK(lambd > 0, "exponential_ expects lambda > 0.0, but found lambda=", lambd);
  GL_CHECK(is_floating(self.dtype()),
           "Exponential distribution is a continuous probability distribution. "
           "dtype must be a floating point but you specified ",
           dtype_legacy_name(self.dtype()));
  check_inplace_leaf(self);
  random_exec(self, gen);
  NoGradGuard ng;
  Tensor u = uniforms(self.sizes(), DType::Float64, self.device(), gen);
  Tensor e = binary(BinaryOp::Div, neg(unary(UnaryOp::Log1p, neg(u))), Scalar::from_double(lambd));
  copy_(self, e);
}

// ---- multinomial ----

Tensor multinomial(const Tensor& probs, int64_t n, bool replacement, Generator* gen) {
  GL_CHECK(probs.dim() == 1 || probs.dim() == 2, "prob_dist must be 1 or 2 dim");
  GL_CHECK(is_floating(probs.dtype()),
           "multinomial only supports floating-point dtypes for input, got: ", dtype_legacy_name(probs.dtype()));
  GL_CHECK(n > 0, "cannot sample n_sample <= 0 samples");
  const int64_t cats = probs.size(-1);
  GL_CHECK(replacement || n <= cats, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  GL_CHECK(cats <= (int64_t(1) << 24), "number of categories cannot exceed 2^24");
  random_exec(probs, gen);
  NoGradGuard ng;
  const int64_t rows = probs.dim() == 2 ? probs.size(0) : 1;
  Tensor p2 = reshape(probs, {rows, cats});
  Tensor result;
  if (!replacement || n == 1) {
    const bool ok = all_true(
        binary(BinaryOp::LogicalAnd, unary(UnaryOp::IsFinite, p2), binary(BinaryOp::Ge, p2, Scalar::from_int(0))));
    GL_CHECK(ok, "probability tensor contains either `inf`, `nan` or element < 0");
    Tensor zero_rows = any(binary(BinaryOp::Eq, sum(p2, {1}, false), Scalar::from_int(0)), std::nullopt, false);
    GL_CHECK(item(zero_rows).to_int() == 0, "invalid multinomial distribution (sum of probabilities <= 0)");
    Tensor q = empty_on(p2.sizes(), p2.dtype(), p2.device());
    exponential_(q, 1, gen);
    q = binary(BinaryOp::Div, p2, q);
    std::vector<Tensor> picks;
    Tensor cols = arange(Scalar::from_int(0), Scalar::from_int(cats), Scalar::from_int(1), DType::Int64,
                         {DType::Int64, p2.device()});
    for (int64_t k = 0; k < n; ++k) {  // top-k by repeated argmax, largest first
      Tensor idx = argmax(q, 1, true);
      picks.push_back(idx);
      if (k + 1 < n) q = where(binary(BinaryOp::Eq, cols, idx), zero_d(-1, q), q);
    }
    result = picks.size() == 1 ? picks[0] : cat(picks, int64_t(1));
  } else {
    const bool ok_neg = all_true(binary(BinaryOp::Ge, p2, Scalar::from_int(0)));
    GL_CHECK(ok_neg, "invalid multinomial distribution (encountering probability entry < 0)");
    const bool ok_fin = all_true(unary(UnaryOp::IsFinite, p2));
    GL_CHECK(ok_fin, "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
    // The running sum in the probabilities' dtype (float for half/bfloat16), divided by the total.
    const DType acc = p2.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
    Tensor cum = cumsum(p2, 1, acc);
    Tensor total = narrow(cum, 1, cats - 1, 1);
    const bool ok_sum = all_true(binary(BinaryOp::Gt, total, Scalar::from_int(0)));
    GL_CHECK(ok_sum, "invalid multinomial distribution (sum of probabilities <= 0)");
    cum = to_dtype(binary(BinaryOp::Div, cum, total), DType::Float64);
    Tensor last = narrow(cum, 1, cats - 1, 1);
    fill_(last, Scalar::from_int(1));
    Tensor u = uniforms({rows, n}, DType::Float64, p2.device(), gen);
    // The index of the first entry >= u is the count of entries below it;
    // samples go in chunks so the comparison stays small.
    const int64_t chunk = std::max<int64_t>(1, (int64_t(1) << 24) / std::max<int64_t>(1, rows * cats));
    std::vector<Tensor> parts;
    Tensor c3 = unsqueeze(cum, 1);
    for (int64_t s = 0; s < n; s += chunk) {
      Tensor us = unsqueeze(narrow(u, 1, s, std::min(chunk, n - s)), 2);
      parts.push_back(sum(binary(BinaryOp::Lt, c3, us), {2}, false, DType::Int64));
    }
    result = parts.size() == 1 ? parts[0] : cat(parts, int64_t(1));
  }
  return probs.dim() == 1 ? reshape(result, {n}) : result;
}

}  // namespace gl
