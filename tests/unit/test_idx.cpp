// IDX files (tensor/io/idx.h): every element type with its big-endian bytes,
// gzip and plain files alike, and damaged files, each a RuntimeError naming
// what is wrong (never a read past the data or an allocation of its word).
#include <doctest/doctest.h>
#include <unistd.h>
#include <zlib.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include "tensor/io/idx.h"
#include "tensor/ops/ops.h"

using namespace gl;
namespace fs = std::filesystem;

namespace {

std::string header(unsigned char type, std::initializer_list<uint32_t> dims) {
  std::string h = {'\0', '\0', char(type), char(dims.size())};
  for (uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8) h += char((d >> s) & 0xFF);
  return h;
}

Tensor parse(const std::string& bytes) {
  return io::parse_idx(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "test");
}

std::string error_of(const std::string& bytes) {
  try {
    parse(bytes);
  } catch (const RuntimeError& e) { return e.what(); }
  return "no error";
}

fs::path temp_file(const std::string& name, const std::string& bytes, bool gzip) {
  fs::path p = fs::temp_directory_path() / ("gpulab_test_idx_" + std::to_string(::getpid()) + "_" + name);
  if (gzip) {
    gzFile f = gzopen(p.c_str(), "wb");
    REQUIRE(f != nullptr);
    REQUIRE(gzwrite(f, bytes.data(), unsigned(bytes.size())) == int(bytes.size()));
    gzclose(f);
  } else {
    std::ofstream(p, std::ios::binary) << bytes;
  }
  return p;
}

}  // namespace

TEST_CASE("idx: uint8 images keep their shape and bytes") {
  std::string f = header(0x08, {2, 2, 3}) + std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\xff", 12);
  Tensor t = parse(f);
  CHECK(t.dtype() == DType::UInt8);
  CHECK(t.sizes() == Shape{2, 2, 3});
  auto* p = reinterpret_cast<const unsigned char*>(t.data_ptr());
  CHECK(p[0] == 1);
  CHECK(p[11] == 255);
}

TEST_CASE("idx: multi-byte elements are big-endian") {
  Tensor i16 = parse(header(0x0B, {2}) + std::string("\x01\x02\xff\xfe", 4));
  CHECK(i16.dtype() == DType::Int16);
  CHECK(reinterpret_cast<const int16_t*>(i16.data_ptr())[0] == 0x0102);
  CHECK(reinterpret_cast<const int16_t*>(i16.data_ptr())[1] == -2);
  Tensor i32 = parse(header(0x0C, {1}) + std::string("\x00\x01\x00\x02", 4));
  CHECK(reinterpret_cast<const int32_t*>(i32.data_ptr())[0] == 65538);
  Tensor f32 = parse(header(0x0D, {1}) + std::string("\x3f\xc0\x00\x00", 4));  // 1.5
  CHECK(f32.dtype() == DType::Float32);
  CHECK(reinterpret_cast<const float*>(f32.data_ptr())[0] == 1.5f);
  Tensor f64 = parse(header(0x0E, {1}) + std::string("\xc0\x04\x00\x00\x00\x00\x00\x00", 8));  // -2.5
  CHECK(reinterpret_cast<const double*>(f64.data_ptr())[0] == -2.5);
  Tensor empty = parse(header(0x08, {0, 28}));
  CHECK(empty.sizes() == Shape{0, 28});
}

TEST_CASE("idx: damaged headers and sizes are errors") {
  CHECK(error_of("") == "test: not an IDX file (0 bytes, shorter than its 4-byte magic)");
  CHECK(error_of(std::string("\x01\x00\x08\x01", 4)) == "test: not an IDX file (its first two bytes should be zero)");
  CHECK(error_of(header(0x07, {1}) + "x") == "test: unknown IDX element type 0x7");
  CHECK(error_of(header(0x08, {})) == "test: an IDX file with 0 dims (1 to 4 are read)");
  CHECK(error_of(header(0x08, {1, 1, 1, 1, 1})) == "test: an IDX file with 5 dims (1 to 4 are read)");
  CHECK(error_of(header(0x08, {2, 3}).substr(0, 9)) == "test: the IDX header is cut short");
  CHECK(error_of(header(0x08, {2, 3}) + "abcde") ==
        "test: the IDX header declares [2, 3] (6 bytes of data) but the file holds 5");
  CHECK(error_of(header(0x08, {2, 3}) + "abcdefg") ==
        "test: the IDX header declares [2, 3] (6 bytes of data) but the file holds 7");
  // A header that claims far more than the file: an error, not a huge allocation.
  CHECK(error_of(header(0x0E, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}) + "x") ==
        "test: the IDX shape [4294967295, 4294967295, 4294967295] is too large");
  CHECK(error_of(header(0x08, {60000, 28, 28}) + "x").find("(47040000 bytes of data) but the file holds 1") !=
        std::string::npos);
}

TEST_CASE("idx: gzip and plain files read the same; missing and damaged files are errors") {
  const std::string bytes = header(0x0C, {3}) + std::string("\x00\x00\x00\x07\x00\x00\x01\x00\xff\xff\xff\xff", 12);
  fs::path plain = temp_file("plain", bytes, false), gz = temp_file("gz", bytes, true);
  for (const fs::path& p : {plain, gz}) {
    Tensor t = io::read_idx(p.string());
    CHECK(t.sizes() == Shape{3});
    const int32_t* v = reinterpret_cast<const int32_t*>(t.data_ptr());
    CHECK(v[0] == 7);
    CHECK(v[1] == 256);
    CHECK(v[2] == -1);
  }
  CHECK(fs::file_size(gz) != bytes.size());  // it really was compressed
  // A gzip stream cut in the middle.
  std::string zipped;
  {
    std::ifstream in(gz, std::ios::binary);
    zipped.assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::path cut = temp_file("cut", zipped.substr(0, zipped.size() / 2), false);
  CHECK_THROWS_WITH_AS(io::read_idx(cut.string()), doctest::Contains("cannot read"), RuntimeError);
  // Data past the declared size: read no further than one byte beyond it.
  fs::path longer = temp_file("longer", bytes + std::string(100000, 'x'), true);
  CHECK_THROWS_WITH_AS(
      io::read_idx(longer.string()),
      ("'" + longer.string() + "': the file holds more than the 12 bytes of data its IDX header declares").c_str(),
      RuntimeError);
  // A file that never ends is an error, not all of memory.
  CHECK_THROWS_WITH_AS(io::read_idx("/dev/zero"), "'/dev/zero': unknown IDX element type 0x0", RuntimeError);
  fs::path missing = fs::temp_directory_path() / "gpulab_test_idx_no_such_file";
  const std::string want = "cannot open '" + missing.string() + "': No such file or directory";
  CHECK_THROWS_WITH_AS(io::read_idx(missing.string()), want.c_str(), RuntimeError);
  for (const fs::path& p : {plain, gz, cut, longer}) fs::remove(p);
}
