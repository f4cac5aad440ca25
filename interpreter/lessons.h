// Lessons: finding the lessons/ directory, listing it, resolving a NAME, and
// running a lesson cell by cell (see lesson_cells.h for the cell format).
#pragma once
#include <string>

#include "interpreter/session.h"

namespace gl::interp {

// GPULAB_LESSONS, else $GPULAB_DATA/lessons, else <exe dir>/../share/gpulab/lessons
// (installed), else <exe dir>/../lessons, else <exe dir>/lessons, else
// GPULAB_SOURCE_DIR/lessons; the first that is a directory ("" if none is).
std::string lessons_directory();

// The title of a lesson file: its first line without the leading "-- "
// ("" when the first line is not such a comment).
std::string lesson_title(const std::string& path);

// `gpulab lessons`: prints the lessons sorted by file name, with titles;
// titles "Tutorial § N: Section" are grouped under a heading per tutorial.
int list_lessons();

struct LessonOptions {
  bool echo = false;  // print each cell's code (">>> " / "... ") before running it
  bool step = false;  // wait for Enter after each cell (when stdin is a terminal)
};

// `gpulab lesson NAME`: returns the exit status (1 when a cell raised an error).
int run_lesson(const std::string& name, const LessonOptions& options,
               const SessionOptions& session, char** argv);

// `gpulab check FILE`: returns 0 on PASS, 1 otherwise.
int run_check(const std::string& file, const SessionOptions& session, char** argv);

}  // namespace gl::interp
