// `gpulab doctor`: what a teacher runs after installing gpulab on a machine.
#pragma once
#include "interpreter/session.h"

namespace gl::interp {

// Reports the build, the driver, the CUDA libraries found, each device, every
// kernel family on each device against the CPU, and the lessons; ends with a
// one-line verdict (or, with json, prints one JSON object). Without a GPU and
// without virtual devices asked for (virtual_given, GPULAB_VIRTUAL_GPUS) it
// checks one virtual device. Returns 0 when nothing failed, 1 otherwise.
int run_doctor(bool json, bool virtual_given, const SessionOptions& session);

}  // namespace gl::interp
