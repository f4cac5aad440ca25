// tensor/autocast: the op table's keys, and Note [Autocast]'s rules for when
// an op casts: only the op its bound call entered, once, on the device type
// whose autocast is on, never what it calls; the weight cache.
#include <doctest/doctest.h>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/node.h"
#include "tensor/ops/ops.h"
#include "unit_util.h"

using namespace gl;
using ut::error_of;

namespace {
// Autocast on for `type` while alive, as torch.autocast's guard; all restored after.
struct On {
  autocast::State saved = autocast::state();
  explicit On(Device::Type type, DType d) {
    autocast::state().enabled[type] = true;
    autocast::state().dtype[type] = d;
    ++autocast::state().nesting;
  }
  ~On() {
    autocast::clear_cache();
    autocast::state() = saved;
  }
};
Tensor ones22() { return ones({2, 2}, ut::opts(DType::Float32)); }
}  // namespace

TEST_CASE("autocast: the table's keys name its rows, aliases included") {
  CHECK(autocast::op_named("mm") == autocast::Op::mm);
  CHECK(autocast::op_named("F.linear") == autocast::Op::linear);
  CHECK(autocast::op_named("linear") == autocast::Op::linear);
  CHECK(autocast::op_named("concat") == autocast::Op::cat);
  CHECK(autocast::op_named("relu") == autocast::Op::none);
  CHECK(std::string(autocast::op_name(autocast::Op::cross_entropy)) == "cross_entropy");
  CHECK(autocast::policy(autocast::Op::mm, Device::CUDA) == autocast::Policy::Lower);
  CHECK(autocast::policy(autocast::Op::exp, Device::CPU) == autocast::Policy::None);
  CHECK(autocast::policy(autocast::Op::binary_cross_entropy, Device::CUDA) == autocast::Policy::Banned);
}

TEST_CASE("autocast: only the entered op casts; a direct C++ call or another op does not") {
  On on(Device::CPU, DType::BFloat16);
  CHECK(mm(ones22(), ones22()).dtype() == DType::Float32);  // no bound call entered it
  {
    autocast::Entry e(autocast::Op::mm);
    CHECK(mm(ones22(), ones22()).dtype() == DType::BFloat16);
  }
  {
    autocast::Entry e(autocast::Op::matmul);  // matmul entered: mm is what it calls, and it casts once
    CHECK(matmul(ones22(), ones22()).dtype() == DType::BFloat16);
    CHECK(autocast::state().entry == autocast::Op::matmul);  // restored after the op
  }
}

TEST_CASE("autocast: off for the device type, the op runs as called") {
  On on(Device::CUDA, DType::Float16);
  autocast::Entry e(autocast::Op::mm);
  CHECK(mm(ones22(), ones22()).dtype() == DType::Float32);  // CPU tensors: CPU autocast is off
}

TEST_CASE("autocast: promote takes float32 over the low dtype, and refuses a second low dtype") {
  if (!ut::devices()) return;
  On on(Device::CUDA, DType::Float16);
  const Tensor h = ones({3}, ut::opts(DType::Float16, ut::cuda(1)));
  const Tensor f = ones({3}, ut::opts(DType::Float32, ut::cuda(1)));
  {
    autocast::Entry e(autocast::Op::dot);
    CHECK(dot(h, h).dtype() == DType::Float16);
  }
  {
    autocast::Entry e(autocast::Op::dot);
    CHECK(dot(h, f).dtype() == DType::Float32);
  }
  const Tensor b = ones({3}, ut::opts(DType::BFloat16, ut::cuda(1)));
  autocast::Entry e(autocast::Op::dot);
  CHECK(error_of([&] { dot(h, b); }) == "Unexpected floating ScalarType in at::autocast::prioritize");
}

TEST_CASE("autocast: a weight is cast once per region; clear_cache drops it") {
  On on(Device::CPU, DType::BFloat16);
  Tensor w = ones22();
  w.set_requires_grad(true);
  const Tensor x = ones22();
  std::shared_ptr<Node> first, second;
  {
    autocast::Entry e(autocast::Op::mm);
    first = mm(x, w).grad_fn();
  }
  {
    autocast::Entry e(autocast::Op::mm);
    second = mm(x, w).grad_fn();
  }
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->next[1] == second->next[1]);  // the same ToCopyBackward0
  autocast::clear_cache();
  autocast::Entry e(autocast::Op::mm);
  CHECK(mm(x, w).grad_fn()->next[1] != first->next[1]);
}

TEST_CASE("autocast: the banned op's error, and cast_inputs for the ops written in Lua") {
  if (!ut::devices()) return;
  On on(Device::CUDA, DType::Float16);
  const Tensor h = ones({2}, ut::opts(DType::Float16, ut::cuda(1)));
  CHECK(error_of([&] {
          autocast::cast_inputs(autocast::Op::binary_cross_entropy, {h, h});
        }).rfind("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.", 0) == 0);
  auto out = autocast::cast_inputs(autocast::Op::l1_loss, {h, Tensor()});
  CHECK(out[0].dtype() == DType::Float32);
  CHECK(!out[1].defined());
}
