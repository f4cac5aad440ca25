// Pretty, the port of IPython's line-breaking printer (bindings/pretty.h). The
// expected texts are IPython 9's, from IPython.lib.pretty.PrettyPrinter driven
// with the same calls (tests/pytorch/gen_echo.py checks whole echoes against it).
#include <doctest/doctest.h>
#include <string>
#include <vector>
#include "bindings/pretty.h"

using gl::lt::Pretty;

namespace {

// [a, b, ...] as IPython's sequence printer calls it.
std::string seq(const std::vector<std::string>& items, int width, bool plain = false) {
  Pretty p(plain, width);
  p.begin_group(1, "[");
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) {
      p.text(",");
      p.breakable();
    }
    p.text(items[i]);
  }
  p.end_group(1, "]");
  return p.finish();
}

}  // namespace

TEST_CASE("a group that fits stays on one line; one that does not breaks at every separator") {
  CHECK(seq({"a", "b"}, 10) == "[a, b]");
  CHECK(seq({"aa", "bb", "cc"}, 10) == "[aa,\n bb,\n cc]");
  CHECK(seq({"aa", "bb", "cc"}, 10, true) == "[aa, bb, cc]");  // plain: Python's repr
}

TEST_CASE("the outermost group breaks first") {
  Pretty p(false, 10);
  p.begin_group(1, "[");
  for (int row = 0; row < 2; ++row) {
    if (row) {
      p.text(",");
      p.breakable();
    }
    p.begin_group(1, "[");
    p.text(row ? "3" : "1");
    p.text(",");
    p.breakable();
    p.text(row ? "4" : "2");
    p.end_group(1, "]");
  }
  p.end_group(1, "]");
  CHECK(p.finish() == "[[1, 2],\n [3, 4]]");
}

TEST_CASE("a repr's own line breaks break the open group and keep its indentation") {
  Pretty p(false);
  p.begin_group(1, "(");
  p.text("a");
  p.text(",");
  p.breakable();
  p.lines("x\ny");
  p.end_group(1, ")");
  CHECK(p.finish() == "(a,\n x\n y)");
  Pretty plain(true);
  plain.lines("x\ny");
  CHECK(plain.finish() == "x\ny");
}

TEST_CASE("width counts characters, not UTF-8 bytes") {
  CHECK(seq({"\u00e9\u00e9\u00e9", "\u00e9\u00e9\u00e9"}, 8) == "[\u00e9\u00e9\u00e9,\n \u00e9\u00e9\u00e9]");
  CHECK(seq({"\u00e9", "\u00e9"}, 8) == "[\u00e9, \u00e9]");
}
