// Running a lesson: the notebook rendering cell by cell, the devices the
// lesson declares, the lessons it continues (run first, quietly), errors that
// name their cell, and --step.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/evaluate.h"
#include "interpreter/lesson_cells.h"
#include "interpreter/lesson_render.h"
#include "interpreter/lessons.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace fs = std::filesystem;

namespace gl::interp {
namespace {

// The line of the lesson where the last cell error happened (0: unknown),
// found by the message handler while the failing frames still exist.
int g_error_line = 0;
const char* g_chunkname = nullptr;

int locate_error(lua_State* L) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); ++level) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && g_chunkname != nullptr &&
        std::string(ar.source) == g_chunkname) {
      g_error_line = ar.currentline;
      break;
    }
  }
  return 1;  // the error value, unchanged
}

// Prints the values as the REPL and the notebook kernel echo them
// (push_echo_text: Python's repr, several values as a tuple).
int echo_values(lua_State* L) {
  push_echo_text(L, 1, lua_gettop(L));
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  std::fwrite(text, 1, len, stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  return 0;
}

// Runs the compiled cell (upvalue-free: the chunk is argument 1) under
// locate_error, echoes what it returns when argument 2 is true, re-raises errors.
int run_cell_chunk(lua_State* L) {
  bool echo = lua_toboolean(L, 2);
  lua_settop(L, 1);
  lua_pushcfunction(L, locate_error);
  lua_insert(L, 1);
  if (lua_pcall(L, 0, LUA_MULTRET, 1) != LUA_OK) return lua_error(L);
  lua_remove(L, 1);
  if (echo && lua_gettop(L) > 0) {
    lua_pushcfunction(L, echo_values);
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
  }
  return 0;
}

// "a4.lua:12: text" -> 12 (and *rest = "text"); 0 when the message has no such prefix.
int message_line(const std::string& message, const std::string& file, std::string* rest) {
  if (message.rfind(file + ":", 0) != 0) return 0;
  size_t colon = message.find(':', file.size() + 1);
  if (colon == std::string::npos) return 0;
  int line = std::atoi(message.substr(file.size() + 1, colon - file.size() - 1).c_str());
  if (line > 0) *rest = message.substr(colon + 1 + (colon + 1 < message.size() && message[colon + 1] == ' '));
  return line;
}

void report_cell_error(const std::string& file, size_t index, size_t count, const Cell& cell, std::string message) {
  std::string rest;
  int line = message_line(message, file, &rest);
  if (line > 0 && (g_error_line == 0 || g_error_line == line)) message = rest;
  if (line == 0) line = g_error_line;
  std::string where = "error in cell " + std::to_string(index) + "/" + std::to_string(count);
  if (!cell.title.empty()) where += " \"" + cell.title + "\"";
  where += " (" + file + (line > 0 ? ", line " + std::to_string(line) : "") + "):";
  write_error(where + "\n" + message);
}

// Runs one cell; false (after reporting) on an error.
bool run_cell(lua_State* L, const std::string& chunkname, const std::string& file, size_t index, size_t count,
              const Cell& cell) {
  g_error_line = 0;
  g_chunkname = chunkname.c_str();
  Compilation c = compile_input(L, cell.source, chunkname.c_str(), cell.first_line);
  if (!(c.status == Compiled::Ok && c.expression)) {
    if (std::string echoing = with_final_return(L, cell.source); !echoing.empty()) {
      if (c.status == Compiled::Ok) lua_pop(L, 1);
      c = compile_input(L, echoing, chunkname.c_str(), cell.first_line);
    }
  }
  if (c.status != Compiled::Ok) {
    std::string message = c.error;
    if (c.status == Compiled::Incomplete) {  // the statement form's "<eof>" error
      std::string code = std::string(cell.first_line - 1, '\n') + cell.source;
      luaL_loadbuffer(L, code.data(), code.size(), chunkname.c_str());
      message = pop_error(L);
    }
    report_cell_error(file, index, count, cell, message);
    return false;
  }
  lua_pushcfunction(L, run_cell_chunk);
  lua_insert(L, -2);
  lua_pushboolean(L, !echo_suppressed(cell.code.back()));
  int status = protected_call(L, 2, 0, ErrorStyle::MessageOnly);
  g_chunkname = nullptr;
  if (status == LUA_OK) return true;
  std::string message = pop_error(L);
  if (message == "KeyboardInterrupt" && is_terminal(stdin)) std::fputc('\n', stdout);
  report_cell_error(file, index, count, cell, message);
  return false;
}

// --step: waits for Enter when stdin is a terminal. False: the learner quit.
bool wait_for_enter(size_t next, size_t count, const std::string& title) {
  if (!is_terminal(stdin)) return true;
  std::string prompt = "\n[Enter: cell " + std::to_string(next) + "/" + std::to_string(count);
  if (!title.empty()) prompt += " \"" + title + "\"";
  prompt += ", q: quit] ";
  std::fputs(paint(stdout, kDim, prompt).c_str(), stdout);
  std::fflush(stdout);
  int c = std::getchar();
  bool quit = c == 'q' || c == 'Q';
  while (c != '\n' && c != EOF) c = std::getchar();
  return !quit && c != EOF;
}

// "1 GPU", "4 virtual GPUs".
std::string gpus_text(int n, bool is_virtual = false) {
  return std::to_string(n) + (is_virtual ? " virtual" : "") + (n == 1 ? " GPU" : " GPUs");
}

// Gives the lesson the CUDA devices its header asks for where that can be
// done without a GPU (virtual devices, said once), and says up front what
// happens when it runs with fewer.
void provide_devices(const Render& r, const LessonHeader& h, const std::string& name, FILE* notes) {
  if (h.gpus <= 0) return;
  const gl::bindings::DeviceSupply s = gl::bindings::device_supply();
  const std::string n = std::to_string(h.gpus);
  std::string error;
  if (!s.initialised && s.virtual_devices == 0 && s.physical == 0 && gl::bindings::configure_virtual(n, &error)) {
    std::fputs(render_note(r, "this machine has no GPU, so this lesson runs on " + gpus_text(h.gpus, true) + "\n" +
                                  "      emulated in host memory (as `gpulab --virtual-gpus " + n + "` gives).\n" +
                                  "      They print what GPUs print (random numbers as the CPU draws them);\n" +
                                  "      their timings are CPU timings.\n" +
                                  "      In the REPL: torch.cuda.use_virtual(" + n + ") before the first CUDA use.")
                   .c_str(),
               notes);
    return;
  }
  // Fewer GPUs than the lesson needs: it runs on slices of the first, as
  // `--virtual-gpus N` gives, so every cell runs on real hardware.
  if (!s.initialised && s.virtual_devices == 0 && s.physical > 0 && s.physical < h.gpus &&
      gl::bindings::configure_virtual(n, &error)) {
    std::fputs(render_note(r, "this lesson is written for " + gpus_text(h.gpus) + " and this machine has " +
                                  gpus_text(s.physical) + ", so it runs on " + gpus_text(h.gpus, true) + ":\n" +
                                  "      slices of cuda:0 (as `gpulab --virtual-gpus " + n + "` gives). They run " +
                                  "on the GPU;\n      copies between them are copies within one GPU's memory.")
                   .c_str(),
               notes);
    return;
  }
  if (s.count >= h.gpus) return;
  // Configured virtual devices, or devices already in use on a machine without GPUs, are virtual.
  const bool is_virtual = s.virtual_devices > 0 || (s.initialised && s.physical == 0);
  const std::string have = s.count == 0 ? "no CUDA device" : gpus_text(s.count, is_virtual);
  std::fputs(render_note(r, "this lesson is written for " + gpus_text(h.gpus) + " and runs here with " + have +
                                ":\n      the cells that need more say what " + n + " would show. To see it all:\n" +
                                "      gpulab lesson " + name + " --virtual-gpus " + n)
                 .c_str(),
             notes);
}

bool read_text(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

// Runs lesson `path` and, first, the lessons it continues, with the output
// hidden; `done` holds the files already run.
bool run_quietly(lua_State* L, const fs::path& path, std::vector<fs::path>* done) {
  for (const fs::path& p : *done)
    if (p == path) return true;
  done->push_back(path);
  std::string text;
  if (!read_text(path, &text)) {
    write_cli_error("this lesson continues '" + path.stem().string() + "', which is not in " +
                    path.parent_path().string());
    return false;
  }
  for (const std::string& name : parse_header(text).continues)
    if (!run_quietly(L, path.parent_path() / (name + ".lua"), done)) return false;
  std::fflush(stdout);
  int saved = dup(1);
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) dup2(devnull, 1);
  const std::vector<Cell> cells = split_cells(text);
  const std::string file = path.filename().string();
  bool ok = true;
  for (size_t i = 0; i < cells.size() && ok; ++i)
    ok = cells[i].code.empty() || run_cell(L, "=" + file, file, i + 1, cells.size(), cells[i]);
  std::fflush(stdout);
  if (saved >= 0) {
    dup2(saved, 1);
    close(saved);
  }
  if (devnull >= 0) close(devnull);
  return ok;
}

bool run_prerequisites(lua_State* L, const Render& r, const fs::path& path, const LessonHeader& h, FILE* notes) {
  if (h.continues.empty()) return true;
  std::vector<fs::path> done{path};
  std::string names;
  for (const std::string& name : h.continues) {
    if (!run_quietly(L, path.parent_path() / (name + ".lua"), &done)) return false;
    names += (names.empty() ? "" : ", ") + name;
  }
  std::fputs(render_note(r, "this lesson continues " + names + ": their code ran first (quietly),\n" +
                                "      so what they defined is here.")
                 .c_str(),
             notes);
  return true;
}

}  // namespace

