// A build without xeus: `gpulab kernel -f` says what it needs.
#include "interpreter/kernel/kernel.h"
#include "interpreter/terminal.h"

namespace gl::interp {

int start_kernel(const std::string&, const SessionOptions&) {
  write_cli_error(
      "this gpulab was built without the Jupyter kernel: install xeus-dev, cppzmq-dev, "
      "libzmq3-dev and nlohmann-json3-dev (scripts/setup.sh does) and build it again");
  return 1;
}

}  // namespace gl::interp
