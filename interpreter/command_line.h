// The gpulab command line: options, subcommands and the --help text.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gl::interp {

enum class Command { Run, Lessons, Lesson, Exercise, Check, Doctor, Kernel, Help, Version };

struct CommandLine {
  Command command = Command::Run;
  std::vector<std::string> statements;        // -e STMT, in order
  bool interactive = false;                   // -i (also after 'lesson NAME')
  std::optional<std::string> virtual_gpus;    // --virtual-gpus N[:SIZE]
  std::optional<std::string> seed;            // --seed N
  int script = 0;                             // index of the script in argv; 0: none
  std::string target;                         // lesson NAME / exercise NAME / check FILE
  bool quiet = false;                         // lesson --quiet
  bool step = false;                          // lesson --step
  bool json = false;                          // doctor --json
  std::optional<std::string> ipynb;           // lesson NAME --ipynb OUT, lessons --ipynb DIR
  std::string connection_file;                // kernel -f FILE
  bool kernel_install = false;                // kernel install
  bool install_user = false;                  // kernel install --user
  std::optional<std::string> install_prefix;  // kernel install --prefix P
  std::string error;                          // non-empty: a usage error
};

CommandLine parse_command_line(int argc, char** argv);

// The --help text.
std::string usage_text();

}  // namespace gl::interp
