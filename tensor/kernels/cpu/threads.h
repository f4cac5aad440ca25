// How many threads a parallel region gets (Note [Threads that pay]).
#pragma once

namespace gl::cpu {

// Called where a parallel region is about to be entered (above the grain
// sizes): at most every 200 ms it looks at what the rest of the machine used
// in the last interval and sets the calling thread's OpenMP thread count (which
// OpenBLAS follows too, Note [One thread pool]) to the cores left free.
void fit_threads();

// The threads a region gets when other processes used `others` cores (non-niced
// CPU time per second) and `ceiling` threads are allowed: any share of a core
// above a fifth counts as the whole core, down to 1.
int threads_left(int ceiling, double others);

}  // namespace gl::cpu
