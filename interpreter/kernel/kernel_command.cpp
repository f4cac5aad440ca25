#include "interpreter/kernel/kernel.h"

#include <sys/stat.h>

#include "interpreter/command_line.h"
#include "interpreter/terminal.h"

namespace gl::interp {

std::string check_connection_file(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "cannot read the connection file '" + path + "'";
  if (!S_ISREG(st.st_mode)) return "the connection file '" + path + "' is not a regular file";
  // Its key signs every message: a key others can read lets them run code as
  // us; one others can write lets them choose it. Jupyter writes these 0600.
  if (st.st_mode & (S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH))
    return "the connection file '" + path + "' can be read or written by other users (mode " +
           std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7) +
           std::to_string(st.st_mode & 7) + "); its key would let them run code as you. " +
           "Make it private: chmod 600 '" + path + "'";
  return "";
}

int run_kernel_command(const CommandLine& cl, const SessionOptions& session) {
  if (cl.kernel_install) return install_kernelspec(cl);
  std::string problem = check_connection_file(cl.connection_file);
  if (!problem.empty()) {
    write_cli_error(problem);
    return 1;
  }
  return start_kernel(cl.connection_file, session);
}

}  // namespace gl::interp
