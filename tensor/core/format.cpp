// A line-by-line port of torch/_tensor_str.py: one _Formatter decides a
// common width from the printed values, then the nested lists are laid out
// with PyTorch's line breaking and summarisation, then the suffixes.
#include "tensor/core/format.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include "tensor/autograd/node.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/trace.h"

namespace gl {

PrintOptions& print_options() {
  static PrintOptions o;
  return o;
}

bool set_print_profile(const std::string& name) {
  PrintOptions& o = print_options();
  if (name == "default") {
    o.precision = 4;
    o.threshold = 1000;
    o.edgeitems = 3;
    o.linewidth = 80;
  } else if (name == "short") {
    o.precision = 2;
    o.threshold = 1000;
    o.edgeitems = 2;
    o.linewidth = 80;
  } else if (name == "full") {
    o.precision = 4;
    o.threshold = INT64_MAX;
    o.edgeitems = 3;
    o.linewidth = 80;
  } else return false;
  return true;
}

namespace {

// The tensor's values on the host, row-major, as doubles (exact for every
// dtype gpulab prints except int64 beyond 2^53, kept separately).
struct Values {
  Shape shape;    // the tensor's
  Shape strides;  // into f / i, which hold only the gathered values
  Shape cut;      // per dim: how many middle items the summary left out
  int64_t edge = 0;
  // Where item k of dim d (one the printer shows) sits among the gathered ones.
  int64_t at(size_t d, int64_t k) const { return cut[d] && k >= edge ? k - cut[d] : k; }
  bool floating = false, boolean = false;
  std::vector<double> f;
  std::vector<int64_t> i;
};

// The items a summary shows: `e` at each end of every dim longer than 2e,
// sliced as views and copied once, so that printing a huge tensor (or a
// huge expanded view of a small one) reads only what it prints.
Tensor gather_edges(const Tensor& t, int64_t d, int64_t e) {
  if (d == t.dim()) return t;
  const int64_t n = t.size(d);
  if (n <= 2 * e) return gather_edges(t, d + 1, e);
  return cat({gather_edges(slice(t, d, 0, e, 1), d + 1, e), gather_edges(slice(t, d, n - e, n, 1), d + 1, e)}, d);
}

Values read_values(const Tensor& full, bool summarize, int64_t edge) {
  Values v;
  v.shape = full.sizes();
  v.edge = edge;
  v.cut.assign(v.shape.size(), 0);
  Tensor t = full;
  if (summarize) {
    NoGradGuard no_grad;
    t = gather_edges(full, 0, edge);
    for (size_t d = 0; d < v.shape.size(); ++d) v.cut[d] = v.shape[d] - t.sizes()[d];
  }
  v.strides = contiguous_strides(t.sizes());
  v.floating = is_floating(t.dtype());
  v.boolean = t.dtype() == DType::Bool;
  trace::SyncReason why("print");
  auto bytes = to_host_bytes(t);
  const int64_t n = t.numel();
  dispatch_dtype(t.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* p = reinterpret_cast<const T*>(bytes.data());
    if (v.floating) {
      v.f.resize(size_t(n));
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) v.f[size_t(k)] = double(float(p[k]));
        else v.f[size_t(k)] = double(p[k]);
      }
    } else {
      v.i.resize(size_t(n));
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) v.i[size_t(k)] = int64_t(float(p[k]));
        else v.i[size_t(k)] = int64_t(p[k]);
      }
    }
  });
  return v;
}

std::string fmt(const char* f, int prec, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, prec, x);
  return buf;
}

// Python's float formatting: nan never has a sign.
std::string py_fixed(double x, int prec) {
  if (std::isnan(x)) return "nan";
  return fmt("%.*f", prec, x);
}
std::string py_sci(double x, int prec) {
  if (std::isnan(x)) return "nan";
  return fmt("%.*e", prec, x);
}

struct Formatter {
  bool floating = false, boolean = false;
  bool int_mode = true, sci_mode = false;
  size_t max_width = 1;
  int precision = 4;

