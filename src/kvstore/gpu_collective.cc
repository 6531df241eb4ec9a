/*!
 * \file gpu_collective.cc
 * \brief NCCL reductions and host staging copies of the KVStores (gpu_collective.h).
 */
#include "./gpu_collective.h"

#include <dmlc/logging.h>
#include <mxnet/engine.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "../common/env_util.h"

#if MXNET_USE_CUDA
#include "../common/cuda_utils.h"
#endif
#ifndef MXNET_USE_NCCL
#define MXNET_USE_NCCL 0
#endif
#if MXNET_USE_NCCL
#include <nccl.h>
#endif

namespace mxnet {
namespace kvstore {
namespace gpu_collective {

bool NcclBuilt() { return MXNET_USE_NCCL != 0; }

bool NcclEnabled() {
#if MXNET_USE_NCCL
  static const bool on = common::GetEnvInt("MXNET_KVSTORE_USE_NCCL", 1) != 0;
  return on;
#else
  return false;
#endif
}

bool NcclSupports(int dtype) {
  switch (dtype) {
    case mshadow::kFloat16: case mshadow::kFloat32: case mshadow::kFloat64:
    case mshadow::kBfloat16: case mshadow::kInt8: case mshadow::kUint8:
    case mshadow::kInt32: case mshadow::kInt64:
      return true;
    default:
      return false;
  }
}

bool CanReduceOnDevices(const std::vector<NDArray>& values, const NDArray& out) {
  if (!NcclEnabled() || values.empty() || out.is_sparse() ||
      out.ctx().dev_mask() != gpu::kDevMask || !NcclSupports(out.dtype())) {
    return false;
  }
  std::vector<int> devs;
  bool has_root = false;
  for (const NDArray& v : values) {
    if (v.is_none() || v.is_sparse() || v.ctx().dev_mask() != gpu::kDevMask ||
        v.dtype() != out.dtype() || v.shape() != out.shape()) {
      return false;
    }
    devs.push_back(v.ctx().dev_id);
    has_root = has_root || v.ctx().dev_id == out.ctx().dev_id;
  }
  std::sort(devs.begin(), devs.end());
  return has_root && std::adjacent_find(devs.begin(), devs.end()) == devs.end();
}

#if MXNET_USE_CUDA

void CopyToHost(void* host, const void* src, size_t bytes, int dev) {
  if (bytes == 0) return;
  common::cuda::DeviceGuard guard(dev);
  CUDA_CALL(cudaMemcpy(host, src, bytes, cudaMemcpyDeviceToHost));
}

void CopyToDevice(void* dst, const void* host, size_t bytes, int dev) {
  if (bytes == 0) return;
  common::cuda::DeviceGuard guard(dev);
  CUDA_CALL(cudaMemcpy(dst, host, bytes, cudaMemcpyHostToDevice));
}

std::string DeviceUuid(int dev) {
  cudaDeviceProp prop;
  CUDA_CALL(cudaGetDeviceProperties(&prop, dev));
  return std::string(prop.uuid.bytes, sizeof(prop.uuid.bytes));
}

#else  // !MXNET_USE_CUDA

[[noreturn]] static void NoCuda(const char* what) {
  throw dmlc::NotImplementedError(std::string("KVStore: ") + what +
                                  " needs a GPU, and this build has no CUDA support");
}
void CopyToHost(void*, const void*, size_t, int) { NoCuda("copying a GPU value"); }
void CopyToDevice(void*, const void*, size_t, int) { NoCuda("copying to a GPU"); }
std::string DeviceUuid(int) { NoCuda("a GPU's UUID"); }

#endif  // MXNET_USE_CUDA

#if MXNET_USE_NCCL

namespace {

ncclDataType_t NcclType(int dtype) {
  switch (dtype) {
    case mshadow::kFloat16: return ncclFloat16;
    case mshadow::kFloat32: return ncclFloat32;
    case mshadow::kFloat64: return ncclFloat64;
    case mshadow::kBfloat16: return ncclBfloat16;
    case mshadow::kInt8: return ncclInt8;
    case mshadow::kUint8: return ncclUint8;
    case mshadow::kInt32: return ncclInt32;
    case mshadow::kInt64: return ncclInt64;
    default:
      MX_THROW(dmlc::TypeError) << "KVStore: NCCL cannot sum " << mshadow::dtype_string(dtype)
                                << " arrays";
  }
  return ncclFloat32;
}

void CheckNccl(ncclResult_t rc, const char* what, ncclComm_t comm = nullptr) {
  if (rc == ncclSuccess || rc == ncclInProgress) return;
  std::ostringstream os;
  os << "KVStore: " << what << " failed: " << ncclGetErrorString(rc);
  const char* detail = ncclGetLastError(comm);
  if (detail != nullptr && *detail != '\0') os << " (" << detail << ")";
  throw dmlc::Error(os.str());
}

/*! \brief A stream per GPU for the NCCL calls, made once; every use waits for it. */
cudaStream_t NcclStream(int dev) {
  static std::mutex mu;
  static std::map<int, cudaStream_t> streams;
  std::lock_guard<std::mutex> lock(mu);
  auto it = streams.find(dev);
  if (it != streams.end()) return it->second;
  common::cuda::DeviceGuard guard(dev);
  cudaStream_t s = nullptr;
  CUDA_CALL(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  streams[dev] = s;
  return s;
}

void SyncStream(int dev) {
  common::cuda::DeviceGuard guard(dev);
  CUDA_CALL(cudaStreamSynchronize(NcclStream(dev)));
}

/*!
 * \brief The communicators of one process over a set of GPUs (rank i on devices[i]), made
 *        once per set. Used only inside the reductions, which run one at a time.
 */
const std::vector<ncclComm_t>& GroupComms(const std::vector<int>& devices) {
  static std::map<std::vector<int>, std::vector<ncclComm_t>> comms;
  auto it = comms.find(devices);
  if (it != comms.end()) return it->second;
  std::vector<ncclComm_t> made(devices.size());
  CheckNccl(ncclCommInitAll(made.data(), static_cast<int>(devices.size()), devices.data()),
            "ncclCommInitAll");
  return comms.emplace(devices, std::move(made)).first->second;
}

class NcclRankComm : public RankComm {
 public:
  NcclRankComm(const std::string& unique_id, int nranks, int rank, int dev) : dev_(dev) {
    ncclUniqueId id;
    CHECK_EQ(unique_id.size(), sizeof(id.internal)) << "NCCL unique id of the wrong size";
    std::memcpy(id.internal, unique_id.data(), sizeof(id.internal));
    common::cuda::DeviceGuard guard(dev);
    CheckNccl(ncclCommInitRank(&comm_, nranks, id, rank), "ncclCommInitRank");
  }
  // Left to process exit: the job's communicator lives as long as the job.
  int device() const override { return dev_; }
  void AllReduce(const void* send, void* recv, size_t n, int dtype) override {
    if (n == 0) return;
    common::cuda::DeviceGuard guard(dev_);
    CheckNccl(ncclAllReduce(send, recv, n, NcclType(dtype), ncclSum, comm_, NcclStream(dev_)),
              "ncclAllReduce", comm_);
    SyncStream(dev_);
  }

 private:
  int dev_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

void ReduceOnDevices(const std::vector<NDArray>& values, const NDArray& out, int priority) {
  // Every reduction writes this variable: NCCL calls on shared communicators must not
  // overlap, and running them in program order keeps the GPUs' queues in one order.
  static engine::VarHandle order = Engine::Get()->NewVariable();
  std::vector<engine::VarHandle> reads;
  for (const NDArray& v : values) {
    if (!v.SharesChunk(out)) reads.push_back(v.var());
  }
  std::vector<NDArray> inputs = values;
  NDArray result = out;
  // A CPU engine function: the engine first waits for GPU work pending on what it uses, and it
  // returns once the sum is in `out`.
  Engine::Get()->PushSync(
      [inputs, result](RunContext) {
        const size_t n = result.shape().Size();
        if (n == 0) return;
        std::vector<std::pair<int, size_t>> by_device;  // (GPU, index into inputs)
        for (size_t i = 0; i < inputs.size(); ++i) by_device.emplace_back(inputs[i].ctx().dev_id, i);
        std::sort(by_device.begin(), by_device.end());
        std::vector<int> devices;
        int root = 0;
        for (const auto& d : by_device) {
          if (d.first == result.ctx().dev_id) root = static_cast<int>(devices.size());
          devices.push_back(d.first);
        }
        const std::vector<ncclComm_t>& comms = GroupComms(devices);
        const ncclDataType_t type = NcclType(result.dtype());
        CheckNccl(ncclGroupStart(), "ncclGroupStart");
        for (size_t r = 0; r < devices.size(); ++r) {
          const NDArray& v = inputs[by_device[r].second];
          void* recv = static_cast<int>(r) == root ? result.data().dptr_ : nullptr;
          CheckNccl(ncclReduce(v.data().dptr_, recv, n, type, ncclSum, root, comms[r],
                               NcclStream(devices[r])),
                    "ncclReduce", comms[r]);
        }
        CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
        for (int dev : devices) SyncStream(dev);
      },
      Context::CPU(), reads, {out.var(), order}, FnProperty::kNormal, priority,
      "KVStoreNcclReduce");
}

std::string NewUniqueId() {
  ncclUniqueId id;
  CheckNccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  return std::string(id.internal, sizeof(id.internal));
}

std::unique_ptr<RankComm> JoinRankComm(const std::string& unique_id, int nranks, int rank,
                                       int dev) {
  return std::unique_ptr<RankComm>(new NcclRankComm(unique_id, nranks, rank, dev));
}

#else  // !MXNET_USE_NCCL

[[noreturn]] static void NoNccl() {
  throw dmlc::NotImplementedError("KVStore: this build has no NCCL (build with CUDA and NCCL: "
                                  "MXNET_CUDA=1 tools/setup.sh)");
}
void ReduceOnDevices(const std::vector<NDArray>&, const NDArray&, int) { NoNccl(); }
std::string NewUniqueId() { NoNccl(); }
std::unique_ptr<RankComm> JoinRankComm(const std::string&, int, int, int) { NoNccl(); }

#endif  // MXNET_USE_NCCL

}  // namespace gpu_collective
}  // namespace kvstore
}  // namespace mxnet
