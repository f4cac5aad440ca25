// Checkpoints (tensor/io): safetensors round trips of every dtype, the exact
// bytes written, the atomic write, and hostile files, each a clear RuntimeError.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "tensor/io/checkpoint.h"
#include "tensor/io/safetensors.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/registry.h"

using namespace gl;
namespace fs = std::filesystem;

namespace {

// A file from raw header text and data bytes.
std::string file_of(const std::string& json, const std::string& data = "", uint64_t len = UINT64_MAX) {
  if (len == UINT64_MAX) len = json.size();
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[size_t(i)] = char((len >> (8 * i)) & 0xFF);
  return out + json + data;
}

std::string error_of(const std::string& bytes) {
  try {
    io::parse_safetensors(bytes.data(), bytes.size());
  } catch (const RuntimeError& e) { return e.what(); }
  return "(no error)";
}

#define CHECK_BAD(bytes, text) \
  do { \
    const std::string msg_ = error_of(bytes); \
    CHECK_MESSAGE(msg_.find(text) != std::string::npos, msg_); \
  } while (0)

std::string bytes_of(const Tensor& t) {
  auto b = to_host_bytes(t);
  return std::string(b.begin(), b.end());
}

// One tensor of every dtype, with awkward values (negatives, extremes, NaN bits).
io::NamedTensors every_dtype() {
  io::NamedTensors ts;
  auto add = [&](const char* name, DType dt, const void* data, Shape shape) {
    ts.emplace_back(name, from_host(data, shape, dt, {dt, Device(Device::CPU)}));
  };
  const double f64[] = {1.5, -2.25, 1e300, -0.0, 3.141592653589793, 7};
  const float f32[] = {1.5f, -2.25f, 3.4e38f, 1e-45f};
  const uint16_t f16[] = {0x3C00, 0xC000, 0x7C00, 0x7E00, 0x0001};  // 1, -2, inf, nan, denormal
  const uint16_t bf16[] = {0x3F80, 0xC040, 0x7F80};                 // 1, -3, inf
  const int64_t i64[] = {INT64_MIN, -1, 0, INT64_MAX};
  const int32_t i32[] = {INT32_MIN, 7, INT32_MAX, -5, 9, 11};
  const int16_t i16[] = {-32768, 32767};
  const int8_t i8[] = {-128, 0, 127};
  const uint8_t u8[] = {0, 200, 255};
  const bool b[] = {true, false, true, true};
  add("f64", DType::Float64, f64, {2, 3});
  add("f32", DType::Float32, f32, {4});
  add("f16", DType::Float16, f16, {5});
  add("bf16", DType::BFloat16, bf16, {3, 1});
  add("i64", DType::Int64, i64, {2, 2});
  add("i32", DType::Int32, i32, {3, 2});
  add("i16", DType::Int16, i16, {2});
  add("i8", DType::Int8, i8, {3});
  add("u8", DType::UInt8, u8, {1, 3});
  add("bool", DType::Bool, b, {2, 2});
  add("scalar", DType::Float32, f32, {});
  add("empty", DType::Int64, i64, {0, 4});
  return ts;
}

void check_same(const io::NamedTensors& got, const io::NamedTensors& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(want[i].first);
    CHECK(got[i].first == want[i].first);
    CHECK(got[i].second.dtype() == want[i].second.dtype());
    CHECK(got[i].second.sizes() == want[i].second.sizes());
    CHECK(got[i].second.device() == Device(Device::CPU));
    CHECK(bytes_of(got[i].second) == bytes_of(want[i].second));
  }
}

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/gpulab_st_XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const char* n) const { return (path / n).string(); }
};

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("safetensors: every dtype round-trips, in memory and through a file") {
  const io::NamedTensors ts = every_dtype();
  const io::Metadata md = {{"format", "pt"}, {"note", "caf\xc3\xa9 \"quoted\"\n"}};
  const std::vector<char> bytes = io::to_safetensors_bytes(ts, md);
  io::Contents c = io::parse_safetensors(bytes.data(), bytes.size());
  check_same(c.tensors, ts);
  CHECK(c.metadata == md);

  TempDir dir;
  io::save_safetensors(dir / "a.safetensors", ts, md);
  CHECK(slurp(dir / "a.safetensors") == std::string(bytes.begin(), bytes.end()));
  io::SafetensorsFile f(dir / "a.safetensors");
  io::NamedTensors back;
  for (size_t i = 0; i < f.header().tensors.size(); ++i) back.emplace_back(f.header().tensors[i].name, f.read(i));
  check_same(back, ts);
  CHECK(f.header().data_start % 8 == 0);
  // Largest itemsize first, so every tensor is aligned in the file.
  for (const auto& t : f.header().tensors) CHECK(t.begin % itemsize(t.dtype) == 0);
}

