// F.pad's modes 'reflect', 'replicate' and 'circular' (PyTorch's _pad_enum,
// reflection_pad*d, replication_pad*d and _pad_circular): each padded dim is
// read through one index computed on the host, so the op is one gather per
// dim on every device, and its derivative the matching index_add.
#include <algorithm>
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_extras.h"

namespace gl {

namespace {

// PyTorch's check_valid_input<k>: the batch dim (of k + 2) may be empty, no other.
void check_valid_input(const Tensor& x, int64_t k) {
  const int64_t nd = x.dim();
  bool ok = true;
  for (int64_t d = nd == k + 2 ? 1 : 0; d < nd; ++d) ok = ok && x.size(d) != 0;
  GL_CHECK(ok, "Expected ", k + 1, "D or ", k + 2,
           "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ",
           shape_str(x.sizes()));
}

// reflect and replicate: output sizes of at least 1, PyTorch's wording per rank.
void check_output(int64_t k, const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  if (std::all_of(out.begin(), out.end(), [](int64_t o) { return o >= 1; })) return;
  if (k == 1) throw RuntimeError(cat("input (W: ", in[0], ") is too small. Calculated output W: ", out[0]));
  static const char* const names[] = {"D", "H", "W"};
  std::string got = "Calculated output", input = "(input";
  for (int64_t i = 0; i < k; ++i) {
    const char* nm = names[3 - k + i];
    got += cat(" ", nm, ": ", out[size_t(i)]);
    input += cat(i ? ", " : " ", nm, ": ", in[size_t(i)]);
  }
  throw RuntimeError(cat(got, " must be >= 1 in every dimension ", input, ")"));
}

// Where output position j of a dim of n entries padded by (l, r) reads from.
int64_t source(const std::string& mode, int64_t j, int64_t n, int64_t l, int64_t r) {
  if (mode == "reflect") {
    int64_t i = j - l;
    if (i < 0) i = -i;
    return i >= n ? 2 * (n - 1) - i : i;
  }
  if (mode == "replicate") return std::clamp<int64_t>(j - l, 0, n - 1);
  // circular: the kept entries (what negative pads leave) repeat around
  const int64_t a = std::max<int64_t>(-l, 0), m = n - a - std::max<int64_t>(-r, 0);
  if (m <= 0) return std::min(a, n - 1);  // PyTorch reads memory it never wrote here
  return a + (((j - std::max<int64_t>(l, 0)) % m) + m) % m;
}

}  // namespace

Tensor pad_by_mode(const Tensor& x, const std::vector<int64_t>& pad, const std::string& mode,
                   std::optional<double> value) {
  const int64_t n = int64_t(pad.size()), nd = x.dim(), k = n / 2;
  GL_CHECK(n % 2 == 0, "Padding length must be divisible by 2");
  GL_CHECK(k <= nd, "Padding length should be less than or equal to two times the input dimension but got ",
           "padding length ", n, " and input of dimension ", nd);
  GL_CHECK(!value || *value == 0, "Padding mode \"", mode, "\" doesn't take in value argument");
  if (k < 1 || k > 3 || (nd != k + 1 && nd != k + 2))
    throw NotImplementedError(cat("Padding size ", n, " is not supported for ", nd, "D input tensor."));
  // padded dims from the outermost: dim nd - k + i takes pad[2(k - i - 1)], pad[2(k - i - 1) + 1]
  std::vector<int64_t> dims, in, out, left, right;
  for (int64_t i = 0; i < k; ++i) {
    dims.push_back(nd - k + i);
    in.push_back(x.size(nd - k + i));
    left.push_back(pad[size_t(2 * (k - i - 1))]);
    right.push_back(pad[size_t(2 * (k - i - 1) + 1)]);
    int64_t o = 0;
    GL_CHECK(!__builtin_add_overflow(in.back(), left.back(), &o) && !__builtin_add_overflow(o, right.back(), &o),
             "pad: padding ", in.back(), " entries by (", left.back(), ", ", right.back(), ") gives a size past int64");
    out.push_back(o);
  }
  if (mode == "circular") {
    for (int64_t i = 0; i < k; ++i) {
      GL_CHECK(left[size_t(i)] <= in[size_t(i)] && right[size_t(i)] <= in[size_t(i)],
               "Padding value causes wrapping around more than once.");
      GL_CHECK(out[size_t(i)] >= 0, "Negative padding value is resulting in an empty dimension");
    }
  } else {
    check_valid_input(x, k);
    if (mode == "reflect")
      for (int64_t i = k - 1; i >= 0; --i)  // W (argument #4), then H (#6), then D (#8)
        GL_CHECK(left[size_t(i)] < in[size_t(i)] && right[size_t(i)] < in[size_t(i)], "Argument #", 4 + 2 * (k - 1 - i),
                 ": Padding size should be less than the corresponding input dimension, but got: ", "padding (",
                 left[size_t(i)], ", ", right[size_t(i)], ") at dimension ", dims[size_t(i)], " of input ",
                 shape_str(x.sizes()));
    check_output(k, in, out);
    if (x.dtype() == DType::Bool)
      throw NotImplementedError(
          cat('"', mode == "reflect" ? "reflection" : "replication", "_pad", k, "d\" not implemented for 'Bool'"));
  }
  // The result is allocated before its indices are planned: a pad past what
  // memory holds is the allocator's error, not a host vector exhausting it.
  Shape out_shape = x.sizes();
  for (int64_t i = 0; i < k; ++i) out_shape[size_t(dims[size_t(i)])] = out[size_t(i)];
  (void)empty_on(out_shape, x.dtype(), x.device());
  std::vector<std::vector<int64_t>> index;
  for (int64_t i = 0; i < k; ++i) {
    std::vector<int64_t> idx;
    for (int64_t j = 0; j < out[size_t(i)]; ++j)
      idx.push_back(source(mode, j, in[size_t(i)], left[size_t(i)], right[size_t(i)]));
    index.push_back(std::move(idx));
  }
  Tensor y;
  {
    NoGradGuard no_grad;
    y = x;
    for (int64_t i = 0; i < k; ++i) y = pick_along(y, dims[size_t(i)], index[size_t(i)]);
  }
  if (any_requires_grad({&x})) {
    static const char* const reflect[] = {"ReflectionPad1DBackward0", "ReflectionPad2DBackward0",
                                          "ReflectionPad3DBackward0"};
    static const char* const replicate[] = {"ReplicationPad1DBackward0", "ReplicationPad2DBackward0",
                                            "ReplicationPad3DBackward0"};
    const char* name = mode == "circular" ? "CopySlices" : mode == "reflect" ? reflect[k - 1] : replicate[k - 1];
    record(y, name, {x}, PadIndexBackward{x.sizes(), dims, index});
  }
  return y;
}

}  // namespace gl
