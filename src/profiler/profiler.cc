/*!
 * \file profiler/profiler.cc
 * \brief Recorder behind include/mxnet/profiler.h.
 *
 * Every thread appends to its own buffer (registered once in a global list), so recording
 * takes only that buffer's lock, which nobody else touches except a dump. Aggregate
 * statistics are computed from the buffered events when asked for; "reset" just moves each
 * buffer's statistics start past the events seen so far.
 */
#include <mxnet/profiler.h>

#include <dmlc/logging.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace mxnet {
namespace profiler {

namespace detail {
std::atomic<int> g_recording_mask{0};
}  // namespace detail

namespace {

enum class EventKind : uint8_t { kOperator, kDuration, kCounter, kMarker };

struct Event {
  EventKind kind;
  std::string category;
  std::string name;
  uint64_t start_us{0};
  uint64_t end_us{0};
  int64_t value{0};
  std::string scope;  // markers only
};

struct ThreadBuffer {
  std::mutex mu;
  std::vector<Event> events;
  // events[0, offset) were dropped once both the trace and the statistics were past them
  size_t offset{0};
  size_t stats_start{0};  // absolute index: earlier events were "reset" out of the statistics
  size_t dump_start{0};   // absolute index: earlier events were written by a previous dump
  uint32_t tid{0};

