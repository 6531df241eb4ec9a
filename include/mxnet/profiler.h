/*!
 * \file mxnet/profiler.h
 * \brief The process profiler: engine operators and user objects (domains, tasks, frames,
 *        events, counters, markers) recorded into per-thread buffers, dumped as Chrome
 *        tracing JSON or summarised as MXNet 1.9.1's aggregate table.
 *
 * The engine's hot path only asks `profiler::RecordingMask()`: one relaxed atomic load that is
 * zero unless the profiler runs (and is not paused).
 *
 *   if (profiler::RecordingMask() & profiler::kImperative) {
 *     uint64_t t0 = profiler::NowMicros();
 *     fn();
 *     profiler::RecordOperator(name, t0, profiler::NowMicros());
 *   }
 */
#ifndef MXNET_PROFILER_H_
#define MXNET_PROFILER_H_

#include <mxnet/base.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {
namespace profiler {

/*! \brief What is recorded (bit mask); profile_all sets every bit. */
enum ProfileKind : int { kSymbolic = 1, kImperative = 2, kAPI = 4, kMemory = 8 };

namespace detail {
/*! \brief Kinds recorded right now: the configured kinds while running and not paused, else 0. */
MXNET_DLL extern std::atomic<int> g_recording_mask;
}  // namespace detail

/*! \brief The kinds being recorded now (0 when the profiler is stopped or paused). */
inline int RecordingMask() { return detail::g_recording_mask.load(std::memory_order_relaxed); }

/*! \brief Wall-clock time in microseconds since the epoch (the trace's `ts`). */
MXNET_DLL uint64_t NowMicros();

/*! \brief Record one engine operator run on the calling thread (category "operator"). */
MXNET_DLL void RecordOperator(const char* name, uint64_t start_us, uint64_t end_us);

/*! \brief Record one C API call (category "MXNET_C_API"). */
MXNET_DLL void RecordAPICall(const char* name, uint64_t start_us, uint64_t end_us);

/*! \brief Times the enclosing C API function when API profiling runs (see API_BEGIN). */
class APICallScope {
 public:
  explicit APICallScope(const char* name)
      : name_(name), start_((RecordingMask() & kAPI) ? NowMicros() : 0) {}
  ~APICallScope() {
    if (start_ != 0) RecordAPICall(name_, start_, NowMicros());
  }
  APICallScope(const APICallScope&) = delete;
  APICallScope& operator=(const APICallScope&) = delete;

 private:
  const char* name_;
  uint64_t start_;
};

/*!
 * \brief Storage allocated (delta > 0) or freed (delta < 0) on device `ctx` while memory
 *        profiling runs: updates the "Memory: <dev>/<id>" counter of category
 *        "Device Storage" (bytes in use counted from when recording started).
 */
MXNET_DLL void RecordMemory(const Context& ctx, int64_t delta_bytes);

/*!
 * \brief Profiler configuration and state. All methods are thread-safe.
 *
 * Configuration keys (strings, as the Python frontend passes them): profile_all,
 * profile_symbolic, profile_imperative, profile_memory, profile_api (booleans, the last four
 * default true), aggregate_stats (false), filename ("profile.json"), continuous_dump,
 * dump_period, profile_process (accepted, no effect here).
 */
class MXNET_DLL Profiler {
 public:
  static Profiler* Get();

  /*! \brief Apply key/value settings; ValueError for an unknown key or malformed value. */
  void SetConfig(const std::vector<std::pair<std::string, std::string>>& kwargs);
  /*! \brief state 1 = run, 0 = stop. */
  void SetState(int state);
  void SetPaused(bool paused);
  bool running() const;

  /*!
   * \brief Write the events recorded since the previous dump to the configured file (which
   *        is rewritten) as Chrome tracing JSON.
   */
  void DumpToFile();
  /*! \brief The JSON document DumpToFile writes; consume=false leaves the events for it. */
  std::string TraceJSON(bool consume = false);
  /*!
   * \brief Aggregate statistics per category and name.
   * \param json false: 1.9.1's text table; true: its JSON layout.
   * \param sort_by 0 total, 1 avg, 2 min, 3 max, 4 count.
   * \param reset forget the statistics gathered so far (the trace keeps its events).
   * \return "" when aggregate_stats is off (as 1.9.1).
   */
  std::string AggregateStats(bool json, int sort_by, bool ascending, bool reset);

  // Events of the user-facing objects; category is the domain name (or "event", ...).
  void RecordDuration(const std::string& category, const std::string& name, uint64_t start_us,
                      uint64_t end_us);
  void RecordCounter(const std::string& category, const std::string& name, int64_t value);
  void RecordMarker(const std::string& category, const std::string& name,
                    const std::string& scope);
  /*! \brief Drop all recorded events and statistics (tests). */
  void Clear();

 private:
  Profiler() = default;
  void UpdateMask();
};

}  // namespace profiler
}  // namespace mxnet

#endif  // MXNET_PROFILER_H_
