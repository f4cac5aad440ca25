// Every tensor op gpulab has, declared once. Each is defined in the file of
// its family (elementwise.cpp, views.cpp, ...) and works on any device: the
// op checks its arguments, promotes dtypes, allocates the output on the
// common device, records autograd, and calls that device's kernel table.
#pragma once
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "tensor/core/tensor.h"
#include "tensor/kernels/spec.h"

namespace gl {

struct Generator;  // random_ops.h

// ---- creation (creation.cpp) ----
Tensor empty(const Shape& size, const TensorOptions& o);
Tensor full(const Shape& size, Scalar value, const TensorOptions& o);
Tensor zeros(const Shape& size, const TensorOptions& o);
Tensor ones(const Shape& size, const TensorOptions& o);
Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<DType> dtype, const TensorOptions& o);
Tensor linspace(double start, double end, int64_t steps, const TensorOptions& o);
Tensor eye(int64_t n, int64_t m, const TensorOptions& o);
Tensor rand(const Shape& size, const TensorOptions& o, Generator* gen = nullptr);  // random_ops.cpp
Tensor randn(const Shape& size, const TensorOptions& o, Generator* gen = nullptr);
Tensor randint(int64_t low, int64_t high, const Shape& size, const TensorOptions& o, Generator* gen = nullptr);
Tensor randperm(int64_t n, const TensorOptions& o, Generator* gen = nullptr);
// From host values already in `dtype`'s C layout (the bindings convert Lua data).
Tensor from_host(const void* data, const Shape& size, DType dtype, const TensorOptions& o);
Tensor scalar_tensor(Scalar v, DType dtype, Device d);
void requires_grad_at_creation(Tensor& t);  // requires_grad=true given to a creation function
void uniform_(Tensor& t, double lo, double hi, Generator* gen = nullptr);
void normal_(Tensor& t, double mean, double std, Generator* gen = nullptr);

// ---- copies and conversions (copy.cpp) ----
// to(): returns `self` itself when nothing changes (Note [Tensor identity]).
Tensor to(const Tensor& self, std::optional<Device> device, std::optional<DType> dtype, bool copy = false);
// A copy in pinned (page-locked) host memory, which copies to and from a GPU
// at the copy engines' full speed; a pinned tensor is returned as it is.
Tensor pin_memory(const Tensor& self);
bool is_pinned(const Tensor& self);
// How PyTorch names a tensor's type in some errors: the legacy name where one
// exists (torch.FloatTensor, torch.cuda.LongTensor), else the dispatch name
// (CPUBoolType, CUDABFloat16Type).
std::string legacy_type_str(const Tensor& x);
Tensor contiguous(const Tensor& self);
Tensor clone(const Tensor& self);
Tensor detach(const Tensor& self);
// x.data: detach() whose in-place writes autograd does not count, as PyTorch's
// variable_data (Note [Version counter]).
Tensor variable_data(const Tensor& self);
void copy_(Tensor& dst, const Tensor& src);  // broadcasting, casting, across devices
void fill_(Tensor& dst, Scalar v);
// Host bytes of a tensor, contiguous, in its dtype (waits for the device).
std::vector<char> to_host_bytes(const Tensor& t);
Scalar item(const Tensor& t);

