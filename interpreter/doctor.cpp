// `gpulab doctor` (doctor.h). The build facts come from tensor/runtime/build_info.h,
// the device checks from Lua (doctor_checks.lua.h) run in an ordinary session,
// so they go through the same ops a learner's code does.
#include "interpreter/doctor.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <lua.hpp>
#include <unistd.h>

#include "bindings/bindings.h"
#include "interpreter/doctor_checks.lua.h"
#include "interpreter/lessons.h"
#include "interpreter/session.h"
#include "interpreter/version.h"
#include "tensor/runtime/build_info.h"

namespace fs = std::filesystem;

extern "C" int gpulab_omp_policy_set_it(void);      // interpreter/omp_policy/omp_policy.c
extern "C" double gpulab_omp_policy_spin_ns(void);  // the same

namespace gl::interp {
namespace {

struct Device {
  std::string device, name;
  long long total_memory = 0;
  int major = 0, minor = 0;
  bool is_virtual = false;
};
struct Check {
  std::string device, family, error;
  bool ok = false;
  double ms = 0;
};
struct Report {
  std::string host, version, lua, blas, cuda_runtime, driver, cuda_error, lessons_dir;
  std::vector<gl::runtime::LibraryInfo> libraries;
  int physical_gpus = 0;
  std::vector<Device> devices;
  std::vector<Check> checks;
  int lessons = 0, exercises = 0;
  std::vector<std::string> failures;
};

// The wait policy idle OpenMP workers follow (Note [Idle workers sleep]).
std::string omp_policy_line() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spin = std::getenv("GOMP_SPINCOUNT");
  const bool ours = gpulab_omp_policy_set_it() != 0;
  if (policy) return std::string("OMP_WAIT_POLICY=") + policy + " (your setting)";
  if (spin && !ours) return std::string("GOMP_SPINCOUNT=") + spin + " (your setting)";
  if (spin) {
    const double us = std::atof(spin) * gpulab_omp_policy_spin_ns() * 1e-3;
    return std::string("GOMP_SPINCOUNT=") + spin + " (gpulab's default: an idle worker spins about " +
           std::to_string(int(us + 0.5)) + " us, then sleeps)";
  }
  return "idle workers spin 300,000 times, then sleep (libgomp's default)";
}

std::string field_string(lua_State* L, int t, const char* k) {
  lua_getfield(L, t, k);
  std::string s = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  return s;
}
double field_number(lua_State* L, int t, const char* k) {
  lua_getfield(L, t, k);
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}
bool field_bool(lua_State* L, int t, const char* k) {
  lua_getfield(L, t, k);
  bool v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

// Runs kDoctorChecks and reads its result table into `r`.
void run_device_checks(const SessionOptions& session, Report* r) {
  lua_State* L = open_session(session);
  if (L == nullptr) {
    r->failures.push_back("could not open a Lua session");
    return;
  }
  if (luaL_loadbuffer(L, kDoctorChecks, std::char_traits<char>::length(kDoctorChecks), "=doctor") != LUA_OK ||
      protected_call(L, 0, 1, ErrorStyle::MessageOnly) != LUA_OK) {
    r->cuda_error = pop_error(L);
    r->failures.push_back("device checks: " + r->cuda_error);
    lua_close(L);
    return;
  }
  int top = lua_gettop(L);
  lua_getfield(L, top, "devices");
  for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; ++i) {
    int t = lua_gettop(L);
    r->devices.push_back(Device{field_string(L, t, "device"), field_string(L, t, "name"),
                                (long long)field_number(L, t, "total_memory"), (int)field_number(L, t, "major"),
                                (int)field_number(L, t, "minor"), field_bool(L, t, "virtual")});
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  lua_getfield(L, top, "checks");
  for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; ++i) {
    int t = lua_gettop(L);
    Check c{field_string(L, t, "device"), field_string(L, t, "family"), field_string(L, t, "error"),
            field_bool(L, t, "ok"), field_number(L, t, "ms")};
    if (!c.ok) r->failures.push_back(c.family + " on " + c.device + ": " + c.error);
    r->checks.push_back(c);
    lua_pop(L, 1);
  }
  lua_close(L);
}

int count_files(const fs::path& dir, bool exercises) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    bool checker = name.find(".check.lua") != std::string::npos;
    if (e.path().extension() == ".lua" && (exercises ? checker : !checker)) ++n;
  }
  return n;
}

