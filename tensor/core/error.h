// Typed errors carrying PyTorch's wording. Nothing in gpulab aborts: C++ code
// throws one of these and the bindings' trampoline turns it into a Lua error.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace gl {

struct Error : std::runtime_error {
  explicit Error(const std::string& msg, std::string hint = "") : std::runtime_error(msg), hint_(std::move(hint)) {}
  virtual const char* kind() const = 0;  // Python exception class name
  const std::string& hint() const { return hint_; }

 private:
  std::string hint_;
};

#define GL_ERROR_TYPE(Name) \
  struct Name : Error { \
    using Error::Error; \
    const char* kind() const override { return #Name; } \
  };
GL_ERROR_TYPE(RuntimeError)
GL_ERROR_TYPE(TypeError)
GL_ERROR_TYPE(IndexError)
GL_ERROR_TYPE(ValueError)
GL_ERROR_TYPE(NotImplementedError)
GL_ERROR_TYPE(OutOfMemoryError)
GL_ERROR_TYPE(AttributeError)
GL_ERROR_TYPE(KeyError)
#undef GL_ERROR_TYPE
// torch.linalg's errors for singular matrices: Python prints them by the class's
// full name, torch._C._LinAlgError.
struct LinAlgError : Error {
  using Error::Error;
  const char* kind() const override { return "torch._C._LinAlgError"; }
};

template <class... A> std::string cat(const A&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

// GL_CHECK(cond, parts...) throws RuntimeError with the streamed parts as its
// message; GL_CHECK_T(E, cond, parts...) throws E. A macro, so the parts (often
// shape strings) are only built when the check fails: these sit on every op's path.
#define GL_CHECK_T(E, cond, ...) \
  do { \
    if (!(cond)) [[unlikely]] \
      throw E(::gl::cat(__VA_ARGS__)); \
  } while (0)
#define GL_CHECK(cond, ...) GL_CHECK_T(::gl::RuntimeError, cond, __VA_ARGS__)

}  // namespace gl
