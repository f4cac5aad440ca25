// The safetensors file format (what Python's `safetensors` reads and writes):
//
//   8 bytes   N, the header's length, little-endian
//   N bytes   JSON: {"__metadata__": {"k": "v", ...},
//                    "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}
//             padded with spaces so that the data starts 8-byte aligned
//   the rest  every tensor's bytes, contiguous, little-endian, at [begin, end)
//             relative to the end of the header, with no gaps and no overlaps
//
// Note [Hostile checkpoints]: a file is checked completely before any tensor
// is allocated or read: the header length against the file size and a 100 MB
// cap, the JSON strictly, each dtype, each shape (at most 64 dims, no
// overflow in numel * itemsize), and the offsets (inside the data, end >=
// begin, exactly numel * itemsize bytes, together covering the data once).
// So every read below stays inside the file, and no allocation is larger
// than the file itself. Errors are RuntimeErrors naming what is wrong.
#pragma once
#include <functional>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/core/tensor.h"

namespace gl::io {

constexpr uint64_t kMaxHeaderBytes = 100'000'000;  // the safetensors library's limit
constexpr int kMaxDims = 64;

using Metadata = std::vector<std::pair<std::string, std::string>>;
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

struct TensorInfo {
  std::string name;
  DType dtype = DType::Float32;
  Shape shape;
  uint64_t begin = 0, end = 0;  // relative to the start of the data
};

struct Header {
  std::vector<TensorInfo> tensors;  // in the header's order
  Metadata metadata;                // "__metadata__", in the header's order
  uint64_t data_start = 0;          // 8 + the header's length
};

// Python's open() error, which torch.load raises for a missing file.
struct FileNotFoundError : Error {
  using Error::Error;
  const char* kind() const override { return "FileNotFoundError"; }
};

const char* safetensors_dtype(DType t);  // "F32"
bool safetensors_dtype_from(std::string_view s, DType* out);

// The header's length from the file's first 8 bytes, checked against its size.
uint64_t header_length(const unsigned char* prefix8, uint64_t file_size);
// Parses and checks the JSON header for `data_len` bytes of tensor data.
Header parse_header(std::string_view json, uint64_t data_len);

// A whole file in memory -> CPU tensors in the header's order. The fuzz
// target's entry point; errors read "invalid safetensors data: ...".
struct Contents {
  NamedTensors tensors;
  Metadata metadata;
};
Contents parse_safetensors(const void* data, size_t size);

// A file on disk: the header is read and checked when it opens; tensors are
// read one at a time (so loading onto a GPU holds one host copy at a time).
class SafetensorsFile {
 public:
  explicit SafetensorsFile(const std::string& path);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;
  const Header& header() const { return h_; }
  Tensor read(size_t i) const;  // a CPU tensor

 private:
  std::string path_;
  int fd_ = -1;
  Header h_;
};

// Writing. Header keys keep the given order; the data is laid out largest
// itemsize first so every tensor is aligned (as the safetensors library does).
std::vector<char> to_safetensors_bytes(const NamedTensors& tensors, const Metadata& metadata);
// Atomic: writes `path.tmp.<pid>`, fsyncs, renames over `path`. On any
// failure the temporary is removed and an existing `path` is left untouched.
// `abandon`, when given, is asked before the file is replaced: true leaves the
// old file as it was (the temporary removed) and returns false.
bool save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata,
                      const std::function<bool()>& abandon = {});

}  // namespace gl::io
