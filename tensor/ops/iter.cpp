// Shared machinery of the ops: broadcasting, dimension coalescing, and the
// same-device rule.
#include "tensor/core/error.h"
#include <algorithm>
#include <optional>
#include <string>
#include <vector>
#include "tensor/kernels/merge_dims.h"
#include "tensor/ops/ops.h"

namespace gl {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = n; i-- > 0;) {  // from the last dim, as PyTorch's infer_size: its error names the last mismatch
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw RuntimeError(cat("The size of tensor a (", da, ") must match the size of tensor b (", db,
                             ") at non-singleton dimension ", i));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// PyTorch's generated device check for a named method and arguments.
void check_args_device(const char* method, std::initializer_list<std::pair<const char*, const Tensor*>> args,
                       const char* hint) {
  std::optional<Device> common;
  for (auto& [name, t] : args) {
    if (!t || !t->defined()) continue;  // an absent optional argument
    if (!common) {
      common = t->device();
      continue;
    }
    if (t->device() != *common)
      throw RuntimeError(
          cat("Expected all tensors to be on the same device, but got ", name, " is on ", t->device().str(),
              ", different from other tensors on ", common->str(), " (when checking argument in method ", method, ")"),
          hint ? hint : "move the input and the model (or both matrices) to the same device");
  }
}

std::string dtype_mismatch_hint(DType input, DType params) {
  auto method = [](DType d) {  // the Tensor and Module method that converts to d
    switch (d) {
      case DType::Bool: return "bool";
      case DType::UInt8: return "byte";
      case DType::Int8: return "char";
      case DType::Int16: return "short";
      case DType::Int32: return "int";
      case DType::Int64: return "long";
      case DType::Float16: return "half";
      case DType::BFloat16: return "bfloat16";
      case DType::Float32: return "float";
      default: return "double";
    }
  };
  std::string h = cat("the input is ", dtype_name(input), " and the layer's parameters ", dtype_name(params),
                      ": convert the input, X:", method(params), "()");
  if (input == DType::UInt8 && is_floating(params))
    return h + " / 255 for pictures (a dataset's transforms.ToTensor() does it)";
  if (is_floating(input) && is_floating(params)) h += cat(", or the model, net:", method(input), "()");
  return h;
}

const char* wrapper(const char* op, std::initializer_list<const Tensor*> ts) {
  bool cuda = false;
  for (auto* t : ts) cuda = cuda || (t && t->defined() && t->device().is_cuda());
  static thread_local std::string s;
  s = std::string("wrapper_") + (cuda ? "CUDA_" : "CPU_") + op;
  return s.c_str();
}

// Note [Shapes before devices]: PyTorch's elementwise ops check their
// operands in TensorIterator's order (its build(): compute_shape, then
// compute_types), so a CPU tensor of the wrong shape added to a CUDA tensor is
// a broadcasting error, not a device error. The elementwise ops here broadcast
// first and call common_device after; ops whose device check PyTorch's
// generated wrappers make (mm, cat, index_select: check_args_device) check
// devices before anything else.
Device common_device(const std::vector<const Tensor*>& ts) {
  // Note [Same-device rule]: the common device is the first non-CPU device
  // among the operands (PyTorch's TensorIterator); zero-dim CPU tensors may
  // join any device as scalars; any other disagreement is an error that
  // names the common device first.
  Device common(Device::CPU, -1);
  for (const Tensor* t : ts)
    if (common.is_cpu() && !t->device().is_cpu()) common = t->device();
  for (const Tensor* t : ts) {
    Device d = t->device();
    if (d == common) continue;
    if (d.is_cpu() && t->dim() == 0) continue;
    throw RuntimeError(cat("Expected all tensors to be on the same device, but found at least two devices, ",
                           common.str(), " and ", d.str(), "!"),
                       "move them to one device first, e.g. x:to(y.device)");
  }
  return common;
}

LoopSpec make_loop(const Shape& shape, const std::vector<const Tensor*>& ts) {
  LoopSpec s;
  const int nd = int(shape.size());
  GL_CHECK(nd <= kMaxDims, "gpulab supports tensors of at most ", kMaxDims, " dimensions, but got ", nd);
  s.nargs = int(ts.size());
  s.numel = numel_of(shape);
  // Broadcast strides, then drop size-1 dims and merge dims that are
  // contiguous for every operand, innermost first.
  int64_t sh[kMaxDims];
  int64_t st[4][kMaxDims];
  for (int d = 0; d < nd; ++d) {
    sh[d] = shape[d];
    for (int a = 0; a < s.nargs; ++a) {
      const Tensor& t = *ts[a];
      int off = nd - int(t.dim());
      st[a][d] = (d < off || t.sizes()[d - off] == 1) ? 0 : t.strides()[d - off];
    }
  }
  int64_t* strides[4] = {st[0], st[1], st[2], st[3]};
  const int m = merge_dims(nd, sh, strides, s.nargs);
  s.ndim = m;
  bool contiguous = true;
  for (int d = 0; d < m; ++d) s.shape[d] = sh[d];
  for (int a = 0; a < s.nargs; ++a) {
    s.args[a].data = ts[a]->numel() ? ts[a]->data_ptr() : nullptr;
    s.args[a].dtype = ts[a]->dtype();
    for (int d = 0; d < m; ++d) s.args[a].strides[d] = st[a][d];
    if (m > 1 || (m == 1 && st[a][0] != 1)) contiguous = false;
  }
  s.contiguous = contiguous;
  return s;
}

namespace {
// Strides that are a permutation of some contiguous layout's: the tensor covers
// one dense block of memory exactly once.
bool non_overlapping_and_dense(const Tensor& t) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims longer than 1
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[size_t(d)] != 1) dims.push_back({t.strides()[size_t(d)], t.sizes()[size_t(d)]});
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (auto [stride, size] : dims) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}
}  // namespace

