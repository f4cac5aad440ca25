// torch.cuda's memory functions (cuda_memory.cpp) and the nvidia-smi-style
// table, which the REPL also shows for `!nvidia-smi` where the tool is missing.
#pragma once
#include <string>

struct lua_State;

namespace gl::lt {
// Adds memory_allocated, memory_stats, memory_summary, smi, ... to the table
// at the top of the stack (torch.cuda), and makes this state's garbage
// collector the allocator's memory-pressure hook while the state lives.
void open_cuda_memory(lua_State* L);
}  // namespace gl::lt

namespace gl::bindings {
std::string smi_text();  // after a collection in every open state
}  // namespace gl::bindings
