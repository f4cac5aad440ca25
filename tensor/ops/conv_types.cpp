// Note [Convolution type errors]: PyTorch words a mismatch by the code that
// finds it, and learners meet it first of all convolution errors (a model on
// the GPU and a batch on the CPU; uint8 pictures without ToTensor):
//   - conv2d itself compares the bias's dtype with the input's first, in
//     caffe2's C++ type names: "Input type (unsigned char) and bias type
//     (float) should be the same";
//   - an input on a GPU goes to cuDNN, which names both tensors' classes:
//     "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)
//     should be the same";
//   - on the CPU, oneDNN (when ConvParams::use_mkldnn takes the call) adds "or
//     input should be a MKLDNN tensor and weight is a dense tensor"; the
//     native kernel reads the weight as the input's type: "expected scalar
//     type Float but found Double", after refusing a bool input.
// Texts from PyTorch 2.15 (tests/lua/test_nn_conv.lua).
#include "tensor/ops/conv_types.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/threads.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {

// Tensor::toString(): the legacy class where the dtype has one, else backend + scalar type.
std::string class_name(const Tensor& t) {
  const bool cuda = t.device().is_cuda();
  const DType d = t.dtype();
  if (d == DType::Bool || d == DType::BFloat16) return cat(cuda ? "CUDA" : "CPU", dtype_legacy_name(d), "Type");
  return cat("torch.", cuda ? "cuda." : "", dtype_legacy_name(d), "Tensor");
}

#if defined(__x86_64__) || defined(__i386__)
// mkldnn_bf16_device_check and mkldnn_fp16_device_check, on x86
bool cpu_bf16() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}
bool cpu_fp16() {  // CPUID.(7,0):EDX[23] (a name older compilers' __builtin_cpu_supports lacks)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return cpu_bf16() && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 23 & 1u);
}
#else
bool cpu_bf16() { return false; }  // (ARM's bf16 path is not modelled)
bool cpu_fp16() { return false; }
#endif

// ConvParams::use_mkldnn for a CPU input (float32 with its size heuristics;
// bfloat16 and float16 where the CPU has the instructions oneDNN needs).
bool pytorch_takes_onednn(const Tensor& x, const Tensor& w, const Conv2dOptions& o) {
  if (x.dtype() == DType::BFloat16) return cpu_bf16();
  if (x.dtype() == DType::Float16) return cpu_fp16();
  if (x.dtype() != DType::Float32) return false;
  bool strided = false, dilated = false;
  for (int64_t s : o.stride) strided = strided || s != 1;
  for (int64_t d : o.dilation) dilated = dilated || d != 1;
  const int64_t n = x.size(0), kh = w.size(-2), kw = w.size(-1);
  return (strided || dilated || n >= 16 || kw != 1 || kh != 1 || cpu::num_threads() > 1) &&
         (o.groups > 1 || (kw > 3 && kh > 3) || n > 1 || x.numel() > 20480);
}

}  // namespace

void check_conv_bias_dtype(const Tensor& x, const Tensor* b) {
  if (!b || b->dtype() == x.dtype()) return;
  throw RuntimeError(cat("Input type (", dtype_cpp_name(x.dtype()), ") and bias type (", dtype_cpp_name(b->dtype()),
                         ") should be the same"),
                     dtype_mismatch_hint(x.dtype(), b->dtype()));
}

void check_conv_types(const Tensor& x, const Tensor& w, const Tensor* b, const Conv2dOptions& o) {
  if (x.device().is_cuda() && w.device().is_cuda() && !(x.device() == w.device()))
    common_device({&x, &w});  // two GPUs: the same-device rule's message
  const bool cpu = !x.device().is_cuda();
  if (cpu && x.dtype() == DType::Bool) throw NotImplementedError("\"slow_conv2d_cpu\" not implemented for 'Bool'");
  auto same = [&](const Tensor& t) { return t.dtype() == x.dtype() && t.device() == x.device(); };
  if (same(w) && (!b || same(*b))) return;
  // gpulab's line under PyTorch's text: what to convert, or to move
  const std::string hint = w.dtype() != x.dtype() ? dtype_mismatch_hint(x.dtype(), w.dtype())
                                                  : "move the input and the model to the same device";
  const std::string bias_text =
      b ? cat("Input type (", class_name(x), ") and bias type (", class_name(*b), ") should be the same") : "";
  if (!cpu) {  // cuDNN's
    if (!same(w))
      throw RuntimeError(
          cat("Input type (", class_name(x), ") and weight type (", class_name(w), ") should be the same"), hint);
    throw RuntimeError(bias_text, hint);
  }
  // The native kernel reads a weight of another dtype as the input's. A weight
  // on a GPU gets oneDNN's text whatever the sizes (not checked against
  // PyTorch for the small pictures its native kernel takes: no GPU here).
  if (w.dtype() != x.dtype() && !pytorch_takes_onednn(x, w, o))
    throw RuntimeError(
        cat("expected scalar type ", dtype_legacy_name(x.dtype()), " but found ", dtype_legacy_name(w.dtype())), hint);
  if (!same(w))
    throw RuntimeError(cat("Input type (", class_name(x), ") and weight type (", class_name(w),
                           ") should be the same or input should be a MKLDNN tensor and weight is a dense tensor"),
                       hint);
  throw RuntimeError(bias_text, hint);
}

}  // namespace gl