TEST_CASE("safetensors: the exact bytes, and non-contiguous tensors") {
  const float v[] = {1, 2, 3, 4, 5, 6};
  Tensor m = from_host(v, {2, 3}, DType::Float32, {});
  const std::vector<char> b = io::to_safetensors_bytes({{"a", transpose(m, 0, 1)}}, {});
  const std::string json = "{\"a\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[0,24]}}";
  std::string padded = json;
  while (padded.size() % 8) padded += ' ';
  REQUIRE(b.size() == 8 + padded.size() + 24);
  CHECK(std::string(b.begin() + 8, b.begin() + 8 + long(padded.size())) == padded);
  CHECK(uint8_t(b[0]) == padded.size());
  float got[6];
  std::memcpy(got, b.data() + 8 + padded.size(), 24);
  CHECK(got[0] == 1);
  CHECK(got[1] == 4);  // transposed: row-major of the 3x2 view
  CHECK(got[5] == 6);
}

TEST_CASE("safetensors: a minimal valid file and the ways a header may vary") {
  CHECK(error_of(file_of("{}")) == "(no error)");
  CHECK(error_of(file_of("{\"__metadata__\":null}")) == "(no error)");
  CHECK(error_of(file_of(" {}")) != "(no error)");  // the library requires '{' first
  CHECK(error_of(file_of("{ \"a\" : { \"shape\" : [ 2 ] , \"x\" : {\"y\": [1, null, true]}, \"dtype\" : \"U8\" ,"
                         " \"data_offsets\" : [ 0 , 2 ] } }   ",
                         "\x01\x02")) == "(no error)");
  // Escapes decode to UTF-8 names.
  const std::string f =
      file_of("{\"\\u00e9\\ud83d\\ude00\\n\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[0,3]}}",
              std::string("\x00\x07\x01", 3));
  io::Contents c = io::parse_safetensors(f.data(), f.size());
  REQUIRE(c.tensors.size() == 1);
  CHECK(c.tensors[0].first == "\xc3\xa9\xf0\x9f\x98\x80\n");
  const auto* p = c.tensors[0].second.data<unsigned char>();
  CHECK((p[0] == 0 && p[1] == 1 && p[2] == 1));  // any nonzero byte reads as true
}

