// gpulab run: starts one gpulab per local rank with torchrun's environment
// (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR,
// MASTER_PORT), prefixes every line each rank writes with "[rankN]: ", and when
// a rank fails stops the others (SIGTERM, then SIGKILL after a grace period)
// and exits with the failed rank's status, naming it. Ranks live in their own
// process group and die with the launcher (PR_SET_PDEATHSIG): no orphans.
#include "interpreter/launcher.h"
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gl::interp {

namespace {

struct Options {
  int nproc = 1, nnodes = 1, node_rank = 0, port = -1;
  std::string addr = "127.0.0.1", virtual_gpus, seed;
  int script = 0;  // index in argv
  double grace_s = 5;
};

struct Rank {
  int local = 0, global = 0;
  pid_t pid = -1;
  int fds[2] = {-1, -1};   // its stdout and stderr (read ends)
  std::string partial[2];  // an unfinished last line per stream
  bool exited = false;
  int status = 0;
  bool peer_closed = false;  // said gloo lost a peer: a consequence, not a cause
};

volatile sig_atomic_t g_signal = 0;
void on_signal(int s) { g_signal = s; }

int usage_error(const std::string& msg) {
  std::fprintf(stderr,
               "gpulab run: %s\nusage: gpulab run --nproc-per-node N [--nnodes M --node-rank R "
               "--master-addr A --master-port P] [--virtual-gpus N] script.lua [args...]\n",
               msg.c_str());
  return 2;
}

bool parse_int(const char* s, int* out) {
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < 0 || v > 1 << 20) return false;
  *out = int(v);
  return true;
}

// A free TCP port on this machine (a single-node run without --master-port, as
// torchrun --standalone), so two runs side by side never collide.
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 29500;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

// Writes `line` (without its newline) prefixed, to the launcher's stream.
void emit(int rank, int stream, const std::string& line, bool newline) {
  std::string out = "[rank" + std::to_string(rank) + "]: " + line + (newline ? "\n" : "");
  FILE* f = stream == 0 ? stdout : stderr;
  std::fwrite(out.data(), 1, out.size(), f);
  std::fflush(f);
}

void relay(Rank& r, int stream) {
  char buf[65536];
  ssize_t k = ::read(r.fds[stream], buf, sizeof buf);
  if (k <= 0) {
    if (k < 0 && errno == EINTR) return;
    if (!r.partial[stream].empty()) emit(r.global, stream, r.partial[stream], true);
    r.partial[stream].clear();
    ::close(r.fds[stream]);
    r.fds[stream] = -1;
    return;
  }
  std::string& p = r.partial[stream];
  p.append(buf, size_t(k));
  size_t start = 0, nl;
  while ((nl = p.find('\n', start)) != std::string::npos) {
    const std::string line = p.substr(start, nl - start);
    // gloo's words for a peer that is gone: reading (closed, reset) or writing
    // (writev ...: Broken pipe, which a loaded machine showed for two of three peers)
    if (line.find("Connection closed by peer") != std::string::npos ||
        line.find("Connection reset by peer") != std::string::npos || line.find("Broken pipe") != std::string::npos)
      r.peer_closed = true;
    emit(r.global, stream, line, true);
    start = nl + 1;
  }
  p.erase(0, start);
}

pid_t start_rank(const Options& o, Rank& r, char** argv, int argc, pid_t pgid) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0) return -1;
  const std::string world = std::to_string(o.nproc * o.nnodes);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, pgid);  // 0 for the first: it leads the group
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1) ::_exit(1);  // the launcher died before prctl
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::close(out[0]);
    ::close(out[1]);
    ::close(err[0]);
    ::close(err[1]);
    ::setenv("RANK", std::to_string(r.global).c_str(), 1);
    ::setenv("LOCAL_RANK", std::to_string(r.local).c_str(), 1);
    ::setenv("GROUP_RANK", std::to_string(o.node_rank).c_str(), 1);
    ::setenv("WORLD_SIZE", world.c_str(), 1);
    ::setenv("LOCAL_WORLD_SIZE", std::to_string(o.nproc).c_str(), 1);
    ::setenv("MASTER_ADDR", o.addr.c_str(), 1);
    ::setenv("MASTER_PORT", std::to_string(o.port).c_str(), 1);
    ::setenv("TORCHELASTIC_RUN_ID", "none", 1);
    ::setenv("GPULAB_RUN", "1", 1);  // torch.distributed: rank i uses cuda:LOCAL_RANK
    std::vector<const char*> args = {argv[0]};
    if (!o.virtual_gpus.empty()) {
      args.push_back("--virtual-gpus");
      args.push_back(o.virtual_gpus.c_str());
    }
    if (!o.seed.empty()) {
      args.push_back("--seed");
      args.push_back(o.seed.c_str());
    }
    for (int i = o.script; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv("/proc/self/exe", const_cast<char* const*>(args.data()));
    std::fprintf(stderr, "gpulab run: cannot start %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  r.fds[0] = out[0];
  r.fds[1] = err[0];
  r.pid = pid;
  return pid;
}

// torchrun's words: "1", or "-9 (SIGKILL)" for a signal.
std::string describe(int status) {
  char buf[64];
  if (WIFSIGNALED(status)) {
    const int s = WTERMSIG(status);
    const char* abbrev = sigabbrev_np(s);
    std::snprintf(buf, sizeof buf, "-%d (SIG%s)", s, abbrev ? abbrev : "?");
  } else {
    std::snprintf(buf, sizeof buf, "%d", WEXITSTATUS(status));
  }
  return buf;
}

}  // namespace

