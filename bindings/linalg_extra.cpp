// Bound norms, logsumexp, one_hot and einsum (tensor/ops/linalg_extra.h).
#include <cmath>
#include <string>
#include "bindings/args.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

Tensor input_as(Args& a, int i, const char* name) {
  Tensor x = a.tensor(i, name);
  // dtype= casts a floating input only: an integer one stays and is refused, as in PyTorch
  if (auto d = a.dtype(-1, "dtype"); d && is_floating(x.dtype())) x = to_dtype(x, *d);
  return x;
}
// ord: a number (math.huge for inf) or a string ('fro', 'nuc', 'inf', '-inf').
void read_ord(Args& a, int i, std::optional<std::string>* s, std::optional<double>* n) {
  const int idx = a.at(i, "ord");
  if (!idx || lua_isnil(a.L, idx)) return;
  if (lua_type(a.L, idx) == LUA_TSTRING) {
    const std::string v = lua_tostring(a.L, idx);
    if (v == "inf") *n = INFINITY;
    else if (v == "-inf") *n = -INFINITY;
    else *s = v;
    return;
  }
  *n = a.number(i, "ord");
}

int l_logsumexp(lua_State* L) {
  Args a(L, 1, "logsumexp");
  GL_CHECK_T(TypeError, a.has(1, "dim"), "logsumexp() missing 1 required positional arguments: \"dim\"");
  push_tensor(L, gl::logsumexp(a.tensor(0, "input"), a.int_list(1, "dim"), a.boolean(2, "keepdim", false)));
  return 1;
}
int l_einsum(lua_State* L) {
  Args a(L, 1, "einsum");
  const std::string eq = a.string(0, "equation", "");
  std::vector<Tensor> ops;
  if (a.n() == 2 && lua_type(L, a.at(1)) == LUA_TTABLE) ops = a.tensor_list(1, "operands");
  else
    for (int i = 1; i < a.n(); ++i) ops.push_back(a.tensor(i, "operands"));
  push_tensor(L, gl::einsum(eq, ops));
  return 1;
}
// PyTorch's names: linalg_vector_norm() and its `input` (vector_norm also
// takes the documented `x=`), linalg_matrix_norm(), linalg_norm().
int linalg_vector_norm(lua_State* L) {
  Args a(L, 1, "linalg_vector_norm");
  std::optional<std::string> s;
  std::optional<double> n;
  read_ord(a, 1, &s, &n);
  GL_CHECK_T(TypeError, !s, "linalg_vector_norm(): argument 'ord' must be Number, not str");
  push_tensor(L, gl::vector_norm(input_as(a, 0, a.at(-1, "x") ? "x" : "input"), n.value_or(2), a.int_list(2, "dim"),
                                 a.boolean(3, "keepdim", false)));
  return 1;
}
int linalg_matrix_norm(lua_State* L) {
  Args a(L, 1, "linalg_matrix_norm");
  std::optional<std::string> s;
  std::optional<double> n;
  read_ord(a, 1, &s, &n);
  push_tensor(L, gl::matrix_norm(input_as(a, 0, "input"), s.value_or("fro"), n, a.int_list(2, "dim"),
                                 a.boolean(3, "keepdim", false)));
  return 1;
}
int linalg_norm(lua_State* L) {
  Args a(L, 1, "linalg_norm");
  std::optional<std::string> s;
  std::optional<double> n;
  read_ord(a, 1, &s, &n);
  push_tensor(L, gl::linalg_norm(input_as(a, 0, "input"), s, n, a.int_list(2, "dim"), a.boolean(3, "keepdim", false)));
  return 1;
}
int f_one_hot(lua_State* L) {
  Args a(L, 1, "one_hot");
  push_tensor(L, gl::one_hot(a.tensor(0, "tensor"), a.opt_integer(1, "num_classes").value_or(-1)));
  return 1;
}

