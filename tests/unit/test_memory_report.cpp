// memory_summary's table: PyTorch's _format_size/_format_count unit rules
// (the row's "all" value picks the unit for its pool rows) and the layout.
#include <doctest/doctest.h>
#include <string>
#include "tensor/runtime/memory_report.h"

using namespace gl;

namespace {
std::string line_of(const std::string& text, const std::string& start) {
  size_t at = text.find("\n" + start);
  REQUIRE(at != std::string::npos);
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}
}  // namespace

TEST_CASE("memory_summary: units follow the row's total, counts get K and M") {
  MemoryStats s;
  s.allocated_bytes[kAllPools] = {int64_t(3) << 30, int64_t(3) << 30, int64_t(800) << 20, 512};
  s.allocated_bytes[kLargePool] = {(int64_t(3) << 30) - 102400, int64_t(3) << 30, int64_t(800) << 20, 0};
  s.allocated_bytes[kSmallPool] = {102400, 102400, 102400, 512};
  s.allocation[kAllPools] = {1500000, 2000000, 999999999, 749999};
  s.num_ooms = 2;
  s.num_alloc_retries = 17;
  const std::string t = memory_summary_text(s, 3, false);
  CHECK(line_of(t, "| Allocated memory") ==
        "| Allocated memory      |   3072 MiB |   3072 MiB |    800 MiB |    512 B   |");
  CHECK(line_of(t, "|       from large pool") ==
        "|       from large pool |   3071 MiB |   3072 MiB |    800 MiB |      0 B   |");
  CHECK(line_of(t, "|       from small pool") ==
        "|       from small pool |      0 MiB |      0 MiB |      0 MiB |    512 B   |");
  CHECK(line_of(t, "| Allocations") == "| Allocations           |    1500 K  |    2000 K  |     999 M  |  749999    |");
  CHECK(line_of(t, "|            CUDA OOMs") ==
        "|            CUDA OOMs: 2            |        cudaMalloc retries: 17        |");
  CHECK(t.rfind("|                  PyTorch CUDA memory summary, device ID 3                 |\n", 79) == 78);
  size_t lines = 0;
  for (char c : t) lines += c == '\n';
  CHECK(lines == 47);
  for (size_t at = 0, next; (next = t.find('\n', at)) != std::string::npos; at = next + 1) CHECK(next - at == 77);
  const std::string abbreviated = memory_summary_text(s, 0, true);
  CHECK(abbreviated.find("from large pool") == std::string::npos);
}
