#include "interpreter/command_line.h"

#include <cstring>

namespace gl::interp {
namespace {

bool is_integer(const std::string& s) {
  size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i >= s.size() || s.size() > 20) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// Reads the value of an option given as "--name VALUE" or "--name=VALUE".
// Returns false when `arg` is not that option.
bool option_value(const char* name, int argc, char** argv, int* i, std::string* value, std::string* error) {
  const char* arg = argv[*i];
  size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0) return false;
  if (arg[n] == '=') {
    *value = arg + n + 1;
    return true;
  }
  if (arg[n] != '\0') return false;
  if (*i + 1 >= argc) {
    *error = std::string("option '") + name + "' needs an argument";
    return true;
  }
  *value = argv[++*i];
  return true;
}

// Options that every command takes. Returns true when argv[*i] was one.
bool common_option(int argc, char** argv, int* i, CommandLine* cl) {
  std::string value;
  if (option_value("--virtual-gpus", argc, argv, i, &value, &cl->error)) {
    cl->virtual_gpus = value;
    return true;
  }
  if (option_value("--seed", argc, argv, i, &value, &cl->error)) {
    if (cl->error.empty() && !is_integer(value)) cl->error = "--seed needs an integer, not '" + value + "'";
    cl->seed = value;
    return true;
  }
  return false;
}

void parse_subcommand(int argc, char** argv, int i, CommandLine* cl) {
  const char* name = argv[i - 1];
  if (!cl->statements.empty() || cl->interactive) {
    cl->error = std::string("-e and -i cannot be combined with '") + name + "'";
    return;
  }
  for (; i < argc && cl->error.empty(); ++i) {
    std::string arg = argv[i];
    std::string value;
    if (common_option(argc, argv, &i, cl)) continue;
    if (cl->command == Command::Lesson && arg == "--echo") {
      // The code is always shown now; --echo is kept so that old commands still run.
    } else if (cl->command == Command::Lesson && arg == "--quiet") {
      cl->quiet = true;
    } else if (cl->command == Command::Lesson && arg == "-i") {
      cl->interactive = true;
    } else if (cl->command == Command::Lesson && arg == "--step") {
      cl->step = true;
    } else if ((cl->command == Command::Lesson || cl->command == Command::Lessons) &&
               option_value("--ipynb", argc, argv, &i, &value, &cl->error)) {
      cl->ipynb = value;
    } else if (cl->command == Command::Doctor && arg == "--json") {
      cl->json = true;
    } else if (cl->command == Command::Kernel && arg == "install" && !cl->kernel_install &&
               cl->connection_file.empty()) {
      cl->kernel_install = true;
    } else if (cl->command == Command::Kernel && cl->kernel_install && arg == "--user") {
      cl->install_user = true;
    } else if (cl->command == Command::Kernel && cl->kernel_install &&
               option_value("--prefix", argc, argv, &i, &value, &cl->error)) {
      cl->install_prefix = value;
    } else if (cl->command == Command::Kernel && !cl->kernel_install &&
               (option_value("-f", argc, argv, &i, &value, &cl->error) ||
                option_value("--f", argc, argv, &i, &value, &cl->error))) {
      cl->connection_file = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      cl->error = "unrecognized option '" + arg + "' for '" + name + "'";
    } else if (cl->command != Command::Lessons && cl->command != Command::Doctor && cl->command != Command::Kernel &&
               cl->target.empty()) {
      cl->target = arg;
    } else {
      cl->error = "unexpected argument '" + arg + "' for '" + name + "'";
    }
  }
  if (cl->error.empty() && cl->command == Command::Lesson && cl->target.empty())
    cl->error = "'lesson' needs a lesson NAME (see 'gpulab lessons')";
  if (cl->error.empty() && cl->command == Command::Check && cl->target.empty())
    cl->error = "'check' needs the FILE to check (your copy of an exercise)";
  if (cl->error.empty() && cl->command == Command::Kernel && !cl->kernel_install && cl->connection_file.empty())
    cl->error = "'kernel' needs '-f CONNECTION_FILE' (Jupyter starts it so) or 'install'";
  if (cl->error.empty() && cl->install_user && cl->install_prefix)
    cl->error = "'kernel install' takes --user or --prefix P, not both";
  if (cl->error.empty() && cl->command == Command::Exercise && cl->target.empty())
    cl->error = "'exercise' needs an exercise NAME (see 'gpulab lessons')";
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine cl;
  for (int i = 1; i < argc && cl.error.empty(); ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      if (i + 1 < argc) cl.script = i + 1;
      return cl;
    }
    if (arg == "-") {  // the script is standard input
      cl.script = i;
      return cl;
    }
    if (common_option(argc, argv, &i, &cl)) continue;
    if (arg == "-h" || arg == "--help") {
      cl.command = Command::Help;
      return cl;
    }
    if (arg == "-v" || arg == "--version") {
      cl.command = Command::Version;
      return cl;
    }
    if (arg == "-i") {
      cl.interactive = true;
    } else if (arg.rfind("-e", 0) == 0) {  // "-e STMT" or "-eSTMT", as in lua
      if (arg.size() > 2) {
        cl.statements.push_back(arg.substr(2));
      } else if (i + 1 < argc) {
        cl.statements.push_back(argv[++i]);
      } else {
        cl.error = "'-e' needs an argument";
      }
    } else if (arg[0] == '-') {
      cl.error = "unrecognized option '" + arg + "'";
    } else if (arg == "lessons" || arg == "lesson" || arg == "check" || arg == "exercise" || arg == "doctor" ||
               arg == "kernel") {
      cl.command = arg == "lessons"    ? Command::Lessons
                   : arg == "lesson"   ? Command::Lesson
                   : arg == "exercise" ? Command::Exercise
                   : arg == "check"    ? Command::Check
                   : arg == "kernel"   ? Command::Kernel
                                       : Command::Doctor;
      parse_subcommand(argc, argv, i + 1, &cl);
      return cl;
    } else {
      cl.script = i;
      return cl;
    }
  }
  return cl;
}