void assert_no_internal_overlap(const Tensor& out) {
  // PyTorch's has_internal_overlap: only a stride 0 over more than one element
  // is known to write one place twice (an expanded tensor); other layouts pass.
  if (non_overlapping_and_dense(out)) return;
  for (int64_t d = 0; d < out.dim(); ++d)
    if (out.strides()[size_t(d)] == 0 && out.sizes()[size_t(d)] > 1)
      throw RuntimeError(
          "unsupported operation: more than one element of the written-to tensor refers to a single memory "
          "location. Please clone() the tensor before performing the operation.");
}

bool may_write_into(const Tensor& dst, const std::vector<const Tensor*>& inputs) {
  for (const Tensor* t : inputs)
    if (t->storage() == dst.storage() &&
        !(t->data_ptr() == dst.data_ptr() && t->strides() == dst.strides() && t->sizes() == dst.sizes()))
      return false;
  return true;
}

void assert_no_partial_overlap(const Tensor& out, const Tensor& in) {
  // Note [Memory overlap]: as PyTorch's get_overlap_status, only dense views of
  // one storage are compared; identical views are a full overlap (allowed), and
  // views it cannot reason about cheaply pass.
  if (out.storage() != in.storage() || out.numel() == 0 || in.numel() == 0) return;
  if (!non_overlapping_and_dense(out) || !non_overlapping_and_dense(in)) return;
  const char* a = out.data_ptr();
  const char* b = in.data_ptr();
  const char* a_end = a + out.numel() * int64_t(itemsize(out.dtype()));
  const char* b_end = b + in.numel() * int64_t(itemsize(in.dtype()));
  if (a == b && a_end == b_end && out.strides() == in.strides()) return;
  if (a < b_end && b < a_end)
    throw RuntimeError(
        "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
        "location. Please clone() the tensor before performing the operation.");
}

}  // namespace gl
