// Note [Threads that pay]: how many threads a parallel region gets beside
// other processes, and that fitting never raises the count above the ceiling.
#include <doctest/doctest.h>
#include <omp.h>
#include <stdexcept>
#include <string>
#include "tensor/kernels/cpu/threads.h"

using gl::cpu::threads_left;

TEST_CASE("threads_left: idle machine keeps every thread") {
  CHECK(threads_left(2, 0.0) == 2);
  CHECK(threads_left(16, 0.1) == 16);
  CHECK(threads_left(2, -0.3) == 2);  // our own time over-subtracted: noise, not a free core
}

TEST_CASE("threads_left: a busy process takes a whole core") {
  CHECK(threads_left(2, 1.0) == 1);  // one spinning neighbour on 2 cores: serial
  CHECK(threads_left(2, 0.3) == 1);  // a third of a core is already a shared core
  CHECK(threads_left(16, 3.5) == 12);
}

TEST_CASE("threads_left: never fewer than the calling thread") {
  CHECK(threads_left(2, 7.0) == 1);
  CHECK(threads_left(1, 0.0) == 1);
}

TEST_CASE("fit_threads stays within the thread count it started with") {
  const int before = omp_get_max_threads();
  gl::cpu::fit_threads();
  CHECK(omp_get_max_threads() >= 1);
  CHECK(omp_get_max_threads() <= before);
}

TEST_CASE("set_num_threads is the new ceiling, and fit_threads stays under it") {
  const int before = gl::cpu::num_threads();
  gl::cpu::set_num_threads(1);
  CHECK(gl::cpu::num_threads() == 1);
  gl::cpu::fit_threads();  // decides afresh, under the new ceiling
  CHECK(omp_get_max_threads() == 1);
  gl::cpu::set_num_threads(before);
  CHECK(gl::cpu::num_threads() == before);
  gl::cpu::fit_threads();
  CHECK(omp_get_max_threads() <= before);
}

TEST_CASE("set_num_threads past the processors: reported back, run on the processors") {
  const int before = gl::cpu::num_threads();
  gl::cpu::set_num_threads(100000);
  CHECK(gl::cpu::num_threads() == 100000);
  gl::cpu::fit_threads();
  CHECK(omp_get_max_threads() <= omp_get_num_procs());
  gl::cpu::set_num_threads(before);
}

// Note [Exceptions in parallel regions]: a throw in one iteration of a
// worksharing loop reaches the caller as an exception, with every thread
// through the loop's barrier (no deadlock, no std::terminate).
TEST_CASE("RegionErrors: the first exception of a parallel loop reaches the caller") {
  gl::cpu::RegionErrors errors;
  int done = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp for schedule(static) reduction(+ : done)
    for (int i = 0; i < 64; ++i)
      if (errors.run([&] {
            if (i == 17) throw std::runtime_error("iteration 17");
          }))
        ++done;
  }
  CHECK(done == 63);
  std::string what;
  try {
    errors.rethrow();
  } catch (const std::runtime_error& e) { what = e.what(); }
  CHECK(what == "iteration 17");
  gl::cpu::RegionErrors none;
  CHECK_NOTHROW(none.rethrow());
}
