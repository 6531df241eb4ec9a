/*!
 * \file c_api_profiler.cc
 * \brief C API of the profiler (include/mxnet/profiler.h) and the environment helpers.
 */
#include <mxnet/c_api.h>
#include <mxnet/profiler.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "./c_api_common.h"

// The profiler's own calls are not profiled (as in MXNet 1.9.1: set_state('stop') would
// otherwise appear in the statistics it ends).
#undef API_BEGIN
#define API_BEGIN()                                            \
  ::mxnet::c_api::FunctionScope _api_function_scope_(__func__); \
  try {

namespace {

using mxnet::profiler::Profiler;

/*! \brief What a ProfileHandle points to. */
struct ProfileObject {
  enum Type { kDomain, kTask, kFrame, kEvent, kCounter };
  Type type;
  std::string name;
  std::string category;  // the trace/statistics category its events go to
  std::mutex mu;         // start time / counter value
  uint64_t start_us{0};
  int64_t value{0};
};

ProfileObject* CheckHandle(ProfileHandle h, const char* fn) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle(std::string(fn) + ": profiler handle");
  return static_cast<ProfileObject*>(h);
}

ProfileObject* CheckDomain(ProfileHandle h, const char* fn) {
  ProfileObject* d = CheckHandle(h, fn);
  if (d->type != ProfileObject::kDomain) {
    MX_THROW(dmlc::ValueError) << fn << ": handle '" << d->name << "' is not a domain";
  }
  return d;
}

ProfileObject* NewObject(ProfileObject::Type type, const char* name, std::string category,
                         const char* fn) {
  if (name == nullptr) mxnet::c_api::ThrowNullHandle(std::string(fn) + ": name");
  ProfileObject* o = new ProfileObject();
  o->type = type;
  o->name = name;
  o->category = std::move(category);
  return o;
}

void CheckWorker(int profile_process, KVStoreHandle kv, const char* fn) {
  if (profile_process != 0 || kv != nullptr) {
    MX_THROW(dmlc::NotImplementedError)
        << fn << ": profiling a kvstore server needs a distributed kvstore, which this build "
                 "does not have (use profile_process='worker')";
  }
}

bool Recording() { return mxnet::profiler::RecordingMask() != 0; }

}  // namespace

int MXSetProcessProfilerConfig(int num_params, const char* const* keys, const char* const* vals,
                               KVStoreHandle kvstoreHandle) {
  API_BEGIN();
  if (num_params > 0) {
    API_NOT_NULL(keys);
    API_NOT_NULL(vals);
  }
  std::vector<std::pair<std::string, std::string>> kwargs;
  bool server = false;
  for (int i = 0; i < num_params; ++i) {
    if (keys[i] == nullptr || vals[i] == nullptr) {
      MX_THROW(dmlc::ValueError) << "profiler.set_config: null key or value at position " << i;
    }
    kwargs.emplace_back(keys[i], vals[i]);
    if (kwargs.back().first == "profile_process" && kwargs.back().second == "server") server = true;
  }
  CheckWorker(server ? 1 : 0, kvstoreHandle, "profiler.set_config");
  Profiler::Get()->SetConfig(kwargs);
  API_END();
}

int MXSetProfilerConfig(int num_params, const char* const* keys, const char* const* vals) {
  return MXSetProcessProfilerConfig(num_params, keys, vals, nullptr);
}

int MXSetProcessProfilerState(int state, int profile_process, KVStoreHandle kvStoreHandle) {
  API_BEGIN();
  CheckWorker(profile_process, kvStoreHandle, "profiler.set_state");
  Profiler::Get()->SetState(state);
  API_END();
}

int MXSetProfilerState(int state) { return MXSetProcessProfilerState(state, 0, nullptr); }

int MXDumpProcessProfile(int finished, int profile_process, KVStoreHandle kvStoreHandle) {
  API_BEGIN();
  (void)finished;  // every dump rewrites the whole file
  CheckWorker(profile_process, kvStoreHandle, "profiler.dump");
  Profiler::Get()->DumpToFile();
  API_END();
}

int MXDumpProfile(int finished) { return MXDumpProcessProfile(finished, 0, nullptr); }

int MXAggregateProfileStatsPrintEx(const char** out_str, int reset, int format, int sort_by,
                                   int ascending) {
  API_BEGIN();
  API_NOT_NULL(out_str);
  if (format != 0 && format != 1) {
    MX_THROW(dmlc::ValueError) << "profiler.dumps: format must be 0 (table) or 1 (json), got "
                               << format;
  }
  std::string& ret = mxnet::c_api::GetThreadLocalReturn()->ret_str;
  ret = Profiler::Get()->AggregateStats(format == 1, sort_by, ascending != 0, reset != 0);
  *out_str = ret.c_str();
  API_END();
}

int MXAggregateProfileStatsPrint(const char** out_str, int reset) {
  return MXAggregateProfileStatsPrintEx(out_str, reset, 0, 0, 0);
}

int MXProcessProfilePause(int paused, int profile_process, KVStoreHandle kvStoreHandle) {
  API_BEGIN();
  CheckWorker(profile_process, kvStoreHandle, "profiler.pause");
  Profiler::Get()->SetPaused(paused != 0);
  API_END();
}

