// Matrix products: mm, addmm, bmm, dot and matmul's broadcasting rules, all
// through the device's gemm (BLAS on the CPU, cuBLAS on CUDA). Operands are
// passed with their strides when BLAS can read them as (transposed) row-major
// matrices, and copied to contiguous only when it cannot.
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

bool g_allow_tf32 = false;

// addmm's dtype check (PyTorch's text for addmm, and for linear with a bias).
void check_same_dtype(const Tensor& a, const Tensor& b) {
  GL_CHECK(a.dtype() == b.dtype(), "mat1 and mat2 must have the same dtype, but got ", dtype_legacy_name(a.dtype()),
           " and ", dtype_legacy_name(b.dtype()));
}

// mm's own text (also matmul's wherever PyTorch folds it into mm).
void check_mm_dtype(const Tensor& a, const Tensor& b) {
  GL_CHECK(a.dtype() == b.dtype(), "expected m1 and m2 to have the same dtype, but got: ", dtype_cpp_name(a.dtype()),
           " != ", dtype_cpp_name(b.dtype()));
}
// bmm's: the kernel expects the first operand's dtype.
void check_bmm_dtype(const Tensor& a, const Tensor& b) {
  GL_CHECK(a.dtype() == b.dtype(), "expected scalar type ", dtype_legacy_name(a.dtype()), " but found ",
           dtype_legacy_name(b.dtype()));
}

// How BLAS reads a [rows, cols] matrix: leading dimension and transpose flag.
struct MatView {
  Tensor t;
  bool trans;
  int64_t ld;
};
MatView blas_view(const Tensor& m) {
  const int64_t rows = m.size(-2), cols = m.size(-1);
  const int64_t rs = m.stride(-2), cs = m.stride(-1);
  if (cs == 1 && (rs >= std::max<int64_t>(1, cols) || rows == 1))
    return {m, false, std::max<int64_t>(rows == 1 ? cols : rs, 1)};
  if (rs == 1 && (cs >= std::max<int64_t>(1, rows) || cols == 1))
    return {m, true, std::max<int64_t>(cols == 1 ? rows : cs, 1)};
  Tensor c = contiguous(m);
  return {c, false, std::max<int64_t>(cols, 1)};
}

// C = alpha * A @ B + beta * C over a batch (A: [b?, m, k], B: [b?, k, n], C dense [b?, m, n]).
void gemm_into(Tensor& c, const Tensor& a, const Tensor& b, double alpha, double beta) {
  GemmSpec g;
  g.dtype = a.dtype();
  const bool batched = a.dim() == 3;
  g.batch = batched ? a.size(0) : 1;
  g.m = a.size(-2);
  g.k = a.size(-1);
  g.n = b.size(-1);
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  if (g.k == 0) {
    if (beta == 0) fill_(c, Scalar::from_int(0));
    else if (beta != 1) c = binary(BinaryOp::Mul, c, Scalar::from_double(beta));
    return;
  }
  MatView va = blas_view(a), vb = blas_view(b);
  // Batched operands need one stride between batch entries.
  if (batched && (va.t.stride(0) == 0 || vb.t.stride(0) == 0)) {
    va = {contiguous(va.t), false, g.k};
    vb = {contiguous(vb.t), false, g.n};
    if (va.t.stride(0) == 0) va.t = contiguous(clone(va.t));
  }
  g.a = va.t.data_ptr();
  g.trans_a = va.trans;
  g.lda = va.ld;
  g.stride_a = batched ? va.t.stride(0) : 0;
  g.b = vb.t.data_ptr();
  g.trans_b = vb.trans;
  g.ldb = vb.ld;
  g.stride_b = batched ? vb.t.stride(0) : 0;
  g.c = c.data_ptr();
  g.ldc = g.n;
  g.stride_c = batched ? g.m * g.n : 0;
  g.alpha = alpha;
  g.beta = beta;
  g.allow_tf32 = g_allow_tf32;
  const DeviceSlot& sl = slot_of(c);
  trace::op("mm", c.device());
  sl.kernels->gemm(sl.exec, g);
}

// (mm_mat1_backward and mm_mat2_backward are defined below, out of this namespace.)
bool transposed(const Tensor& m) {
  return m.dim() == 2 && m.size(0) > 1 && m.size(1) > 1 && m.stride(0) == 1 && m.stride(1) == m.size(0);
}

std::string dims_x(const Tensor& t) { return t.dim() == 1 ? cat(t.size(0)) : cat(t.size(0), "x", t.size(1)); }

}  // namespace

// Gradients of self @ mat2 in the layout of each input, as PyTorch's
// mm_mat1_backward/mm_mat2_backward: for a transposed input (nn.Linear's
// weight.t()) the product is formed transposed, so the leaf's .grad arrives
// contiguous and is not copied again.
Tensor mm_mat1_backward(const Tensor& g, const Tensor& a, const Tensor& b) {
  return transposed(a) ? t(mm(b, t(g))) : mm(g, t(b));
}
Tensor mm_mat2_backward(const Tensor& g, const Tensor& a, const Tensor& b) {
  return transposed(b) ? t(mm(t(g), a)) : mm(t(a), g);
}

