/*!
 * \file exec_core.h
 * \brief The one execution core: how an operator runs on a device, decided in one place for
 *        both front ends (imperative invoke, autograd and CachedOp through it, and the bound
 *        graph executor). The device keys every lookup: "FCompute<cpu>" or "FCompute<gpu>",
 *        the same for FComputeEx and FStatefulCompute, so a GPU kernel plugs in by
 *        registering its attribute and nothing else changes.
 *
 *   DispatchMode mode = InferDispatch(attrs, ctx.dev_mask(), &in_stypes, &out_stypes);
 *   OpKernel k = SelectKernel(attrs, ctx, mode, has_state, "imperative");
 *   ...  // later, on the engine worker:
 *   k.Run(attrs, state, opctx, in_blobs, req, out_blobs);
 *
 * MXNET_EXEC_DISPATCH_LOG=1 logs each decision (operator, device, dispatch mode, kernel kind,
 * front end) once per (operator, device, kind, front end).
 */
#ifndef MXNET_EXECUTOR_EXEC_CORE_H_
#define MXNET_EXECUTOR_EXEC_CORE_H_

#include <mxnet/base.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/op.h>

#include <string>
#include <vector>

namespace mxnet {
namespace exec {

/*! \brief Which of an operator's compute functions runs. */
enum class KernelKind {
  kFCompute,    // dense TBlobs (also the dense half of a storage fallback)
  kFComputeEx,  // NDArrays, sparse storage kept
  kStateful,    // FStatefulCompute on an OpStatePtr
  /*!
   * \brief FStatefulComputeEx of an op with FExecType kSubgraphExec (control flow): it runs
   *        graphs itself, pushing their operators, so the front end calls it directly on the
   *        calling thread (never inside an engine worker) with the NDArrays.
   */
  kSubgraph,
};

const char* KernelKindName(KernelKind k);

/*! \brief A chosen compute function for one device. Cheap to copy (std::function). */
struct OpKernel {
  KernelKind kind{KernelKind::kFCompute};
  int dev_mask{cpu::kDevMask};
  /*! \brief The op completes through OpContext::async_on_complete (FExecType kAsync). */
  bool is_async{false};
  FCompute fcompute;
  FComputeEx fcompute_ex;
  FStatefulCompute fstateful;
  FStatefulComputeEx fstateful_ex;

  /*! \brief Run a kFCompute or kStateful kernel on dense blobs. */
  void Run(const nnvm::NodeAttrs& attrs, const OpStatePtr& state, const OpContext& ctx,
           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
           const std::vector<TBlob>& outputs) const {
    if (kind == KernelKind::kFCompute) {
      fcompute(attrs, ctx, inputs, req, outputs);
    } else {
      fstateful(state, ctx, inputs, req, outputs);
    }
  }
  /*! \brief Run a kSubgraph kernel on the calling thread. */
  void RunSubgraph(const OpStatePtr& state, const OpContext& ctx,
                   const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<NDArray>& outputs) const {
    fstateful_ex(state, ctx, inputs, req, outputs);
  }
  /*! \brief Run a kFComputeEx kernel on NDArrays. */
  void RunEx(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
             const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
             const std::vector<NDArray>& outputs) const {
    fcompute_ex(attrs, ctx, inputs, req, outputs);
  }
};

/*! \brief The attribute name of a compute function for a device: "FCompute<gpu>", ... */
std::string DeviceAttrName(const char* base, int dev_mask);

/*! \brief Whether `op` has a dense or stateful kernel for the device (what `mx.runtime` lists). */
bool HasKernel(const nnvm::Op* op, int dev_mask);

/*!
 * \brief Storage dispatch of one call: the op's FInferStorageType for the device when it also
 *        has FComputeEx there. Fills unknown entries of `out_stypes`. Returns kFComputeEx when
 *        the sparse kernel takes the call, kFComputeFallback when some storage is sparse and
 *        it does not, kFCompute otherwise.
 */
DispatchMode InferDispatch(const nnvm::NodeAttrs& attrs, int dev_mask, std::vector<int>* in_stypes,
                           std::vector<int>* out_stypes);

/*!
 * \brief The kernel that runs `attrs` on `ctx` in dispatch mode `mode`. `has_state`: a state
 *        exists or can be created (FCreateOpState, or a backward op given its forward state).
 *        Throws NotImplementedError naming the operator and the device when there is none.
 *        `front_end` names the caller in the log line.
 */
OpKernel SelectKernel(const nnvm::NodeAttrs& attrs, const Context& ctx, DispatchMode mode,
                      bool has_state, const char* front_end);

/*!
 * \brief bfloat16 without bfloat16 kernels: when some input or output type is bfloat16 and the
 *        op has no bfloat16 kernel of its own (attribute TBFloat16Native), wrap the dense or
 *        stateful kernel of `k` so that it runs in float32 on temporary arrays: bfloat16 inputs
 *        are widened (exactly), the float32 kernel runs, bfloat16 outputs (and inputs the op
 *        mutates) are rounded back to nearest even; kAddTo adds in float32 before rounding.
 *        Leaves `k` alone (and costs nothing) when no type is bfloat16. Throws TypeError for a
 *        bfloat16 call on a GPU or to a sparse kernel. Both front ends call it once their
 *        types are known.
 */
void ApplyBF16Fallback(const nnvm::NodeAttrs& attrs, const std::vector<int>& in_types,
                       const std::vector<int>& out_types, OpKernel* k);

/*! \brief Whether ApplyBF16Fallback would wrap a kernel of `attrs` for these types. */
bool NeedsBF16Fallback(const nnvm::NodeAttrs& attrs, const std::vector<int>& in_types,
                       const std::vector<int>& out_types);

/*! \brief `types` with bfloat16 read as float32 (what a fallback op's state is created for). */
std::vector<int> BF16AsFloat32(std::vector<int> types);

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_EXEC_CORE_H_
