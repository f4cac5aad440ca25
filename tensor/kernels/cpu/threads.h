// How many threads a parallel region gets (Note [Threads that pay]).
#pragma once
#include <exception>
#include <mutex>

namespace gl::cpu {

// Note [Exceptions in parallel regions]
// An exception that leaves an OpenMP region ends the process (std::terminate):
// a learner's empty kernel or a failed allocation would take the whole REPL
// with it. Work that can throw (an allocation, a library's error) runs inside
// the region through errors.run(...), which keeps the first exception; after
// the region, errors.rethrow() hands it to the caller as an ordinary error.
// Inside a worksharing loop, run each iteration through it, never the whole
// loop: a thread that left the loop early would miss its closing barrier and
// the others would wait there for ever.
class RegionErrors {
 public:
  // Whether f returned normally.
  template <class F> bool run(F&& f) noexcept {
    try {
      f();
      return true;
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!first_) first_ = std::current_exception();
      return false;
    }
  }
  void rethrow() {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex m_;
  std::exception_ptr first_;
};

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
