// Lessons as Jupyter notebooks (nbformat 4): a markdown cell per cell's title
// and prose, a code cell per cell's code, for the gpulab kernel.
#pragma once
#include <string>
#include <vector>

namespace gl::interp {

// The notebook of one lesson file's text (`name`: its file name without .lua),
// as JSON. `continued`: the code cells of the lessons it continues, run first.
std::string lesson_notebook(const std::string& text, const std::vector<std::string>& continued);

// `gpulab lesson NAME --ipynb OUT` and `gpulab lessons --ipynb DIR`: exit status.
int export_lesson_notebook(const std::string& name, const std::string& out);
int export_course_notebooks(const std::string& dir);

}  // namespace gl::interp
