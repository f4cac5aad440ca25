// Lessons: finding the lessons/ directory, listing it, resolving a NAME, and
// running a lesson cell by cell (see lesson_cells.h for the cell format).
#pragma once
#include <string>
#include <vector>

#include "interpreter/session.h"

struct lua_State;

namespace gl::interp {

// GPULAB_LESSONS, else $GPULAB_DATA/lessons, else <exe dir>/../share/gpulab/lessons
// (installed), else <exe dir>/../lessons, else <exe dir>/lessons, else
// GPULAB_SOURCE_DIR/lessons; the first that is a directory ("" if none is).
std::string lessons_directory();

// The lesson files of lessons_directory(), sorted by file name.
std::vector<std::string> lesson_paths();

// A lesson NAME (a path, a file name with or without .lua, or a unique prefix)
// to its file; false with *error when there is none.
bool find_lesson(const std::string& name, std::string* path, std::string* error);

// The title of a lesson file: its first line without the leading "-- "
// ("" when the first line is not such a comment).
std::string lesson_title(const std::string& path);

// `gpulab lessons`: prints the lessons sorted by file name, with titles;
// titles "Tutorial § N: Section" are grouped under a heading per tutorial.
int list_lessons();

struct LessonOptions {
  bool quiet = false;        // only the output (no title, prose or code)
  bool step = false;         // wait for Enter after each cell (when stdin is a terminal)
  bool interactive = false;  // -i: the REPL afterwards, with the lesson's variables
};

// `gpulab lesson NAME`: returns the exit status (1 when a cell raised an error).
int run_lesson(const std::string& name, const LessonOptions& options, const SessionOptions& session, char** argv);

// Runs the lesson file `path` (its contents: `text`) in the open state `L`,
// as a notebook (lesson_render.h): provides the devices its header asks for,
// runs the lessons it continues, names the cell of an error. Returns the exit
// status. Used by `gpulab lesson` and for `gpulab FILE.lua` when FILE has cells.
int run_lesson_in(lua_State* L, const std::string& path, const std::string& text, const LessonOptions& options);

// The lines `gpulab lessons` and a lesson print first when this machine has
// no GPU and none were configured: how to run the course ("" otherwise).
std::string no_gpu_advice();

// `gpulab check FILE`: returns 0 on PASS, 1 otherwise.
int run_check(const std::string& file, const SessionOptions& session, char** argv);

}  // namespace gl::interp
