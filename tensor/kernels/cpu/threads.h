// How many threads a parallel region gets (Note [Threads that pay]).
#pragma once

namespace gl::cpu {

// Called where a parallel region is about to be entered (above the grain
// sizes): at most every 200 ms it looks at what the rest of the machine used
// in the last interval (the first time: what is runnable now) and sets the calling thread's OpenMP thread count (which
// OpenBLAS follows too, Note [One thread pool]) to the cores left free.
void fit_threads();

// torch.get_num_threads / set_num_threads: the ceiling fit_threads stays
// under (OMP_NUM_THREADS, or the cores, until set). set_num_threads(n), n >= 1,
// also starts the fitting afresh.
int num_threads();
void set_num_threads(int n);

// The threads a region gets when other processes used `others` cores (non-niced
// CPU time per second) and `ceiling` threads are allowed: any share of a core
// above a fifth counts as the whole core, down to 1.
int threads_left(int ceiling, double others);

}  // namespace gl::cpu
