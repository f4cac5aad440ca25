// Writing safetensors: the header, the data in alignment order, and the
// atomic file write (temporary + fsync + rename).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <unordered_set>
#include "tensor/io/json.h"
#include "tensor/io/safetensors.h"
#include "tensor/ops/ops.h"

namespace gl::io {

namespace {

struct Plan {
  std::string header;         // the 8-byte length, then the padded JSON
  std::vector<size_t> order;  // the tensors in data order
};

Plan plan(const NamedTensors& ts, const Metadata& md) {
  std::unordered_set<std::string_view> seen;
  for (const auto& [name, t] : ts) {
    GL_CHECK(t.defined(), "torch.save: tensor ", quoted_name(name), " is undefined");
    GL_CHECK(name != "__metadata__", "torch.save: \"__metadata__\" is reserved and cannot name a tensor");
    GL_CHECK(valid_utf8(name), "torch.save: tensor names must be valid UTF-8, got ", quoted_name(name));
    GL_CHECK(seen.insert(name).second, "torch.save: duplicate tensor name ", quoted_name(name));
  }
  seen.clear();
  for (const auto& [k, v] : md) {
    GL_CHECK(valid_utf8(k) && valid_utf8(v), "torch.save: metadata must be valid UTF-8 (key ", quoted_name(k), ")");
    GL_CHECK(seen.insert(k).second, "torch.save: duplicate metadata key ", quoted_name(k));
  }
  Plan p;
  p.order.resize(ts.size());
  std::iota(p.order.begin(), p.order.end(), size_t(0));
  std::stable_sort(p.order.begin(), p.order.end(),
                   [&](size_t a, size_t b) { return itemsize(ts[a].second.dtype()) > itemsize(ts[b].second.dtype()); });
  std::vector<std::pair<uint64_t, uint64_t>> offs(ts.size());
  uint64_t at = 0;
  for (size_t i : p.order) {
    const Tensor& t = ts[i].second;
    const uint64_t nb = uint64_t(t.numel()) * itemsize(t.dtype());
    offs[i] = {at, at + nb};
    at += nb;
  }
  std::string json = "{";
  if (!md.empty()) {
    json += "\"__metadata__\":{";
    for (size_t i = 0; i < md.size(); ++i) {
      if (i) json += ',';
      json += json_quote(md[i].first) + ":" + json_quote(md[i].second);
    }
    json += "}";
  }
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i].second;
    if (i > 0 || !md.empty()) json += ",";
    json += json_quote(ts[i].first) + ":{\"dtype\":\"" + safetensors_dtype(t.dtype()) + "\",\"shape\":[";
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d) json += ',';
      json += std::to_string(t.size(d));
    }
    json += cat("],\"data_offsets\":[", offs[i].first, ",", offs[i].second, "]}");
  }
  json += "}";
  while (json.size() % 8) json += ' ';  // 8 + header: the data starts 8-byte aligned
  GL_CHECK(json.size() <= kMaxHeaderBytes, "torch.save: the header would be ", json.size(),
           " bytes, over the limit of ", kMaxHeaderBytes);
  p.header.resize(8);
  for (int i = 0; i < 8; ++i) p.header[size_t(i)] = char((uint64_t(json.size()) >> (8 * i)) & 0xFF);
  p.header += json;
  return p;
}

// A save killed before its rename (SIGKILL, a crash) leaves its temporary
// behind; the next save beside it removes those whose process is gone.
void remove_stale_temporaries(const std::string& target) {
  const auto slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? target : target.substr(slash + 1)) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = pid_t(std::stol(digits));
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

// The temporary beside the target; removed unless commit() renamed it.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : target_(target), path_(target + ".tmp." + std::to_string(::getpid())) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) fail("cannot create", path_);
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!done_) ::unlink(path_.c_str());
  }
  void write(const char* p, size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, std::min<size_t>(n, size_t(1) << 30));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) fail("cannot write", path_);
      p += w;
      n -= size_t(w);
    }
  }
  // False, with the target untouched, when `abandon` says so once the data
  // is on disk (the last moment before the rename).
  bool commit(const std::function<bool()>& abandon) {
    if (::fsync(fd_) != 0) fail("cannot sync", path_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close", path_);
    if (abandon && abandon()) return false;
    if (::rename(path_.c_str(), target_.c_str()) != 0) fail("cannot replace", target_);
    done_ = true;
    // Make the rename itself durable (best effort: some filesystems refuse).
    const auto slash = target_.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target_.substr(0, slash);
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
    return true;
  }

 private:
  [[noreturn]] void fail(const char* what, const std::string& p) {
    throw RuntimeError(cat("torch.save: ", what, " '", p, "': ", std::strerror(errno)));
  }
  std::string target_, path_;
  int fd_ = -1;
  bool done_ = false;
};

}  // namespace

std::vector<char> to_safetensors_bytes(const NamedTensors& tensors, const Metadata& metadata) {
  Plan p = plan(tensors, metadata);
  std::vector<char> out(p.header.begin(), p.header.end());
  for (size_t i : p.order) {
    const std::vector<char> b = to_host_bytes(tensors[i].second);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

bool save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata,
                      const std::function<bool()>& abandon) {
  Plan p = plan(tensors, metadata);  // every check before the disk is touched
  GL_CHECK_T(ValueError, path.find('\0') == std::string::npos, "embedded null byte");
  const auto slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    const std::string dir = path.substr(0, slash);
    struct stat st;
    GL_CHECK(::stat(dir.c_str(), &st) == 0, "Parent directory ", dir, " does not exist.");
    GL_CHECK(S_ISDIR(st.st_mode), "Parent directory ", dir, " is not a directory.");
  }
  struct stat st;
  GL_CHECK(!(::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)), "torch.save: '", path, "' is a directory");
  remove_stale_temporaries(path);
  TempFile tmp(path);
  tmp.write(p.header.data(), p.header.size());
  for (size_t i : p.order) {
    if (abandon && abandon()) return false;
    const std::vector<char> b = to_host_bytes(tensors[i].second);
    tmp.write(b.data(), b.size());
  }
  return tmp.commit(abandon);
}

}  // namespace gl::io
