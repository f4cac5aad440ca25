#include "tensor/core/device.h"
#include <cctype>
#include "tensor/core/error.h"

namespace gl {

Device Device::parse(const std::string& s) {
  auto colon = s.find(':');
  std::string type = s.substr(0, colon);
  Type t;
  if (type == "cpu") t = CPU;
  else if (type == "cuda") t = CUDA;
  else throw RuntimeError(cat("Expected one of cpu, cuda device type at start of device string: ", s));
  if (colon == std::string::npos) return Device(t);
  std::string idx = s.substr(colon + 1);
  bool digits = !idx.empty() && idx.size() < 6;
  for (char c : idx) digits = digits && std::isdigit((unsigned char)c);
  if (!digits || (idx.size() > 1 && idx[0] == '0')) throw RuntimeError(cat("Invalid device string: '", s, "'"));
  int i = std::stoi(idx);
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