// ---- elementwise (elementwise.cpp) ----
Tensor unary(UnaryOp op, const Tensor& a);
Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b);
Tensor binary(BinaryOp op, const Tensor& a, Scalar b, bool scalar_first = false);
void binary_(BinaryOp op, Tensor& self, const Tensor& b);  // in place
void binary_(BinaryOp op, Tensor& self, Scalar b);
// a + alpha * b (op Add) or a - alpha * b (op Sub) of floating tensors,
// rounded once (Note [Add with alpha]); grad_fn AddBackward0 / SubBackward0.
Tensor add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha);
// A gradient summed to an input's shape, in its dtype (broadcasting undone).
Tensor grad_for(const Tensor& g, const Tensor& input);
// self + value * t1 * t2, self + value * t1 / t2, start + weight * (end - start),
// rounded as PyTorch's kernels round them (Note [Ternary ops] in kernels/spec.h);
// `into`: write there when it is the right tensor (the in-place forms use it).
Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value, Tensor* into = nullptr);
Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value, Tensor* into = nullptr);
Tensor lerp(const Tensor& start, const Tensor& end, Scalar weight, Tensor* into = nullptr);
Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight, Tensor* into = nullptr);
void addcmul_(Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value);
void addcdiv_(Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value);
void lerp_(Tensor& self, const Tensor& end, Scalar weight);
void lerp_(Tensor& self, const Tensor& end, const Tensor& weight);
void add_scaled_(BinaryOp op, Tensor& self, const Tensor& b, double alpha);
void unary_(UnaryOp op, Tensor& self);
// Replaces self by f(old) for autograd, where old aliases self's current value
// (Note [In-place autograd]); raises where that could corrupt a saved value.
void inplace_with_grad(Tensor& self, const std::function<Tensor(const Tensor&)>& f);
// The Tensor methods zero_, fill_ (value: the 0-dim tensor the number came
// from, if any) and copy_, recorded for autograd (overwrite.cpp).
void zero_recorded_(Tensor& self);
void fill_recorded_(Tensor& self, Scalar v, const Tensor* value = nullptr);
void copy_recorded_(Tensor& self, const Tensor& src);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor clamp(const Tensor& a, std::optional<double> lo, std::optional<double> hi);
Tensor add(const Tensor& a, const Tensor& b, Scalar alpha);  // a + alpha * b (arith.cpp)
inline Tensor add(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Add, a, b); }
inline Tensor sub(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Sub, a, b); }
inline Tensor mul(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Mul, a, b); }
inline Tensor div(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Div, a, b); }
Tensor neg(const Tensor& a);

// ---- views and joins (views.cpp) ----
Tensor view(const Tensor& t, Shape size);  // one -1 allowed
Tensor reshape(const Tensor& t, Shape size);
Tensor transpose(const Tensor& t, int64_t d0, int64_t d1);
Tensor t(const Tensor& t);
Tensor permute(const Tensor& t, Shape dims);
Tensor unsqueeze(const Tensor& t, int64_t dim);
Tensor squeeze(const Tensor& t, std::optional<int64_t> dim);
Tensor expand(const Tensor& t, Shape size);
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor& t, int64_t dim, int64_t index);
Tensor slice(const Tensor& t, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step);
Tensor flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);
std::vector<Tensor> chunk(const Tensor& t, int64_t chunks, int64_t dim);
std::vector<Tensor> split(const Tensor& t, int64_t size, int64_t dim);
std::vector<Tensor> split_sizes(const Tensor& t, const Shape& sizes, int64_t dim);
Tensor cat(const std::vector<Tensor>& ts, int64_t dim);
Tensor stack(const std::vector<Tensor>& ts, int64_t dim);
Tensor masked_select(const Tensor& t, const Tensor& mask);
// t[mask] = value, as PyTorch's index_put_ with one bool index: mask covers
// t's leading dims, and value broadcasts to [count of trues, rest of t...].
void masked_assign_(Tensor& t, const Tensor& mask, const Tensor& value);
Tensor index_select(const Tensor& t, int64_t dim, const Tensor& index);
Shape broadcast_shapes(const Shape& a, const Shape& b);
Tensor sum_to(const Tensor& t, const Shape& shape);  // reduces broadcast dims away

