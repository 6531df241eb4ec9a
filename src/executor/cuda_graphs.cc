/*!
 * \file cuda_graphs.cc
 * \brief CUDA graphs of bulk segments (cuda_graphs.h).
 */
#include "./cuda_graphs.h"

#include <dmlc/logging.h>

#include <unordered_map>
#include <utility>

#include "../common/env_util.h"
#include "../resource_internal.h"

#if MXNET_USE_CUDA
#include "../common/cuda_utils.h"
#endif

namespace mxnet {
namespace exec {

bool CudaGraphsEnabled() {
#if MXNET_USE_CUDA
  static const bool on = common::GetEnvInt("MXNET_ENABLE_CUDA_GRAPHS", 0) != 0;
  return on;
#else
  return false;
#endif
}

bool CudaGraphsVerbose() {
  static const bool on = common::GetEnvInt("MXNET_CUDA_GRAPHS_VERBOSE", 0) != 0;
  return on;
}

bool ResourcesCapturable(const std::vector<Resource>& requested) {
  for (const Resource& r : requested) {
    if (r.req.type == ResourceRequest::kRandom || r.req.type == ResourceRequest::kParallelRandom) {
      return false;
    }
  }
  return true;
}

#if MXNET_USE_CUDA

namespace {

/*! \brief Whether host memory is at `ptr` (pageable, pinned or unknown to CUDA). */
bool IsHostMemory(const void* ptr) {
  if (ptr == nullptr) return false;
  cudaPointerAttributes attrs;
  if (cudaPointerGetAttributes(&attrs, ptr) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return attrs.type != cudaMemoryTypeDevice && attrs.type != cudaMemoryTypeManaged;
}

/*!
 * \brief Why `graph` cannot be replayed as captured (empty when it can): a node that runs host
 *        code, copies from or to host memory (a host buffer of this run), or allocates.
 */
std::string ReplayHazard(cudaGraph_t graph) {
  size_t count = 0;
  CUDA_CALL(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count != 0) CUDA_CALL(cudaGraphGetNodes(graph, nodes.data(), &count));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CUDA_CALL(cudaGraphNodeGetType(node, &type));
    switch (type) {
      case cudaGraphNodeTypeHost:
        return "a host callback";
      case cudaGraphNodeTypeMemAlloc:
      case cudaGraphNodeTypeMemFree:
        return "a stream-ordered allocation";
      case cudaGraphNodeTypeMemcpy: {
        cudaMemcpy3DParms p;
        CUDA_CALL(cudaGraphMemcpyNodeGetParams(node, &p));
        if ((p.srcArray == nullptr && IsHostMemory(p.srcPtr.ptr)) ||
            (p.dstArray == nullptr && IsHostMemory(p.dstPtr.ptr))) {
          return "a copy from or to host memory";
        }
        break;
      }
      default:
        break;
    }
  }
  return std::string();
}

/*!
 * \brief This thread's capture stream on GPU `dev` (made once, kept for the process's life).
 *        A capture records whatever is queued on its stream from any thread, and the engine's
 *        stream of a GPU is shared by its worker threads: so the segment is captured on a
 *        stream of its own, and the graph then launches on the engine's stream.
 */
mshadow::Stream<gpu>* CaptureStream(int dev) {
  thread_local std::unordered_map<int, mshadow::Stream<gpu>*> streams;
  auto it = streams.find(dev);
  if (it != streams.end()) return it->second;
  mshadow::Stream<gpu>* s = mshadow::NewGPUStream(dev);
  streams.emplace(dev, s);
  return s;
}

}  // namespace

struct SegmentGraph::Impl {
  std::string name;
  std::vector<Resource> temp_spaces;
  std::vector<void*> captured_spaces;  // their memory when the graph was captured
  cudaGraphExec_t exec = nullptr;
  int runs = 0;
  int failed_captures = 0;

  // (A first capture on a worker thread may also create its cuBLAS/cuDNN handles.)
  static constexpr int kMaxFailedCaptures = 4;

  bool SpacesUnchanged() const {
    for (size_t i = 0; i < temp_spaces.size(); ++i) {
      if (resource::CurrentTempSpace(temp_spaces[i]) != captured_spaces[i]) return false;
    }
    return true;
  }