int linalg_solve(lua_State* L) {
  Args a(L, 1, "linalg_solve");
  push_tensor(L, gl::linalg_solve(a.tensor(0, "A"), a.tensor(1, "B")));
  return 1;
}
// One matrix in, one tensor out (Note [Binding rows]): inv and det, and their
// old names, whose argument is `input`.
template <Tensor (*Op)(const Tensor&), Lit Name, Lit Arg> int matrix_op(lua_State* L) {
  Args a(L, 1, Name.s);
  push_tensor(L, Op(a.tensor(0, Arg.s)));
  return 1;
}

}  // namespace

// torch.inverse / torch.det and x:inverse() / x:det(): torch.linalg's under their old names.
const Reg kMatrixFunctions[] = {{"inverse", matrix_op<gl::linalg_inv, "inverse", "input">,
                                 "inverse(input): the inverse of each square matrix (torch.linalg.inv)."},
                                {"det", matrix_op<gl::linalg_det, "det", "input">,
                                 "det(input): the determinant of each square matrix (torch.linalg.det)."},
                                {nullptr, nullptr, nullptr}};

// Methods and torch functions.
const Reg kReduceExtra[] = {
    {"logsumexp", l_logsumexp, "logsumexp(input, dim, keepdim=False): log(sum(exp(input))) over dim, computed stably."},
    {nullptr, nullptr, nullptr}};
// torch functions only.
const Reg kEinsum[] = {{"einsum", l_einsum,
                        "einsum(equation, *operands): sums of products named by subscripts ('ij,jk->ik' is a matmul)."},
                       {nullptr, nullptr, nullptr}};
const Reg kLinalgExtra[] = {
    {"vector_norm", linalg_vector_norm,
     "torch.linalg.vector_norm(x, ord=2, dim=None, keepdim=False): the ord-norm of x as a vector (over dim)."},
    {"matrix_norm", linalg_matrix_norm,
     "torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False): a matrix norm ('fro', 1, -1, inf, -inf)."},
    {"norm", linalg_norm,
     "torch.linalg.norm(A, ord=None, dim=None, keepdim=False): a vector or a matrix norm, by ord and dim."},
    {"solve", linalg_solve, "torch.linalg.solve(A, B): X with A X = B, by LU (B a matrix, or a vector)."},
    {"inv", matrix_op<gl::linalg_inv, "linalg_inv", "A">,
     "torch.linalg.inv(A): the inverse of each square matrix of A, by LU."},
    {"det", matrix_op<gl::linalg_det, "linalg_det", "A">,
     "torch.linalg.det(A): the determinant of each square matrix of A, by LU."},
    {nullptr, nullptr, nullptr}};
const Reg kFunctionalExtra[] = {
    {"one_hot", f_one_hot,
     "F.one_hot(tensor, num_classes=-1): int64 one-hot rows, one per index (num_classes: max + 1 by default)."},
    {nullptr, nullptr, nullptr}};

extern const char* const kLinalgExtraSignatures[][2];
const char* const kLinalgExtraSignatures[][2] = {
    {"logsumexp", "logsumexp(input, dim, keepdim=False)"},
    {"einsum", "einsum(equation, *operands)"},
    {"linalg.vector_norm", "linalg_vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None, x=None)"},
    {"linalg.matrix_norm",
     "linalg_matrix_norm(input, ord='fro', dim=None, keepdim=False, *, dtype=None)"},  // dim=None: (-2, -1)
    {"linalg.norm", "linalg_norm(input, ord=None, dim=None, keepdim=False, *, dtype=None)"},
    {"linalg.solve", "linalg_solve(A, B)"},
    {"linalg.inv", "linalg_inv(A)"},
    {"linalg.det", "linalg_det(A)"},
    {"inverse", "inverse(input)"},
    {"det", "det(input)"},
    {"F.one_hot", "one_hot(tensor, num_classes=-1)"},
    {nullptr, nullptr}};

}  // namespace gl::lt
