#include "tensor/io/checkpoint.h"
#include <cstring>
#include <unordered_map>
#include "tensor/io/json.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/registry.h"

namespace gl::io {

Device parse_location(const std::string& s, const std::string& what) {
  if (s == "cpu" || s == "cpu:0") return Device(Device::CPU);
  if (s == "cuda") return Device(Device::CUDA);
  if (s.size() > 5 && s.size() <= 10 && s.compare(0, 5, "cuda:") == 0) {
    bool digits = s[5] != '0' || s.size() == 6;
    int64_t v = 0;
    for (size_t i = 5; i < s.size() && digits; ++i) {
      digits = s[i] >= '0' && s[i] <= '9';
      v = v * 10 + (s[i] - '0');
    }
    if (digits && v <= 32767) return Device(Device::CUDA, int(v));
  }
  throw RuntimeError(cat(what, ": invalid device string ", quoted_name(s), " (expected 'cpu', 'cuda' or 'cuda:N')"));
}

Device restore_location(const std::string& location, const std::string& what) {
  const Device d = parse_location(location, what);
  if (d.is_cpu()) return d;
  if (!cuda_available())
    throw RuntimeError(
        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running "
        "on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to "
        "the CPU.");
  const int index = d.has_index() ? d.index : current_cuda_device();
  const int count = cuda_device_count();
  if (index >= count)
    throw RuntimeError(cat("Attempting to deserialize object on CUDA device ", index,
                           " but torch.cuda.device_count() is ", count,
                           ". Please use torch.load with map_location to map your storages to an existing device."));
  return Device(Device::CUDA, index);
}

bool save_checkpoint(const std::string& path, const NamedTensors& tensors, Metadata metadata,
                     const std::function<bool()>& abandon) {
  for (const auto& [name, t] : tensors) {
    GL_CHECK(t.defined(), "torch.save: tensor ", quoted_name(name), " is undefined");
    metadata.emplace_back(kDeviceKeyPrefix + name, t.device().str());
  }
  return save_safetensors(path, tensors, metadata, abandon);
}

Checkpoint load_checkpoint(const std::string& path, const MapLocation& map) {
  SafetensorsFile f(path);
  const Header& h = f.header();
  Checkpoint c;
  std::unordered_map<std::string, std::string> recorded;
  const size_t plen = std::strlen(kDeviceKeyPrefix);
  for (const auto& [k, v] : h.metadata) {
    if (k.compare(0, plen, kDeviceKeyPrefix) == 0) recorded[k.substr(plen)] = v;
    else c.metadata.emplace_back(k, v);
  }
  std::vector<std::pair<std::string, std::string>> remap;
  for (const auto& [from, to] : map.remap) remap.emplace_back(parse_location(from, "map_location").str(), to);
  // Every destination is checked before any data is read.
  std::vector<Device> dest;
  dest.reserve(h.tensors.size());
  for (const TensorInfo& t : h.tensors) {
    std::string loc;
    if (map.all) {
      loc = *map.all;
    } else {
      auto it = recorded.find(t.name);
      loc = it == recorded.end()
                ? "cpu"
                : parse_location(it->second, "the device recorded for tensor " + quoted_name(t.name)).str();
      for (const auto& [from, to] : remap) {
        if (from == loc) {
          loc = to;
          break;
        }
      }
    }
    dest.push_back(restore_location(loc, "map_location"));
  }
  c.tensors.reserve(h.tensors.size());
  for (size_t i = 0; i < h.tensors.size(); ++i) {
    Tensor x = f.read(i);
    if (!dest[i].is_cpu()) x = to(x, dest[i], std::nullopt);
    c.tensors.emplace_back(h.tensors[i].name, std::move(x));
  }
  return c;
}

}  // namespace gl::io
