// What torch.cuda prints about memory: memory_summary() and
// list_gpu_processes() in PyTorch's layout (torch/cuda/memory.py), and the
// nvidia-smi-style table of smi() and of `!nvidia-smi` where the real tool is
// missing. Each first runs the memory-pressure hooks, so garbage the
// interpreter still holds is not counted (Python frees at `del`).
#pragma once
#include <string>
#include "tensor/runtime/memory_stats.h"

namespace gl {

MemoryStats device_memory_stats(int device);  // after a collection
void reset_accumulated_memory(int device);

std::string memory_summary_text(const MemoryStats& s, int device, bool abbreviated);
std::string memory_summary(int device, bool abbreviated);
std::string gpu_processes(int device);
std::string smi_table();

}  // namespace gl
