#include "tensor/core/device.h"
#include <cctype>
#include "tensor/core/error.h"

namespace gl {

// c10's Device(std::string): the form ([a-zA-Z_]+)(:([1-9][0-9]*|0))? first,
// then the type, each with PyTorch's message.
Device Device::parse(const std::string& s) {
  GL_CHECK(!s.empty(), "Device string must not be empty");
  const size_t colon = s.find(':');
  const std::string type = s.substr(0, colon);
  bool ok = !type.empty();
  for (char c : type) ok = ok && (std::isalpha(static_cast<unsigned char>(c)) || c == '_');
  std::string idx;
  if (colon != std::string::npos) {
    idx = s.substr(colon + 1);
    ok = ok && !idx.empty() && (idx.size() == 1 || idx[0] != '0');
    for (char c : idx) ok = ok && std::isdigit(static_cast<unsigned char>(c));
  }
  if (!ok) throw RuntimeError(cat("Invalid device string: '", s, "'"));
  if (idx.size() > 9) throw RuntimeError(cat("Could not parse device index '", idx, "' in device string '", s, "'"));
  Type t;
  if (type == "cpu") t = CPU;
  else if (type == "cuda") t = CUDA;
  else  // PyTorch 2.15's list: gpulab has two of these types, but the message is PyTorch's
    throw RuntimeError(
        cat("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
            "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
            "string: ",
            type));
  if (idx.empty()) return Device(t);
  const int i = std::stoi(idx);
  if (t == CPU && i != 0) throw RuntimeError(cat("CPU device index must be -1 or zero, got ", i));
  return Device(t, i);
}

std::string Device::str() const {
  std::string s = type == CPU ? "cpu" : "cuda";
  if (index >= 0) s += ":" + std::to_string(index);
  return s;
}

std::string Device::repr() const {
  std::string s = std::string("device(type='") + (type == CPU ? "cpu" : "cuda") + "'";
  if (index >= 0) s += ", index=" + std::to_string(index);
  return s + ")";
}

}  // namespace gl
