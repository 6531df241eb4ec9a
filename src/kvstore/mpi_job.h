/*!
 * \file mpi_job.h
 * \brief Internal to the MPI Collective (mpi_*.cc): the job (MPI started once per process,
 *        the workers' communicator, the servers), the agreement step every collective starts
 *        with, its watchdog, and the chunked MPI collectives. Built only with MPI.
 *
 * Safety: every collective starts with a small agreement step in which each worker states what
 * it is doing (operation, key, element count, dtype). Workers that disagree (different keys,
 * shapes, or one worker already exiting while another still pushes: different numbers of
 * batches) get an error naming both sides instead of a hang or a silently wrong sum. A worker
 * left waiting longer than MXNET_KVSTORE_TIMEOUT seconds (default 300; a warning every 30 s
 * before that) aborts the job with a message. A worker that dies makes mpirun end the job.
 */
#ifndef MXNET_KVSTORE_MPI_JOB_H_
#define MXNET_KVSTORE_MPI_JOB_H_

#if MXNET_USE_MPI
// The C API only: MPI's deprecated C++ bindings would need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <mxnet/engine.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mxnet {
namespace kvstore {
namespace mpi {

enum Tag : int {
  kTagStop = 101, kTagCommand = 102,                     // worker -> server
  kTagInit = 103, kTagPush = 104, kTagPull = 105,        // worker -> server, answered by
  kTagReply = 106                                        // server -> worker
};
enum Op : int64_t { kOpInit = 1, kOpPush = 2, kOpBarrier = 3, kOpExit = 4, kOpPull = 5 };

const char* OpName(int64_t op);

/*! \brief Raises dmlc::Error "KVStore: <what> failed: <MPI's message>" unless rc is success. */
void CheckMPI(int rc, const char* what);

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
  // Written by every collective of the workers, whichever store issues it: MPI needs them in
  // the same order on every worker, and the engine then runs them in program order.
  engine::VarHandle comm_var = nullptr;
};

/*! \brief This process's job, MPI started on first use (and finished at exit). */
Job& TheJob();

/*!
 * \brief Schedules `fn` (collective MPI calls of the workers) as an engine operation that
 *        reads `reads` and writes `writes` and the job's comm_var, so the collectives run one
 *        at a time in the order they were scheduled. The engine operation hands `fn` to the
 *        job's communication thread and returns, so no engine worker waits for the other
 *        workers; an exception from `fn` is stored on `writes` and comm_var (the next wait on
 *        one of them raises it). Returns at once.
 */
void ScheduleCollective(Job& job, const char* name, std::vector<engine::VarHandle> reads,
                        std::vector<engine::VarHandle> writes, std::function<void()> fn);
/*! \brief ScheduleCollective, then waits for it; raises its error (or an earlier one's). */
void RunCollective(Job& job, const char* name, std::function<void()> fn);

/*! \brief One worker's statement of the collective it is entering. */
struct Call {
  int64_t op;
  std::string key;     // for messages
  int64_t count;       // elements (dense) or row length (row_sparse)
  int64_t dtype;
  int64_t stype;
  // Not compared: where this worker's value is (kOnCpu, kOnGpu, kOnGpuNccl); Agree returns
  // the least over the workers, so they all take the same path.
  int64_t place = 0;
};
enum Place : int64_t { kOnCpu = 0, kOnGpu = 1, kOnGpuNccl = 2 };

int64_t KeyHash(const std::string& key);

/*!
 * \brief Marks the collective section of one call for the watchdog: a warning every warn_s
 *        seconds, and after timeout_s the process exits (mpirun then ends the job).
 */
class Watched {
 public:
  Watched(const Job& job, const Call& call, const std::string& store);
  ~Watched();
  Watched(const Watched&) = delete;
  Watched& operator=(const Watched&) = delete;
};

/*!
 * \brief Every worker states `call`; returns when all stated the same, raises ValueError naming
 *        the difference otherwise (on every worker, so all of them stop). Returns the least
 *        `place` stated.
 */
int64_t Agree(Job& job, const Call& call, const std::string& store);

/*! \brief In-place (send == recv) or not, any element count: MPI counts are ints. */
void AllreduceChunked(Job& job, const void* send, void* recv, size_t n, int dtype);
/*! \brief Rank 0's bytes at buf on every worker. */
void BcastChunked(Job& job, void* buf, size_t bytes);
/*! \brief Gathers every worker's bytes; returns them concatenated and each worker's size. */
std::vector<char> AllgatherBytes(Job& job, const void* data, size_t bytes,
                                 std::vector<int64_t>* sizes);

}  // namespace mpi
}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_USE_MPI
#endif  // MXNET_KVSTORE_MPI_JOB_H_
