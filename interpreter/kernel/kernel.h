// `gpulab kernel`: gpulab as a Jupyter kernel (on xeus), and its kernelspec.
#pragma once
#include <string>

namespace gl::interp {

struct CommandLine;
struct SessionOptions;

// `gpulab kernel -f FILE` and `gpulab kernel install [--user|--prefix P]`.
// Returns the exit status.
int run_kernel_command(const CommandLine& cl, const SessionOptions& session);

// Writes the kernelspec (kernel.json) for this binary; returns the exit status.
int install_kernelspec(const CommandLine& cl);

// Checks the connection file before its key is used: it must exist and be a
// regular file that no other user can read or write (Jupyter writes 0600). On
// a problem, returns the message; empty when it may be used.
std::string check_connection_file(const std::string& path);

// Runs the kernel on a checked connection file until Jupyter shuts it down
// (xeus_kernel.cpp; kernel_missing.cpp in a build without xeus).
int start_kernel(const std::string& connection_file, const SessionOptions& session);

}  // namespace gl::interp
