// Bound sorting and selection ops (tensor/ops/sort_ops.h): each takes the
// tensor first, so one C function serves as the method and the torch
// function. Pairs come back as named tuples (values, indices), as max(x, dim).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/sort_ops.h"

namespace gl::lt {

namespace {

int push_pair(lua_State* L, const std::pair<Tensor, Tensor>& r, const char* name) {
  push_tensor(L, r.first);
  push_tensor(L, r.second);
  mark_named_tuple(L, name, "values", "indices");
  return 2;
}

int l_sort(lua_State* L) {
  Args a(L, 1, "sort");
  return push_pair(L,
                   gl::sort(a.tensor(0, "input"), a.opt_integer(1, "dim").value_or(-1),
                            a.boolean(2, "descending", false), a.boolean(3, "stable", false)),
                   "sort");
}
int l_argsort(lua_State* L) {
  Args a(L, 1, "argsort");
  push_tensor(L, gl::argsort(a.tensor(0, "input"), a.opt_integer(1, "dim").value_or(-1),
                             a.boolean(2, "descending", false), a.boolean(3, "stable", false)));
  return 1;
}
int l_topk(lua_State* L) {
  Args a(L, 1, "topk");
  return push_pair(L,
                   gl::topk(a.tensor(0, "input"), a.integer(1, "k"), a.opt_integer(2, "dim").value_or(-1),
                            a.boolean(3, "largest", true), a.boolean(4, "sorted", true)),
                   "topk");
}
int l_kthvalue(lua_State* L) {
  Args a(L, 1, "kthvalue");
  return push_pair(L,
                   gl::kthvalue(a.tensor(0, "input"), a.integer(1, "k"), a.opt_integer(2, "dim").value_or(-1),
                                a.boolean(3, "keepdim", false)),
                   "kthvalue");
}
int l_median(lua_State* L) {
  Args a(L, 1, "median");
  Tensor& x = a.tensor(0, "input");
  auto dim = a.opt_integer(1, "dim");
  if (!dim) {
    push_tensor(L, gl::median(x));
    return 1;
  }
  return push_pair(L, gl::median_dim(x, *dim, a.boolean(2, "keepdim", false)), "median");
}
int l_mode(lua_State* L) {
  Args a(L, 1, "mode");
  return push_pair(
      L, gl::mode(a.tensor(0, "input"), a.opt_integer(1, "dim").value_or(-1), a.boolean(2, "keepdim", false)), "mode");
}
// unique(input, sorted, return_inverse, return_counts, dim): the values, then
// the inverse and the counts when asked, as separate results (Python's tuple).
int l_unique(lua_State* L) {
  Args a(L, 1, "unique");
  Tensor& x = a.tensor(0, "input");
  (void)a.boolean(1, "sorted", true);  // the CPU result is sorted either way, as PyTorch's
  const bool inv = a.boolean(2, "return_inverse", false), cnt = a.boolean(3, "return_counts", false);
  const auto dim = a.opt_integer(4, "dim");
  UniqueResult r = dim ? gl::unique_dim(x, *dim, inv, cnt) : gl::unique(x, inv, cnt);
  push_tensor(L, r.values);
  if (inv) push_tensor(L, r.inverse);
  if (cnt) push_tensor(L, r.counts);
  return 1 + int(inv) + int(cnt);
}

}  // namespace

const Reg kSortOps[] = {
    {"sort", l_sort,
     "sort(input, dim=-1, descending=False, stable=False) -> (values, indices): sorted along dim (NaN last)."},
    {"argsort", l_argsort,
     "argsort(input, dim=-1, descending=False, stable=False) -> LongTensor: the indices that sort input along dim."},
    {"topk", l_topk,
     "topk(input, k, dim=-1, largest=True, sorted=True) -> (values, indices): the k largest (or smallest) along dim."},
    {"kthvalue", l_kthvalue,
     "kthvalue(input, k, dim=-1, keepdim=False) -> (values, indices): the k-th smallest (k from 1) along dim."},
    {"median", l_median,
     "median(input) -> Tensor; median(input, dim, keepdim) -> (values, indices): the lower median (NaN if any)."},
    {"mode", l_mode,
     "mode(input, dim=-1, keepdim=False) -> (values, indices): the most frequent value along dim (the smallest on ties)."},
    {"unique", l_unique,
     "unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) -> values[, inverse][, counts]: the sorted "
     "distinct values (with dim: the distinct slices along dim)."},
    {nullptr, nullptr, nullptr}};

// Signatures (as in bindings/signature_table.cpp), in PyTorch's notation.
extern const char* const kSortOpSignatures[][2];
const char* const kSortOpSignatures[][2] = {
    {"sort", "sort(input, dim=-1, descending=False, *, stable=False)"},
    {"argsort", "argsort(input, dim=-1, descending=False, *, stable=False)"},
    {"topk", "topk(input, k, dim=-1, largest=True, sorted=True)"},
    {"kthvalue", "kthvalue(input, k, dim=-1, keepdim=False)"},
    {"median", "median(input, dim=None, keepdim=False)"},
    {"mode", "mode(input, dim=-1, keepdim=False)"},
    {"unique", "unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)"},
    {nullptr, nullptr}};

}  // namespace gl::lt
