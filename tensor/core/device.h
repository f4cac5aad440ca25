// Device: where a tensor's storage lives ("cpu", "cuda:1").
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace gl {

struct Device {
  enum Type : uint8_t { CPU = 0, CUDA = 1 };
  Type type = CPU;
  int16_t index = -1;  // -1: "the current device" (only before resolution)

  Device() = default;
  Device(Type t, int i = -1) : type(t), index(int16_t(i)) {}
  static Device parse(const std::string& s);  // throws RuntimeError on a bad string
  bool is_cpu() const { return type == CPU; }
  bool is_cuda() const { return type == CUDA; }
  bool has_index() const { return index >= 0; }
  std::string str() const;   // "cuda:0", "cpu", "cuda"
  std::string repr() const;  // "device(type='cuda', index=0)"
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

}  // namespace gl

template <> struct std::hash<gl::Device> {
  size_t operator()(const gl::Device& d) const { return size_t(d.type) * 1024 + size_t(d.index + 1); }
};
