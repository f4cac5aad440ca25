// The IDX format of (Fashion-)MNIST, read as torchvision's read_sn3_pascalvincent_tensor does:
//
//   2 bytes   zero
//   1 byte    the element type: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32,
//             0x0D float32, 0x0E float64
//   1 byte    the number of dims (1..4 here)
//   4 bytes   per dim, its size, big-endian
//   the rest  the elements, row-major, big-endian
//
// The file may be gzip-compressed (as Debian's dataset-fashion-mnist ships it)
// or not; zlib reads both. A file is trusted only as far as it goes: the data
// is read before anything of the declared size is allocated, and it must be
// exactly as long as the header says. Errors are RuntimeErrors naming the file.
#pragma once
#include <string>
#include "tensor/core/tensor.h"

namespace gl::io {

// The whole file as a CPU tensor of its element type and shape.
Tensor read_idx(const std::string& path);

// The same from bytes already in memory (uncompressed); `what` names them in errors.
Tensor parse_idx(const unsigned char* data, size_t size, const std::string& what);

}  // namespace gl::io
