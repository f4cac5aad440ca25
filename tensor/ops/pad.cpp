// F.pad's constant mode, PyTorch's constant_pad_nd: negative pads narrow the
// input first (so their error is narrow's), then the rest is filled with the
// value around a copy of it. One node, ConstantPadNdBackward0, whose
// derivative is the same op with the pads negated.
#include <algorithm>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_extras.h"
#include "tensor/ops/shape_ops.h"

namespace gl {

Tensor constant_pad_nd(const Tensor& x, const std::vector<int64_t>& pad, Scalar value) {
  const int64_t n = int64_t(pad.size()), nd = x.dim();
  GL_CHECK(n % 2 == 0, "Padding length must be divisible by 2");
  GL_CHECK(n / 2 <= nd, "Padding length should be less than or equal to two times the input dimension but got ",
           "padding length ", n, " and input of dimension ", nd);
  Tensor out;
  {
    NoGradGuard no_grad;
    Tensor kept = x;  // the input without what negative pads crop
    Shape shape = x.sizes();
    // pad[0], pad[1] are the last dim's (left, right), pad[2], pad[3] the one before, ...
    auto left = [&](int64_t d) { return pad[size_t(2 * (nd - d - 1))]; };
    auto right = [&](int64_t d) { return pad[size_t(2 * (nd - d - 1) + 1)]; };
    for (int64_t d = nd - n / 2; d < nd; ++d) {
      if (left(d) < 0) kept = narrow(kept, d, -left(d), kept.size(d) + left(d));
      if (right(d) < 0) kept = narrow(kept, d, 0, kept.size(d) + right(d));
      shape[size_t(d)] = x.size(d) + left(d) + right(d);
    }
    out = full(shape, value, {x.dtype(), x.device()});
    Tensor region = out;
    for (int64_t d = nd - n / 2; d < nd; ++d) region = narrow(region, d, std::max<int64_t>(left(d), 0), kept.size(d));
    copy_(region, kept);
  }
  if (any_requires_grad({&x})) record(out, {x}, ConstantPadNdBackward0{pad});
  return out;
}

Tensor pad(const Tensor& x, const std::vector<int64_t>& pad, const std::string& mode, std::optional<double> value) {
  if (mode == "reflect" || mode == "replicate" || mode == "circular") return pad_by_mode(x, pad, mode, value);
  if (mode != "constant") throw NotImplementedError(cat("Unrecognised padding mode ", mode));
  return constant_pad_nd(x, pad, Scalar::from_double(value.value_or(0.0)));
}

}  // namespace gl
