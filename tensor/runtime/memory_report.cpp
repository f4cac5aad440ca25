#include "tensor/runtime/memory_report.h"
#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <vector>
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/event.h"
#include "tensor/runtime/memory_pressure.h"
#include "tensor/runtime/registry.h"

namespace gl {

MemoryStats device_memory_stats(int device) {
  relieve_memory_pressure();
  return slot_for(Device(Device::CUDA, device)).alloc->memory_stats();
}

void reset_accumulated_memory(int device) { slot_for(Device(Device::CUDA, device)).alloc->reset_accumulated(); }

namespace {

std::string fmt(const char* f, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

// PyTorch's _format_size / _format_count: the unit is chosen by the row's
// "all" value (pref), so the pool rows below it share its unit.
std::string format_size(int64_t sz, double pref) {
  static const char* prefixes[] = {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  while (i < 5 && pref >= 768 * 1024) {
    ++i;
    sz /= 1024;
    pref /= 1024;
  }
  return fmt("%6lld %s", (long long)sz, prefixes[i]);
}

std::string format_count(int64_t cnt, double pref) {
  static const char* prefixes[] = {" ", "K", "M"};
  int i = 0;
  while (i < 2 && pref >= 750 * 1000) {
    ++i;
    cnt /= 1000;
    pref /= 1000;
  }
  return fmt("%7lld %s ", (long long)cnt, prefixes[i]);
}

std::string pad_right(std::string s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

// Appends the pieces. (Not `"|" + f(...)`: GCC 12 warns falsely about a
// const char* + std::string&& that inserts at the front.)
template <class... Pieces> void put(std::string& out, const Pieces&... pieces) { (out.append(pieces), ...); }

}  // namespace

std::string memory_summary_text(const MemoryStats& s, int device, bool abbreviated) {
  using Formatter = std::string (*)(int64_t, double);
  struct Metric {
    const Stat* stat;
    const char* name;
    Formatter f;
  };
  const Metric metrics[] = {{s.allocated_bytes, "Allocated memory", format_size},
                            {s.active_bytes, "Active memory", format_size},
                            {s.requested_bytes, "Requested memory", format_size},
                            {s.reserved_bytes, "GPU reserved memory", format_size},
                            {s.inactive_split_bytes, "Non-releasable memory", format_size},
                            {s.allocation, "Allocations", format_count},
                            {s.active, "Active allocs", format_count},
                            {s.segment, "GPU reserved segments", format_count},
                            {s.inactive_split, "Non-releasable allocs", format_count}};
  std::vector<std::string> lines;
  const std::string eq(75, '='), dash(75, '-');
  lines.push_back(eq);
  lines.push_back(std::string(18, ' ') + "PyTorch CUDA memory summary, device ID " +
                  pad_right(std::to_string(device), 17) + " ");
  lines.push_back(dash);
  lines.push_back(std::string(12, ' ') + "CUDA OOMs: " + pad_right(std::to_string(s.num_ooms), 12) + " | " +
                  std::string(7, ' ') + "cudaMalloc retries: " + pad_right(std::to_string(s.num_alloc_retries), 8) +
                  "  ");
  lines.push_back(eq);
  lines.push_back("        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ");
  auto row = [&](const char* name, const Stat& st, const Stat& pref, Formatter f) {
    std::string r = " ";
    r += pad_right(name, 21);
    for (const std::string& v : {f(st.current, double(pref.current)), f(st.peak, double(pref.peak)),
                                 f(st.allocated, double(pref.allocated)), f(st.freed, double(pref.freed))}) {
      r += " | ";
      r += v;
    }
    lines.push_back(r + " ");
  };
  for (const Metric& m : metrics) {
    lines.push_back(dash);
    row(m.name, m.stat[kAllPools], m.stat[kAllPools], m.f);
    if (!abbreviated) {
      row("      from large pool", m.stat[kLargePool], m.stat[kAllPools], m.f);
      row("      from small pool", m.stat[kSmallPool], m.stat[kAllPools], m.f);
    }
  }
  lines.push_back(dash);
  row("Oversize allocations", s.oversize_allocations, s.oversize_allocations, format_count);
  lines.push_back(dash);
  row("Oversize GPU segments", s.oversize_segments, s.oversize_segments, format_count);
  lines.push_back(eq);
  std::string out;
  for (const std::string& l : lines) put(out, "|", l, "|\n");
  return out;
}

std::string memory_summary(int device, bool abbreviated) {
  return memory_summary_text(device_memory_stats(device), device, abbreviated);
}

namespace {
std::string process_name() {
  std::ifstream f("/proc/self/comm");
  std::string name;
  if (!(f >> name) || name.empty()) name = "gpulab";
  return name;
}
}  // namespace

// PyTorch asks NVML for the processes with a context on the GPU. gpulab knows
// one: itself, holding what its caching allocator reserved.
std::string gpu_processes(int device) {
  relieve_memory_pressure();
  const DeviceInfo info = device_info(device);
  const int64_t reserved = slot_for(Device(Device::CUDA, device)).alloc->stats().reserved;
  std::string out = "GPU:" + std::to_string(device) + "\n";
  if (reserved == 0) return out + "no processes are running";
  out += fmt("process %10d uses %12.3f MB GPU memory", int(getpid()), double(reserved) / (1024.0 * 1024.0));
  if (info.is_virtual) out += " (this gpulab, on a virtual GPU)";
  return out;
}

namespace {
constexpr size_t kInner = 89;  // nvidia-smi's table: 91 columns with its borders

std::string both(const std::string& left, const std::string& right) {
  return left + std::string(kInner > left.size() + right.size() ? kInner - left.size() - right.size() : 1, ' ') + right;
}
std::string na_or(int v, const char* unit) { return v < 0 ? "N/A" : std::to_string(v) + unit; }
std::string fit(std::string s, size_t w) { return s.size() > w ? s.substr(0, w - 3) + "..." : pad_right(s, w); }
}  // namespace

// nvidia-smi's layout, trimmed to what gpulab knows. Virtual devices say so,
// and emulated ones have no driver: their versions read N/A.
std::string smi_table() {
  relieve_memory_pressure();
  const int n = cuda_device_count();
  std::vector<DeviceInfo> infos;
  bool any_real = false;
  for (int i = 0; i < n; ++i) {
    infos.push_back(device_info(i));
    any_real = any_real || !infos.back().host_memory;
  }
  std::string driver = "N/A", cuda_version = "N/A";
  if (any_real) cuda::smi_versions(&driver, &cuda_version);
  const std::string rule = "+" + std::string(kInner, '-') + "+\n";
  const std::string c1(41, '-'), c2(24, '-'), c3(22, '-');
  std::string out = rule;
  const std::string title = n > 0 && !any_real ? "gpulab-smi (virtual GPUs, no driver)" : "gpulab-smi";
  put(out, "| ",
      pad_right(pad_right(title, 37) + "Driver Version: " + pad_right(driver, 15) + "CUDA Version: " + cuda_version,
                kInner - 1),
      "|\n");
  put(out, "|", c1, "+", c2, "+", c3, "+\n");
  put(out, "|", pad_right(" GPU  Name", 41), "|", "           Memory-Usage ", "|", " GPU-Util  Temp   Pwr ", "|\n");
  put(out, "|", std::string(41, '='), "+", std::string(24, '='), "+", std::string(22, '='), "|\n");
  for (int i = 0; i < n; ++i) {
    const DeviceInfo& info = infos[i];
    const DeviceMemory m = device_memory(i);
    std::string name = info.name, detail;
    if (size_t paren = name.find(" ("); paren != std::string::npos && name.back() == ')') {
      detail = name.substr(paren + 1);
      name = name.substr(0, paren);
    }
    if (info.is_virtual && detail.empty()) detail = "(virtual)";
    const int64_t used = info.is_virtual ? m.reserved : m.total - m.free;
    put(out, "|", fit(fmt("%4d  ", i) + name, 41), "|",
        fmt("%8lldMiB / %6lldMiB ", (long long)(used >> 20), (long long)(m.total >> 20)), "|",
        fmt("%9s %5s %5s ", na_or(info.util, "%").c_str(), na_or(info.temp, "C").c_str(),
            na_or(info.power, "W").c_str()),
        "|\n");
    if (!detail.empty())
      put(out, "|", fit("      " + detail, 41), "|", std::string(24, ' '), "|", std::string(22, ' '), "|\n");
    put(out, "+", c1, "+", c2, "+", c3, "+\n");
  }
  if (n == 0) put(out, "| ", pad_right("No CUDA devices: " + cuda_unavailable_message(), kInner - 1), "|\n", rule);
  // The processes: this one, on each device where it holds memory.
  put(out, "\n", rule);
  put(out, "|", both(" Processes:", ""), "|\n");
  put(out, "|", both("  GPU   GI   CI        PID   Type   Process name", "GPU Memory "), "|\n");
  put(out, "|", both("        ID   ID", "Usage      "), "|\n");
  put(out, "|", std::string(kInner, '='), "|\n");
  const std::string pname = process_name();
  bool any = false;
  for (int i = 0; i < n; ++i) {
    const int64_t reserved = slot_for(Device(Device::CUDA, i)).alloc->stats().reserved;
    if (reserved == 0) continue;
    any = true;
    const std::string who = pname + (infos[i].is_virtual ? " (virtual GPU)" : "");
    put(out, "|",
        both(fmt("  %3d   N/A  N/A %10d      C   ", i, int(getpid())) + who,
             fmt("%lldMiB ", (long long)(reserved >> 20))),
        "|\n");
  }
  if (!any) put(out, "|", both("  No running processes found", ""), "|\n");
  out += rule;
  return out;
}

}  // namespace gl
