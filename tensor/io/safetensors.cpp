// Reading safetensors: the header parser and its checks (Note [Hostile
// checkpoints]), the in-memory loader the fuzz target drives, and the file reader.
#include "tensor/io/safetensors.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_set>
#include "tensor/io/json.h"
#include "tensor/ops/ops.h"

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; so is every host gpulab supports");

namespace gl::io {

namespace {

struct DTypeName {
  DType t;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{DType::Float64, "F64"},   {DType::Float32, "F32"}, {DType::Float16, "F16"},
                                     {DType::BFloat16, "BF16"}, {DType::Int64, "I64"},   {DType::Int32, "I32"},
                                     {DType::Int16, "I16"},     {DType::Int8, "I8"},     {DType::UInt8, "U8"},
                                     {DType::Bool, "BOOL"}};

std::string who(const TensorInfo& t) { return "tensor " + quoted_name(t.name); }

// numel * itemsize, refusing shapes whose element count or strides overflow.
uint64_t nbytes_of(const TensorInfo& t) {
  uint64_t bytes = itemsize(t.dtype), span = itemsize(t.dtype);
  constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
  for (int64_t d : t.shape) {
    const uint64_t u = uint64_t(d);
    if (__builtin_mul_overflow(bytes, u, &bytes) || __builtin_mul_overflow(span, std::max<uint64_t>(u, 1), &span) ||
        span > kMax)
      throw RuntimeError(cat(who(t), ": shape ", shape_str(t.shape), " is too large (numel * itemsize overflows)"));
  }
  return bytes;
}

void parse_entry(JsonReader& r, TensorInfo& t) {
  const std::string w = who(t);
  GL_CHECK(r.peek() == '{', w, ": expected an object with \"dtype\", \"shape\" and \"data_offsets\"");
  r.begin_object();
  bool has_dtype = false, has_shape = false, has_offsets = false;
  std::string key;
  while (r.next_key(key)) {
    if (key == "dtype") {
      GL_CHECK(!has_dtype, w, ": duplicate field \"dtype\"");
      has_dtype = true;
      const std::string d = r.string(w + ": dtype");
      GL_CHECK(safetensors_dtype_from(d, &t.dtype), w, ": unknown dtype ", quoted_name(d),
               " (gpulab reads F64, F32, F16, BF16, I64, I32, I16, I8, U8 and BOOL)");
    } else if (key == "shape") {
      GL_CHECK(!has_shape, w, ": duplicate field \"shape\"");
      has_shape = true;
      GL_CHECK(r.peek() == '[', w, ": shape must be an array of integers");
      r.begin_array();
      while (r.next_item()) {
        GL_CHECK(t.shape.size() < size_t(kMaxDims), w, ": shape has more than ", kMaxDims, " dimensions");
        const uint64_t d = r.uint(w + ": each dimension of the shape");
        GL_CHECK(d <= uint64_t(std::numeric_limits<int64_t>::max()), w, ": dimension ", d, " is too large");
        t.shape.push_back(int64_t(d));
      }
    } else if (key == "data_offsets") {
      GL_CHECK(!has_offsets, w, ": duplicate field \"data_offsets\"");
      has_offsets = true;
      GL_CHECK(r.peek() == '[', w, ": data_offsets must be an array of 2 integers");
      r.begin_array();
      uint64_t v[2] = {0, 0};
      int n = 0;
      while (r.next_item()) {
        GL_CHECK(n < 2, w, ": data_offsets must hold exactly 2 integers");
        v[n++] = r.uint(w + ": data_offsets");
      }
      GL_CHECK(n == 2, w, ": data_offsets must hold exactly 2 integers");
      t.begin = v[0];
      t.end = v[1];
    } else {
      r.skip();  // the safetensors library ignores unknown fields too
    }
  }
  GL_CHECK(has_dtype, w, ": missing \"dtype\"");
  GL_CHECK(has_shape, w, ": missing \"shape\"");
  GL_CHECK(has_offsets, w, ": missing \"data_offsets\"");
}

void check_layout(const Header& h, uint64_t data_len) {
  for (const TensorInfo& t : h.tensors) {
    const uint64_t nb = nbytes_of(t);
    const std::string offs = cat("data_offsets [", t.begin, ", ", t.end, "]");
    GL_CHECK(t.end >= t.begin, who(t), ": ", offs, " end before they begin");
    GL_CHECK(t.end <= data_len, who(t), ": ", offs, " run past the end of the data (", data_len, " bytes)");
    GL_CHECK(t.end - t.begin == nb, who(t), ": ", offs, " hold ", t.end - t.begin, " bytes but a ",
             safetensors_dtype(t.dtype), " tensor of shape ", shape_str(t.shape), " needs ", nb);
  }
  std::vector<size_t> order(h.tensors.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const TensorInfo &x = h.tensors[a], &y = h.tensors[b];
    return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
  });
  uint64_t at = 0;
  const TensorInfo* prev = nullptr;
  for (size_t i : order) {
    const TensorInfo& t = h.tensors[i];
    if (t.begin < at)
      throw RuntimeError(cat(who(*prev), " and ", who(t), " overlap (data_offsets [", prev->begin, ", ", prev->end,
                             "] and [", t.begin, ", ", t.end, "])"));
    if (t.begin > at)
      throw RuntimeError(
          cat("bytes [", at, ", ", t.begin, ") of the data belong to no tensor (a gap before ", who(t), ")"));
    at = t.end;
    prev = &t;
  }
  GL_CHECK(at == data_len, "the last ", data_len - at, " bytes of the data belong to no tensor");
}

Tensor make_tensor(const TensorInfo& t) { return empty(t.shape, {t.dtype, Device(Device::CPU)}); }

// A byte other than 0/1 is not a valid C++ bool; read it as Python does (nonzero -> True).
void normalize_bools(Tensor& x) {
  if (x.dtype() != DType::Bool) return;
  auto* p = reinterpret_cast<unsigned char*>(x.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) p[i] = p[i] != 0;
}

}  // namespace

