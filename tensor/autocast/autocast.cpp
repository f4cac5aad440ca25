// torch.autocast's state, its op table and its casts (Note [Autocast]).
#include "tensor/autocast/autocast.h"
#include <string_view>
#include <unordered_map>
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::autocast {
namespace {

struct Row {
  const char* name;
  Policy cuda, cpu;
  std::vector<std::string_view> keys;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
#define GL_AUTOCAST(E, cuda, cpu, ...) {#E, Policy::cuda, Policy::cpu, {__VA_ARGS__}},
#include "tensor/autocast/autocast_rows.def"
  };
  return r;
}

// Note [Autocast weight cache]: within one torch.autocast region, a float32
// leaf that requires grad (a weight) is cast to the low dtype once and the
// copy reused by every op that reads it, as PyTorch's cached_cast. The key is
// the impl; the entry holds the source too, so no other tensor can come to
// share its address while the entry lives. The outermost region's end clears it.
struct Cached {
  Tensor source, cast;
};
thread_local std::unordered_map<const TensorImpl*, Cached> t_cache;

thread_local State t_state;

const char* const kBannedBce =
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast.";

bool eligible(const Tensor& t, Device::Type type) {
  return t.defined() && is_floating(t.dtype()) && t.dtype() != DType::Float64 && t.device().type == type;
}

// PyTorch's promote_type: float32 wins over the low dtype; a second low dtype
// (float16 under a bfloat16 autocast) is an error there too.
DType promote(Device::Type type, const std::vector<const Tensor*>& args) {
  const DType low = t_state.dtype[type];
  DType to = low;
  for (const Tensor* t : args) {
    if (!t || !eligible(*t, type)) continue;
    if (t->dtype() == DType::Float32) to = DType::Float32;
    else GL_CHECK(t->dtype() == low, "Unexpected floating ScalarType in at::autocast::prioritize");
  }
  return to;
}

Tensor cast_to(const Tensor& t, DType to, Device::Type type) {
  if (!eligible(t, type) || t.dtype() == to) return t;
  const bool cacheable = to == t_state.dtype[type] && t.dtype() == DType::Float32 && t.requires_grad() && t.is_leaf() &&
                         t_state.cache_enabled;
  if (!cacheable) return to_dtype(t, to);
  auto it = t_cache.find(t.impl.get());
  if (it != t_cache.end()) return it->second.cast;
  Tensor c = to_dtype(t, to);
  t_cache.emplace(t.impl.get(), Cached{t, c});
  return c;
}

// The dtype op's policy casts to on `type`, or nothing when it runs as called.
std::optional<DType> target(Op op, Device::Type type, const std::vector<const Tensor*>& args) {
  if (!t_state.enabled[type]) return std::nullopt;
  switch (policy(op, type)) {
    case Policy::None: return std::nullopt;
    case Policy::Banned: throw RuntimeError(kBannedBce);
    case Policy::Lower: return t_state.dtype[type];
    case Policy::Fp32: return DType::Float32;
    case Policy::Promote: return promote(type, args);
  }
  return std::nullopt;
}

const Tensor* first_defined(const std::vector<const Tensor*>& args) {
  for (const Tensor* t : args)
    if (t && t->defined()) return t;
  return nullptr;
}

}  // namespace

State& state() { return t_state; }

Op op_named(const std::string& key) {
  static const std::unordered_map<std::string_view, Op> by_key = [] {
    std::unordered_map<std::string_view, Op> m;
    for (size_t i = 0; i < rows().size(); ++i)
      for (auto k : rows()[i].keys) m.emplace(k, Op(i));
    return m;
  }();
  auto it = by_key.find(key);
  return it == by_key.end() ? Op::none : it->second;
}

const char* op_name(Op op) { return op == Op::none ? "none" : rows()[size_t(op)].name; }

Policy policy(Op op, Device::Type type) {
  if (op == Op::none) return Policy::None;
  const Row& r = rows()[size_t(op)];
  return type == Device::CUDA ? r.cuda : r.cpu;
}

void clear_cache() { t_cache.clear(); }

Scope::Scope(Op op, std::initializer_list<const Tensor*> args) {
  if (op != Op::none && t_state.entry == op && any_enabled()) begin(op, std::vector<const Tensor*>(args));
}

Scope::Scope(Op op, const std::vector<Tensor>& args) {
  if (op == Op::none || t_state.entry != op || !any_enabled()) return;
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : args) ptrs.push_back(&t);
  begin(op, std::move(ptrs));
}

void Scope::begin(Op op, std::vector<const Tensor*> all) {
  const Tensor* first = first_defined(all);
  if (!first) return;
  type_ = first->device().type;
  auto to = target(op, type_, all);
  if (!to) return;
  to_ = *to;
  active_ = true;
  prev_ = t_state.entry;
  t_state.entry = Op::none;  // what the op calls runs as called
}

Scope::~Scope() {
  if (active_) t_state.entry = prev_;
}

Tensor Scope::operator()(const Tensor& t) const { return active_ ? cast_to(t, to_, type_) : t; }

std::vector<Tensor> Scope::operator()(const std::vector<Tensor>& ts) const {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back((*this)(t));
  return out;
}

std::vector<Tensor> cast_inputs(Op op, const std::vector<Tensor>& ts) {
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : ts) ptrs.push_back(&t);
  const Tensor* first = first_defined(ptrs);
  if (!first || !any_enabled()) return ts;
  const Device::Type type = first->device().type;
  auto to = target(op, type, ptrs);
  if (!to) return ts;
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(cast_to(t, *to, type));
  return out;
}

}  // namespace gl::autocast