// Carried to the kernels by GemmSpec::allow_tf32.
void set_allow_tf32(bool on) { g_allow_tf32 = on; }
bool allow_tf32() { return g_allow_tf32; }

Tensor mm(const Tensor& a, const Tensor& b) {
  if (autocast::Scope ac{autocast::Op::mm, {&a, &b}}) return mm(ac(a), ac(b));  // Note [Autocast]
  check_args_device(wrapper("mm", {&a, &b}), {{"self", &a}, {"mat2", &b}});
  GL_CHECK(a.dim() == 2, "mm: self must be a matrix, got ", a.dim(), "-D tensor");
  GL_CHECK(b.dim() == 2, "mm: mat2 must be a matrix, got ", b.dim(), "-D tensor");
  GL_CHECK(a.size(1) == b.size(0), "mm: mat1 and mat2 shapes cannot be multiplied (", dims_x(a), " and ", dims_x(b),
           ")");
  check_mm_dtype(a, b);  // after the shapes, as PyTorch
  Tensor out = empty_on({a.size(0), b.size(1)}, a.dtype(), a.device());
  gemm_into(out, a, b, 1, 0);
  if (any_requires_grad({&a, &b})) record(out, {a, b}, MmBackward0{a, b});
  return out;
}

Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, double beta, double alpha) {
  if (autocast::Scope ac{autocast::Op::addmm, {&bias, &a, &b}})
    return addmm(ac(bias), ac(a), ac(b), beta, alpha);  // Note [Autocast]
  check_args_device(wrapper("addmm", {&bias, &a, &b}), {{"self", &bias}, {"mat1", &a}, {"mat2", &b}});
  GL_CHECK(a.dim() == 2, "addmm: self must be a matrix, got ", a.dim(), "-D tensor");
  GL_CHECK(b.dim() == 2, "addmm: mat2 must be a matrix, got ", b.dim(), "-D tensor");
  check_same_dtype(a, b);
  GL_CHECK(a.size(1) == b.size(0), "addmm: mat1 and mat2 shapes cannot be multiplied (", dims_x(a), " and ", dims_x(b),
           ")");
  GL_CHECK(bias.dtype() == a.dtype(), "self and mat2 must have the same dtype, but got ",
           dtype_legacy_name(bias.dtype()), " and ", dtype_legacy_name(b.dtype()));
  Shape shape{a.size(0), b.size(1)};
  Tensor out = empty_on(shape, a.dtype(), a.device());
  {
    NoGradGuard ng;
    copy_(out, expand(bias, shape));
  }
  gemm_into(out, a, b, alpha, beta);
  if (any_requires_grad({&bias, &a, &b})) {
    record(out, {bias, a, b}, AddmmBackward0{bias.sizes(), a, b, beta, alpha});
  }
  return out;
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  if (autocast::Scope ac{autocast::Op::bmm, {&a, &b}}) return bmm(ac(a), ac(b));  // Note [Autocast]
  check_args_device(wrapper("bmm", {&a, &b}), {{"self", &a}, {"mat2", &b}});
  GL_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  GL_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  // One check for both batch count and inner size, as PyTorch's.
  GL_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1),
           "Expected size for first two dimensions of batch2 tensor to be: [", a.size(0), ", ", a.size(2),
           "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_bmm_dtype(a, b);
  Tensor out = empty_on({a.size(0), a.size(1), b.size(2)}, a.dtype(), a.device());
  gemm_into(out, a, b, 1, 0);
  if (any_requires_grad({&a, &b})) record(out, {a, b}, BmmBackward0{a, b});
  return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
  if (autocast::Scope ac{autocast::Op::dot, {&a, &b}}) return dot(ac(a), ac(b));  // Note [Autocast]
  check_args_device(wrapper("dot", {&a, &b}), {{"self", &a}, {"tensor", &b}});
  GL_CHECK(a.dim() == 1 && b.dim() == 1, "1D tensors expected, but got ", a.dim(), "D and ", b.dim(), "D tensors");
  GL_CHECK(a.dtype() == b.dtype(), "dot : expected both vectors to have same dtype, but found ",
           dtype_legacy_name(a.dtype()), " and ", dtype_legacy_name(b.dtype()));
  GL_CHECK(a.numel() == b.numel(), "inconsistent tensor size, expected tensor [", a.numel(), "] and src [", b.numel(),
           "] to have the same number of elements, but got ", a.numel(), " and ", b.numel(), " elements respectively");
  Tensor out;
  {
    NoGradGuard ng;
    out = reshape(mm(reshape(a, {1, -1}), reshape(b, {-1, 1})), {});
  }
  if (any_requires_grad({&a, &b})) record(out, {a, b}, DotBackward0{a, b});
  return out;
}