const char* safetensors_dtype(DType t) {
  for (const auto& d : kDTypeNames)
    if (d.t == t) return d.name;
  throw RuntimeError("unknown dtype");
}

bool safetensors_dtype_from(std::string_view s, DType* out) {
  for (const auto& d : kDTypeNames) {
    if (s == d.name) {
      *out = d.t;
      return true;
    }
  }
  return false;
}

uint64_t header_length(const unsigned char* p, uint64_t file_size) {
  GL_CHECK(file_size >= 8, "the file is ", file_size, " bytes, too short to hold the 8-byte header length");
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= uint64_t(p[i]) << (8 * i);
  GL_CHECK(n <= kMaxHeaderBytes, "the header length ", n, " exceeds the limit of ", kMaxHeaderBytes, " bytes");
  GL_CHECK(n <= file_size - 8, "the header length ", n, " runs past the end of the file (", file_size, " bytes)");
  return n;
}

Header parse_header(std::string_view json, uint64_t data_len) {
  GL_CHECK(valid_utf8(json), "the header is not valid UTF-8");
  GL_CHECK(!json.empty() && json[0] == '{', "the header does not start with '{'");
  JsonReader r(json);
  Header h;
  std::unordered_set<std::string> names, meta_keys;
  bool meta_seen = false;
  std::string key;
  r.begin_object();
  while (r.next_key(key)) {
    if (key == "__metadata__") {
      GL_CHECK(!meta_seen, "duplicate \"__metadata__\"");
      meta_seen = true;
      if (r.null()) continue;
      GL_CHECK(r.peek() == '{', "\"__metadata__\" must be an object of strings");
      r.begin_object();
      std::string mk;
      while (r.next_key(mk)) {
        GL_CHECK(meta_keys.insert(mk).second, "duplicate metadata key ", quoted_name(mk));
        std::string v = r.string("metadata " + quoted_name(mk));
        h.metadata.emplace_back(mk, std::move(v));
      }
      continue;
    }
    GL_CHECK(names.insert(key).second, "duplicate tensor name ", quoted_name(key));
    TensorInfo t;
    t.name = key;
    parse_entry(r, t);
    h.tensors.push_back(std::move(t));
  }
  r.end();
  check_layout(h, data_len);
  return h;
}