TEST_CASE("safetensors: hostile files are clear errors") {
  const std::string ok_entry = "\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]";
  const std::string d8(8, '\0');
  CHECK_BAD(std::string("\x05\x00\x00", 3), "too short to hold the 8-byte header length");
  CHECK_BAD(file_of("{}", "", 1000), "header length 1000 runs past the end of the file (10 bytes)");
  CHECK_BAD(file_of("{}", "", 200'000'000), "exceeds the limit of 100000000 bytes");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + ",}}", d8), "invalid JSON");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry, d8), "invalid JSON");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + "}} x", d8), "unexpected data after");
  CHECK_BAD(file_of("[]"), "does not start with '{'");
  CHECK_BAD(file_of("{\"\xff\":{}}"), "not valid UTF-8");
  CHECK_BAD(file_of("{\"a\\q\":{}}"), "invalid escape");
  CHECK_BAD(file_of("{\"a\\ud800\":{}}"), "lone high surrogate");
  CHECK_BAD(file_of("{\"a\tb\":{}}"), "control character");
  CHECK_BAD(file_of("{\"a\":{\"x\":" + std::string(10000, '[') + "}}"), "nested too deeply");
  CHECK_BAD(file_of("{\"a\":{\"x\":01," + ok_entry + "}}", d8), "invalid JSON");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "1234"),
            "run past the end of the data (4 bytes)");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + "},\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                    std::string(12, '\0')),
            "tensor \"a\" and tensor \"b\" overlap");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", d8), "end before they begin");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + "},\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[12,20]}}",
                    std::string(20, '\0')),
            "bytes [8, 12) of the data belong to no tensor");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + "}}", std::string(12, '\0')),
            "the last 4 bytes of the data belong to no tensor");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", d8),
            "hold 8 bytes but a F32 tensor of shape [3] needs 12");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,16],\"data_offsets\":[0,8]}}", d8),
            "is too large");
  CHECK_BAD(
      file_of(
          "{\"a\":{\"dtype\":\"F32\",\"shape\":[0,4611686018427387904,4611686018427387904],\"data_offsets\":[0,0]}}"),
      "is too large");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551615],\"data_offsets\":[0,8]}}", d8),
            "too large");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"U8\",\"shape\":[99999999999999999999],\"data_offsets\":[0,8]}}", d8),
            "too large");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", d8),
            "must be a non-negative integer, got -2");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,8]}}", d8),
            "must be an integer, got 1.5");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[8],\"data_offsets\":[0,8]}}", d8),
            "unknown dtype \"F8_E4M3\"");
  CHECK_BAD(file_of("{\"a\":{" + ok_entry + "},\"a\":{" + ok_entry + "}}", d8), "duplicate tensor name \"a\"");
  CHECK_BAD(file_of("{\"__metadata__\":{\"k\":\"v\",\"k\":\"w\"}}"), "duplicate metadata key \"k\"");
  CHECK_BAD(file_of("{\"__metadata__\":{\"k\":5}}"), "metadata \"k\" must be a string");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}", d8), "missing \"shape\"");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"dtype\":\"F32\"}}", d8), "duplicate field \"dtype\"");
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8,8]}}", d8), "exactly 2 integers");
  CHECK_BAD(file_of("{\"a\":[]}"), "expected an object");
  std::string dims = "[";
  for (int i = 0; i < 65; ++i) dims += i ? ",1" : "1";
  CHECK_BAD(file_of("{\"a\":{\"dtype\":\"U8\",\"shape\":" + dims + "],\"data_offsets\":[0,1]}}", "x"),
            "more than 64 dimensions");
  // Every prefix of a valid file is an error, never a crash.
  const std::vector<char> good = io::to_safetensors_bytes(every_dtype(), {{"k", "v"}});
  for (size_t n = 0; n < good.size(); ++n) CHECK(error_of(std::string(good.data(), n)) != "(no error)");
}

TEST_CASE("safetensors: writes are atomic") {
  TempDir dir;
  const float v[] = {1, 2};
  io::NamedTensors small = {{"a", from_host(v, {2}, DType::Float32, {})}};
  const std::string target = dir / "ckpt.safetensors";
  io::save_safetensors(target, small, {});
  const std::string before = slurp(target);

  // A write that fails half-way (the file size limit) leaves the old file and no temporary.
  io::NamedTensors big = {{"big", zeros({1 << 20}, {})}};
  struct rlimit old;
  getrlimit(RLIMIT_FSIZE, &old);
  auto old_handler = signal(SIGXFSZ, SIG_IGN);
  struct rlimit lim = old;
  lim.rlim_cur = 4096;
  setrlimit(RLIMIT_FSIZE, &lim);
  std::string msg;
  try {
    io::save_safetensors(target, big, {});
  } catch (const RuntimeError& e) { msg = e.what(); }
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  CHECK_MESSAGE(msg.find("torch.save: cannot write") != std::string::npos, msg);
  CHECK(slurp(target) == before);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);

  CHECK_THROWS_WITH_AS(io::save_safetensors(dir / "no/such/dir/x.safetensors", small, {}),
                       ("Parent directory " + (dir / "no/such/dir") + " does not exist.").c_str(), RuntimeError);
  fs::create_directory(dir / "sub");
  CHECK_THROWS_AS(io::save_safetensors(dir / "sub", small, {}), RuntimeError);
  CHECK_THROWS_WITH_AS(io::save_safetensors(target, {{"a", small[0].second}, {"a", small[0].second}}, {}),
                       "torch.save: duplicate tensor name \"a\"", RuntimeError);
  CHECK(slurp(target) == before);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 2);  // ckpt + sub
}

TEST_CASE("safetensors: files that are missing, truncated or not files") {
  TempDir dir;
  CHECK_THROWS_WITH_AS(io::SafetensorsFile(dir / "missing.st"),
                       ("[Errno 2] No such file or directory: '" + (dir / "missing.st") + "'").c_str(),
                       io::FileNotFoundError);
  CHECK_THROWS_WITH_AS(io::SafetensorsFile(dir.path.string()), doctest::Contains("it is a directory"), RuntimeError);
  const std::vector<char> good = io::to_safetensors_bytes(every_dtype(), {});
  std::ofstream(dir / "cut.st", std::ios::binary).write(good.data(), long(good.size() - 3));
  CHECK_THROWS_WITH_AS(io::SafetensorsFile(dir / "cut.st"), doctest::Contains("invalid safetensors file"),
                       RuntimeError);
}

