// Note [Libraries on first use]: DlLibrary opens a library once, fills a table
// from it once, and says why it is unusable (no library, a missing symbol).
// zlib stands in for the CUDA libraries: gpulab links it, so it is there.
#include <doctest/doctest.h>
#include <string>
#include "tensor/runtime/dl_library.h"

using gl::DlLibrary;

TEST_CASE("DlLibrary: opens by soname and resolves its functions, once") {
  DlLibrary lib("libz.so.1", false);
  const char* (*version)() = nullptr;
  int calls = 0;
  auto resolve = [&](DlLibrary& l) {
    ++calls;
    return l.sym("zlibVersion", &version);
  };
  CHECK(lib.load(resolve));
  CHECK(lib.load(resolve));  // the second call answers from the first
  CHECK(calls == 1);
  REQUIRE(bool(version));
  CHECK(std::string(version()).size() > 0);
  CHECK(lib.error().empty());
  CHECK(lib.find("no_such_function_in_zlib") == nullptr);
  CHECK(lib.error().empty());  // an optional lookup records nothing
}

TEST_CASE("DlLibrary: a missing symbol makes it unusable and is named") {
  DlLibrary lib("libz.so.1", false);
  void (*f)() = nullptr;
  CHECK_FALSE(lib.load([&](DlLibrary& l) { return l.sym("zlibVersion", &f) & l.sym("cublasCreate_v2", &f); }));
  CHECK(lib.error() == "symbol cublasCreate_v2 not found in libz.so.1");
}

TEST_CASE("DlLibrary: a library that is not there gives dlopen's reason, and resolve never runs") {
  DlLibrary lib("libgpulab-no-such-library.so.7", true);  // the toolkit directories are tried too
  bool ran = false;
  CHECK_FALSE(lib.load([&](DlLibrary&) {
    ran = true;
    return true;
  }));
  CHECK_FALSE(ran);
  CHECK(lib.error().find("libgpulab-no-such-library.so.7") != std::string::npos);
}
