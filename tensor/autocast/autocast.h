// Automatic mixed precision: torch.autocast's state and its casts.
//
// Note [Autocast]: inside torch.autocast(device_type), each op in the table
// (autocast_rows.def) casts its floating inputs on that device type before it
// runs, by its policy: products to the autocast dtype (float16 on CUDA,
// bfloat16 on the CPU, or the dtype asked for), ops that need range or
// precision to float32. The casts are ordinary autograd ops (ToCopyBackward0),
// so the saved inputs and the gradients are in the dtype the op ran in, as in
// PyTorch.
//
// As PyTorch's dispatcher does, the policy applies to the function the user
// called, not to the ops it is made of: the binding's trampoline names the
// op it enters (Entry), and only that op casts (Scope), once. So torch.mean
// stays in float16 on CUDA though gpulab may compute it with a sum, which
// alone would run in float32. The backward pass casts nothing: no Entry is
// open while the engine runs, and gradients flow in the forward's dtypes.
//
// Within a policy's op (a Scope), autocast is off for what the op calls.
// The state is per thread, as PyTorch's.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl::autocast {

enum class Policy : uint8_t { None, Lower, Fp32, Promote, Banned };

enum class Op : int16_t {
  none = -1,
#define GL_AUTOCAST(E, ...) E,
#include "tensor/autocast/autocast_rows.def"
};

// The op whose bound function has this key ("mm", "F.linear"), or Op::none.
Op op_named(const std::string& key);
const char* op_name(Op op);  // for messages and tests
Policy policy(Op op, Device::Type type);

struct State {
  bool enabled[2] = {false, false};  // by Device::Type
  DType dtype[2] = {DType::BFloat16, DType::Float16};
  bool cache_enabled = true;
  int nesting = 0;
  Op entry = Op::none;  // the op the current bound call enters (Note [Autocast])
};
State& state();  // this thread's

inline bool any_enabled() {
  const State& s = state();
  return s.enabled[0] || s.enabled[1];
}

// Drops the cached casts of weights (torch.clear_autocast_cache; the
// outermost torch.autocast does it when it closes).
void clear_cache();

// Opened by the bindings' trampoline around one bound call: `op` (from
// op_named) is the op that call enters. Restores the previous entry.
class Entry {
 public:
  explicit Entry(Op op) : prev_(state().entry) { state().entry = op; }
  ~Entry() { state().entry = prev_; }
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;

 private:
  Op prev_;
};

// What an op in the table does first:
//   if (autocast::Scope ac{autocast::Op::mm, {&a, &b}}) return mm(ac(a), ac(b));
// True when this call is the entered op, autocast is on for its inputs'
// device type and its policy casts; then ac(t) is t cast as the policy says
// (itself when not eligible) and the re-entered op runs as called.
class Scope {
 public:
  Scope(Op op, std::initializer_list<const Tensor*> args);
  Scope(Op op, const std::vector<Tensor>& args);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  explicit operator bool() const { return active_; }

  Tensor operator()(const Tensor& t) const;
  Tensor operator()(const Tensor* t) const { return t && t->defined() ? (*this)(*t) : Tensor(); }
  std::vector<Tensor> operator()(const std::vector<Tensor>& ts) const;

 private:
  void begin(Op op, std::vector<const Tensor*> all);
  bool active_ = false;
  Device::Type type_ = Device::CPU;
  DType to_ = DType::Float32;
  Op prev_ = Op::none;
};

// The casts of op's policy applied to `ts` outside any trampoline (the losses
// written in Lua ask for them through torch._autocast): as Scope, but open
// for this one call. Tensors come back as they are when autocast is off.
std::vector<Tensor> cast_inputs(Op op, const std::vector<Tensor>& ts);

}  // namespace gl::autocast
