/*!
 * \file cuda_graphs.h
 * \brief CUDA graphs for bound graphs on a GPU (MXNET_ENABLE_CUDA_GRAPHS=1, as MXNet 1.9.1):
 *        a bulk segment of a bound executor (hybridized Gluon blocks, CachedOp, Module) is
 *        captured from its second run on its GPU stream into a CUDA graph, and later runs
 *        launch that graph: one launch instead of one per kernel. The executor's arrays keep
 *        their memory for its life, so the captured pointers stay valid; what could make a
 *        replay differ from a run is refused:
 *          - segments with operators drawing random numbers (their seeds are host values),
 *            sparse or storage-fallback operators, or asynchronous ones are never captured;
 *          - the capture runs on a stream of its own (the engine's stream of a GPU is shared by
 *            its worker threads, whose work must not land in the graph);
 *          - a capture is dropped, and the segment runs directly, when an operator allocates
 *            device or pinned memory or makes a call a capture cannot hold (a host sync), or
 *            when the graph copies from or to host memory or calls back into the host;
 *          - a replay is recaptured when a temp space the segment uses moved.
 *        MXNET_CUDA_GRAPHS_VERBOSE=1 logs each capture and each refusal.
 */
#ifndef MXNET_EXECUTOR_CUDA_GRAPHS_H_
#define MXNET_EXECUTOR_CUDA_GRAPHS_H_

#include <mxnet/base.h>
#include <mxnet/resource.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mxnet {
namespace exec {

/*! \brief MXNET_ENABLE_CUDA_GRAPHS=1 in a CUDA build. */
bool CudaGraphsEnabled();

/*! \brief MXNET_CUDA_GRAPHS_VERBOSE=1. */
bool CudaGraphsVerbose();

/*! \brief Whether a segment member with these resources may be captured (no random ones). */
bool ResourcesCapturable(const std::vector<Resource>& requested);

/*! \brief The CUDA graph of one bulk segment (one kind of pass). Runs are serialized. */
class SegmentGraph {
 public:
  /*! \brief `name` names the segment in log lines; `requested`: its members' resources. */
  SegmentGraph(std::string name, const std::vector<Resource>& requested);
  ~SegmentGraph();
  SegmentGraph(const SegmentGraph&) = delete;
  SegmentGraph& operator=(const SegmentGraph&) = delete;

  /*!
   * \brief One run of the segment on rctx's GPU stream. `run` queues the segment's kernels on
   *        the stream of the RunContext it is given: called with rctx directly, or with a
   *        capture stream's (the graph then launches on rctx's stream instead).
   */
  void Run(const RunContext& rctx, const std::function<void(const RunContext&)>& run);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_CUDA_GRAPHS_H_
