#include "interpreter/exercises.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <vector>

#include "interpreter/lessons.h"
#include "interpreter/terminal.h"

namespace fs = std::filesystem;

namespace gl::interp {
namespace {

std::vector<fs::path> starters() {
  std::vector<fs::path> files;
  std::string dir = exercises_directory();
  if (dir.empty()) return files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    if (p.extension() == ".lua" && p.filename().string().find(".check.lua") == std::string::npos &&
        entry.is_regular_file(ec))
      files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The first `max_lines` lines of a file.
std::vector<std::string> head(const std::string& file, int max_lines) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  std::string line;
  while (int(lines.size()) < max_lines && std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// The comment line after the "-- exercise: NAME" line (the first comment
// line of a file without one).
std::string title_of(const std::string& starter) {
  std::vector<std::string> lines = head(starter, 2);
  size_t at = !exercise_id_in(starter).empty() ? 1 : 0;
  if (lines.size() <= at || lines[at].rfind("-- ", 0) != 0) return {};
  return lines[at].substr(3);
}

}  // namespace

std::string exercises_directory() {
  std::string lessons = lessons_directory();
  if (lessons.empty()) return {};
  std::error_code ec;
  fs::path dir = fs::path(lessons) / "exercises";
  return fs::is_directory(dir, ec) ? dir.string() : std::string();
}

std::string exercise_id_in(const std::string& file) {
  static const std::regex id(R"(^\s*--\s*exercise:\s*([A-Za-z0-9_]+)\s*$)");
  std::smatch m;
  for (const std::string& line : head(file, 20))
    if (std::regex_match(line, m, id)) return m[1].str();
  return {};
}

bool resolve_exercise(const std::string& name0, std::string* path, std::string* error) {
  std::string name = name0;
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".lua") == 0) name.resize(name.size() - 4);
  std::vector<fs::path> matches;
  for (const fs::path& p : starters()) {
    std::string stem = p.stem().string();
    if (stem == name) {
      *path = p.string();
      return true;
    }
    if (stem.rfind(name, 0) == 0) matches.push_back(p);
  }
  if (matches.size() == 1) {
    *path = matches[0].string();
    return true;
  }
  if (matches.empty()) {
    *error = "no exercise named '" + name0 + "' (see 'gpulab lessons')";
  } else {
    *error = "exercise name '" + name0 + "' is ambiguous:";
    for (const fs::path& p : matches) error->append(" ").append(p.stem().string());
  }
  return false;
}

int gpus_needed(const std::string& checker) {
  static const std::regex needs(R"(^\s*--\s*needs:\s*([0-9]+)\s*GPUs?\b.*)");
  std::smatch m;
  for (const std::string& line : head(checker, 10))
    if (std::regex_match(line, m, needs)) return std::stoi(m[1].str());
  return 0;
}

int virtual_gpus_to_suggest(int n) { return std::max(n, 2); }

void list_exercises() {
  std::vector<fs::path> files = starters();
  if (files.empty()) return;
  size_t width = 0;
  for (const fs::path& p : files) width = std::max(width, p.stem().string().size());
  std::printf("\nExercises (gpulab exercise NAME copies one here; gpulab check FILE grades it)\n");
  for (const fs::path& p : files) {
    std::printf("  %-*s  %s\n", int(width), p.stem().string().c_str(), title_of(p.string()).c_str());
  }
}

int copy_exercise(const std::string& name) {
  std::string starter, error;
  if (!resolve_exercise(name, &starter, &error)) {
    write_cli_error(error);
    return 1;
  }
  const std::string stem = fs::path(starter).stem().string();
  const std::string file = stem + ".lua";
  fs::path checker = fs::path(starter).parent_path() / (stem + ".check.lua");
  const int gpus = gpus_needed(checker.string());
  std::string check_cmd = "gpulab check " + file;
  std::string gpu_hint = gpus > 0 ? "  (no GPU here? gpulab check " + file + " --virtual-gpus " +
                                        std::to_string(virtual_gpus_to_suggest(gpus)) + ")"
                                  : "";
  std::error_code ec;
  if (fs::exists(file, ec)) {
    write_cli_error(file + " already exists here: not overwriting it. Check it with '" + check_cmd +
                    "', or move it away to start again.");
    return 1;
  }
  fs::copy_file(starter, file, ec);
  if (ec) {
    write_cli_error("cannot write " + file + ": " + ec.message());
    return 1;
  }
  std::printf("Wrote %s: %s\n", file.c_str(), title_of(starter).c_str());
  std::printf("Fill in the TODOs, then check it with: %s\n", check_cmd.c_str());
  if (!gpu_hint.empty()) std::printf("%s\n", gpu_hint.c_str() + 2);
  return 0;
}

}  // namespace gl::interp