  void init(const std::vector<double>& fvals, const std::vector<int64_t>& ivals) {
    precision = print_options().precision;
    if (!floating) {
      for (auto x : ivals) max_width = std::max(max_width, str_int(x).size());
    } else {
      std::vector<double> nz;
      for (double x : fvals)
        if (std::isfinite(x) && x != 0) nz.push_back(x);
      if (!nz.empty()) {
        double mn = INFINITY, mx = 0;
        for (double x : nz) {
          mn = std::min(mn, std::fabs(x));
          mx = std::max(mx, std::fabs(x));
        }
        for (double x : nz)
          if (x != std::ceil(x)) {
            int_mode = false;
            break;
          }
        // As _Formatter: sci_mode is decided before the widths (and an explicit
        // set_printoptions{sci_mode=} decides it), but only when some value is
        // non-zero and finite; otherwise the formatter stays in int mode.
        const auto& forced = print_options().sci_mode;
        sci_mode = forced ? *forced : (mx / mn > 1000.0 || mx > 1.0e8 || (!int_mode && mn < 1.0e-4));
        for (double x : nz) {
          const size_t w = sci_mode   ? py_sci(x, precision).size()
                           : int_mode ? fmt("%.*f", 0, x).size() + 1
                                      : py_fixed(x, precision).size();
          max_width = std::max(max_width, w);
        }
      }
    }
  }

  std::string str_int(int64_t x) const { return boolean ? (x ? "True" : "False") : std::to_string(x); }

  std::string format_float(double x) const {
    std::string r;
    if (sci_mode) r = py_sci(x, precision);
    else if (int_mode) {
      r = std::isnan(x) ? "nan" : fmt("%.*f", 0, x);
      if (std::isfinite(x)) r += ".";
    } else r = py_fixed(x, precision);
    return pad(r);
  }
  std::string format_int(int64_t x) const { return pad(str_int(x)); }
  std::string pad(const std::string& r) const {
    return r.size() < max_width ? std::string(max_width - r.size(), ' ') + r : r;
  }
};

struct Printer {
  const Values& v;
  const Formatter& f;
  bool summarize;
  const PrintOptions& o;

  std::string val(int64_t off) const {
    return v.floating ? f.format_float(v.f[size_t(off)]) : f.format_int(v.i[size_t(off)]);
  }

  // _tensor_str_with_formatter over the sub-tensor at `off` starting at dimension d.
  std::string str(int64_t off, size_t d, int64_t indent) const {
    const size_t nd = v.shape.size();
    if (d == nd) return val(off);
    const int64_t n = v.shape[d], stride = v.strides[d];
    if (d + 1 == nd) {
      const int64_t elem_len = int64_t(f.max_width) + 2;
      const int64_t per_line =
          std::max<int64_t>(1, int64_t(std::floor(double(o.linewidth - indent) / double(elem_len))));
      std::vector<std::string> data;
      if (summarize && o.edgeitems == 0) data.push_back("...");
      else if (summarize && n > 2 * o.edgeitems) {
        for (int64_t k = 0; k < o.edgeitems; ++k) data.push_back(val(off + v.at(d, k) * stride));
        data.push_back(" ...");
        for (int64_t k = n - o.edgeitems; k < n; ++k) data.push_back(val(off + v.at(d, k) * stride));
      } else {
        for (int64_t k = 0; k < n; ++k) data.push_back(val(off + k * stride));
      }
      std::string out = "[";
      for (size_t k = 0; k < data.size(); ++k) {
        if (k > 0) out += (int64_t(k) % per_line == 0) ? ",\n" + std::string(size_t(indent + 1), ' ') : ", ";
        out += data[k];
      }
      return out + "]";
    }
    std::vector<std::string> slices;
    if (summarize && n > 2 * o.edgeitems) {
      for (int64_t k = 0; k < o.edgeitems; ++k) slices.push_back(str(off + v.at(d, k) * stride, d + 1, indent + 1));
      slices.push_back("...");
      for (int64_t k = n - o.edgeitems; k < n; ++k) slices.push_back(str(off + v.at(d, k) * stride, d + 1, indent + 1));
    } else {
      for (int64_t k = 0; k < n; ++k) slices.push_back(str(off + k * stride, d + 1, indent + 1));
    }
    const std::string sep = "," + std::string(nd - d - 1, '\n') + std::string(size_t(indent + 1), ' ');
    std::string out = "[";
    for (size_t k = 0; k < slices.size(); ++k) out += (k ? sep : "") + slices[k];
    return out + "]";
  }