// ---- reductions (reduce.cpp) ----
// dims empty: reduce everything.
Tensor sum(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype = {});
Tensor mean(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim);
Tensor prod(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
Tensor amax(const Tensor& t, std::optional<int64_t> dim, bool keepdim);  // max without indices
Tensor amin(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
Tensor max_all(const Tensor& t);  // x:max() with no dim: named max() in errors and grad_fn
Tensor min_all(const Tensor& t);
Tensor argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
std::pair<Tensor, Tensor> max_dim(const Tensor& t, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> min_dim(const Tensor& t, int64_t dim, bool keepdim);
Tensor norm(const Tensor& t, double p, const std::vector<int64_t>& dims, bool keepdim);
Tensor any(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
Tensor all(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
// Divides the sum of squared deviations by max(N - correction, 0), as PyTorch 2.x:
// correction 1 is the unbiased (Bessel's) estimate, 0 the population variance.
// `name` is the op the user called, for the degrees-of-freedom warning (std calls var).
Tensor var(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, double correction,
           const char* name = "var");

// ---- scans (scan.cpp) ----
// dtype: cast the input first; without it integer and bool inputs give int64.
Tensor cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype);
Tensor cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype);

// ---- linear algebra (matmul.cpp) ----
Tensor mm(const Tensor& a, const Tensor& b);
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, double beta = 1, double alpha = 1);
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor dot(const Tensor& a, const Tensor& b);
void set_allow_tf32(bool on);
bool allow_tf32();

// ---- factorizations (linalg.cpp; LAPACK on the CPU) ----
// torch.linalg.qr(A, mode): Q and R, column-major as PyTorch's; mode is
// "reduced", "complete" or "r" (Q then empty). float32/float64 only.
std::pair<Tensor, Tensor> linalg_qr(const Tensor& A, const std::string& mode);
// The singular values of each matrix of A (..., m, n), descending (gesdd). No backward yet.
Tensor linalg_svdvals(const Tensor& A);

// ---- neural-network functions (nn_ops.cpp) ----
Tensor linear(const Tensor& x, const Tensor& w, const Tensor* b);
Tensor softmax(const Tensor& x, int64_t dim);
Tensor log_softmax(const Tensor& x, int64_t dim);
Tensor mse_loss(const Tensor& a, const Tensor& b, const std::string& reduction);
struct CrossEntropyOptions {
  std::string reduction = "mean";
  const Tensor* weight = nullptr;  // per class, or null
  int64_t ignore_index = -100;
  double label_smoothing = 0;
};
// Targets: class indices (int) or class probabilities (float, the input's shape).
Tensor cross_entropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o);
Tensor cross_entropy(const Tensor& logits, const Tensor& target, const std::string& reduction);
Tensor dropout(const Tensor& x, double p, bool training);

// ---- shared checks (iter.cpp) ----
// The same-device rule: returns the common device or throws PyTorch's message.
Device common_device(const std::vector<const Tensor*>& ts);
// PyTorch's generated device check of an op with named tensor arguments (null
// or undefined: absent), the first one's device common: "... but got weight is
// on cuda:0, different from other tensors on cpu (when checking argument in
// method wrapper_CUDA__native_batch_norm)". wrapper("op", ts) names the method.
// `hint` replaces the default hint line (move the input and the model).
void check_args_device(const char* method, std::initializer_list<std::pair<const char*, const Tensor*>> args,
                       const char* hint = nullptr);
const char* wrapper(const char* op, std::initializer_list<const Tensor*> ts);
// The hint under PyTorch's text when a layer's input and parameters differ in
// dtype: which is which, and the method that converts each (X:float(),
// net:double()); a uint8 input is pictures that want X:float() / 255 or ToTensor.
std::string dtype_mismatch_hint(DType input, DType params);
Tensor to_dtype(const Tensor& t, DType d);  // no-op when equal
// Elementwise loop over `ts` (ts[0] is the output) broadcast to `shape`.
LoopSpec make_loop(const Shape& shape, const std::vector<const Tensor*>& ts);
// PyTorch's check before writing `out` from `in` (Note [Memory overlap]).
void assert_no_partial_overlap(const Tensor& out, const Tensor& in);
// PyTorch's check of a written-to tensor that holds one element in several places (an expanded one).
void assert_no_internal_overlap(const Tensor& out);
// Note [Writing into a given tensor]: an elementwise kernel may write its
// result straight into `dst` when every input lives on another storage or is
// dst's very view (same start, sizes and strides): each element is then read
// before it is written, at the same place. Any other sharing goes through a
// temporary. In-place ops (write_in_place) and out= (claim_out) both ask this.
bool may_write_into(const Tensor& dst, const std::vector<const Tensor*>& inputs);

}  // namespace gl
