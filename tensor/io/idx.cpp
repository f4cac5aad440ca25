// Reading IDX files (tensor/io/idx.h) through zlib's gz* functions, which
// inflate gzip files and pass plain ones through unchanged.
#include "tensor/io/idx.h"
#include <zlib.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::io {

namespace {

constexpr int kMaxIdxDims = 4;

struct IdxType {
  unsigned char code;
  DType dtype;
  size_t size;
};
constexpr IdxType kTypes[] = {{0x08, DType::UInt8, 1}, {0x09, DType::Int8, 1},    {0x0B, DType::Int16, 2},
                              {0x0C, DType::Int32, 4}, {0x0D, DType::Float32, 4}, {0x0E, DType::Float64, 8}};

uint32_t big_endian32(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

// Closes the gzFile however the read ends.
struct GzFile {
  gzFile f;
  ~GzFile() {
    if (f != nullptr) gzclose(f);
  }
};

}  // namespace

Tensor parse_idx(const unsigned char* data, size_t size, const std::string& what) {
  if (size < 4) throw RuntimeError(cat(what, ": not an IDX file (", size, " bytes, shorter than its 4-byte magic)"));
  if (data[0] != 0 || data[1] != 0)
    throw RuntimeError(cat(what, ": not an IDX file (its first two bytes should be zero)"));
  const IdxType* type = nullptr;
  for (const IdxType& t : kTypes)
    if (t.code == data[2]) type = &t;
  if (type == nullptr) throw RuntimeError(cat(what, ": unknown IDX element type 0x", std::hex, int(data[2])));
  const int ndim = data[3];
  if (ndim < 1 || ndim > kMaxIdxDims)
    throw RuntimeError(cat(what, ": an IDX file with ", ndim, " dims (1 to ", kMaxIdxDims, " are read)"));
  const size_t header = 4 + 4 * size_t(ndim);
  if (size < header) throw RuntimeError(cat(what, ": the IDX header is cut short"));
  Shape shape;
  uint64_t bytes = type->size;
  for (int d = 0; d < ndim; ++d) shape.push_back(int64_t(big_endian32(data + 4 + 4 * d)));
  for (int64_t n : shape)
    if (__builtin_mul_overflow(bytes, uint64_t(n), &bytes))
      throw RuntimeError(cat(what, ": the IDX shape ", shape_str(shape), " is too large"));
  if (size - header != bytes)
    throw RuntimeError(cat(what, ": the IDX header declares ", shape_str(shape), " (", bytes,
                           " bytes of data) but the file holds ", size - header));
  Tensor out = empty(shape, {type->dtype, Device(Device::CPU)});
  auto* dst = reinterpret_cast<unsigned char*>(out.data_ptr());
  const unsigned char* src = data + header;
  if (type->size == 1) {
    if (bytes > 0) std::memcpy(dst, src, bytes);  // an empty tensor has no data pointer
  } else {                                        // big-endian elements: reverse each one's bytes
    const size_t w = type->size;
    for (size_t i = 0; i < bytes; i += w)
      for (size_t b = 0; b < w; ++b) dst[i + b] = src[i + w - 1 - b];
  }
  return out;
}

Tensor read_idx(const std::string& path) {
  errno = 0;
  GzFile file{gzopen(path.c_str(), "rb")};
  if (file.f == nullptr) {
    const int e = errno;
    throw RuntimeError(cat("cannot open '", path, "': ", e != 0 ? std::strerror(e) : "out of memory"));
  }
  gzbuffer(file.f, 1 << 20);
  // Read it all, growing with what is really there (never by the header's
  // word), and no further than one byte past what the header declares: a
  // file that never ends (/dev/zero) is an error, not all of memory.
  std::vector<unsigned char> bytes;
  size_t used = 0, limit = SIZE_MAX;
  for (size_t chunk = 1 << 16;; chunk = std::min<size_t>(chunk * 2, size_t(1) << 28)) {
    if (limit == SIZE_MAX && used >= 4) {
      const size_t header = 4 + 4 * size_t(bytes[3]);
      const IdxType* type = nullptr;
      for (const IdxType& t : kTypes)
        if (t.code == bytes[2]) type = &t;
      if (bytes[0] != 0 || bytes[1] != 0 || type == nullptr || bytes[3] < 1 || bytes[3] > kMaxIdxDims)
        return parse_idx(bytes.data(), used, "'" + path + "'");  // throws, naming what is wrong
      if (used >= header) {
        uint64_t total = type->size;
        for (size_t d = 0; d < bytes[3]; ++d)
          if (__builtin_mul_overflow(total, uint64_t(big_endian32(bytes.data() + 4 + 4 * d)), &total))
            return parse_idx(bytes.data(), used, "'" + path + "'");  // throws: too large
        limit = size_t(std::min<uint64_t>(total + header + 1, SIZE_MAX - 1));
      }
    }
    if (used >= limit) break;
    chunk = std::min(chunk, limit - used);
    bytes.resize(used + chunk);
    const int n = gzread(file.f, bytes.data() + used, unsigned(chunk));
    if (n < 0) {
      int code = 0;
      const char* msg = gzerror(file.f, &code);
      throw RuntimeError(cat("cannot read '", path, "': ", code == Z_ERRNO ? std::strerror(errno) : msg));
    }
    used += size_t(n);
    if (size_t(n) < chunk) break;
  }
  // A damaged gzip stream ends the reads early with an error set, not a negative count.
  int code = 0;
  const char* msg = gzerror(file.f, &code);
  if (code != Z_OK && code != Z_BUF_ERROR) throw RuntimeError(cat("cannot read '", path, "': ", msg));
  if (code == Z_BUF_ERROR) throw RuntimeError(cat("cannot read '", path, "': the gzip stream is cut short"));
  if (used >= limit)
    throw RuntimeError(cat("'", path, "': the file holds more than the ", limit - 1 - (4 + 4 * size_t(bytes[3])),
                           " bytes of data its IDX header declares"));
  return parse_idx(bytes.data(), used, "'" + path + "'");
}

}  // namespace gl::io
