// IPython's _format_time, as %time and %timeit print durations.
#include <doctest/doctest.h>

#include "interpreter/timing.h"

using gl::interp::format_time;

TEST_CASE("format_time writes durations as IPython's _format_time") {
  CHECK(format_time(0.0015) == "1.5 ms");
  CHECK(format_time(3.81e-6) == "3.81 \u00b5s");
  CHECK(format_time(12e-9) == "12 ns");
  CHECK(format_time(0.0) == "0 ns");
  CHECK(format_time(1.23456) == "1.23 s");
  CHECK(format_time(59.9999) == "60 s");
  CHECK(format_time(999.5e-6) == "1e+03 \u00b5s");  // IPython's own quirk at the unit boundary
  CHECK(format_time(63.0) == "1min 3s");
  CHECK(format_time(3725.0) == "1h 2min 5s");
  CHECK(format_time(90061.0) == "1d 1h 1min 1s");
  CHECK(format_time(2.5e-10) == "0.25 ns");
}
