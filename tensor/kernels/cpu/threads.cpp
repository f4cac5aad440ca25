// Note [Threads that pay]: a parallel region is only as fast as its slowest
// thread. When another process keeps a core busy, the worker that shares it
// runs at half speed at best and is descheduled for whole time slices, so a
// region that would save a few microseconds waits milliseconds instead (an
// MLP step ran 30x slower with 2 threads than with 1 on a loaded 2-core
// machine). So the thread count follows the cores the rest of the machine
// leaves free: from /proc/stat, the time all CPUs spent in user and system
// work less this process's own (getrusage), over the last interval of at
// least 200 ms. Niced work is left out only where the kernel lets nice rank
// it below us: without autogroups (sched_autogroup_enabled 0). With them, nice
// only ranks the processes of one login session, and a niced job started from
// another terminal took a full core's share beside this one (a fuzzer under
// nice -n 15 held 60% of a core each against a build). Where /proc/stat
// cannot be read, nothing changes. OMP_NUM_THREADS (or a
// count of 1) is the ceiling. The first decision cannot wait for an interval
// (a script's first 200 ms ran on every thread beside a busy neighbour), so it
// takes the tasks runnable at that instant (procs_running, less this thread);
// niced ones count there.
#include "tensor/kernels/cpu/threads.h"
#include <omp.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace gl::cpu {

namespace {

constexpr int64_t kIntervalNs = 200'000'000;

int64_t coarse_now_ns() {  // vDSO, tens of nanoseconds
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct MachineSample {
  double busy_s = -1;     // user + system time of all CPUs (and nice, with autogroups); < 0 if unreadable
  int procs_running = 0;  // tasks runnable now, this thread included; 0 if unreadable
};

MachineSample sample_machine() {
  MachineSample m;
  FILE* f = std::fopen("/proc/stat", "re");
  if (!f) return m;
  unsigned long long user = 0, nice = 0, sys = 0, idle = 0, iowait = 0, irq = 0, softirq = 0;
  const int got =
      std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle, &iowait, &irq, &softirq);
  static const double tick = 1.0 / double(sysconf(_SC_CLK_TCK));
  static const bool nice_yields = [] {  // nice ranks us above niced work (Note [Threads that pay])
    FILE* g = std::fopen("/proc/sys/kernel/sched_autogroup_enabled", "re");
    int on = 0;
    if (g) {
      if (std::fscanf(g, "%d", &on) != 1) on = 0;
      std::fclose(g);
    }
    return on == 0;
  }();
  if (got == 7) m.busy_s = double(user + sys + irq + softirq + (nice_yields ? 0 : nice)) * tick;
  char line[256];
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "procs_running %d", &m.procs_running) == 1) break;
  std::fclose(f);
  return m;
}

double self_cpu_s() {
  rusage r;
  getrusage(RUSAGE_SELF, &r);
  return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * double(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

struct State {
  std::mutex mu;
  bool started = false;
  int ceiling = 1;
  int requested = 0;  // set_num_threads' n, 0 until called
  int64_t last_ns = 0;
  double last_busy = 0, last_self = 0;
  std::atomic<int> threads{0};  // 0: not decided yet
};
State& state() {
  static State s;
  return s;
}

}  // namespace

int threads_left(int ceiling, double others) {
  // A worker that has to share a core is what stalls a region, so a share
  // above a fifth takes the whole core (/proc/stat counts in 10 ms ticks: a
  // fifth is the noise of a 200 ms interval).
  const int taken = others > 0.2 ? int(std::ceil(others - 0.2)) : 0;
  return std::max(1, ceiling - taken);
}

int num_threads() {
  State& s = state();
  std::lock_guard<std::mutex> g(s.mu);
  return s.requested > 0 ? s.requested : s.started ? s.ceiling : omp_get_max_threads();
}

// More threads than processors only queue behind each other, and libgomp
// aborts the process when it cannot create them (set_num_threads(100000)), so
// the count asked for is reported back but the ceiling stops at the processors.
void set_num_threads(int n) {
  State& s = state();
  std::lock_guard<std::mutex> g(s.mu);
  s.started = true;
  s.requested = n;
  n = std::min(n, std::max(1, omp_get_num_procs()));
  s.ceiling = n;
  s.last_ns = 0;  // the next region decides afresh, as the first one does
  s.threads.store(0, std::memory_order_relaxed);
  omp_set_num_threads(n);
}

void fit_threads() {
  State& s = state();
  const int64_t now = coarse_now_ns();
  if (now - s.last_ns >= kIntervalNs && s.mu.try_lock()) {
    std::lock_guard<std::mutex> g(s.mu, std::adopt_lock);
    if (!s.started) {
      s.started = true;
      s.ceiling = omp_get_max_threads();
    }
    if (now - s.last_ns >= kIntervalNs && s.ceiling > 1) {
      const MachineSample m = sample_machine();
      const double busy = m.busy_s, self = self_cpu_s();
      if (busy >= 0 && s.last_ns > 0) {
        const double others = (busy - s.last_busy - (self - s.last_self)) / (double(now - s.last_ns) * 1e-9);
        s.threads.store(threads_left(s.ceiling, others), std::memory_order_relaxed);
      } else if (m.procs_running > 0) {  // the first decision
        // A task runnable at one instant may be a passing one: at start-up the
        // first read said 2 or 3 where the next reads said 1, and the script's
        // first 200 ms ran on one thread. A busy neighbour is runnable in every
        // read, so the fewest of three is kept.
        int running = m.procs_running;
        for (int k = 0; k < 2 && running > 1; ++k) {
          const int again = sample_machine().procs_running;
          if (again > 0) running = std::min(running, again);
        }
        s.threads.store(threads_left(s.ceiling, double(running - 1)), std::memory_order_relaxed);
      }
      s.last_ns = now;
      s.last_busy = busy;
      s.last_self = self;
    }
  }
  const int n = s.threads.load(std::memory_order_relaxed);
  if (n > 0 && omp_get_max_threads() != n) omp_set_num_threads(n);
}

}  // namespace gl::cpu
