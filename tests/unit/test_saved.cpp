// The version counter's pieces (Note [Version counter]): a derivative row's
// members as record() visits them, one count per in-place op however nested,
// a failed op giving its count back, and the check's text. The end-to-end
// cases against PyTorch are tests/lua/test_version_counter.lua.
#include <doctest/doctest.h>
#include <stdexcept>
#include "gradcheck.h"
#include "tensor/autograd/saved.h"

using namespace gl;
using ut::error_of;

namespace {
struct Row {  // a derivative row's shape: tensors among other members
  Shape sizes;
  Tensor a;
  double alpha;
  std::vector<Tensor> list;
  Tensor b;
};
}  // namespace

TEST_CASE("saved: for_each_member visits every member of a row, in order") {
  const Tensor x = ones({2}, {}), y = ones({3}, {}), z = ones({4}, {});
  const Row r{{2}, x, 0.5, {y, z}, Tensor()};
  std::vector<std::string> seen;
  for_each_member(r, [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    if constexpr (std::is_same_v<M, Tensor>) seen.push_back(m.defined() ? "tensor" : "undefined");
    else if constexpr (std::is_same_v<M, std::vector<Tensor>>) seen.push_back("list of " + std::to_string(m.size()));
    else seen.push_back("other");
  });
  CHECK(seen == std::vector<std::string>{"other", "tensor", "other", "list of 2", "undefined"});
}

TEST_CASE("saved: a Mutation counts one write, nested ones none, a failed one gives it back") {
  Tensor x = ones({3}, {});
  const Tensor view = detach(x);  // shares the storage, and so the count
  {
    Mutation outer(x);
    Mutation inner(view);  // the same storage: the outer op's write
  }
  CHECK(x.storage()->version == 1);
  try {
    Mutation m(x);
    throw std::runtime_error("refused");
  } catch (const std::runtime_error&) {}
  CHECK(x.storage()->version == 1);
  { Mutation m(variable_data(x)); }  // x.data's writes are not counted
  CHECK(x.storage()->version == 1);
  { Mutation m(Tensor()); }  // nothing to count
}

TEST_CASE("saved: a node's backward refuses a saved tensor written since, with PyTorch's text") {
  Tensor w = ones({3}, {DType::Float32, Device(Device::CPU), true});
  Tensor x = ones({3}, {});
  Tensor y = sum(mul(w, x), {}, false);
  binary_(BinaryOp::Add, x, Scalar::from_int(1));
  CHECK(error_of([&] { ut::backward(y); }) ==
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        "[torch.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: enable anomaly detection to find "
        "the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
        "check_nan=False).");
}
