// torch.save / torch.load below Lua: safetensors files that remember where
// each tensor lived, and PyTorch's rules for putting it back there.
//
// Each tensor's device is recorded in the metadata as `gpulab.device.<name>`
// ("cpu", "cuda:1"). Loading restores that location, after `map_location`:
//   - `all`: every tensor goes there ('cpu', 'cuda:0', 'cuda');
//   - `remap`: a location -> location table ({'cuda:1' -> 'cuda:0'}); others keep theirs.
// The final location is then checked the way torch.serialization's
// validate_cuda_device does, with its messages. Files without the key (written by
// Python's safetensors, say) load onto the CPU.
#pragma once
#include <optional>
#include <string>
#include "tensor/io/safetensors.h"

namespace gl::io {

inline constexpr const char* kDeviceKeyPrefix = "gpulab.device.";

struct MapLocation {
  std::optional<std::string> all;
  std::vector<std::pair<std::string, std::string>> remap;
};

struct Checkpoint {
  NamedTensors tensors;  // in the file's order, on their restored devices
  Metadata metadata;     // everything but the gpulab.device.* keys
};

// Adds the gpulab.device.* keys to `metadata` and writes atomically; false
// when `abandon` (see save_safetensors) said to leave the old file.
bool save_checkpoint(const std::string& path, const NamedTensors& tensors, Metadata metadata,
                     const std::function<bool()>& abandon = {});
// Checks every tensor's destination before reading any data.
Checkpoint load_checkpoint(const std::string& path, const MapLocation& map);

// "cpu", "cuda", "cuda:N" -> Device; RuntimeError naming `what` otherwise.
Device parse_location(const std::string& s, const std::string& what);
// PyTorch's validate_cuda_device for a location to restore onto.
Device restore_location(const std::string& location, const std::string& what);

}  // namespace gl::io