Report collect(const SessionOptions& session, bool virtual_given) {
  Report r;
  char host[256] = "";
  gethostname(host, sizeof host - 1);  // which of the lab's machines, in collected reports
  r.host = host;
  r.version = GPULAB_VERSION;
  r.lua = LUA_RELEASE;
  r.blas = gl::runtime::blas_description();
  r.cuda_runtime = gl::runtime::cuda_runtime_version();
  r.driver = gl::runtime::cuda_driver_version();
  r.libraries = gl::runtime::cuda_libraries();
  r.physical_gpus = gl::runtime::physical_gpu_count();
  bool blas_found = true;
  for (const auto& l : r.libraries) {
    if (l.purpose == "cuBLAS") blas_found = l.found;
  }
  // Real GPUs without cuBLAS cannot multiply matrices: that is a failure. Without
  // a GPU the libraries are optional (CPU and virtual devices need none).
  if (r.physical_gpus > 0 && !blas_found) r.failures.push_back("cuBLAS not found: matmul on a GPU will fail");
  // Without a GPU or --virtual-gpus, one virtual device is checked.
  std::string error;
  const char* env = std::getenv("GPULAB_VIRTUAL_GPUS");
  if (r.physical_gpus == 0 && !virtual_given && !(env && *env)) gl::bindings::configure_virtual("1", &error);
  run_device_checks(session, &r);
  r.lessons_dir = lessons_directory();
  if (r.lessons_dir.empty()) {
    r.failures.push_back("no lessons directory found (see GPULAB_DATA in 'gpulab --help')");
  } else {
    r.lessons = count_files(r.lessons_dir, false);
    r.exercises = count_files(fs::path(r.lessons_dir) / "exercises", true);
    if (r.lessons == 0) r.failures.push_back("no lessons in " + r.lessons_dir);
    if (r.exercises == 0) r.failures.push_back("no exercises in " + r.lessons_dir + "/exercises");
  }
  return r;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

void print_json(const Report& r) {
  std::string o = "{\"host\": " + json_string(r.host) + ", \"gpulab\": " + json_string(r.version) +
                  ", \"lua\": " + json_string(r.lua) + ", \"blas\": " + json_string(r.blas) +
                  ", \"cuda_runtime\": " + json_string(r.cuda_runtime) + ", \"driver\": " + json_string(r.driver) +
                  ", \"gpus\": " + std::to_string(r.physical_gpus) + ",\n \"libraries\": [";
  for (size_t i = 0; i < r.libraries.size(); ++i) {
    const auto& l = r.libraries[i];
    o += std::string(i ? ", " : "") + "{\"name\": " + json_string(l.purpose) + ", \"file\": " + json_string(l.file) +
         ", \"found\": " + (l.found ? "true" : "false") + ", \"version\": " + json_string(l.version) + "}";
  }
  o += "],\n \"devices\": [";
  for (size_t i = 0; i < r.devices.size(); ++i) {
    const Device& d = r.devices[i];
    o += std::string(i ? ", " : "") + "{\"device\": " + json_string(d.device) + ", \"name\": " + json_string(d.name) +
         ", \"total_memory\": " + std::to_string(d.total_memory) + ", \"compute_capability\": \"" +
         std::to_string(d.major) + "." + std::to_string(d.minor) +
         "\", \"virtual\": " + (d.is_virtual ? "true" : "false") + "}";
  }
  o += "],\n \"checks\": [";
  for (size_t i = 0; i < r.checks.size(); ++i) {
    const Check& c = r.checks[i];
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f", c.ms);
    o += std::string(i ? ",\n  " : "") + "{\"device\": " + json_string(c.device) +
         ", \"family\": " + json_string(c.family) + ", \"ok\": " + (c.ok ? "true" : "false") + ", \"ms\": " + ms +
         ", \"error\": " + json_string(c.error) + "}";
  }
  o += "],\n \"lessons_dir\": " + json_string(r.lessons_dir) + ", \"lessons\": " + std::to_string(r.lessons) +
       ", \"exercises\": " + std::to_string(r.exercises) + ",\n \"failures\": [";
  for (size_t i = 0; i < r.failures.size(); ++i) o += std::string(i ? ", " : "") + json_string(r.failures[i]);
  o += std::string("],\n \"ok\": ") + (r.failures.empty() ? "true" : "false") + "}\n";
  std::fputs(o.c_str(), stdout);
}

void print_text(const Report& r) {
  std::printf("gpulab %s, %s\nBLAS: %s\n", r.version.c_str(), r.lua.c_str(), r.blas.c_str());
  std::printf("OpenMP: %s\n", omp_policy_line().c_str());
  if (r.cuda_runtime.empty()) {
    std::printf("CUDA: not compiled in (CPU and virtual devices only)\n");
  } else {
    std::printf("CUDA: runtime %s compiled in; driver: %s; GPUs: %d\n", r.cuda_runtime.c_str(),
                r.driver.empty() ? "none found" : ("supports CUDA " + r.driver).c_str(), r.physical_gpus);
  }
  for (const auto& l : r.libraries) {
    if (l.found) {
      std::printf("  %-7s %s found%s%s\n", l.purpose.c_str(), l.file.c_str(), l.version.empty() ? "" : ", version ",
                  l.version.c_str());
    } else {
      std::printf("  %-7s %s not found (%s)\n", l.purpose.c_str(), l.file.c_str(), l.error.c_str());
    }
  }
  for (const Device& d : r.devices) {
    std::printf("%s: %s, %.1f GiB, compute capability %d.%d%s\n", d.device.c_str(), d.name.c_str(),
                double(d.total_memory) / (1024.0 * 1024 * 1024), d.major, d.minor, d.is_virtual ? " (virtual)" : "");
    for (const Check& c : r.checks) {
      if (c.device != d.device) continue;
      if (c.ok) {
        std::printf("  %-12s ok (%.0f ms)\n", c.family.c_str(), c.ms);
      } else {
        std::printf("  %-12s FAILED: %s\n", c.family.c_str(), c.error.c_str());
      }
    }
  }
  if (r.lessons_dir.empty()) {
    std::printf("Lessons: not found\n");
  } else {
    std::printf("Lessons: %d in %s, %d exercises\n", r.lessons, r.lessons_dir.c_str(), r.exercises);
  }
  if (r.failures.empty()) {
    std::printf("Verdict: OK: %zu device%s checked, %zu kernel checks passed%s\n", r.devices.size(),
                r.devices.size() == 1 ? "" : "s", r.checks.size(),
                r.physical_gpus > 0 ? "" : " (no GPU: CPU and virtual devices)");
  } else {
    std::printf("Verdict: FAILED: %zu problem%s; first: %s\n", r.failures.size(), r.failures.size() == 1 ? "" : "s",
                r.failures[0].c_str());
  }
}

}  // namespace

int run_doctor(bool json, bool virtual_given, const SessionOptions& session) {
  Report r = collect(session, virtual_given);
  if (json) {
    print_json(r);
  } else {
    print_text(r);
  }
  std::fflush(stdout);
  return r.failures.empty() ? 0 : 1;
}

}  // namespace gl::interp
