// Tensor methods that convert: x:to() in PyTorch's three forms, cuda(), cpu()
// and the dtype casts (float(), long(), ...).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

Tensor& self(lua_State* L) { return check_tensor(L, 1, "self"); }

// PyTorch's TypeError for positionals that fit none of to()'s three forms
// (to(torch.float64, 'cuda') has them the wrong way round); the keywords
// follow, alphabetically (a Lua table keeps no order).
[[noreturn]] void to_overloads(Args& a) {
  std::string got;
  for (int i = 0; i < a.n(); ++i) {
    const int idx = a.at(i);
    got += (i ? ", " : "") + (idx ? type_name(a.L, idx) : std::string("NoneType"));
  }
  for (const char* k : {"copy", "device", "dtype", "non_blocking"})
    if (int idx = a.at(-1, k)) got += cat(got.empty() ? "" : ", ", k, "=", type_name(a.L, idx));
  const char* tail = "bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n";
  throw TypeError(cat("to() received an invalid combination of arguments - got (", got, "), but expected one of:\n",
                      " * (torch.device device = None, torch.dtype dtype = None, ", tail, " * (torch.dtype dtype, ",
                      tail, " * (Tensor tensor, ", tail));
}

// to(device) / to(dtype) / to(device, dtype) / to(other) / to{device=, dtype=, copy=}:
// PyTorch's three forms, (device, dtype, non_blocking, copy), (dtype,
// non_blocking, copy) and (tensor, non_blocking, copy).
int l_to(lua_State* L) {
  Args a(L, 2, "to");
  Tensor& t = self(L);
  std::optional<Device> dev;
  std::optional<DType> dt;
  int i = 0;
  // (Args::at gives 0 for a nil: PyTorch's None)
  auto none = [&](int idx) { return idx == 0 || lua_isnil(L, idx); };
  if (a.n() > 0) {
    const int first = a.at(0);
    if (none(first)) {
      i = 1;
    } else if (Tensor* o = to_tensor(L, first)) {
      dev = o->device();
      dt = o->dtype();
      i = 1;
    } else if (auto d = to_dtype_or_null(L, first)) {
      dt = d;
      i = 1;
    } else if (lua_type(L, first) == LUA_TSTRING || lua_type(L, first) == LUA_TNUMBER ||
               lua_type(L, first) == LUA_TUSERDATA) {
      dev = to_device(L, first);
      if (!dev) to_overloads(a);
      i = 1;
    }
    // after a device (or None), the dtype or None
    if (i == 1 && !dt && a.n() > 1 && (none(a.at(1)) || !lua_isboolean(L, a.at(1)))) {
      const int second = a.at(1);
      if (auto d = none(second) ? std::nullopt : to_dtype_or_null(L, second)) dt = d;
      else if (!none(second)) to_overloads(a);
      i = 2;
    }
  }
  bool positional_copy = false;
  for (int k = 0; i < a.n(); ++i, ++k) {  // non_blocking, copy
    if (none(a.at(i)) || !lua_isboolean(L, a.at(i)) || k > 1) to_overloads(a);
    if (k == 1) positional_copy = lua_toboolean(L, a.at(i));
  }
  if (auto d = a.device(-1, "device")) dev = d;
  if (auto d = a.dtype(-1, "dtype")) dt = d;
  bool copy = a.boolean(-1, "copy", positional_copy);
  a.boolean(-1, "non_blocking", false);
  a.finish(4);  // unknown keywords are errors, not silently ignored
  push_tensor(L, to(t, dev, dt, copy));
  return 1;
}

int cuda(lua_State* L) {
  Args a(L, 2, "cuda");
  auto d = a.device(0, "device");
  Device dev =
      d ? (d->is_cuda() ? *d : throw RuntimeError(cat("Invalid device, must be cuda device"))) : Device(Device::CUDA);
  push_tensor(L, to(self(L), dev, std::nullopt));
  return 1;
}
int cpu(lua_State* L) {
  push_tensor(L, to(self(L), Device(Device::CPU), std::nullopt));
  return 1;
}

template <DType D> int cast(lua_State* L) {
  push_tensor(L, to(self(L), std::nullopt, D));
  return 1;
}

}  // namespace

const Reg kTensorConversions[] = {
    {"to", l_to,
     "x:to(device), x:to(dtype), x:to(device, dtype), x:to(other), x:to{device=, dtype=, copy=}: x itself when nothing changes, else a new tensor."},
    {"cuda", cuda, "x:cuda(), x:cuda(i): copy to a CUDA device (x itself if already there)."},
    {"cpu", cpu, "x:cpu(): copy to host memory (x itself if already there)."},
    {"float", cast<DType::Float32>, "x:float(): as float32."},
    {"double", cast<DType::Float64>, "x:double(): as float64."},
    {"half", cast<DType::Float16>, "x:half(): as float16."},
    {"bfloat16", cast<DType::BFloat16>, "x:bfloat16()."},
    {"long", cast<DType::Int64>, "x:long(): as int64."},
    {"int", cast<DType::Int32>, "x:int(): as int32."},
    {"short", cast<DType::Int16>, "x:short(): as int16."},
    {"char", cast<DType::Int8>, "x:char(): as int8."},
    {"byte", cast<DType::UInt8>, "x:byte(): as uint8."},
    {"bool", cast<DType::Bool>, "x:bool(): as bool."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