namespace {

// PyTorch's should_fold (LinearAlgebra.cpp): a tensor of 3 or more dims times
// one of 1 or 2 folds into mm/mv when that needs no copy of the larger one
// (its leading dims contiguous), or when the smaller one needs a gradient.
bool should_fold(const Tensor& a, const Tensor& b) {
  const bool a_larger = a.dim() >= b.dim();
  const Tensor t1 = a_larger ? a : transpose(b, -2, -1);
  const int64_t small = a_larger ? b.dim() : a.dim();
  if (!(t1.dim() >= 3 && (small == 1 || small == 2))) return false;
  if ((a_larger ? b : a).requires_grad()) return true;
  if (a.dim() == 2) return false;
  if (t1.numel() == 0) return true;
  for (int64_t i = 0; i < t1.dim() - 2; ++i)
    if (t1.stride(i) != t1.stride(i + 1) * t1.size(i + 1)) return false;
  return true;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (autocast::Scope ac{autocast::Op::matmul, {&a, &b}}) return matmul(ac(a), ac(b));  // Note [Autocast]
  GL_CHECK(a.dim() > 0 && b.dim() > 0, "both arguments to matmul need to be at least 1D, but they are ", a.dim(),
           "D and ", b.dim(), "D");
  if (a.dim() == 1 && b.dim() == 1) return dot(a, b);
  // A mismatched dtype gets the text of the op PyTorch folds the product
  // into, after its shape check: mv (whose addmv names the vector's dtype,
  // the matrix's, then the vector's again), mm for a matrix on the right
  // (mm itself checks), bmm for a batch (bmm checks).
  auto check_mv_dtype = [&] {
    if (a.dtype() != b.dtype())
      throw RuntimeError(cat("addmv input tensors must have the same dtype, but got ", dtype_legacy_name(b.dtype()),
                             ", ", dtype_legacy_name(a.dtype()), ", and ", dtype_legacy_name(b.dtype())));
  };
  if (a.dim() == 2 && b.dim() == 2) return mm(a, b);
  if (a.dim() == 1 && b.dim() == 2) {
    Tensor r = squeeze(mm(unsqueeze(a, 0), b), 0);
    rename_grad_fn(r, "SqueezeBackward4");
    return r;
  }
  if (a.dim() == 2 && b.dim() == 1) {
    GL_CHECK(a.size(1) == b.size(0), "size mismatch, got input (", a.size(0), "), mat (", a.size(0), "x", a.size(1),
             "), vec (", b.size(0), ")");
    check_mv_dtype();
    Tensor r = squeeze(mm(a, unsqueeze(b, 1)), 1);
    rename_grad_fn(r, "MvBackward0");
    return r;
  }
  if (should_fold(a, b)) {
    // A batch times a matrix or a vector: the batch folded into the rows of
    // one matrix, one mm or mv (their shape errors: 56x28 and 784x10).
    const bool transpose_ = b.dim() > a.dim();
    const Tensor t1 = transpose_ ? transpose(b, -2, -1) : a;
    const Tensor t2 = !transpose_ ? b : (a.dim() == 2 ? transpose(a, 0, 1) : a);
    Shape out(t1.sizes().begin(), t1.sizes().end() - 1);
    const int64_t folded = numel_of(out);
    if (t2.dim() == 2) out.push_back(t2.size(1));
    Tensor r = reshape(matmul(reshape(t1, {folded, t1.size(-1)}), t2), out);
    rename_grad_fn(r, "UnsafeViewBackward0");
    return transpose_ ? contiguous(transpose(r, -2, -1)) : r;
  }
  // Batched: broadcast the batch dims, fold them into one, bmm (its check
  // names the batch: [2, 4] but got: [2, 5]), unfold.
  Tensor A = a.dim() == 1 ? unsqueeze(a, 0) : a;
  Tensor B = b.dim() == 1 ? unsqueeze(b, 1) : b;
  if (b.dim() == 1 && A.size(-1) == B.size(-2)) check_mv_dtype();
  if (b.dim() == 2 && A.size(-1) == B.size(-2)) check_mm_dtype(a, b);
  Shape ba(A.sizes().begin(), A.sizes().end() - 2), bb(B.sizes().begin(), B.sizes().end() - 2);
  Shape batch = broadcast_shapes(ba, bb);
  const int64_t nb = numel_of(batch);
  Shape ea = batch, eb = batch;
  ea.push_back(A.size(-2));
  ea.push_back(A.size(-1));
  eb.push_back(B.size(-2));
  eb.push_back(B.size(-1));
  Tensor A3 = reshape(expand(A, ea), {nb, A.size(-2), A.size(-1)});
  Tensor B3 = reshape(expand(B, eb), {nb, B.size(-2), B.size(-1)});
  Shape out = batch;
  out.push_back(A.size(-2));
  out.push_back(B.size(-1));
  Tensor r = reshape(bmm(A3, B3), out);
  if (a.dim() == 1) r = squeeze(r, -2);
  if (b.dim() == 1) r = squeeze(r, -1);
  rename_grad_fn(r, "UnsafeViewBackward0");
  return r;
}

}  // namespace gl