  /*! \brief Free the events that neither a dump nor the statistics will read again. */
  void Compact() {
    const size_t keep_from = std::min(stats_start, dump_start);
    if (keep_from <= offset) return;
    events.erase(events.begin(), events.begin() + (keep_from - offset));
    offset = keep_from;
  }
};

const char* const kOperatorCategory = "operator";
const char* const kMemoryCategory = "Device Storage";
const char* const kAPICategory = "MXNET_C_API";

struct State {
  std::mutex mu;  // guards everything below and buffer registration
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  int mode = kSymbolic | kImperative | kMemory | kAPI;
  bool aggregate_stats = false;
  std::string filename = "profile.json";
  bool running = false;
  bool paused = false;
  // Bytes in use per (dev_type, dev_id), counted from when recording last started.
  std::mutex memory_mu;
  std::map<std::pair<int, int>, int64_t> memory_in_use;
};

State& GlobalState() {
  static State* state = new State();  // never destroyed: worker threads may record at exit
  return *state;
}

ThreadBuffer* ThisThreadBuffer() {
  static thread_local ThreadBuffer* buffer = nullptr;
  if (buffer == nullptr) {
    auto owned = std::make_shared<ThreadBuffer>();
    State& s = GlobalState();
    std::lock_guard<std::mutex> g(s.mu);
    owned->tid = static_cast<uint32_t>(s.buffers.size());
    s.buffers.push_back(owned);
    buffer = owned.get();  // the global list keeps it alive after the thread exits
  }
  return buffer;
}

void Append(Event&& e) {
  ThreadBuffer* b = ThisThreadBuffer();
  std::lock_guard<std::mutex> g(b->mu);
  b->events.push_back(std::move(e));
}

bool ParseBool(const std::string& key, const std::string& value) {
  if (value == "True" || value == "true" || value == "1") return true;
  if (value == "False" || value == "false" || value == "0") return false;
  MX_THROW(dmlc::ValueError) << "profiler.set_config: invalid boolean '" << value
                             << "' for " << key;
  return false;
}

std::string JSONString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

/*!
 * \brief Events of every thread, each tagged with its thread id: for the statistics
 *        (since the last reset) or for a dump (since the last dump). `consume` moves that
 *        start past the returned events (a reset, or a dump) in the same critical section.
 */
std::vector<std::pair<uint32_t, Event>> SnapshotEvents(bool for_stats, bool consume) {
  State& s = GlobalState();
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  {
    std::lock_guard<std::mutex> g(s.mu);
    buffers = s.buffers;
  }
  std::vector<std::pair<uint32_t, Event>> out;
  for (auto& b : buffers) {
    std::lock_guard<std::mutex> g(b->mu);
    const size_t end = b->offset + b->events.size();
    for (size_t i = for_stats ? b->stats_start : b->dump_start; i < end; ++i) {
      out.emplace_back(b->tid, b->events[i - b->offset]);
    }
    if (consume) {
      (for_stats ? b->stats_start : b->dump_start) = end;
      b->Compact();
    }
  }
  return out;
}

struct Stat {
  uint64_t count{0};
  double total{0}, min{0}, max{0};  // milliseconds
  double avg() const { return count ? total / static_cast<double>(count) : 0.0; }
};

/*! \brief Rounded to 4 decimals, printed like 1.9.1's JSON statistics (5.272, 0, 0.1987). */
std::string ShortNumber(double v) {
  std::ostringstream os;
  os << std::round(v * 10000.0) / 10000.0;
  return os.str();
}

/*! \brief MXNet 1.9.1 prints (max - min) / 2 as the "average" use of a memory counter. */
double MemoryAvg(const Stat& st) { return (st.max - st.min) / 2.0; }

}  // namespace

uint64_t NowMicros() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

void RecordOperator(const char* name, uint64_t start_us, uint64_t end_us) {
  Event e;
  e.kind = EventKind::kOperator;
  e.category = kOperatorCategory;
  e.name = name;
  e.start_us = start_us;
  e.end_us = end_us;
  Append(std::move(e));
}

void RecordAPICall(const char* name, uint64_t start_us, uint64_t end_us) {
  Profiler::Get()->RecordDuration(kAPICategory, name, start_us, end_us);
}

void RecordMemory(const Context& ctx, int64_t delta_bytes) {
  State& s = GlobalState();
  int64_t now;
  {
    std::lock_guard<std::mutex> g(s.memory_mu);
    int64_t& v = s.memory_in_use[{static_cast<int>(ctx.dev_type), ctx.real_dev_id()}];
    // Memory allocated before recording started may be freed now: never go below zero.
    v = std::max<int64_t>(0, v + delta_bytes);
    now = v;
  }
  const char* dev = ctx.dev_type == Context::kGPU ? "gpu" : (ctx.dev_type == Context::kCPUPinned
                                                                   ? "cpu_pinned"
                                                                   : (ctx.dev_type == Context::kCPUShared
                                                                          ? "cpu_shared"
                                                                          : "cpu"));
  Profiler::Get()->RecordCounter(kMemoryCategory,
                                 std::string("Memory: ") + dev + "/" +
                                     std::to_string(ctx.real_dev_id()),
                                 now);
}

Profiler* Profiler::Get() {
  static Profiler profiler;
  return &profiler;
}

void Profiler::SetConfig(const std::vector<std::pair<std::string, std::string>>& kwargs) {
  State& s = GlobalState();
  std::lock_guard<std::mutex> g(s.mu);
  bool all = false;
  int mode = s.mode;
  auto set_bit = [&mode](int bit, bool on) { mode = on ? (mode | bit) : (mode & ~bit); };
  for (const auto& kv : kwargs) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    if (k == "profile_all") {
      all = ParseBool(k, v);
    } else if (k == "profile_symbolic") {
      set_bit(kSymbolic, ParseBool(k, v));
    } else if (k == "profile_imperative") {
      set_bit(kImperative, ParseBool(k, v));
    } else if (k == "profile_memory") {
      set_bit(kMemory, ParseBool(k, v));
    } else if (k == "profile_api") {
      set_bit(kAPI, ParseBool(k, v));
    } else if (k == "aggregate_stats") {
      s.aggregate_stats = ParseBool(k, v);
    } else if (k == "filename") {
      s.filename = v;
    } else if (k == "continuous_dump") {
      ParseBool(k, v);
    } else if (k == "dump_period") {
      try {
        (void)std::stod(v);
      } catch (const std::exception&) {
        MX_THROW(dmlc::ValueError) << "profiler.set_config: invalid float '" << v
                                   << "' for dump_period";
      }
    } else if (k == "profile_process") {
      if (v != "worker" && v != "server") {
        MX_THROW(dmlc::ValueError) << "profiler.set_config: profile_process must be 'worker' "
                                      "or 'server', got '" << v << "'";
      }
    } else {
      MX_THROW(dmlc::ValueError)
          << "profiler.set_config: unknown argument '" << k << "' (valid: profile_all, "
          << "profile_symbolic, profile_imperative, profile_memory, profile_api, filename, "
          << "continuous_dump, dump_period, aggregate_stats, profile_process)";
    }
  }
  if (all) mode = kSymbolic | kImperative | kMemory | kAPI;
  s.mode = mode;
  UpdateMask();
}

