// `gpulab run --nproc-per-node N script.lua ...`: a torchrun-style launcher.
#pragma once

namespace gl::interp {

// argv[1] is "run". Starts the ranks, relays their output line by line with a
// "[rankN]: " prefix, and returns the exit status (see launcher.cpp).
int run_launcher(int argc, char** argv);

}  // namespace gl::interp
