// A shared library opened with dlopen on first use, so that gpulab neither
// links against it nor pays for loading it at start (cuBLAS, cuDNN, NVML:
// Note [Libraries on first use]). One object per library, opened once from any
// thread; its functions are looked up into an API table by the caller.
#pragma once
#include <dlfcn.h>
#include <mutex>
#include <string>

namespace gl {

class DlLibrary {
 public:
  // soname: what dlopen is given; toolkit_dirs: also look in the CUDA
  // toolkit's default directories, for machines where it is not on the
  // loader's path.
  DlLibrary(const char* soname, bool toolkit_dirs) : soname_(soname), toolkit_dirs_(toolkit_dirs) {}

  // Opens the library once (later calls return the first answer) and, when it
  // opened, runs resolve(*this) once to fill the caller's table: the library
  // is usable when both succeed. Thread-safe.
  template <class Resolve> bool load(Resolve&& resolve) {
    std::call_once(once_, [&] {
      if (open()) ok_ = resolve(*this);
    });
    return ok_;
  }

  // Looks up one function; a missing one is recorded in error() (the first only).
  template <class F> bool sym(const char* name, F* out) {
    *out = reinterpret_cast<F>(dlsym(handle_, name));
    if (*out == nullptr && error_.empty()) error_ = std::string("symbol ") + name + " not found in " + soname_;
    return *out != nullptr;
  }

  // Looks up an optional function: nullptr when missing, nothing recorded.
  void* find(const char* name) { return dlsym(handle_, name); }

  const char* soname() const { return soname_; }
  // Why the library is not usable: dlopen's text, the first missing symbol, or
  // what resolve recorded with fail().
  const std::string& error() const { return error_; }
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
  }

 private:
  bool open();

  const char* soname_;
  bool toolkit_dirs_;
  void* handle_ = nullptr;
  bool ok_ = false;
  std::string error_;
  std::once_flag once_;
};

// One of gpulab's own modules (gpulab_kernel.so, gpulab_plot_cairo.so), which
// keep a large library set out of every start (Note [Libraries on first use]):
// looked for beside the running program, one folder up (the test programs in
// build/tests), then under the install prefix's lib/gpulab. nullptr when none
// opens, with *why saying what was tried.
void* open_module(const char* file, std::string* why);

}  // namespace gl