std::string usage_text() {
  return R"(usage: gpulab [options] [script.lua [args]]
       gpulab lessons [--ipynb DIR]
       gpulab lesson NAME [--step] [-i] [--quiet] [--virtual-gpus N[:SIZE]] [--seed N]
       gpulab lesson NAME --ipynb OUT.ipynb
       gpulab exercise NAME
       gpulab check FILE [--virtual-gpus N[:SIZE]] [--seed N]
       gpulab doctor [--json] [--virtual-gpus N[:SIZE]]
       gpulab run --nproc-per-node N [--nnodes M --node-rank R --master-addr A --master-port P] [--virtual-gpus N] script.lua [args]
       gpulab kernel -f CONNECTION_FILE [--virtual-gpus N[:SIZE]] [--seed N]
       gpulab kernel install [--user | --prefix P] [--virtual-gpus N[:SIZE]] [--seed N]

With no script and no -e, gpulab starts the interactive REPL (prompts '>>> ' and
'... ', as in Python; an expression echoes its value, a trailing ';' hides it,
'!cmd' runs a shell command). The script sees its arguments in the global 'arg'
table and in '...', as with the 'lua' program. A script with '-- %%' cell lines
is a lesson: it runs as 'gpulab lesson' runs one.

Options:
  -e STMT                 run the Lua statement STMT (may be repeated)
  -i                      enter the REPL after running the script and -e
  --virtual-gpus N[:SIZE] make cuda:0 .. cuda:N-1 exist as virtual devices, each with
                          SIZE of memory (e.g. 2:16GiB); same as GPULAB_VIRTUAL_GPUS
  --seed N                run torch.manual_seed(N) before anything else (a lesson: 0
                          unless given, the seed its text quotes)
  -v, --version           print the version and exit
  -h, --help              print this help and exit
  --                      stop handling options (the next argument is the script)
  -                       run standard input as the script

Subcommands:
  lessons                 list the lessons and the exercises, with their titles
    --ipynb DIR           write every lesson as a Jupyter notebook DIR/NAME.ipynb
  lesson NAME             run a lesson (its file name, with or without .lua, or a
                          unique prefix of it) as a notebook: title, then each cell's
                          explanation, code and output; the devices it needs are
                          provided (virtual ones where there is no GPU)
    --step                wait for Enter before each next cell (in a terminal)
    -i                    then enter the REPL, with the lesson's variables
    --quiet               print only the output of the code
    --ipynb OUT           write the lesson as a Jupyter notebook (markdown cells from
                          its prose, code cells from its code) instead of running it;
                          it runs on the gpulab kernel ('gpulab kernel install')
  exercise NAME           copy exercise NAME's starter into the working directory as
                          NAME.lua (an existing file is never overwritten)
  check FILE              run your exercise FILE, then the checker of the exercise its
                          first line names ('-- exercise: NAME'); print PASS or what
                          failed, with a hint
  doctor                  check this installation: driver, devices, CUDA libraries,
                          every kernel family on each device against the CPU, and
                          the lessons; exit status 1 on any failure
    --json                the same report as one JSON object
  kernel -f FILE          run as a Jupyter kernel on the connection FILE Jupyter
                          wrote (notebooks, jupyter console); needs a build with xeus
  kernel install          write the 'gpulab' kernelspec for Jupyter: system-wide
                          (/usr/local/share/jupyter/kernels), in your user's Jupyter
                          data directory with --user, or under P/share/jupyter with
                          --prefix P; --virtual-gpus N and --seed N are passed on
                          to the kernel

Environment:
  GPULAB_VIRTUAL_GPUS     virtual devices, as --virtual-gpus
  GPULAB_EMULATE_GPUS=1   keep virtual devices in host memory even on a machine with
                          a GPU (the lesson transcripts are recorded that way)
  GPULAB_LESSONS          the lessons directory (default: the one installed with gpulab)
  GPULAB_DATA             gpulab's data directory, holding lessons/ (default:
                          ../share/gpulab beside the directory of the gpulab binary)
  NO_COLOR                no coloured output
  HOME                    the REPL keeps its history in $HOME/.gpulab_history
)";
}

}  // namespace gl::interp