void Profiler::UpdateMask() {
  State& s = GlobalState();  // caller holds s.mu
  detail::g_recording_mask.store(s.running && !s.paused ? s.mode : 0, std::memory_order_relaxed);
}

void Profiler::SetState(int state) {
  if (state != 0 && state != 1) {
    MX_THROW(dmlc::ValueError) << "profiler.set_state: state must be 0 (stop) or 1 (run), got "
                               << state;
  }
  State& s = GlobalState();
  std::lock_guard<std::mutex> g(s.mu);
  if (state == 1 && !s.running) {
    std::lock_guard<std::mutex> gm(s.memory_mu);
    s.memory_in_use.clear();
  }
  s.running = state == 1;
  if (s.running) s.paused = false;
  UpdateMask();
}

void Profiler::SetPaused(bool paused) {
  State& s = GlobalState();
  std::lock_guard<std::mutex> g(s.mu);
  s.paused = paused;
  UpdateMask();
}

bool Profiler::running() const {
  State& s = GlobalState();
  std::lock_guard<std::mutex> g(s.mu);
  return s.running;
}

void Profiler::RecordDuration(const std::string& category, const std::string& name,
                              uint64_t start_us, uint64_t end_us) {
  Event e;
  e.kind = EventKind::kDuration;
  e.category = category;
  e.name = name;
  e.start_us = start_us;
  e.end_us = end_us;
  Append(std::move(e));
}

void Profiler::RecordCounter(const std::string& category, const std::string& name,
                             int64_t value) {
  Event e;
  e.kind = EventKind::kCounter;
  e.category = category;
  e.name = name;
  e.start_us = e.end_us = NowMicros();
  e.value = value;
  Append(std::move(e));
}

void Profiler::RecordMarker(const std::string& category, const std::string& name,
                            const std::string& scope) {
  Event e;
  e.kind = EventKind::kMarker;
  e.category = category;
  e.name = name;
  e.start_us = e.end_us = NowMicros();
  e.scope = scope;
  Append(std::move(e));
}

void Profiler::Clear() {
  State& s = GlobalState();
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  {
    std::lock_guard<std::mutex> g(s.mu);
    buffers = s.buffers;
  }
  for (auto& b : buffers) {
    std::lock_guard<std::mutex> g(b->mu);
    b->events.clear();
    b->offset = b->stats_start = b->dump_start = 0;
  }
}

