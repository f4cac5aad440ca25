// The CPU generator's whole state as text (mt19937's stream form and the cached
// normal), and its restore: help() runs an example that draws random numbers
// between the two, so the learner's stream does not move. (registry.cpp)
#pragma once
#include <string>

namespace gl {

std::string cpu_generator_state();
void set_cpu_generator_state(const std::string& state);

}  // namespace gl
