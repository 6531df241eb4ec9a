/*!
 * \file mpi_job.cc
 * \brief The job of a 'dist_*' KVStore on MPI (Open MPI from Debian): MPI started once per
 *        process, the ranks and roles, the agreement step and its watchdog, the chunked
 *        collectives, and the exit agreement (mpi_job.h).
 *
 * Processes: every process of the job is an MPI rank; DMLC_ROLE=server ranks (started by
 * `tools/launch.py -s N`, as MXNet 1.x's servers were) only serve commands, the others are the
 * workers, which sum with MPI_Allreduce among themselves.
 */
#include "./mpi_job.h"

#if MXNET_USE_MPI
#include <dlfcn.h>
#include <dmlc/logging.h>
#include <mshadow/base.h>
#include <mxnet/base.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <sstream>
#include <thread>

#include "./collective.h"

namespace mxnet {
namespace kvstore {
namespace mpi {

void FinishJob();

const char* OpName(int64_t op) {
  switch (op) {
    case kOpInit: return "init";
    case kOpPush: return "push";
    case kOpBarrier: return "barrier";
    case kOpExit: return "exit (it has finished)";
    case kOpPull: return "pull";
    default: return "an unknown operation";
  }
}

void CheckMPI(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  MX_THROW(dmlc::Error) << "KVStore: " << what << " failed: " << std::string(msg, len);
}

namespace {

double EnvSeconds(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const double s = std::strtod(v, &end);
  if (end == v || s <= 0) {
    MX_THROW(dmlc::ValueError) << name << "='" << v << "' is not a positive number of seconds";
  }
  return s;
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void SumHalves(void* in, void* inout, int* len, MPI_Datatype*) {
  const uint16_t* a = static_cast<const uint16_t*>(in);
  uint16_t* b = static_cast<uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = FromFloat(ToFloat(a[i]) + ToFloat(b[i]));
}

float HalfToFloat(uint16_t h) {
  mshadow::half::half_t v;
  std::memcpy(&v, &h, 2);
  return static_cast<float>(v);
}
uint16_t FloatToHalf(float f) {
  const mshadow::half::half_t v(f);
  uint16_t h;
  std::memcpy(&h, &v, 2);
  return h;
}
float Bf16ToFloat(uint16_t h) {
  const uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint16_t FloatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

Job* g_job = nullptr;

/*! \brief The MPI type and sum for a dtype. */
void TypeAndSum(const Job& job, int dtype, MPI_Datatype* type, MPI_Op* op) {
  *op = MPI_SUM;
  *type = MPI_BYTE;
  switch (dtype) {
    case mshadow::kFloat32: *type = MPI_FLOAT; return;
    case mshadow::kFloat64: *type = MPI_DOUBLE; return;
    case mshadow::kFloat16: *type = MPI_UINT16_T; *op = job.half_sum; return;
    case mshadow::kBfloat16: *type = MPI_UINT16_T; *op = job.bf16_sum; return;
    case mshadow::kUint8: *type = MPI_UINT8_T; return;
    case mshadow::kInt8: *type = MPI_INT8_T; return;
    case mshadow::kInt16: *type = MPI_INT16_T; return;
    case mshadow::kUint16: *type = MPI_UINT16_T; return;
    case mshadow::kInt32: *type = MPI_INT32_T; return;
    case mshadow::kUint32: *type = MPI_UINT32_T; return;
    case mshadow::kInt64: *type = MPI_INT64_T; return;
    case mshadow::kUint64: *type = MPI_UINT64_T; return;
    case mshadow::kBool: *type = MPI_C_BOOL; *op = MPI_LOR; return;
    default:
      MX_THROW(dmlc::TypeError) << "KVStore: dtype " << mshadow::dtype_string(dtype)
                                << " cannot be summed across workers";
  }
}


/*!
 * \brief Watches the collective this process is in: a warning every warn_s seconds, and after
 *        timeout_s the process exits (mpirun then ends the job) with a message. A thread of
 *        its own, so the collectives themselves stay plain blocking MPI calls.
 */
class Watchdog {
 public:
  static Watchdog& Get(const Job& job) {
    static Watchdog* dog = new Watchdog(job);  // never destroyed: its thread outlives exit
    return *dog;
  }
  void Enter(const Call& call, const std::string& store) {
    std::lock_guard<std::mutex> lock(mu_);
    what_ = std::string(OpName(call.op)) +
            (call.op == kOpBarrier || call.op == kOpExit ? "" : " of key " + call.key);
    store_ = store;
    since_ = Clock::now();
    busy_ = true;
  }
  void Leave() {
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  explicit Watchdog(const Job& job) : job_(job) {
    std::thread([this]() { Run(); }).detach();
  }
  void Run() {
    const auto tick = std::chrono::duration<double>(std::min(1.0, job_.timeout_s / 4));
    double warned = 0;
    for (;;) {
      std::this_thread::sleep_for(tick);
      std::lock_guard<std::mutex> lock(mu_);
      if (!busy_) {
        warned = 0;
        continue;
      }
      const double waited = std::chrono::duration<double>(Clock::now() - since_).count();
      if (waited >= job_.timeout_s) {
        std::fprintf(stderr,
                     "KVStore %s: worker %d of %d waited %.0f s in %s for the other workers "
                     "and gives up (MXNET_KVSTORE_TIMEOUT=%g): another worker is stuck or "
                     "stopped calling the store. Ending the job.\n",
                     store_.c_str(), job_.rank, job_.size, waited, what_.c_str(),
                     job_.timeout_s);
        std::fflush(stderr);
        std::_Exit(1);
      }
      if (waited >= warned + job_.warn_s) {
        warned += job_.warn_s;
        LOG(WARNING) << "KVStore " << store_ << ": worker " << job_.rank << " of " << job_.size
                     << " has waited " << static_cast<int>(waited) << " s in " << what_
                     << " for the other workers";
      }
    }
  }
  const Job& job_;
  std::mutex mu_;
  bool busy_ = false;
  Clock::time_point since_;
  std::string what_, store_;
};

/*!
 * \brief The thread that makes the workers' collective MPI calls scheduled through the engine:
 *        they may block for as long as the slowest worker takes, which must not hold an engine
 *        worker (the default engine has one per CPU device) and so stall the computation.
 */
class CommThread {
 public:
  static CommThread& Get() {
    static CommThread* thread = new CommThread();  // never destroyed: its thread outlives exit
    return *thread;
  }
  void Post(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
  }

 private:
  CommThread() {
    std::thread([this]() { Run(); }).detach();
  }
  void Run() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this]() { return !tasks_.empty(); });
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
};

}  // namespace

void ScheduleCollective(Job& job, const char* name, std::vector<engine::VarHandle> reads,
                        std::vector<engine::VarHandle> writes, std::function<void()> fn) {
  writes.push_back(job.comm_var);
  Engine::Get()->PushAsync(
      [fn](RunContext, Engine::CallbackOnComplete done) {
        CommThread::Get().Post([fn, done]() {
          try {
            fn();
          } catch (const dmlc::Error& e) {
            done(&e);
            return;
          } catch (const std::exception& e) {
            const dmlc::Error err(e.what());
            done(&err);
            return;
          }
          done();
        });
      },
      Context::CPU(), reads, writes, FnProperty::kNormal, 0, name);
}

void RunCollective(Job& job, const char* name, std::function<void()> fn) {
  ScheduleCollective(job, name, {}, {}, std::move(fn));
  Engine::Get()->WaitForVar(job.comm_var);
}

Job& TheJob() {
  static std::mutex start_mu;
  std::lock_guard<std::mutex> lock(start_mu);
  if (g_job != nullptr) return *g_job;
  // Open MPI opens its transport plugins with dlopen, and they need libmpi's symbols in the
  // global namespace; Python's ctypes loads this library (and libmpi with it) RTLD_LOCAL.
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&MPI_Init_thread), &info) != 0 && info.dli_fname) {
    dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  }
  int inited = 0;
  MPI_Initialized(&inited);
  // The collectives run on a thread of their own (CommThread), the server requests and the
  // exit agreement on the main thread, one at a time (Job::mu): MPI_THREAD_SERIALIZED.
  int provided = 0;
  if (!inited) {
    CheckMPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init");
  } else {
    MPI_Query_thread(&provided);
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    MX_THROW(dmlc::Error) << "KVStore: this MPI library does not support calls from several "
                          << "threads (MPI_THREAD_SERIALIZED)";
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::unique_ptr<Job> job(new Job());
  int world_size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &job->world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const std::string role = ProcessRole();
  if (role != "worker" && role != "server") {
    MX_THROW(dmlc::ValueError) << "DMLC_ROLE='" << role << "': a dist KVStore on MPI has "
                               << "workers and servers only (no scheduler is needed)";
  }
  job->is_worker = role == "worker";
  std::vector<int> is_worker(world_size);
  int mine = job->is_worker ? 1 : 0;
  CheckMPI(MPI_Allgather(&mine, 1, MPI_INT, is_worker.data(), 1, MPI_INT, MPI_COMM_WORLD),
           "exchanging roles");
  job->num_workers_total = 0;
  for (int r = 0; r < world_size; ++r) {
    if (is_worker[r]) {
      ++job->num_workers_total;
    } else {
      job->servers.push_back(r);
    }
  }
  CheckMPI(MPI_Comm_split(MPI_COMM_WORLD, mine, job->world_rank, &job->workers),
           "splitting the workers");
  MPI_Comm_set_errhandler(job->workers, MPI_ERRORS_RETURN);
  MPI_Comm_rank(job->workers, &job->rank);
  MPI_Comm_size(job->workers, &job->size);
  // 1.x launch scripts state the job's shape: it must be the job MPI started.
  const char* nw = std::getenv("DMLC_NUM_WORKER");
  if (nw != nullptr && *nw != '\0' && std::atoi(nw) != job->num_workers_total) {
    MX_THROW(dmlc::ValueError)
        << "DMLC_NUM_WORKER=" << nw << " but this MPI job has " << job->num_workers_total
        << " worker process(es): start the workers together with tools/launch.py or mpirun";
  }
  const char* ns = std::getenv("DMLC_NUM_SERVER");
  if (ns != nullptr && *ns != '\0' && !job->servers.empty() &&
      std::atoi(ns) != static_cast<int>(job->servers.size())) {
    MX_THROW(dmlc::ValueError) << "DMLC_NUM_SERVER=" << ns << " but this MPI job has "
                               << job->servers.size() << " server process(es)";
  }
  CheckMPI(MPI_Op_create(&SumHalves<HalfToFloat, FloatToHalf>, 1,
                         &job->half_sum), "creating the float16 sum");
  CheckMPI(MPI_Op_create(&SumHalves<Bf16ToFloat, FloatToBf16>, 1, &job->bf16_sum),
           "creating the bfloat16 sum");
  job->timeout_s = EnvSeconds("MXNET_KVSTORE_TIMEOUT", 300);
  job->warn_s = std::min(30.0, job->timeout_s);
  job->comm_var = Engine::Get()->NewVariable();  // never deleted: lives as long as the job
  g_job = job.release();
  std::atexit(FinishJob);
  return *g_job;
}

int64_t KeyHash(const std::string& key) {
  return static_cast<int64_t>(std::hash<std::string>()(key) & 0x3fffffffffffffffull);
}

Watched::Watched(const Job& job, const Call& call, const std::string& store) {
  Watchdog::Get(job).Enter(call, store);
}
Watched::~Watched() { Watchdog::Get(*g_job).Leave(); }

int64_t Agree(Job& job, const Call& call, const std::string& store) {
  const int64_t kn = 6;  // the compared fields, then place
  int64_t mine[2 * kn] = {call.op, KeyHash(call.key), call.count, call.dtype, call.stype,
                          call.place};
  for (int i = 0; i < kn; ++i) mine[kn + i] = -mine[i];
  int64_t all[2 * kn];
  CheckMPI(MPI_Allreduce(mine, all, 2 * kn, MPI_INT64_T, MPI_MAX, job.workers),
           "agreeing with the other workers");
  bool same = true;
  for (int i = 0; i < kn - 1; ++i) same = same && all[i] == -all[kn + i];
  if (same) return -all[2 * kn - 1];
  // Another worker's value of a field that differs (the max or the min, whichever is not ours).
  auto other = [&](int i) { return all[i] != mine[i] ? all[i] : -all[kn + i]; };
  std::ostringstream os;
  os << "KVStore " << store << ": the workers disagree. Worker " << job.rank << " of "
     << job.size << " runs " << OpName(call.op);
  if (call.op != kOpExit && call.op != kOpBarrier) os << " of key " << call.key;
  if (other(0) != call.op) {
    os << " while another worker runs " << OpName(other(0)) << ".";
    if (other(0) == kOpExit || call.op == kOpExit) {
      os << " Every worker must make the same sequence of init/push/pull calls: workers that "
         << "train on different numbers of batches must agree on a common count (e.g. "
         << "shard the data evenly, or stop at the minimum over workers).";
    }
  } else if (other(1) != mine[1]) {
    os << " while another worker does it for a different key: every worker must push the "
       << "same keys in the same order.";
  } else if (other(2) != call.count) {
    os << " with " << call.count << " elements per "
       << (call.stype == kRowSparseStorage ? "row" : "value") << " while another worker has "
       << other(2) << ".";
  } else if (other(3) != call.dtype) {
    os << " with dtype " << mshadow::dtype_string(static_cast<int>(call.dtype))
       << " while another worker has " << mshadow::dtype_string(static_cast<int>(other(3)))
       << ".";
  } else {
    os << " with a " << (call.stype == kRowSparseStorage ? "row_sparse" : "dense")
       << " value while another worker's storage type differs.";
  }
  MX_THROW(dmlc::ValueError) << os.str();
  return 0;  // not reached
}

constexpr size_t kMaxChunk = size_t(1) << 30;  // MPI counts are ints

void AllreduceChunked(Job& job, const void* send, void* recv, size_t n, int dtype) {
  MPI_Datatype type = MPI_BYTE;
  MPI_Op op = MPI_SUM;
  TypeAndSum(job, dtype, &type, &op);
  const size_t elem = mshadow::mshadow_sizeof(dtype);
  for (size_t off = 0; off < n; off += kMaxChunk) {
    const int count = static_cast<int>(std::min(kMaxChunk, n - off));
    const void* s = send == recv ? MPI_IN_PLACE : static_cast<const char*>(send) + off * elem;
    CheckMPI(MPI_Allreduce(s, static_cast<char*>(recv) + off * elem, count, type, op,
                           job.workers), "MPI_Allreduce");
  }
}

void BcastChunked(Job& job, void* buf, size_t bytes) {
  for (size_t off = 0; off < bytes; off += kMaxChunk) {
    const int count = static_cast<int>(std::min(kMaxChunk, bytes - off));
    CheckMPI(MPI_Bcast(static_cast<char*>(buf) + off, count, MPI_BYTE, 0, job.workers),
             "MPI_Bcast");
  }
}

/*! \brief Gathers every worker's bytes; returns them concatenated and each worker's size. */
std::vector<char> AllgatherBytes(Job& job, const void* data, size_t bytes,
                                 std::vector<int64_t>* sizes) {
  int64_t mine = static_cast<int64_t>(bytes);
  sizes->assign(job.size, 0);
  CheckMPI(MPI_Allgather(&mine, 1, MPI_INT64_T, sizes->data(), 1, MPI_INT64_T, job.workers),
           "MPI_Allgather");
  std::vector<int> counts(job.size), displs(job.size);
  int64_t total = 0;
  for (int r = 0; r < job.size; ++r) {
    if ((*sizes)[r] > INT_MAX || total > INT_MAX - (*sizes)[r]) {
      MX_THROW(dmlc::ValueError) << "KVStore: a row_sparse push of more than 2 GiB in all "
                                 << "cannot be gathered; push fewer rows at a time";
    }
    counts[r] = static_cast<int>((*sizes)[r]);
    displs[r] = static_cast<int>(total);
    total += (*sizes)[r];
  }
  std::vector<char> out(std::max<int64_t>(total, 1));
  CheckMPI(MPI_Allgatherv(data, static_cast<int>(bytes), MPI_BYTE, out.data(), counts.data(),
                          displs.data(), MPI_BYTE, job.workers), "MPI_Allgatherv");
  return out;
}

void FinishJob() {
  Job* job = g_job;
  if (job == nullptr) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (job->is_worker) {
    try {
      std::lock_guard<std::mutex> lock(job->mu);
      const Call call{kOpExit, "", 0, 0, 0};
      Watched watched(*job, call, "dist");
      if (job->size > 1) Agree(*job, call, "dist");
      int unused = 0;
      for (int server : job->servers) {
        MPI_Send(&unused, 1, MPI_INT, server, kTagStop, MPI_COMM_WORLD);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\nAborting the job.\n", e.what());
      std::fflush(stderr);
      // Give the other workers a moment to report their side before the job ends.
      std::this_thread::sleep_for(std::chrono::seconds(1));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Finalize();
}

}  // namespace mpi
}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_USE_MPI