int MXProfilePause(int paused) { return MXProcessProfilePause(paused, 0, nullptr); }

int MXProfileCreateDomain(const char* domain, ProfileHandle* out) {
  API_BEGIN();
  ProfileObject* d = NewObject(ProfileObject::kDomain, domain, domain ? domain : "",
                               "profiler.Domain");
  *out = d;
  API_END();
}

int MXProfileCreateTask(ProfileHandle domain, const char* task_name, ProfileHandle* out) {
  API_BEGIN();
  ProfileObject* d = CheckDomain(domain, "profiler.Task");
  *out = NewObject(ProfileObject::kTask, task_name, d->name, "profiler.Task");
  API_END();
}

int MXProfileCreateFrame(ProfileHandle domain, const char* frame_name, ProfileHandle* out) {
  API_BEGIN();
  ProfileObject* d = CheckDomain(domain, "profiler.Frame");
  *out = NewObject(ProfileObject::kFrame, frame_name, d->name + ",frame", "profiler.Frame");
  API_END();
}

int MXProfileCreateEvent(const char* event_name, ProfileHandle* out) {
  API_BEGIN();
  *out = NewObject(ProfileObject::kEvent, event_name, "event", "profiler.Event");
  API_END();
}

int MXProfileCreateCounter(ProfileHandle domain, const char* counter_name, ProfileHandle* out) {
  API_BEGIN();
  ProfileObject* d = CheckDomain(domain, "profiler.Counter");
  *out = NewObject(ProfileObject::kCounter, counter_name, d->name, "profiler.Counter");
  API_END();
}

int MXProfileDestroyHandle(ProfileHandle frame_handle) {
  API_BEGIN();
  delete CheckHandle(frame_handle, "MXProfileDestroyHandle");
  API_END();
}

int MXProfileDurationStart(ProfileHandle duration_handle) {
  API_BEGIN();
  ProfileObject* o = CheckHandle(duration_handle, "profiler start");
  if (o->type == ProfileObject::kDomain || o->type == ProfileObject::kCounter) {
    MX_THROW(dmlc::ValueError) << "profiler start: '" << o->name
                               << "' is not a task, frame or event";
  }
  std::lock_guard<std::mutex> g(o->mu);
  o->start_us = mxnet::profiler::NowMicros();
  API_END();
}

int MXProfileDurationStop(ProfileHandle duration_handle) {
  API_BEGIN();
  ProfileObject* o = CheckHandle(duration_handle, "profiler stop");
  uint64_t start;
  {
    std::lock_guard<std::mutex> g(o->mu);
    start = o->start_us;
    o->start_us = 0;
  }
  if (start == 0) {
    MX_THROW(dmlc::ValueError) << "profiler stop: '" << o->name << "' was not started";
  }
  if (Recording()) {
    Profiler::Get()->RecordDuration(o->category, o->name, start, mxnet::profiler::NowMicros());
  }
  API_END();
}

namespace {
int UpdateCounter(ProfileHandle h, bool absolute, int64_t v) {
  try {
  ProfileObject* o = CheckHandle(h, "profiler.Counter");
  if (o->type != ProfileObject::kCounter) {
    MX_THROW(dmlc::ValueError) << "profiler.Counter: '" << o->name << "' is not a counter";
  }
  int64_t now;
  {
    std::lock_guard<std::mutex> g(o->mu);
    o->value = absolute ? v : o->value + v;
    now = o->value;
  }
  if (Recording()) Profiler::Get()->RecordCounter(o->category, o->name, now);
  API_END();
}
}  // namespace

int MXProfileSetCounter(ProfileHandle counter_handle, uint64_t value) {
  API_FUNCTION_SCOPE();
  return UpdateCounter(counter_handle, true, static_cast<int64_t>(value));
}

int MXProfileAdjustCounter(ProfileHandle counter_handle, int64_t value) {
  API_FUNCTION_SCOPE();
  return UpdateCounter(counter_handle, false, value);
}

int MXProfileSetMarker(ProfileHandle domain, const char* instant_marker_name, const char* scope) {
  API_BEGIN();
  ProfileObject* d = CheckDomain(domain, "profiler.Marker");
  if (instant_marker_name == nullptr) mxnet::c_api::ThrowNullHandle("profiler.Marker: name");
  const std::string s = scope ? scope : "process";
  if (s != "global" && s != "process" && s != "thread" && s != "task" && s != "marker") {
    MX_THROW(dmlc::ValueError) << "profiler.Marker.mark: scope must be one of global, process, "
                                  "thread, task, marker; got '" << s << "'";
  }
  if (Recording()) {
    Profiler::Get()->RecordMarker(d->name + ",instant_marker", instant_marker_name, s);
  }
  API_END();
}

int MXGetEnv(const char* name, const char** value) {
  API_BEGIN();
  if (name == nullptr) mxnet::c_api::ThrowNullHandle("variable name");
  *value = std::getenv(name);
  API_END();
}

int MXSetEnv(const char* name, const char* value) {
  API_BEGIN();
  if (name == nullptr) mxnet::c_api::ThrowNullHandle("variable name");
  if (value == nullptr) {
    ::unsetenv(name);
  } else if (::setenv(name, value, 1) != 0) {
    MX_THROW(dmlc::ValueError) << "setenv: cannot set " << name;
  }
  API_END();
}
