// Lua values <-> tensors: torch.tensor's nested tables (dtype inferred as
// PyTorch infers it from Python values) and tolist().
#include <cmath>
#include <cstring>
#include <limits>
#include "bindings/luaT.h"
#include "bindings/tensor_data.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/trace.h"

namespace gl::lt {

namespace {

struct Walk {
  explicit Walk(lua_State* state) : L(state) {}
  lua_State* L;
  Shape shape;
  int category = -1;  // 0 bool, 1 int, 2 float
  std::vector<double> f;
  std::vector<int64_t> i;
  std::vector<uint8_t> kind;  // each element's own category: exact ints stay ints
  int depth_limit = 64;

  void leaf(int idx, size_t depth) {
    if (depth < shape.size())
      throw ValueError(cat("expected sequence of length ", shape[depth], " at dim ", depth, " (got a number)"));
    int cat_ = 0;
    double fv = 0;
    int64_t iv = 0;
    if (lua_type(L, idx) == LUA_TBOOLEAN) {
      cat_ = 0;
      iv = lua_toboolean(L, idx);
      fv = double(iv);
    } else if (lua_isinteger(L, idx)) {
      cat_ = 1;
      iv = lua_tointeger(L, idx);
      fv = double(iv);
    } else if (lua_type(L, idx) == LUA_TNUMBER) {
      cat_ = 2;
      fv = lua_tonumber(L, idx);
      iv = 0;
    } else if (Tensor* t = to_tensor(L, idx)) {
      GL_CHECK_T(ValueError, t->numel() == 1, "only one element tensors can be converted to Python scalars");
      Scalar s = item(*t);
      cat_ = s.kind == Scalar::Bool ? 0 : s.kind == Scalar::Int ? 1 : 2;
      fv = s.to_double();
      iv = s.kind == Scalar::Float ? 0 : s.i;
    } else {
      throw TypeError(cat("new(): invalid data type '", type_name(L, idx), "'"));
    }
    category = std::max(category, cat_);
    f.push_back(fv);
    i.push_back(iv);
    kind.push_back(uint8_t(cat_));
  }

  void walk(int idx, size_t depth) {
    if (lua_type(L, idx) != LUA_TTABLE) return leaf(idx, depth);
    GL_CHECK_T(ValueError, int(depth) < depth_limit, "too many dimensions");
    const int64_t n = int64_t(lua_rawlen(L, idx));
    if (depth == shape.size()) {
      if (!f.empty()) throw ValueError(cat("expected a number at dim ", depth, " (got a table)"));
      shape.reserve(8);  // also spares GCC 12 a false -Warray-bounds on the inlined growth
      shape.push_back(n);
      const size_t known = size_t(numel_of(shape));  // the elements at least this deep: room for them at once
      if (known <= (size_t(1) << 28)) {
        f.reserve(known);
        i.reserve(known);
        kind.reserve(known);
      }
    } else if (shape[depth] != n) {
      throw ValueError(cat("expected sequence of length ", shape[depth], " at dim ", depth, " (got ", n, ")"));
    }
    GL_CHECK(lua_checkstack(L, 4), "stack overflow");
    for (int64_t k = 1; k <= n; ++k) {
      lua_rawgeti(L, idx, k);
      walk(lua_gettop(L), depth + 1);
      lua_pop(L, 1);
    }
    if (n == 0 && depth + 1 < shape.size())
      throw ValueError(cat("expected sequence of length ", shape[depth + 1], " at dim ", depth + 1, " (got 0)"));
  }
};

// PyTorch's torch.tensor refuses a value its integer dtype cannot hold
// (c10::checked_convert, named as the dtype): integers must be in range, except
// that uint8 takes negatives down to -255, which wrap; floats (truncated
// toward zero) must land in range, and NaN or inf fit no integer. Floating and
// bool dtypes take anything (1e40 becomes inf, as in PyTorch).
template <class T> T checked_element(DType dt, uint8_t kind, int64_t iv, double fv) {
  if constexpr (std::is_same_v<T, bool>) {
    return kind == 2 ? fv != 0 : iv != 0;
  } else if constexpr (std::is_integral_v<T>) {
    using lim = std::numeric_limits<T>;
    bool ok;
    if (kind == 2) {
      ok = fv >= double(lim::lowest()) && fv < double(lim::max()) + 1.0;  // false for NaN
    } else if constexpr (std::is_unsigned_v<T>) {
      ok = iv >= -int64_t(lim::max()) && iv <= int64_t(lim::max());
    } else {
      ok = iv >= int64_t(lim::lowest()) && iv <= int64_t(lim::max());
    }
    if (!ok) throw RuntimeError(cat("value cannot be converted to type ", dtype_name(dt), " without overflow"));
    return kind == 2 ? T(int64_t(fv)) : T(iv);
  } else {
    return T(kind == 2 ? fv : double(iv));
  }
}

}  // namespace

Tensor tensor_from_lua(lua_State* L, int idx, std::optional<DType> dtype, Device device) {
  if (Tensor* t = to_tensor(L, idx)) return to(detach(*t), device, dtype ? *dtype : t->dtype(), true);
  Walk w(L);
  w.walk(idx, 0);
  DType dt = dtype ? *dtype : w.category == 0 ? DType::Bool : w.category == 1 ? DType::Int64 : default_dtype();
  const int64_t n = int64_t(w.f.size());
  Tensor host = empty_on(w.shape, dt, Device(Device::CPU));
  dispatch_dtype(dt, [&](auto z) {
    using T = decltype(z);
    T* p = host.data<T>();
    for (size_t k = 0; k < size_t(n); ++k) p[k] = checked_element<T>(dt, w.kind[k], w.i[k], w.f[k]);
  });
  return to(host, device, std::nullopt);
}

void push_list(lua_State* L, const Tensor& t) {
  trace::SyncReason why("tolist");
  std::vector<char> bytes = to_host_bytes(t);
  const Shape shape = t.sizes();
  const Shape strides = contiguous_strides(shape);
  GL_CHECK(lua_checkstack(L, int(shape.size()) + 8), "stack overflow");
  dispatch_dtype(t.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* p = reinterpret_cast<const T*>(bytes.data());
    auto push_val = [&](int64_t off) {
      if constexpr (std::is_same_v<T, bool>) lua_pushboolean(L, p[off]);
      else if constexpr (std::is_integral_v<T>) lua_pushinteger(L, lua_Integer(p[off]));
      else lua_pushnumber(L, double(p[off]));
    };
    auto rec = [&](auto& self, int64_t off, size_t d) -> void {
      if (d == shape.size()) return push_val(off);
      lua_createtable(L, int(shape[d]), 0);
      for (int64_t k = 0; k < shape[d]; ++k) {
        self(self, off + k * strides[d], d + 1);
        lua_rawseti(L, -2, k + 1);
      }
    };
    rec(rec, 0, 0);
  });
}

}  // namespace gl::lt