  void Drop() {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    exec = nullptr;
  }

  void Refuse(const std::string& why) {
    ++failed_captures;
    if (CudaGraphsVerbose() || failed_captures == kMaxFailedCaptures) {
      LOG(INFO) << "CUDA graphs: segment " << name << " runs without a graph"
                << (failed_captures >= kMaxFailedCaptures ? "" : " this time") << ": " << why;
    }
  }

  /*!
   * \brief Captures `run` on this thread's capture stream; true with `exec` set when the graph
   *        can be replayed. Relaxed mode: a handle the operators create on first use may
   *        allocate; what they allocate from the pool is caught by the allocation watch.
   */
  bool Capture(const RunContext& rctx, const std::function<void(const RunContext&)>& run) {
    Drop();
    RunContext capturing = rctx;
    capturing.stream = CaptureStream(rctx.ctx.dev_id);
    cudaStream_t stream = mshadow::Stream<gpu>::GetStream(capturing.get_stream<gpu>());
    CUDA_CALL(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
    storage::WatchAllocations(true);
    std::string failure;
    try {
      run(capturing);
    } catch (const std::exception& e) {
      failure = std::string("an operator failed while captured: ") + e.what();
    }
    const size_t allocations = storage::WatchedAllocations();
    storage::WatchAllocations(false);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (ended != cudaSuccess) {
      cudaGetLastError();
      if (failure.empty()) {
        failure = std::string("the capture failed (") + cudaGetErrorString(ended) +
                  "): an operator makes a call a CUDA graph cannot hold";
      }
    }
    if (failure.empty() && allocations != 0) {
      failure = "an operator allocates memory while it runs";
    }
    if (failure.empty()) {
      try {
        failure = ReplayHazard(graph);
      } catch (const std::exception& e) {
        failure = std::string("the captured graph could not be inspected: ") + e.what();
      }
    }
    if (failure.empty() && cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
      cudaGetLastError();
      exec = nullptr;
      failure = "cudaGraphInstantiate failed";
    }
    if (graph != nullptr) cudaGraphDestroy(graph);
    if (!failure.empty()) {
      Drop();
      Refuse(failure);
      return false;
    }
    captured_spaces.clear();
    for (const Resource& r : temp_spaces) {
      captured_spaces.push_back(resource::CurrentTempSpace(r));
    }
    if (CudaGraphsVerbose()) LOG(INFO) << "CUDA graphs: captured segment " << name;
    return true;
  }
};

SegmentGraph::SegmentGraph(std::string name, const std::vector<Resource>& requested)
    : impl_(new Impl()) {
  impl_->name = std::move(name);
  for (const Resource& r : requested) {
    if (r.req.type == ResourceRequest::kTempSpace) impl_->temp_spaces.push_back(r);
  }
}

SegmentGraph::~SegmentGraph() { impl_->Drop(); }

void SegmentGraph::Run(const RunContext& rctx,
                       const std::function<void(const RunContext&)>& run) {
  Impl& g = *impl_;
  if (rctx.ctx.dev_mask() != gpu::kDevMask || rctx.stream == nullptr ||
      g.failed_captures >= Impl::kMaxFailedCaptures) {
    run(rctx);
    return;
  }
  // The first run goes directly: it sizes the temp spaces and lets cuBLAS and cuDNN set up.
  if (++g.runs == 1) {
    run(rctx);
    return;
  }
  if (g.exec == nullptr || !g.SpacesUnchanged()) {
    if (!g.Capture(rctx, run)) {
      run(rctx);  // nothing of the dropped capture ran
      return;
    }
  }
  CUDA_CALL(cudaGraphLaunch(g.exec, mshadow::Stream<gpu>::GetStream(rctx.get_stream<gpu>())));
}

#else  // !MXNET_USE_CUDA

struct SegmentGraph::Impl {};

SegmentGraph::SegmentGraph(std::string, const std::vector<Resource>&) : impl_(new Impl()) {}
SegmentGraph::~SegmentGraph() = default;
void SegmentGraph::Run(const RunContext& rctx,
                       const std::function<void(const RunContext&)>& run) {
  run(rctx);
}

#endif  // MXNET_USE_CUDA

}  // namespace exec
}  // namespace mxnet
