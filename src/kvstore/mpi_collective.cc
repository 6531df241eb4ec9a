/*!
 * \file mpi_collective.cc
 * \brief The Collective of a 'dist_*' KVStore on MPI (Open MPI from Debian): the workers'
 *        collective store ops (init broadcast, dense sums with MPI_Allreduce, row_sparse sums,
 *        2-bit compression, barrier). Each starts with the agreement step (mpi_job.h); the job
 *        is in mpi_job.cc, the dist_async requests and servers in mpi_server.cc.
 */
#include "./collective.h"

#if MXNET_USE_MPI
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <set>

#include "./gpu_collective.h"
#include "./mpi_collective.h"
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

namespace mpi {

MpiCollective::MpiCollective(const std::string& type) : type_(type), job_(TheJob()) {
  if (type.find("async") != std::string::npos && job_.is_worker && job_.servers.empty()) {
    MX_THROW(dmlc::ValueError)
        << "KVStore " << type << " keeps the values on server processes, and this job has "
        << "none: launch it with servers (tools/launch.py -n " << job_.size << " -s 1 ...)";
  }
}

void MpiCollective::Broadcast(const std::string& key, NDArray* stored) {
  RequireWorker("init");
  stored->WaitToWrite();
  RunCollective(job_, "KVStoreBroadcast", [&]() { BroadcastNow(key, stored); });
}

void MpiCollective::BroadcastNow(const std::string& key, NDArray* stored) {
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

NDArray MpiCollective::Sum(const std::string& key, const NDArray& merged, const NDArray& into) {
  RequireWorker("push");
  // row_sparse and 2-bit compressed sums: synchronous (the collective runs in order with the
  // others on the communication thread, and this waits for it).
  const bool compressed = compression_threshold_ > 0 && merged.dtype() == mshadow::kFloat32;
  if (merged.ctx().dev_mask() == gpu::kDevMask && (merged.is_sparse() || compressed)) {
    // Sparse and compressed sums work on host memory.
    NDArray host = merged.is_sparse()
                       ? NDArray(merged.storage_type(), merged.shape(), Context::CPU(),
                                 merged.dtype())
                       : NDArray(merged.shape(), Context::CPU(), false, merged.dtype());
    CopyFromTo(merged, host);
    return Sum(key, host, into);
  }
  if (merged.storage_type() == kRowSparseStorage) {
    merged.WaitToRead();
    NDArray out;
    RunCollective(job_, "KVStoreSumRowSparse", [&]() {
      std::lock_guard<std::mutex> lock(job_.mu);
      out = SumRowSparse(key, merged);
    });
    return out;
  }
  if (compressed) {
    merged.WaitToRead();
    NDArray out;
    RunCollective(job_, "KVStoreSumCompressed", [&]() {
      std::lock_guard<std::mutex> lock(job_.mu);
      out = SumCompressed(key, merged);
    });
    return out;
  }
  // Dense: asynchronous. The sum is an engine operation; readers of the result wait for it.
  CheckDense("push", key, merged, merged, true);
  if (merged.ctx().dev_mask() == gpu::kDevMask) {
    // dist_device_sync: summed on the GPU with NCCL (or through host memory), into `into`
    // when it is on the same GPU.
    const bool fits = !into.is_none() && into.storage_type() == kDefaultStorage &&
                      into.shape() == merged.shape() && into.dtype() == merged.dtype() &&
                      into.ctx() == merged.ctx();
    NDArray out = fits ? into : NDArray(merged.shape(), merged.ctx(), false, merged.dtype());
    ScheduleSum(key, merged, out);
    return out;
  }
  if (job_.size == 1) {
    ScheduleSum(key, merged, merged);  // still agrees (and checks) with itself
    return merged;
  }
  const bool fits = !into.is_none() && into.storage_type() == kDefaultStorage &&
                    into.shape() == merged.shape() && into.dtype() == merged.dtype() &&
                    into.ctx().dev_mask() == cpu::kDevMask && !into.SharesChunk(merged);
  NDArray out = fits ? into : NDArray(merged.shape(), Context::CPU(), false, merged.dtype());
  ScheduleSum(key, merged, out);
  return out;
}

void MpiCollective::ScheduleSum(const std::string& key, const NDArray& value,
                                const NDArray& dst) {
  // In place with one worker the value does not change: it is only read.
  const bool in_place = value.SharesChunk(dst);
  std::vector<engine::VarHandle> reads, writes;
  if (!in_place) reads.push_back(value.var());
  if (!in_place || job_.size > 1 || dst.ctx().dev_mask() == gpu::kDevMask) {
    writes.push_back(dst.var());  // (NCCL writes a GPU sum even in place)
  }
  // Captures no `this`: the store may be freed before the operation runs; the job is not.
  Job* job = &job_;
  const std::string store = type_;
  ScheduleCollective(job_, "KVStoreAllreduce", reads, writes, [job, store, key, value, dst]() {
    std::lock_guard<std::mutex> lock(job->mu);
    const size_t n = value.Size();
    const bool on_gpu = value.ctx().dev_mask() == gpu::kDevMask;
    const Call call{kOpPush, key, int64_t(n), value.dtype(), kDefaultStorage,
                    on_gpu ? GpuPlace(value) : kOnCpu};
    Watched watched(*job, call, store);
    const int64_t place = Agree(*job, call, store);
    if (n == 0) return;
    if (on_gpu) {
      SumOnGpu(*job, place, store, value, dst);
      return;
    }
    if (job->size == 1) {
      if (!value.SharesChunk(dst)) {
        std::memcpy(dst.data().dptr_, value.data().dptr_,
                    n * mshadow::mshadow_sizeof(value.dtype()));
      }
      return;
    }
    AllreduceChunked(*job, value.data().dptr_, dst.data().dptr_, n, value.dtype());
  });
}

namespace {

/*! \brief The job's NCCL communicator (made at the first GPU sum every worker can do with it). */
struct NcclState {
  std::unique_ptr<gpu_collective::RankComm> comm;
  bool unusable = false;  // two workers share a GPU: sums go through host memory
};

NcclState& TheNcclState() {  // used under Job::mu
  static NcclState state;
  return state;
}

}  // namespace

int64_t MpiCollective::GpuPlace(const NDArray& value) {
  const NcclState& nccl = TheNcclState();
  const bool usable = gpu_collective::NcclEnabled() &&
                      gpu_collective::NcclSupports(value.dtype()) && !nccl.unusable &&
                      (!nccl.comm || nccl.comm->device() == value.ctx().dev_id);
  return usable ? kOnGpuNccl : kOnGpu;
}

gpu_collective::RankComm* MpiCollective::JobNccl(Job& job, int dev, const std::string& store) {
  NcclState& nccl = TheNcclState();
  if (nccl.comm || nccl.unusable) return nccl.comm.get();
  // NCCL takes one GPU per worker: the workers compare their GPUs' UUIDs first.
  const std::string uuid = gpu_collective::DeviceUuid(dev);
  std::vector<int64_t> sizes;
  const std::vector<char> all = AllgatherBytes(job, uuid.data(), uuid.size(), &sizes);
  std::set<std::string> seen;
  for (int r = 0; r < job.size; ++r) {
    seen.insert(std::string(all.data() + r * uuid.size(), uuid.size()));
  }
  if (static_cast<int>(seen.size()) != job.size) {
    nccl.unusable = true;
    if (job.rank == 0) {
      LOG(WARNING) << "KVStore " << store << ": some workers share a GPU, which NCCL does not "
                   << "allow; their GPU sums go through host memory and MPI instead";
    }
    return nullptr;
  }
  std::string id = job.rank == 0 ? gpu_collective::NewUniqueId() : std::string();
  int64_t id_size = static_cast<int64_t>(id.size());
  CheckMPI(MPI_Bcast(&id_size, 1, MPI_INT64_T, 0, job.workers), "MPI_Bcast");
  id.resize(static_cast<size_t>(id_size));
  BcastChunked(job, &id[0], id.size());
  nccl.comm = gpu_collective::JoinRankComm(id, job.size, job.rank, dev);
  return nccl.comm.get();
}

void MpiCollective::SumOnGpu(Job& job, int64_t place, const std::string& store,
                             const NDArray& value, const NDArray& dst) {
  const int dev = value.ctx().dev_id;
  const size_t n = value.Size();
  if (place == kOnGpuNccl) {
    gpu_collective::RankComm* comm = JobNccl(job, dev, store);
    if (comm != nullptr) {
      comm->AllReduce(value.data().dptr_, dst.data().dptr_, n, value.dtype());
      return;
    }
  }
  // Some worker cannot use NCCL here: this sum goes through host memory.
  // (Not in place: a CPU worker in the same sum may pass its own buffers.)
  const size_t bytes = n * mshadow::mshadow_sizeof(value.dtype());
  std::vector<char> send(bytes), sum(bytes);
  gpu_collective::CopyToHost(send.data(), value.data().dptr_, bytes, dev);
  AllreduceChunked(job, send.data(), sum.data(), n, value.dtype());
  gpu_collective::CopyToDevice(dst.data().dptr_, sum.data(), bytes, dev);
}

void MpiCollective::SumInto(const std::string& key, const NDArray& value, const NDArray& dst) {
  RequireWorker("push");
  CheckDense("pushpull", key, value, dst);
  // Horovod-style stores stay synchronous: the same operation as a dist_sync push, waited for.
  ScheduleSum(key, value, dst);
  Engine::Get()->WaitForVar(job_.comm_var);
}

void MpiCollective::BroadcastInto(const std::string& key, const NDArray& value,
                                  const NDArray& dst) {
  RequireWorker("broadcast");
  CheckDense("broadcast", key, value, dst);
  value.WaitToRead();
  dst.WaitToWrite();
  RunCollective(job_, "KVStoreBroadcast", [&]() {
    std::lock_guard<std::mutex> lock(job_.mu);
    const size_t bytes = value.Size() * mshadow::mshadow_sizeof(value.dtype());
    const Call call{kOpInit, key, int64_t(value.Size()), value.dtype(), kDefaultStorage};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
    if (bytes == 0) return;
    if (!value.SharesChunk(dst)) std::memcpy(dst.data().dptr_, value.data().dptr_, bytes);
    if (job_.size > 1) BcastChunked(job_, dst.data().dptr_, bytes);
  });
}

void MpiCollective::Barrier() {
  RequireWorker("barrier");
  // After every collective scheduled before it, as on the other workers.
  RunCollective(job_, "KVStoreBarrier", [&]() {
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpBarrier, "", 0, 0, 0};
    Watched watched(job_, call, type_);
    Agree(job_, call, type_);
  });
}

void MpiCollective::SetGradientCompression(
    const std::vector<std::pair<std::string, std::string>>& params) {
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

int64_t MpiCollective::RowLength(const TShape& shape) {
  int64_t n = 1;
  for (int i = 1; i < shape.ndim(); ++i) n *= shape[i];
  return n;
}

void MpiCollective::CheckDense(const char* op, const std::string& key, const NDArray& value,
                               const NDArray& dst, bool on_gpu_ok) const {
  if (value.storage_type() != kDefaultStorage || dst.storage_type() != kDefaultStorage ||
      value.shape() != dst.shape() || value.dtype() != dst.dtype() || value.ctx() != dst.ctx() ||
      (!on_gpu_ok && value.ctx().dev_mask() != cpu::kDevMask)) {
    MX_THROW(dmlc::ValueError)
        << "KVStore " << type_ << " " << op << " of key " << key << ": the value and the "
        << "output must be dense arrays of one shape, dtype and device (got "
        << value.shape() << " " << mshadow::dtype_string(value.dtype()) << " and "
        << dst.shape() << " " << mshadow::dtype_string(dst.dtype()) << ")";
  }
}

void MpiCollective::RequireWorker(const char* op) const {
  if (!job_.is_worker) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": " << op << " is for workers; "
                               << "this process is a server (DMLC_ROLE=server)";
  }
}

/*! \brief The union of every worker's rows, each row summed over the workers holding it. */
NDArray MpiCollective::SumRowSparse(const std::string& key, const NDArray& merged) {
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
NDArray MpiCollective::SumCompressed(const std::string& key, const NDArray& merged) {
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
std::vector<uint32_t> MpiCollective::Quantize(const std::string& key, const NDArray& merged) {
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
void MpiCollective::Dequantize(const uint32_t* codes, size_t n, float t, float* sum) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t code = (codes[i / 16] >> (2 * (i % 16))) & 3u;
    sum[i] += code == 3 ? t : code == 2 ? -t : 0.f;
  }
}

}  // namespace mpi

std::unique_ptr<Collective> CreateCollective(const std::string& type) {
  return std::unique_ptr<Collective>(new mpi::MpiCollective(type));
}

#endif  // MXNET_USE_MPI

}  // namespace kvstore
}  // namespace mxnet
