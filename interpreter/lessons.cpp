#include "interpreter/lessons.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/exercises.h"
#include "interpreter/lesson_cells.h"
#include "interpreter/repl.h"
#include "interpreter/terminal.h"

#ifndef GPULAB_SOURCE_DIR
#define GPULAB_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace gl::interp {
namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Lesson files of the directory (top level only), sorted by file name.
std::vector<fs::path> lesson_files(const std::string& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    std::string name = p.filename().string();
    if (p.extension() == ".lua" && name.find(".check.lua") == std::string::npos && entry.is_regular_file(ec)) {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return files;
}

// NAME: a path to a file, a file name with or without .lua, or a unique prefix.
bool resolve_lesson(const std::string& name, fs::path* out, std::string* error) {
  std::error_code ec;
  if (name.find('/') != std::string::npos) {
    if (fs::is_regular_file(name, ec)) {
      *out = name;
      return true;
    }
    *error = "cannot open lesson file '" + name + "'";
    return false;
  }
  std::string dir = lessons_directory();
  if (dir.empty()) {
    *error = "no lessons directory found (set GPULAB_DATA or GPULAB_LESSONS)";
    return false;
  }
  std::vector<fs::path> matches;
  for (const fs::path& p : lesson_files(dir)) {
    std::string stem = p.stem().string();
    if (name == stem || name == p.filename().string()) {
      *out = p;
      return true;
    }
    if (stem.rfind(name, 0) == 0) matches.push_back(p);
  }
  if (matches.size() == 1) {
    *out = matches[0];
    return true;
  }
  if (matches.empty()) {
    error->assign("no lesson named '").append(name).append("' in ").append(dir);
    // an exercise's name: say which command takes it
    const std::string exercises = exercises_directory();
    std::error_code ec;
    if (!exercises.empty() && fs::is_regular_file(fs::path(exercises) / (fs::path(name).stem().string() + ".lua"), ec))
      error->append(": '")
          .append(name)
          .append("' is an exercise; 'gpulab exercise ")
          .append(name)
          .append("' copies it here to work on, 'gpulab check FILE' checks it");
    else error->append(" (see 'gpulab lessons')");
  } else {
    error->assign("lesson name '").append(name).append("' is ambiguous:");
    for (const fs::path& p : matches) error->append(" ").append(p.stem().string());
  }
  return false;
}

bool read_file(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

}  // namespace

std::vector<std::string> lesson_paths() {
  std::vector<std::string> paths;
  std::string dir = lessons_directory();
  if (dir.empty()) return paths;
  for (const fs::path& p : lesson_files(dir)) paths.push_back(p.string());
  return paths;
}

bool find_lesson(const std::string& name, std::string* path, std::string* error) {
  fs::path p;
  if (!resolve_lesson(name, &p, error)) return false;
  *path = p.string();
  return true;
}

std::string lessons_directory() {
  if (const char* env = std::getenv("GPULAB_LESSONS"); env != nullptr && env[0] != '\0') {
    return is_dir(env) ? std::string(env) : std::string();
  }
  if (const char* env = std::getenv("GPULAB_DATA"); env != nullptr && env[0] != '\0') {
    fs::path lessons = fs::path(env) / "lessons";
    return is_dir(lessons) ? lessons.string() : std::string();
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // Installed: PREFIX/bin/gpulab finds PREFIX/share/gpulab/lessons, wherever
    // PREFIX is (/usr, /usr/local, an unpacked .deb). Then a build directory.
    fs::path dir = exe.parent_path();
    for (const fs::path& candidate :
         {dir.parent_path() / "share" / "gpulab" / "lessons", dir.parent_path() / "lessons", dir / "lessons"}) {
      if (is_dir(candidate)) return candidate.lexically_normal().string();
    }
  }
  fs::path source = fs::path(GPULAB_SOURCE_DIR) / "lessons";
  return is_dir(source) ? source.string() : std::string();
}

std::string lesson_title(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  if (!in || !std::getline(in, first)) return {};
  if (!first.empty() && first.back() == '\r') first.pop_back();
  if (first.rfind("-- ", 0) != 0 || is_cell_marker(first)) return {};
  return first.substr(3);
}

// The lessons grouped by tutorial (defined below list_lessons, which reads first).
static void print_lesson_list(const std::vector<fs::path>& files);

std::string no_gpu_advice() {
  gl::bindings::DeviceSupply s = gl::bindings::device_supply();
  if (s.initialised || s.virtual_devices > 0 || s.physical > 0) return {};
  return "No GPU on this machine: the course runs on virtual GPUs emulated in host memory.\n"
         "`gpulab lesson NAME` turns on as many as the lesson needs; for your own code, start\n"
         "gpulab with --virtual-gpus N, or call torch.cuda.use_virtual(N) in the REPL before\n"
         "the first CUDA use.";
}

int list_lessons() {
  std::string dir = lessons_directory();
  if (dir.empty()) {
    write_cli_error("no lessons directory found (set GPULAB_DATA or GPULAB_LESSONS)");
    return 1;
  }
  std::vector<fs::path> files = lesson_files(dir);
  if (files.empty()) {
    std::printf("No lessons in %s\n", dir.c_str());
    return 0;
  }
  if (std::string advice = no_gpu_advice(); !advice.empty()) std::printf("%s\n\n", advice.c_str());
  print_lesson_list(files);
  std::printf("\nRun one with: gpulab lesson NAME [--step] [-i] [--quiet]\n");
  list_exercises();
  return 0;
}

static void print_lesson_list(const std::vector<fs::path>& files) {
  size_t width = 0;
  for (const fs::path& p : files) width = std::max(width, p.stem().string().size());
  // A title "Tutorial § N: Section" is listed as "§ N: Section" under a heading
  // "Tutorial", printed when the tutorial changes; other titles are listed as they are.
  std::string group;
  for (const fs::path& p : files) {
    std::string title = lesson_title(p.string());
    std::string name = p.stem().string();
    std::string text;
    // Lessons written for several GPUs say so in the list, before one is run.
    if (int gpus = read_file(p, &text) ? parse_header(text).gpus : 0; gpus > 1)
      title += " (" + std::to_string(gpus) + " GPUs)";
    size_t mark = title.find(" § ");
    std::string this_group = mark == std::string::npos ? std::string() : title.substr(0, mark);
    if (this_group != group) {
      if (&p != &files.front()) std::printf("\n");
      if (!this_group.empty()) std::printf("%s\n", this_group.c_str());
      group = this_group;
    }
    if (!this_group.empty()) title.erase(0, mark + 1);
    if (title.empty()) {
      std::printf("  %s\n", name.c_str());
    } else {
      std::printf("  %-*s  %s\n", static_cast<int>(width), name.c_str(), title.c_str());
    }
  }
}

int run_lesson(const std::string& name, const LessonOptions& options, const SessionOptions& session, char** argv) {
  fs::path path;
  std::string error;
  std::string text;
  if (!resolve_lesson(name, &path, &error)) {
    write_cli_error(error);
    return 1;
  }
  if (!read_file(path, &text)) {
    write_cli_error("cannot read " + path.string());
    return 1;
  }
  lua_State* L = open_session(session);
  if (L == nullptr) return 1;
  std::string path_text = path.string();
  char* lesson_argv[] = {argv[0], path_text.data()};
  set_arg_table(L, 2, lesson_argv, 1);
  int status = run_lesson_in(L, path_text, text, options);
  if (options.interactive) {
    std::fputs(paint(stdout, kDim, "\nThe lesson's variables are yours to try: Ctrl-D leaves.\n").c_str(), stdout);
    std::fflush(stdout);
    run_repl(L);
  }
  lua_close(L);
  return status;
}

}  // namespace gl::interp
