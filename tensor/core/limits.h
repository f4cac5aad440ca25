// Limits every tensor obeys, checked where a shape is made (empty_on,
// make_view) so that no op or kernel meets a tensor past them.
#pragma once

namespace gl {

// The kernels' fixed-size stride arrays (kernels/spec.h, the CUDA offset
// calculator) hold this many dims.
constexpr int kMaxDims = 16;

}  // namespace gl
