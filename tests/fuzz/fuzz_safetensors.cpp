// libFuzzer target for the safetensors loader (see README.md beside this file).
// Every input must either load or raise gl::RuntimeError; anything else (a
// crash, an out-of-bounds read under ASan, another exception) is a finding.
// What loads must also survive a round trip: written back out and read again,
// it gives the same names, dtypes, shapes, bytes and metadata.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include "tensor/io/safetensors.h"
#include "tensor/ops/ops.h"

using namespace gl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  io::Contents c;
  try {
    c = io::parse_safetensors(data, size);
  } catch (const RuntimeError&) {
    return 0;  // a clean refusal
  }
  const std::vector<char> again = io::to_safetensors_bytes(c.tensors, c.metadata);
  const io::Contents d = io::parse_safetensors(again.data(), again.size());  // must not throw
  if (d.tensors.size() != c.tensors.size() || d.metadata != c.metadata) std::abort();
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    const Tensor &a = c.tensors[i].second, &b = d.tensors[i].second;
    if (c.tensors[i].first != d.tensors[i].first || a.dtype() != b.dtype() || a.sizes() != b.sizes() ||
        to_host_bytes(a) != to_host_bytes(b))
      std::abort();
  }
  return 0;
}