std::string Profiler::TraceJSON(bool consume) {
  std::vector<std::pair<uint32_t, Event>> events = SnapshotEvents(false, consume);
  // Operators belong to the device process "cpu/0" (pid 0, as in 1.9.1); every other
  // category gets its own process so chrome://tracing shows it as a separate lane group.
  std::map<std::string, int> category_pid;
  category_pid[kOperatorCategory] = 0;
  for (const auto& te : events) {
    if (!category_pid.count(te.second.category)) {
      const int pid = 100 + static_cast<int>(category_pid.size());
      category_pid[te.second.category] = pid;
    }
  }
  std::ostringstream os;
  os << "{\n    \"traceEvents\": [\n";
  bool first = true;
  auto begin_item = [&]() {
    os << (first ? "        " : ",\n        ");
    first = false;
  };
  for (const auto& cp : category_pid) {
    begin_item();
    os << "{\"ph\": \"M\", \"args\": {\"name\": "
       << JSONString(cp.second == 0 ? std::string("cpu/0") : cp.first)
       << "}, \"pid\": " << cp.second << ", \"name\": \"process_name\"}";
  }
  for (const auto& te : events) {
    const Event& e = te.second;
    const int pid = category_pid[e.category];
    const std::string common = "\"name\": " + JSONString(e.name) +
                               ", \"cat\": " + JSONString(e.category);
    const std::string where =
        ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(te.first) + "}";
    switch (e.kind) {
      case EventKind::kOperator:
        begin_item();
        os << "{" << common << ", \"ph\": \"B\", \"ts\": " << e.start_us << where;
        begin_item();
        os << "{" << common << ", \"ph\": \"E\", \"ts\": " << e.end_us << where;
        break;
      case EventKind::kDuration:
        // Complete events: user durations may nest in any order of stopping.
        begin_item();
        os << "{" << common << ", \"ph\": \"X\", \"ts\": " << e.start_us
           << ", \"dur\": " << (e.end_us - e.start_us) << where;
        break;
      case EventKind::kCounter:
        begin_item();
        os << "{" << common << ", \"ph\": \"C\", \"ts\": " << e.start_us << ", \"args\": {"
           << JSONString(e.name) << ": " << e.value << "}" << where;
        break;
      case EventKind::kMarker: {
        const char* s = e.scope == "global" ? "g" : (e.scope == "thread" ? "t" : "p");
        begin_item();
        os << "{" << common << ", \"ph\": \"i\", \"ts\": " << e.start_us << ", \"s\": \"" << s
           << "\"" << where;
        break;
      }
    }
  }
  os << "\n    ],\n    \"displayTimeUnit\": \"ms\"\n}\n";
  return os.str();
}

void Profiler::DumpToFile() {
  std::string filename;
  {
    State& s = GlobalState();
    std::lock_guard<std::mutex> g(s.mu);
    filename = s.filename;
  }
  const std::string text = TraceJSON(true);
  std::ofstream out(filename, std::ios::binary | std::ios::trunc);
  if (!out) {
    MX_THROW(dmlc::Error) << "profiler.dump: cannot open '" << filename << "' for writing";
  }
  out << text;
  if (!out) MX_THROW(dmlc::Error) << "profiler.dump: failed writing '" << filename << "'";
}

