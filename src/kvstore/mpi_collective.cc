/*!
 * \file mpi_collective.cc
 * \brief The Collective of a 'dist_*' KVStore on MPI (Open MPI from Debian).
 *
 * Processes: every process of the job is an MPI rank; DMLC_ROLE=server ranks (started by
 * `tools/launch.py -s N`, as MXNet 1.x's servers were) only serve commands, the others are the
 * workers, which sum with MPI_Allreduce among themselves.
 *
 * Safety: every collective starts with a small agreement step in which each worker states what
 * it is doing (operation, key, element count, dtype). Workers that disagree (different keys,
 * shapes, or one worker already exiting while another still pushes: different numbers of
 * batches) get an error naming both sides instead of a hang or a silently wrong sum. The
 * agreement is non-blocking with a deadline: a worker left waiting longer than
 * MXNET_KVSTORE_TIMEOUT seconds (default 300; a warning every 30 s before that) aborts the job
 * with a message. A worker that dies makes mpirun end the job.
 */
#include "./collective.h"

#if MXNET_USE_MPI
#include <dlfcn.h>
// The C API only: MPI's deprecated C++ bindings would need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>
#endif

#include <dmlc/logging.h>

namespace mxnet {
namespace kvstore {

std::string ProcessRole() {
  const char* role = std::getenv("DMLC_ROLE");
  return role == nullptr || *role == '\0' ? "worker" : role;
}

#if !MXNET_USE_MPI

std::unique_ptr<Collective> CreateCollective(const std::string& type) {
  MX_THROW(dmlc::NotImplementedError)
      << "KVStore type '" << type << "' needs MPI, which this build does not include: install "
      << "Open MPI (Debian: libopenmpi-dev openmpi-bin) and rebuild (tools/setup.sh)";
  return nullptr;
}

#else  // MXNET_USE_MPI

namespace {

// ---- the job: MPI started once per process ----------------------------------------------

enum Tag : int {
  kTagStop = 101, kTagCommand = 102,                     // worker -> server
  kTagInit = 103, kTagPush = 104, kTagPull = 105,        // worker -> server, answered by
  kTagReply = 106                                        // server -> worker
};
enum Op : int64_t { kOpInit = 1, kOpPush = 2, kOpBarrier = 3, kOpExit = 4, kOpPull = 5 };

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

struct Job {
  MPI_Comm workers = MPI_COMM_NULL;  // the worker ranks
  int world_rank = 0;
  int rank = 0;                      // among the workers
  int size = 1;
  bool is_worker = true;
  std::vector<int> servers;          // world ranks of the server processes
  int num_workers_total = 1;
  MPI_Op half_sum = MPI_OP_NULL;
  MPI_Op bf16_sum = MPI_OP_NULL;
  double timeout_s = 300;
  double warn_s = 30;
  std::mutex mu;                     // MPI calls are serialized (MPI_THREAD_SERIALIZED)
};

Job* g_job = nullptr;

void FinishJob();

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
  if (!inited) {
    int provided = 0;
    CheckMPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init");
    if (provided < MPI_THREAD_SERIALIZED) {
      MX_THROW(dmlc::Error) << "KVStore: this MPI library does not support calls from several "
                            << "threads (MPI_THREAD_SERIALIZED)";
    }
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
  g_job = job.release();
  std::atexit(FinishJob);
  return *g_job;
}

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

/*! \brief One worker's statement of the collective it is entering. */
struct Call {
  int64_t op;
  std::string key;     // for messages
  int64_t count;       // elements (dense) or row length (row_sparse)
  int64_t dtype;
  int64_t stype;
};

int64_t KeyHash(const std::string& key) {
  return static_cast<int64_t>(std::hash<std::string>()(key) & 0x3fffffffffffffffull);
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

/*! \brief Marks the collective section of one call for the watchdog. */
class Watched {
 public:
  Watched(const Job& job, const Call& call, const std::string& store)
      : dog_(Watchdog::Get(job)) {
    dog_.Enter(call, store);
  }
  ~Watched() { dog_.Leave(); }

 private:
  Watchdog& dog_;
};

/*!
 * \brief Every worker states `call`; returns when all stated the same, raises ValueError naming
 *        the difference otherwise (on every worker, so all of them stop).
 */
void Agree(Job& job, const Call& call, const std::string& store) {
  const int64_t kn = 5;
  int64_t mine[2 * kn] = {call.op, KeyHash(call.key), call.count, call.dtype, call.stype};
  for (int i = 0; i < kn; ++i) mine[kn + i] = -mine[i];
  int64_t all[2 * kn];
  CheckMPI(MPI_Allreduce(mine, all, 2 * kn, MPI_INT64_T, MPI_MAX, job.workers),
           "agreeing with the other workers");
  bool same = true;
  for (int i = 0; i < kn; ++i) same = same && all[i] == -all[kn + i];
  if (same) return;
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
      for (int server : job->servers) MPI_Send(&unused, 1, MPI_INT, server, kTagStop, MPI_COMM_WORLD);
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

// ---- the Collective ------------------------------------------------------------------------

class MpiCollective : public Collective {
 public:
  explicit MpiCollective(const std::string& type) : type_(type), job_(TheJob()) {
    if (type.find("async") != std::string::npos && job_.is_worker && job_.servers.empty()) {
      MX_THROW(dmlc::ValueError)
          << "KVStore " << type << " keeps the values on server processes, and this job has "
          << "none: launch it with servers (tools/launch.py -n " << job_.size << " -s 1 ...)";
    }
  }

  int rank() const override { return job_.rank; }
  int size() const override { return job_.size; }

  void Broadcast(const std::string& key, NDArray* stored) override {
    RequireWorker("init");
    stored->WaitToWrite();
    std::lock_guard<std::mutex> lock(job_.mu);
    const bool sparse = stored->storage_type() == kRowSparseStorage;
    const Call call{kOpInit, key, sparse ? RowLength(stored->shape()) : int64_t(stored->Size()),
                     stored->dtype(), stored->storage_type()};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    if (job_.size == 1) return;
    if (!sparse) {
      if (stored->Size() != 0) {
        BcastChunked(job_, stored->data().dptr_,
                     stored->Size() * mshadow::mshadow_sizeof(stored->dtype()));
      }
      return;
    }
    // row_sparse: rank 0's rows and their data.
    int64_t nrows = static_cast<int64_t>(stored->sparse_data().shape()[0]);
    CheckMPI(MPI_Bcast(&nrows, 1, MPI_INT64_T, 0, job_.workers), "MPI_Bcast");
    std::vector<int64_t> rows = job_.rank == 0 ? SparseAuxAsInt64(*stored, 0)
                                               : std::vector<int64_t>(nrows);
    if (nrows != 0) BcastChunked(job_, rows.data(), nrows * sizeof(int64_t));
    TShape data_shape = stored->shape();
    data_shape[0] = nrows;
    NDArray data(data_shape, Context::CPU(), false, stored->dtype());
    if (job_.rank == 0) {
      CopyFromTo(stored->sparse_data(), data);
      data.WaitToRead();
    }
    if (data.Size() != 0) {
      BcastChunked(job_, data.data().dptr_, data.Size() * mshadow::mshadow_sizeof(data.dtype()));
    }
    NDArray aux(TShape(1, nrows), Context::CPU(), false, mshadow::kInt64);
    if (nrows != 0) std::copy(rows.begin(), rows.end(), aux.data().dptr<int64_t>());
    stored->SetSparseParts(data, {aux});
  }

  NDArray Sum(const std::string& key, const NDArray& merged, const NDArray& into) override {
    RequireWorker("push");
    if (merged.storage_type() == kRowSparseStorage) {
      merged.WaitToRead();
      std::lock_guard<std::mutex> lock(job_.mu);
      return SumRowSparse(key, merged);
    }
    if (compression_threshold_ > 0 && merged.dtype() == mshadow::kFloat32) {
      merged.WaitToRead();
      std::lock_guard<std::mutex> lock(job_.mu);
      return SumCompressed(key, merged);
    }
    if (job_.size == 1) {
      SumInto(key, merged, merged);  // still agrees (and checks) with itself
      return merged;
    }
    const bool fits = !into.is_none() && into.storage_type() == kDefaultStorage &&
                      into.shape() == merged.shape() && into.dtype() == merged.dtype() &&
                      into.ctx().dev_mask() == cpu::kDevMask && !into.SharesChunk(merged);
    NDArray out = fits ? into : NDArray(merged.shape(), Context::CPU(), false, merged.dtype());
    SumInto(key, merged, out);
    return out;
  }

  void SumInto(const std::string& key, const NDArray& value, const NDArray& dst) override {
    RequireWorker("push");
    CheckDense("pushpull", key, value, dst);
    value.WaitToRead();
    dst.WaitToWrite();
    std::lock_guard<std::mutex> lock(job_.mu);
    const size_t n = value.Size();
    const Call call{kOpPush, key, int64_t(n), value.dtype(), kDefaultStorage};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    if (n == 0) return;
    if (job_.size == 1) {
      if (!value.SharesChunk(dst)) std::memcpy(dst.data().dptr_, value.data().dptr_, n *
                                               mshadow::mshadow_sizeof(value.dtype()));
      return;
    }
    AllreduceChunked(job_, value.data().dptr_, dst.data().dptr_, n, value.dtype());
  }

  void BroadcastInto(const std::string& key, const NDArray& value, const NDArray& dst) override {
    RequireWorker("broadcast");
    CheckDense("broadcast", key, value, dst);
    value.WaitToRead();
    dst.WaitToWrite();
    std::lock_guard<std::mutex> lock(job_.mu);
    const size_t bytes = value.Size() * mshadow::mshadow_sizeof(value.dtype());
    const Call call{kOpInit, key, int64_t(value.Size()), value.dtype(), kDefaultStorage};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    if (bytes == 0) return;
    if (!value.SharesChunk(dst)) std::memcpy(dst.data().dptr_, value.data().dptr_, bytes);
    if (job_.size > 1) BcastChunked(job_, dst.data().dptr_, bytes);
  }

  void Barrier() override {
    RequireWorker("barrier");
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpBarrier, "", 0, 0, 0};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
  }

  void SetGradientCompression(
      const std::vector<std::pair<std::string, std::string>>& params) override {
    std::string kind;
    float threshold = 0.5f;
    for (const auto& kv : params) {
      if (kv.first == "type") {
        kind = kv.second;
      } else if (kv.first == "threshold") {
        char* end = nullptr;
        threshold = std::strtof(kv.second.c_str(), &end);
        if (end == kv.second.c_str() || *end != '\0' || !(threshold > 0)) {
          MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": gradient compression "
                                     << "threshold must be a positive number, got '"
                                     << kv.second << "'";
        }
      } else {
        MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": unknown gradient compression "
                                   << "parameter '" << kv.first << "' (expected type, threshold)";
      }
    }
    if (kind != "2bit") {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": gradient compression type '"
                                 << kind << "' is not supported; use {'type': '2bit', "
                                 << "'threshold': t}";
    }
    compression_threshold_ = threshold;
  }

  void SendCommandToServers(int head, const std::string& body) override {
    std::lock_guard<std::mutex> lock(job_.mu);
    std::vector<char> msg(sizeof(int) + body.size());
    std::memcpy(msg.data(), &head, sizeof(int));
    std::memcpy(msg.data() + sizeof(int), body.data(), body.size());
    if (msg.size() > INT_MAX) MX_THROW(dmlc::ValueError) << "KVStore: command too large";
    for (int server : job_.servers) {
      // Synchronous: the server has taken the command before this returns, so it comes
      // before whatever another worker sends after a barrier with this one.
      CheckMPI(MPI_Ssend(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, server,
                         kTagCommand, MPI_COMM_WORLD), "sending a command to a server");
    }
  }

  void ServerInit(const std::string& key, const NDArray& value) override {
    RequireWorker("init");
    if (job_.rank == 0) {
      const bool sparse = value.storage_type() == kRowSparseStorage;
      if (!sparse) CheckDense("init", key, value, value);
      value.WaitToRead();
      std::lock_guard<std::mutex> lock(job_.mu);
      const Call call{kOpInit, key, int64_t(value.Size()), value.dtype(), value.storage_type()};
      Watched watched(job_, call, type_);
      Request(kTagInit, key, sparse ? EncodeRowSparse(key, value) : EncodeDense(key, value));
    }
    Barrier();  // the value is on its server before any worker pulls it
  }

  void ServerPush(const std::string& key, const NDArray& merged) override {
    RequireWorker("push");
    const bool sparse = merged.storage_type() == kRowSparseStorage;
    if (!sparse) CheckDense("push", key, merged, merged);
    merged.WaitToRead();
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpPush, key, int64_t(merged.Size()), merged.dtype(), merged.storage_type()};
    Watched watched(job_, call, type_);
    const bool compress = compression_threshold_ > 0 && merged.dtype() == mshadow::kFloat32;
    if (sparse) {
      if (compress) {
        // As MXNet 1.x: the 2-bit codes cover every element, which a row subset has not.
        MX_THROW(dmlc::NotImplementedError)
            << "KVStore " << type_ << " push of key " << key << ": gradient compression of "
            << "row_sparse values is not supported";
      }
      Request(kTagPush, key, EncodeRowSparse(key, merged));
      return;
    }
    if (compress) {
      // The 2-bit codes travel, preceded by the threshold; the server expands them.
      const std::vector<uint32_t> codes = Quantize(key, merged);
      Request(kTagPush, key,
              Encode(key, merged.shape(), merged.dtype(), kCompressed,
                     {{&compression_threshold_, sizeof(float)},
                      {codes.data(), codes.size() * sizeof(uint32_t)}}));
      return;
    }
    Request(kTagPush, key, EncodeDense(key, merged));
  }

  void ServerPull(const std::string& key, const NDArray& dst) override {
    RequireWorker("pull");
    CheckDense("pull", key, dst, dst);
    dst.WaitToWrite();
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpPull, key, int64_t(dst.Size()), dst.dtype(), kDefaultStorage};
    Watched watched(job_, call, type_);
    const std::vector<char> reply =
        Request(kTagPull, key, Encode(key, dst.shape(), dst.dtype(), 0, {}));
    const size_t bytes = dst.Size() * mshadow::mshadow_sizeof(dst.dtype());
    if (reply.size() != bytes) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " pull of key " << key << ": the "
                                 << "server holds " << reply.size() << " bytes, the output has "
                                 << bytes << " (" << dst.shape() << " "
                                 << mshadow::dtype_string(dst.dtype()) << ")";
    }
    if (bytes != 0) std::memcpy(dst.data().dptr_, reply.data(), bytes);
  }