Contents parse_safetensors(const void* data, size_t size) {
  try {
    const auto* p = static_cast<const unsigned char*>(data);
    unsigned char prefix[8] = {};
    if (size >= 8) std::memcpy(prefix, p, 8);
    const uint64_t n = header_length(prefix, size);
    Header h = parse_header(std::string_view(reinterpret_cast<const char*>(p + 8), size_t(n)), size - 8 - n);
    Contents c;
    c.metadata = std::move(h.metadata);
    for (const TensorInfo& t : h.tensors) {
      Tensor x = make_tensor(t);
      if (t.end > t.begin) std::memcpy(x.data_ptr(), p + 8 + n + t.begin, size_t(t.end - t.begin));
      normalize_bools(x);
      c.tensors.emplace_back(t.name, std::move(x));
    }
    return c;
  } catch (const RuntimeError& e) { throw RuntimeError(cat("invalid safetensors data: ", e.what())); }
}

namespace {
void read_exact(int fd, uint64_t off, void* buf, uint64_t n, const std::string& path) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, size_t(std::min<uint64_t>(n, 1u << 30)), off_t(off));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw RuntimeError(cat("cannot read '", path, "': ", std::strerror(errno)));
    if (r == 0)
      throw RuntimeError(cat("cannot read '", path, "': the file ended early (was it truncated while loading?)"));
    p += r;
    off += uint64_t(r);
    n -= uint64_t(r);
  }
}
}  // namespace

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path) {
  GL_CHECK_T(ValueError, path.find('\0') == std::string::npos, "embedded null byte");
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer; the
  // S_ISREG check below refuses it instead. (Regular files ignore the flag.)
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) {
    const int e = errno;
    if (e == ENOENT) throw FileNotFoundError(cat("[Errno 2] No such file or directory: '", path, "'"));
    throw RuntimeError(cat("cannot open '", path, "': ", std::strerror(e)));
  }
  try {
    struct stat st;
    GL_CHECK(::fstat(fd_, &st) == 0, "cannot stat '", path, "': ", std::strerror(errno));
    GL_CHECK(S_ISREG(st.st_mode), "cannot load '", path,
             "': ", S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
    const uint64_t size = uint64_t(st.st_size);
    unsigned char prefix[8] = {};
    if (size >= 8) read_exact(fd_, 0, prefix, 8, path);
    // torch.save's own formats: a zip archive (PyTorch 1.6 and later) or a bare pickle (protocol 2)
    const bool zip = std::memcmp(prefix, "PK\x03\x04", 4) == 0, pickle = prefix[0] == 0x80 && prefix[1] == 0x02;
    GL_CHECK(!zip && !pickle, "'", path, "' is a PyTorch checkpoint (torch.save's ", zip ? "zip" : "pickle",
             " format), which gpulab does not read: its torch.save and torch.load use safetensors. Convert it in "
             "PyTorch: from safetensors.torch import save_file; save_file(torch.load('",
             path, "'), 'model.safetensors')");
    try {
      const uint64_t n = header_length(prefix, size);
      std::string json(size_t(n), '\0');
      read_exact(fd_, 8, json.data(), n, path);
      h_ = parse_header(json, size - 8 - n);
      h_.data_start = 8 + n;
    } catch (const RuntimeError& e) { throw RuntimeError(cat("invalid safetensors file '", path, "': ", e.what())); }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

SafetensorsFile::~SafetensorsFile() {
  if (fd_ >= 0) ::close(fd_);
}

Tensor SafetensorsFile::read(size_t i) const {
  const TensorInfo& t = h_.tensors.at(i);
  Tensor x = make_tensor(t);
  if (t.end > t.begin) read_exact(fd_, h_.data_start + t.begin, x.data_ptr(), t.end - t.begin, path_);
  normalize_bools(x);
  return x;
}

}  // namespace gl::io