std::string Profiler::AggregateStats(bool json, int sort_by, bool ascending, bool reset) {
  if (sort_by < 0 || sort_by > 4) {
    MX_THROW(dmlc::ValueError) << "profiler.dumps: sort_by must be 0..4 (total, avg, min, max, "
                                  "count), got " << sort_by;
  }
  std::map<std::string, std::map<std::string, Stat>> stats;
  std::map<std::string, Stat> memory;  // "Device Storage" counters, in kB
  {
    State& s = GlobalState();
    std::lock_guard<std::mutex> g(s.mu);
    if (!s.aggregate_stats) return std::string();  // as 1.9.1: nothing was aggregated
  }
  for (const auto& te : SnapshotEvents(true, reset)) {
    const Event& e = te.second;
    if (e.kind == EventKind::kCounter && e.category == kMemoryCategory) {
      const double kb = static_cast<double>(e.value) / 1000.0;
      Stat& st = memory[e.name];
      if (st.count == 0 || kb < st.min) st.min = kb;
      if (st.count == 0 || kb > st.max) st.max = kb;
      ++st.count;
      continue;
    }
    auto& cat = stats[e.category];  // markers/counters only make their category appear
    if (e.kind != EventKind::kOperator && e.kind != EventKind::kDuration) continue;
    const double ms = static_cast<double>(e.end_us - e.start_us) / 1000.0;
    Stat& st = cat[e.name];
    if (st.count == 0 || ms < st.min) st.min = ms;
    if (st.count == 0 || ms > st.max) st.max = ms;
    st.total += ms;
    ++st.count;
  }
  std::ostringstream os;
  if (json) {
    // 1.9.1 lists names alphabetically in the JSON form, whatever sort_by says.
    os << "{\n    \"Time\": {\n";
    bool first_cat = true;
    for (const auto& cat : stats) {
      if (!first_cat) os << "        ,\n";
      first_cat = false;
      os << "        " << JSONString(cat.first) << ": {\n";
      bool first = true;
      for (const auto& ns : cat.second) {
        if (!first) os << "            ,\n";
        first = false;
        const Stat& st = ns.second;
        os << "            " << JSONString(ns.first) << ": {\n"
           << "                \"Count\": " << st.count << ",\n"
           << "                \"Total\": " << ShortNumber(st.total) << ",\n"
           << "                \"Min\": " << ShortNumber(st.min) << ",\n"
           << "                \"Max\": " << ShortNumber(st.max) << ",\n"
           << "                \"Avg\": " << ShortNumber(st.avg()) << "\n"
           << "            }\n";
      }
      os << "        }\n";
    }
    os << "    }\n";
    if (!memory.empty()) {
      os << "    ,\n    \"Memory\": {\n        \"" << kMemoryCategory << "\": {\n";
      bool first = true;
      for (const auto& ns : memory) {
        if (!first) os << "            ,\n";
        first = false;
        os << "            " << JSONString(ns.first) << ": {\n"
           << "                \"Count\": " << ns.second.count << ",\n"
           << "                \"Min\": " << ShortNumber(ns.second.min) << ",\n"
           << "                \"Max\": " << ShortNumber(ns.second.max) << ",\n"
           << "                \"Avg\": " << ShortNumber(MemoryAvg(ns.second)) << "\n"
           << "            }\n";
      }
      os << "        }\n    }\n";
    }
    os << ",\n    \"Unit\": {\n        \"Time\": \"ms\",\n        \"Memory\": \"kB\"\n"
       << "    }\n}\n";
    return os.str();
  }
  os << "\nProfile Statistics:\n\tNote the difference in units for different entries.\n";
  if (!memory.empty()) {  // sorts before every lower-case category name, as in 1.9.1
    os << kMemoryCategory << "\n=================\n"
       << "Name                          Total Count    Min Use  (kB)    Max Use  (kB)    "
          "Avg Use  (kB)\n"
       << "----                          -----------    -------------    -------------    "
          "-------------\n";
    for (const auto& ns : memory) {
      os << std::left << std::setw(25) << ns.first << std::right << std::setw(16)
         << ns.second.count << std::fixed << std::setprecision(4) << std::setw(17)
         << ns.second.min << std::setw(17) << ns.second.max << std::setw(17)
         << MemoryAvg(ns.second) << "\n";
      os.unsetf(std::ios::fixed);
    }
    os << "\n";
  }
  for (const auto& cat : stats) {
    os << cat.first << "\n=================\n"
       << "Name                          Total Count        Time (ms)    Min Time (ms)    "
          "Max Time (ms)    Avg Time (ms)\n"
       << "----                          -----------        ---------    -------------    "
          "-------------    -------------\n";
    std::vector<std::pair<std::string, Stat>> rows(cat.second.begin(), cat.second.end());
    auto key = [sort_by](const Stat& st) {
      switch (sort_by) {
        case 1: return st.avg();
        case 2: return st.min;
        case 3: return st.max;
        case 4: return static_cast<double>(st.count);
        default: return st.total;
      }
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      return ascending ? key(a.second) < key(b.second) : key(a.second) > key(b.second);
    });
    for (const auto& r : rows) {
      const Stat& st = r.second;
      os << std::left << std::setw(25) << r.first << std::right << std::setw(16) << st.count
         << std::fixed << std::setprecision(4) << std::setw(17) << st.total << std::setw(17)
         << st.min << std::setw(17) << st.max << std::setw(17) << st.avg() << "\n";
      os.unsetf(std::ios::fixed);
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace profiler
}  // namespace mxnet