  // get_summarized_data: offsets of the values that will be printed.
  void collect(int64_t off, size_t d, std::vector<int64_t>& offs) const {
    if (d == v.shape.size()) {
      offs.push_back(off);
      return;
    }
    const int64_t n = v.shape[d], stride = v.strides[d];
    if (summarize && o.edgeitems == 0 && d + 1 < v.shape.size()) return;
    if (summarize && n > 2 * o.edgeitems) {
      for (int64_t k = 0; k < o.edgeitems; ++k) collect(off + v.at(d, k) * stride, d + 1, offs);
      for (int64_t k = n - o.edgeitems; k < n; ++k) collect(off + v.at(d, k) * stride, d + 1, offs);
    } else {
      for (int64_t k = 0; k < n; ++k) collect(off + k * stride, d + 1, offs);
    }
  }
};

std::string add_suffixes(const std::string& s, const std::vector<std::string>& suffixes, int64_t indent) {
  std::string out = s;
  const size_t nl = s.rfind('\n');
  int64_t last_line_len = int64_t(s.size()) - (nl == std::string::npos ? -1 : int64_t(nl)) + 1;
  for (auto& suf : suffixes) {
    const int64_t len = int64_t(suf.size());
    if (last_line_len + len + 2 > print_options().linewidth) {
      out += ",\n" + std::string(size_t(indent), ' ') + suf;
      last_line_len = indent + len;
    } else {
      out += ", " + suf;
      last_line_len += len + 2;
    }
  }
  return out + ")";
}

std::string tuple_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string tensor_repr(const Tensor& t) {
  const PrintOptions& o = print_options();
  const std::string prefix = "tensor(";
  const int64_t indent = int64_t(prefix.size());
  std::vector<std::string> suffixes;
  if (!t.device().is_cpu()) suffixes.push_back("device='" + t.device().str() + "'");
  const DType dt = t.dtype();
  std::string body;
  if (t.numel() == 0) {
    if (t.dim() != 1) suffixes.push_back("size=" + tuple_str(t.sizes()));
    if (dt != default_dtype()) suffixes.push_back("dtype=" + dtype_repr(dt));
    body = "[]";
  } else {
    if (o.edgeitems == 0) suffixes.push_back("size=" + tuple_str(t.sizes()));
    if (!(dt == default_dtype() || dt == DType::Int64 || dt == DType::Bool))
      suffixes.push_back("dtype=" + dtype_repr(dt));
    const bool summarize = t.numel() > o.threshold;
    Values v = read_values(t, summarize, o.edgeitems);
    Formatter f;
    f.floating = v.floating;
    f.boolean = v.boolean;
    Printer p{v, f, summarize, o};
    if (summarize) {
      std::vector<int64_t> offs;
      p.collect(0, 0, offs);
      std::vector<double> fv;
      std::vector<int64_t> iv;
      for (auto off : offs) {
        if (v.floating) fv.push_back(v.f[size_t(off)]);
        else iv.push_back(v.i[size_t(off)]);
      }
      f.init(fv, iv);
    } else {
      f.init(v.f, v.i);
    }
    body = p.str(0, 0, indent);
  }
  if (t.grad_fn()) suffixes.push_back("grad_fn=<" + t.grad_fn()->name + ">");
  else if (t.requires_grad()) suffixes.push_back("requires_grad=True");
  std::string r = add_suffixes(prefix + body, suffixes, indent);
  if (t.impl->is_parameter) r = "Parameter containing:\n" + r;
  return r;
}

}  // namespace gl