  void ServerPullRows(const std::string& key, const TShape& shape,
                      const std::vector<int64_t>& rows, const NDArray& dst) override {
    RequireWorker("row_sparse_pull");
    TShape rows_shape = shape;
    if (rows_shape.ndim() >= 1) rows_shape[0] = static_cast<int64_t>(rows.size());
    if (dst.storage_type() != kDefaultStorage || dst.ctx().dev_mask() != cpu::kDevMask ||
        dst.shape() != rows_shape) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " row_sparse_pull of key " << key
                                 << ": the rows' buffer must be a dense CPU array of shape "
                                 << rows_shape << ", got " << dst.shape();
    }
    dst.WaitToWrite();
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpPull, key, int64_t(dst.Size()), dst.dtype(), kRowSparseStorage};
    Watched watched(job_, call, type_);
    const int64_t nrows = static_cast<int64_t>(rows.size());
    const std::vector<char> reply =
        Request(kTagPull, key,
                Encode(key, shape, dst.dtype(), kRows,
                       {{&nrows, sizeof(int64_t)}, {rows.data(), rows.size() * sizeof(int64_t)}}));
    const size_t bytes = dst.Size() * mshadow::mshadow_sizeof(dst.dtype());
    if (reply.size() != bytes) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " row_sparse_pull of key " << key
                                 << ": the server sent " << reply.size() << " bytes for "
                                 << nrows << " rows, expected " << bytes;
    }
    if (bytes != 0) std::memcpy(dst.data().dptr_, reply.data(), bytes);
  }

  void RunServer(const std::function<void(int, const std::string&)>& controller,
                 const ServerUpdater& apply) override {
    if (job_.is_worker) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": RunServer is for server "
                                 << "processes (DMLC_ROLE=server); this process is a worker";
    }
    std::unordered_map<std::string, NDArray> values;  // this server's keys
    int stopped = 0;
    while (stopped < job_.num_workers_total) {
      MPI_Status status;
      int ready = 0;
      {
        std::lock_guard<std::mutex> lock(job_.mu);
        CheckMPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status),
                 "server waiting for messages");
      }
      if (!ready) {  // idle servers must not take the workers' cores
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        continue;
      }
      int bytes = 0;
      MPI_Get_count(&status, MPI_BYTE, &bytes);
      std::vector<char> msg(std::max(bytes, 1));
      CheckMPI(MPI_Recv(msg.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE), "server receiving");
      msg.resize(bytes);
      if (status.MPI_TAG == kTagStop) {
        ++stopped;
      } else if (status.MPI_TAG == kTagCommand && bytes >= static_cast<int>(sizeof(int))) {
        int head = 0;
        std::memcpy(&head, msg.data(), sizeof(int));
        controller(head, std::string(msg.data() + sizeof(int), bytes - sizeof(int)));
      } else if (status.MPI_TAG == kTagInit || status.MPI_TAG == kTagPush ||
                 status.MPI_TAG == kTagPull) {
        std::vector<char> reply;
        int64_t ok = 1;
        try {
          reply = Serve(status.MPI_TAG, msg, &values, apply);
        } catch (const std::exception& e) {
          ok = 0;
          reply.assign(e.what(), e.what() + std::strlen(e.what()));
        }
        std::vector<char> out(sizeof(int64_t) + reply.size());
        std::memcpy(out.data(), &ok, sizeof(int64_t));
        if (!reply.empty()) std::memcpy(out.data() + sizeof(int64_t), reply.data(), reply.size());
        std::lock_guard<std::mutex> lock(job_.mu);
        CheckMPI(MPI_Send(out.data(), static_cast<int>(out.size()), MPI_BYTE, status.MPI_SOURCE,
                          kTagReply, MPI_COMM_WORLD), "server replying");
      }
    }
  }

 private:
  // A request: [dtype, ndim, key length, flags, shape...] as int64, the key, then the payload:
  //   dense value:              its bytes (init, push; none for a pull),
  //   kCompressed (push):       a float threshold and the 2-bit codes,
  //   kRowSparse (init, push):  int64 row count, the int64 row ids, the rows' bytes,
  //   kRows (pull):             int64 row count and the int64 row ids wanted.
  enum Flags : int64_t { kCompressed = 1, kRowSparse = 2, kRows = 4 };
  struct Part {
    const void* data;
    size_t bytes;
  };

  static std::vector<char> Encode(const std::string& key, const TShape& shape, int dtype,
                                  int64_t flags, std::initializer_list<Part> parts) {
    std::vector<int64_t> head = {dtype, shape.ndim(), static_cast<int64_t>(key.size()), flags};
    for (int i = 0; i < shape.ndim(); ++i) head.push_back(shape[i]);
    size_t bytes = head.size() * sizeof(int64_t) + key.size();
    for (const Part& p : parts) bytes += p.bytes;
    std::vector<char> msg(bytes);
    char* out = msg.data();
    std::memcpy(out, head.data(), head.size() * sizeof(int64_t));
    out += head.size() * sizeof(int64_t);
    std::memcpy(out, key.data(), key.size());
    out += key.size();
    for (const Part& p : parts) {
      if (p.bytes != 0) std::memcpy(out, p.data, p.bytes);
      out += p.bytes;
    }
    return msg;
  }

  static std::vector<char> EncodeDense(const std::string& key, const NDArray& value) {
    return Encode(key, value.shape(), value.dtype(), 0,
                  {{value.Size() ? value.data().dptr_ : nullptr,
                    value.Size() * mshadow::mshadow_sizeof(value.dtype())}});
  }

  /*! \brief A row_sparse value (already readable) as its row ids and rows. */
  static std::vector<char> EncodeRowSparse(const std::string& key, const NDArray& value) {
    const std::vector<int64_t> rows = SparseAuxAsInt64(value, 0);
    const int64_t nrows = static_cast<int64_t>(rows.size());
    const NDArray& data = value.sparse_data();
    return Encode(key, value.shape(), value.dtype(), kRowSparse,
                  {{&nrows, sizeof(int64_t)},
                   {rows.data(), rows.size() * sizeof(int64_t)},
                   {data.Size() ? data.data().dptr_ : nullptr,
                    data.Size() * mshadow::mshadow_sizeof(value.dtype())}});
  }

  /*! \brief Worker side: one request to the key's server; returns the reply's payload. */
  std::vector<char> Request(int tag, const std::string& key, const std::vector<char>& msg) {
    const int server = job_.servers[static_cast<size_t>(KeyHash(key)) % job_.servers.size()];
    if (msg.size() > INT_MAX) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": key " << key << " is larger than "
                                 << "2 GiB, which one message to a server cannot carry";
    }
    CheckMPI(MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, server, tag,
                      MPI_COMM_WORLD), "sending to a server");
    MPI_Status status;
    CheckMPI(MPI_Probe(server, kTagReply, MPI_COMM_WORLD, &status), "waiting for a server");
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> reply(std::max(bytes, 1));
    CheckMPI(MPI_Recv(reply.data(), bytes, MPI_BYTE, server, kTagReply, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE), "receiving from a server");
    int64_t ok = 0;
    std::memcpy(&ok, reply.data(), sizeof(int64_t));
    std::vector<char> payload(reply.begin() + sizeof(int64_t), reply.begin() + bytes);
    if (!ok) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " server " << server << ": "
                                 << std::string(payload.begin(), payload.end());
    }
    return payload;
  }

  /*! \brief Reads `count` int64 row ids at data (after a count); checks them against shape. */
  static std::vector<int64_t> ParseRows(const std::string& key, const TShape& shape,
                                        const char* data, size_t bytes, int64_t* nrows) {
    if (bytes < sizeof(int64_t)) {
      MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request";
    }
    std::memcpy(nrows, data, sizeof(int64_t));
    if (*nrows < 0 || static_cast<size_t>(*nrows) > (bytes - sizeof(int64_t)) / sizeof(int64_t)) {
      MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request";
    }
    std::vector<int64_t> rows(static_cast<size_t>(*nrows));
    if (*nrows != 0) {
      std::memcpy(rows.data(), data + sizeof(int64_t), rows.size() * sizeof(int64_t));
    }
    for (int64_t r : rows) {
      if (r < 0 || shape.ndim() == 0 || r >= shape[0]) {
        MX_THROW(dmlc::ValueError) << "key " << key << " has " << (shape.ndim() ? shape[0] : 0)
                                   << " rows; row id " << r << " is out of range";
      }
    }
    return rows;
  }

  /*! \brief The row_sparse value of a kRowSparse payload. */
  static NDArray DecodeRowSparse(const std::string& key, const TShape& shape, int dtype,
                                 const char* data, size_t bytes) {
    int64_t nrows = 0;
    const std::vector<int64_t> rows = ParseRows(key, shape, data, bytes, &nrows);
    const size_t head = sizeof(int64_t) * (1 + rows.size());
    TShape data_shape = shape;
    data_shape[0] = nrows;
    NDArray values(data_shape, Context::CPU(), false, dtype);
    if (bytes - head != values.Size() * mshadow::mshadow_sizeof(dtype)) {
      MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request of "
                                 << bytes << " bytes for " << nrows << " rows";
    }
    if (values.Size() != 0) std::memcpy(values.data().dptr_, data + head, bytes - head);
    NDArray aux(TShape(1, nrows), Context::CPU(), false, mshadow::kInt64);
    if (nrows != 0) std::copy(rows.begin(), rows.end(), aux.data().dptr<int64_t>());
    NDArray out(kRowSparseStorage, shape, Context::CPU(), dtype);
    out.SetSparseParts(values, {aux});
    return out;
  }

  /*! \brief The rows `rows` of the (readable) stored value, densely; absent rows are zero. */
  static std::vector<char> ReadRows(const NDArray& stored, const std::vector<int64_t>& rows) {
    const size_t row_bytes = RowLength(stored.shape()) * mshadow::mshadow_sizeof(stored.dtype());
    std::vector<char> out(rows.size() * row_bytes, 0);
    if (row_bytes == 0) return out;
    if (stored.storage_type() != kRowSparseStorage) {
      const char* p = static_cast<const char*>(stored.data().dptr_);
      for (size_t i = 0; i < rows.size(); ++i) {
        std::memcpy(out.data() + i * row_bytes, p + rows[i] * row_bytes, row_bytes);
      }
      return out;
    }
    const std::vector<int64_t> have = SparseAuxAsInt64(stored, 0);
    if (have.empty()) return out;
    const char* p = static_cast<const char*>(stored.sparse_data().data().dptr_);
    for (size_t i = 0; i < rows.size(); ++i) {
      auto it = std::lower_bound(have.begin(), have.end(), rows[i]);
      if (it != have.end() && *it == rows[i]) {
        std::memcpy(out.data() + i * row_bytes, p + (it - have.begin()) * row_bytes, row_bytes);
      }
    }
    return out;
  }

  /*! \brief Server side: answers one init, push or pull; throws what the worker should see. */
  std::vector<char> Serve(int tag, const std::vector<char>& msg,
                          std::unordered_map<std::string, NDArray>* values,
                          const ServerUpdater& apply) {
    const int64_t* head = reinterpret_cast<const int64_t*>(msg.data());
    const int dtype = static_cast<int>(head[0]);
    const int ndim = static_cast<int>(head[1]);
    const size_t key_len = static_cast<size_t>(head[2]);
    const int64_t flags = head[3];
    TShape shape(ndim, 0);
    for (int i = 0; i < ndim; ++i) shape[i] = head[4 + i];
    const size_t offset = (4 + ndim) * sizeof(int64_t);
    const std::string key(msg.data() + offset, key_len);
    const char* data = msg.data() + offset + key_len;
    const size_t bytes = msg.size() - offset - key_len;
    if ((flags & (kRowSparse | kRows)) && ndim < 1) {
      MX_THROW(dmlc::ValueError) << "key " << key << ": row_sparse values need at least 1 "
                                 << "dimension";
    }
    if (tag == kTagInit) {
      if (flags & kRowSparse) {
        (*values)[key] = DecodeRowSparse(key, shape, dtype, data, bytes);
        return {};
      }
      NDArray stored(shape, Context::CPU(), false, dtype);
      if (bytes != stored.Size() * mshadow::mshadow_sizeof(dtype)) {
        MX_THROW(dmlc::ValueError) << "init of key " << key << ": a malformed request of "
                                   << bytes << " bytes";
      }
      if (bytes != 0) std::memcpy(stored.data().dptr_, data, bytes);
      (*values)[key] = stored;
      return {};
    }
    auto it = values->find(key);
    if (it == values->end()) {
      MX_THROW(dmlc::ValueError) << "key " << key << " has not been initialized (call init "
                                 << "first)";
    }
    NDArray& stored = it->second;
    if (stored.shape() != shape || stored.dtype() != dtype) {
      MX_THROW(dmlc::ValueError) << "key " << key << " holds " << stored.shape() << " "
                                 << mshadow::dtype_string(stored.dtype()) << ", the request has "
                                 << shape << " " << mshadow::dtype_string(dtype);
    }
    if (tag == kTagPull) {
      stored.WaitToRead();
      if (flags & kRows) {
        int64_t nrows = 0;
        return ReadRows(stored, ParseRows(key, shape, data, bytes, &nrows));
      }
      if (stored.storage_type() == kRowSparseStorage) {  // the whole value, densely
        std::vector<int64_t> all(ndim ? static_cast<size_t>(shape[0]) : 0);
        for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
        return ReadRows(stored, all);
      }
      const char* p = static_cast<const char*>(stored.data().dptr_);
      return std::vector<char>(p, p + stored.Size() * mshadow::mshadow_sizeof(dtype));
    }
    if (flags & kRowSparse) {
      const NDArray recved = DecodeRowSparse(key, shape, dtype, data, bytes);
      apply(key, recved, &stored);  // e.g. a lazy update of the pushed rows only
      stored.WaitToRead();
      return {};
    }
    const bool compressed = (flags & kCompressed) != 0;
    NDArray recved(shape, Context::CPU(), false, dtype);
    const size_t n = recved.Size();
    const size_t expect = compressed ? sizeof(float) + (n + 15) / 16 * sizeof(uint32_t)
                                     : n * mshadow::mshadow_sizeof(dtype);
    if (bytes != expect || (compressed && dtype != mshadow::kFloat32)) {
      MX_THROW(dmlc::ValueError) << "push of key " << key << ": a malformed request of "
                                 << bytes << " bytes (expected " << expect << ")";
    }
    if (compressed) {
      float t = 0;
      std::memcpy(&t, data, sizeof(float));
      std::vector<uint32_t> codes((n + 15) / 16);
      std::memcpy(codes.data(), data + sizeof(float), codes.size() * sizeof(uint32_t));
      float* out = recved.data().dptr<float>();
      std::fill(out, out + n, 0.f);
      Dequantize(codes.data(), n, t, out);
    } else if (bytes != 0) {
      std::memcpy(recved.data().dptr_, data, bytes);
    }
    apply(key, recved, &stored);  // the push, applied as it arrives
    stored.WaitToRead();
    return {};
  }

  static int64_t RowLength(const TShape& shape) {
    int64_t n = 1;
    for (int i = 1; i < shape.ndim(); ++i) n *= shape[i];
    return n;
  }

  void CheckDense(const char* op, const std::string& key, const NDArray& value,
                  const NDArray& dst) const {
    if (value.storage_type() != kDefaultStorage || dst.storage_type() != kDefaultStorage ||
        value.shape() != dst.shape() || value.dtype() != dst.dtype() ||
        value.ctx().dev_mask() != cpu::kDevMask || dst.ctx().dev_mask() != cpu::kDevMask) {
      MX_THROW(dmlc::ValueError)
          << "KVStore " << type_ << " " << op << " of key " << key << ": the value and the "
          << "output must be dense CPU arrays of one shape and dtype (got "
          << value.shape() << " " << mshadow::dtype_string(value.dtype()) << " and "
          << dst.shape() << " " << mshadow::dtype_string(dst.dtype()) << ")";
    }
  }

  void RequireWorker(const char* op) const {
    if (!job_.is_worker) {
      MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": " << op << " is for workers; "
                                 << "this process is a server (DMLC_ROLE=server)";
    }
  }

  /*! \brief The union of every worker's rows, each row summed over the workers holding it. */
  NDArray SumRowSparse(const std::string& key, const NDArray& merged) {
    const TShape& shape = merged.shape();
    const int64_t row_len = RowLength(shape);
    const Call call{kOpPush, key, row_len, merged.dtype(), kRowSparseStorage};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    if (job_.size == 1) return merged;
    const std::vector<int64_t> rows = SparseAuxAsInt64(merged, 0);
    std::vector<int64_t> row_bytes;
    std::vector<char> all_rows =
        AllgatherBytes(job_, rows.data(), rows.size() * sizeof(int64_t), &row_bytes);
    const NDArray& data = merged.sparse_data();
    const size_t elem = mshadow::mshadow_sizeof(merged.dtype());
    std::vector<int64_t> data_bytes;
    std::vector<char> all_data = AllgatherBytes(
        job_, data.Size() ? data.data().dptr_ : nullptr, data.Size() * elem, &data_bytes);
    // One row_sparse array per worker, then the local row-wise sum.
    std::vector<NDArray> parts;
    size_t row_off = 0, data_off = 0;
    for (int r = 0; r < job_.size; ++r) {
      const int64_t nrows = row_bytes[r] / static_cast<int64_t>(sizeof(int64_t));
      TShape part_shape = shape;
      part_shape[0] = nrows;
      NDArray part_data(part_shape, Context::CPU(), false, merged.dtype());
      if (data_bytes[r] != 0) {
        std::memcpy(part_data.data().dptr_, all_data.data() + data_off, data_bytes[r]);
      }
      NDArray part_rows(TShape(1, nrows), Context::CPU(), false, mshadow::kInt64);
      if (nrows != 0) std::memcpy(part_rows.data().dptr_, all_rows.data() + row_off, row_bytes[r]);
      NDArray part(kRowSparseStorage, shape, Context::CPU(), merged.dtype());
      part.SetSparseParts(part_data, {part_rows});
      parts.push_back(part);
      row_off += row_bytes[r];
      data_off += data_bytes[r];
    }
    NDArray out(kRowSparseStorage, shape, Context::CPU(), merged.dtype());
    SumRowSparseInto(parts, out, 0);
    out.WaitToRead();
    return out;
  }

  /*!
   * \brief 2-bit compression as MXNet 1.x: residual += value; each element sends +t (residual
   *        >= t, then residual -= t), -t (residual <= -t, then residual += t) or 0. The codes
   *        (16 per 32-bit word) are gathered from every worker and their values summed.
   */
  NDArray SumCompressed(const std::string& key, const NDArray& merged) {
    const size_t n = merged.Size();
    const Call call{kOpPush, key, int64_t(n), mshadow::kFloat32, kDefaultStorage};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    const std::vector<uint32_t> codes = Quantize(key, merged);
    std::vector<int64_t> sizes;
    std::vector<char> all = AllgatherBytes(job_, codes.data(), codes.size() * sizeof(uint32_t),
                                           &sizes);
    NDArray out(merged.shape(), Context::CPU(), false, mshadow::kFloat32);
    float* sum = out.data().dptr<float>();
    std::fill(sum, sum + n, 0.f);
    for (int r = 0; r < job_.size; ++r) {
      Dequantize(reinterpret_cast<const uint32_t*>(all.data()) + size_t(r) * codes.size(), n,
                 compression_threshold_, sum);
    }
    return out;
  }

  /*! \brief This worker's 2-bit codes of `merged` (16 per word), updating its residual. */
  std::vector<uint32_t> Quantize(const std::string& key, const NDArray& merged) {
    const size_t n = merged.Size();
    std::vector<float>& residual = residuals_[key];
    residual.resize(n, 0.f);
    const float t = compression_threshold_;
    std::vector<uint32_t> codes((n + 15) / 16, 0);
    const float* grad = merged.data().dptr<float>();
    for (size_t i = 0; i < n; ++i) {
      float& r = residual[i];
      r += grad[i];
      uint32_t code = 0;
      if (r >= t) {
        code = 3;
        r -= t;
      } else if (r <= -t) {
        code = 2;
        r += t;
      }
      codes[i / 16] |= code << (2 * (i % 16));
    }
    return codes;
  }

  /*! \brief sum[i] += the value of code i (+t, -t or 0). */
  static void Dequantize(const uint32_t* codes, size_t n, float t, float* sum) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t code = (codes[i / 16] >> (2 * (i % 16))) & 3u;
      sum[i] += code == 3 ? t : code == 2 ? -t : 0.f;
    }
  }

  std::string type_;
  Job& job_;
  float compression_threshold_ = 0;  // 0: off
  std::unordered_map<std::string, std::vector<float>> residuals_;
};

}  // namespace

std::unique_ptr<Collective> CreateCollective(const std::string& type) {
  return std::unique_ptr<Collective>(new MpiCollective(type));
}

#endif  // MXNET_USE_MPI

}  // namespace kvstore
}  // namespace mxnet
