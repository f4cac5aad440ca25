// Exercises: lessons/exercises/NAME.lua (the starter a learner copies),
// NAME.check.lua (its checker) and solutions/NAME.lua. A starter's first line
// names it ("-- exercise: NAME"), so a renamed copy still finds its checker;
// its second line is its title. A checker may declare "-- needs: N GPUs".
#pragma once
#include <string>

namespace gl::interp {

// The directory of the exercises ("" when there is none).
std::string exercises_directory();

// The exercise named in FILE ("-- exercise: NAME" in its first lines), "" if none.
std::string exercise_id_in(const std::string& file);

// NAME (exact, with or without .lua, or a unique prefix) -> the starter's path.
bool resolve_exercise(const std::string& name, std::string* path, std::string* error);

// How many GPUs a checker needs ("-- needs: N GPU(s)"; 0 when it does not say).
int gpus_needed(const std::string& checker);

// The --virtual-gpus value to suggest for an exercise that needs `n` GPUs.
int virtual_gpus_to_suggest(int n);

// The "Exercises" section of `gpulab lessons`.
void list_exercises();

// `gpulab exercise NAME`: copies the starter into the working directory.
int copy_exercise(const std::string& name);

}  // namespace gl::interp