TEST_CASE("checkpoint: devices are recorded and map_location applies") {
  TempDir dir;
  const float v[] = {1, 2, 3};
  io::save_checkpoint(dir / "c.st", {{"w", from_host(v, {3}, DType::Float32, {})}}, {{"gpulab.kind", "dict"}});
  io::Checkpoint c = io::load_checkpoint(dir / "c.st", {});
  REQUIRE(c.tensors.size() == 1);
  CHECK(c.tensors[0].second.device() == Device(Device::CPU));
  CHECK(c.metadata == io::Metadata{{"gpulab.kind", "dict"}});
  CHECK_THROWS_WITH_AS(io::parse_location("gpu:1", "map_location"),
                       doctest::Contains("invalid device string \"gpu:1\""), RuntimeError);
  CHECK_THROWS_AS(io::parse_location("cuda:99999", "x"), RuntimeError);
  CHECK(io::parse_location("cuda:12", "x") == Device(Device::CUDA, 12));
  if (!cuda_available()) {  // decided at run time: this binary may see virtual or real devices
    io::MapLocation m;
    m.all = "cuda:0";
    CHECK_THROWS_WITH_AS(io::load_checkpoint(dir / "c.st", m),
                         "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If "
                         "you are running on a CPU-only machine, please use torch.load with "
                         "map_location=torch.device('cpu') to map your storages to the CPU.",
                         RuntimeError);
  }
}

TEST_CASE("safetensors: the fuzz corpus loads or fails cleanly") {
  const fs::path corpus = fs::path(__FILE__).parent_path().parent_path() / "fuzz" / "corpus";
  REQUIRE(fs::is_directory(corpus));
  int n = 0;
  for (const auto& e : fs::directory_iterator(corpus)) {
    const std::string bytes = slurp(e.path().string());
    CAPTURE(e.path().string());
    const std::string name = e.path().filename().string(), msg = error_of(bytes);  // error_of lets nothing else escape
    if (name.rfind("valid_", 0) == 0) CHECK_MESSAGE(msg == "(no error)", msg);
    if (name.rfind("bad_", 0) == 0) CHECK(msg != "(no error)");
    ++n;
  }
  CHECK(n >= 5);
}

TEST_CASE("safetensors: an abandoned save, stale temporaries, bad paths, FIFOs") {
  TempDir dir;
  const float v[] = {1, 2};
  io::NamedTensors small = {{"a", from_host(v, {2}, DType::Float32, {})}};
  const std::string target = dir / "ck.st";
  CHECK(io::save_safetensors(target, small, {}));
  const std::string before = slurp(target);
  // Abandoned (an interrupt): the old file stays and no temporary is left.
  const float w[] = {3, 4};
  io::NamedTensors other = {{"a", from_host(w, {2}, DType::Float32, {})}};
  int asked = 0;
  CHECK_FALSE(io::save_safetensors(target, other, {}, [&] { return ++asked >= 2; }));
  CHECK(asked == 2);
  CHECK(slurp(target) == before);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
  // Temporaries of processes that are gone go; a live process's stays.
  const std::string stale = target + ".tmp.999999999", live = target + ".tmp." + std::to_string(getppid());
  std::ofstream(stale) << "x";
  std::ofstream(live) << "x";
  CHECK(io::save_safetensors(target, other, {}));
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(live));
  fs::remove(live);
  CHECK(slurp(target) != before);
  // Paths: an embedded NUL, a parent that is a file.
  CHECK_THROWS_WITH_AS(io::save_safetensors(target + std::string(1, '\0') + "junk", small, {}), "embedded null byte",
                       ValueError);
  CHECK_THROWS_WITH_AS(io::SafetensorsFile(target + std::string(1, '\0') + "junk"), "embedded null byte", ValueError);
  CHECK_THROWS_WITH_AS(io::save_safetensors(target + "/x.st", small, {}),
                       ("Parent directory " + target + " is not a directory.").c_str(), RuntimeError);
  // A FIFO is refused, not waited on.
  const std::string fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(io::SafetensorsFile{fifo}, doctest::Contains("not a regular file"), RuntimeError);
}