int run_lesson_in(lua_State* L, const std::string& path_text, const std::string& text, const LessonOptions& options) {
  const fs::path path(path_text);
  const Render r{!options.quiet && color_enabled(stdout)};
  const LessonHeader header = parse_header(text);
  const std::vector<Cell> cells = split_cells(text);
  const std::string file = path.filename().string();
  const std::string chunkname = "=" + file;  // errors read "a4_tensors_on_gpu.lua:12: ..."
  if (!options.quiet) std::fputs(render_title(r, header.title.empty() ? file : header.title).c_str(), stdout);
  FILE* notes = options.quiet ? stderr : stdout;  // --quiet: stdout holds the code's output alone
  provide_devices(r, header, path.stem().string(), notes);
  if (!run_prerequisites(L, r, path, header, notes)) return 1;
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell& cell = cells[i];
    if (!options.quiet) {
      std::string out = render_heading(r, i + 1, cells.size(), cell.title) + "\n";
      out += render_prose(r, cell.prose) + render_code(r, cell.shown);
      if (cell.code.empty() && !out.empty()) out.pop_back();  // a text cell: no blank line before the next
      std::fputs(out.c_str(), stdout);
      std::fflush(stdout);
    }
    if (!cell.code.empty() && !run_cell(L, chunkname, file, i + 1, cells.size(), cell)) return 1;
    if (options.step && i + 1 < cells.size() && !wait_for_enter(i + 2, cells.size(), cells[i + 1].title)) break;
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace gl::interp