int run_launcher(int argc, char** argv) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    int* target = nullptr;
    if (a == "--nproc-per-node" || a == "--nproc_per_node") target = &o.nproc;
    else if (a == "--nnodes") target = &o.nnodes;
    else if (a == "--node-rank" || a == "--node_rank") target = &o.node_rank;
    else if (a == "--master-port" || a == "--master_port") target = &o.port;
    if (target) {
      const char* v = value(a.c_str());
      if (!v || !parse_int(v, target)) return usage_error(a + " needs a non-negative integer");
      continue;
    }
    if (a == "--master-addr" || a == "--master_addr" || a == "--virtual-gpus" || a == "--seed") {
      const char* v = value(a.c_str());
      if (!v) return usage_error(a + " needs a value");
      (a == "--virtual-gpus" ? o.virtual_gpus : a == "--seed" ? o.seed : o.addr) = v;
      continue;
    }
    if (a == "--") {
      o.script = i + 1;
      break;
    }
    if (a.size() > 1 && a[0] == '-') return usage_error("unknown option " + a);
    o.script = i;
    break;
  }
  if (o.script == 0 || o.script >= argc) return usage_error("no script given");
  if (o.nproc < 1 || o.nnodes < 1) return usage_error("--nproc-per-node and --nnodes must be at least 1");
  if (o.node_rank >= o.nnodes) return usage_error("--node-rank must be less than --nnodes");
  if (o.port < 0) {
    if (o.nnodes > 1) o.port = 29500;  // torchrun's default; every node must agree
    else o.port = free_port();
  }
  if (const char* g = std::getenv("GPULAB_RUN_GRACE")) o.grace_s = std::atof(g);

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  std::vector<Rank> ranks(size_t(o.nproc));
  pid_t pgid = 0;
  for (int i = 0; i < o.nproc; ++i) {
    ranks[i].local = i;
    ranks[i].global = o.node_rank * o.nproc + i;
    if (start_rank(o, ranks[i], argv, argc, pgid) < 0) {
      std::fprintf(stderr, "gpulab run: cannot start rank %d: %s\n", ranks[i].global, std::strerror(errno));
      if (pgid > 0) ::kill(-pgid, SIGKILL);
      return 1;
    }
    if (pgid == 0) pgid = ranks[i].pid;
    ::setpgid(ranks[i].pid, pgid);  // also from here: no race with the child's own call
  }

  using clk = std::chrono::steady_clock;
  // Note [Root cause]: when one rank dies, its peers fail a moment later on
  // the closed connection. Failures seen within a short window are weighed
  // together: the first that did not report a lost peer is the cause.
  std::vector<int> failures;  // indices, in the order their exits were seen
  int failed = -1;            // the root cause, once decided
  bool stopping = false;
  clk::time_point kill_at, decide_at;
  int live = o.nproc;
  while (true) {
    std::vector<pollfd> pfds;
    std::vector<std::pair<int, int>> who;
    for (int i = 0; i < o.nproc; ++i)
      for (int s = 0; s < 2; ++s)
        if (ranks[i].fds[s] >= 0) {
          pfds.push_back({ranks[i].fds[s], POLLIN, 0});
          who.push_back({i, s});
        }
    int n = ::poll(pfds.data(), pfds.size(), 100);
    if (n > 0)
      for (size_t k = 0; k < pfds.size(); ++k)
        if (pfds[k].revents) relay(ranks[who[k].first], who[k].second);
    // Reap.
    for (auto& r : ranks) {
      if (r.exited) continue;
      int st;
      if (::waitpid(r.pid, &st, WNOHANG) == r.pid) {
        r.exited = true;
        r.status = st;
        --live;
        bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        if (!ok && !stopping) {
          if (failures.empty()) decide_at = clk::now() + std::chrono::milliseconds(300);
          failures.push_back(int(&r - ranks.data()));
        }
      }
    }
    auto decide = [&] {
      failed = failures[0];
      for (int i : failures)
        if (!ranks[size_t(i)].peer_closed) {
          failed = i;
          break;
        }
    };
    if (!stopping && !failures.empty() && clk::now() >= decide_at) decide();
    if (!stopping && (failed >= 0 || g_signal)) {
      stopping = true;
      ::kill(-pgid, g_signal ? int(g_signal) : SIGTERM);
      kill_at = clk::now() + std::chrono::milliseconds(int64_t(o.grace_s * 1000));
    }
    if (stopping && live > 0 && clk::now() >= kill_at) {
      ::kill(-pgid, SIGKILL);
      kill_at = clk::time_point::max();
    }
    // A rank's children may hold its pipes open: once every rank is gone, read
    // what is buffered and stop.
    if (live == 0) {
      if (stopping) ::kill(-pgid, SIGKILL);
      for (auto& r : ranks)
        for (int s = 0; s < 2; ++s) {
          if (r.fds[s] >= 0) ::fcntl(r.fds[s], F_SETFL, O_NONBLOCK);
          for (int t = 0; t < 1024 && r.fds[s] >= 0; ++t) relay(r, s);  // closes at EOF or EAGAIN
        }
      if (!stopping && !failures.empty()) decide();  // every rank ended on its own: all output is in
      break;
    }
  }
  if (failed < 0) {
    if (g_signal) return 128 + int(g_signal);
    return 0;
  }
  const Rank& f = ranks[size_t(failed)];
  std::string report = "============================================================\n";
  report += std::string(argv[o.script]) + " FAILED\n";
  report += "------------------------------------------------------------\n";
  report += "Root Cause (first observed failure):\n[0]:\n";
  report += "  rank      : " + std::to_string(f.global) + " (local_rank: " + std::to_string(f.local) + ")\n";
  report += "  exitcode  : " + describe(f.status) + " (pid: " + std::to_string(f.pid) + ")\n";
  report += "============================================================\n";
  std::fputs(report.c_str(), stderr);
  if (WIFSIGNALED(f.status)) return 128 + WTERMSIG(f.status);
  return WEXITSTATUS(f.status);
}

}  // namespace gl::interp
