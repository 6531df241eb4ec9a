/*!
 * \file infer_storage.h
 * \brief Storage-type inference over a graph (MXNet 1.x's InferStorageType pass): every entry
 *        gets a storage type (default / row_sparse / csr) and every operator node a dispatch
 *        mode: FCompute (dense), FComputeEx (the op's sparse kernel) or FComputeFallback
 *        (sparse inputs densified, dense kernel, outputs cast to their bound storage).
 */
#ifndef MXNET_EXECUTOR_INFER_STORAGE_H_
#define MXNET_EXECUTOR_INFER_STORAGE_H_

#include <mxnet/op_attr_types.h>
#include <nnvm/graph.h>

#include <vector>

namespace mxnet {
namespace exec {

/*!
 * \brief Fill `stypes` (one per node entry; entries already set are kept: bound arrays,
 *        variables' __storage_type__) and `modes` (one per node). Variables with no storage
 *        type are dense, except those `same_as` maps (per entry, -1 none) to an earlier entry:
 *        they take its type. Ops without FInferStorageType/FComputeEx<cpu> run dense,
 *        densifying sparse inputs (logged once per operator, as imperative calls do).
 * \return the number of nodes dispatched with a storage fallback.
 */
size_t InferStorageTypes(const nnvm::IndexedGraph& idx, int dev_mask, std::vector<int>* stypes,
                         std::vector<DispatchMode>* modes,
                         const std::vector<int>* same_as = nullptr);

/*!
 * \brief For a graph [forward outputs, gradients] whose head-gradient variables are
 *        `head_grads` (one per forward output, null when absent): per entry, the forward
 *        output entry whose storage type the head gradient takes (MXNet 1.x: the gradient of
 *        a row_sparse output is row_sparse), else -1. Pass it as InferStorageTypes' same_as.
 */
std::vector<int> HeadGradStorageSources(const nnvm::IndexedGraph& idx,
                                        const std::vector<nnvm::ObjectPtr>& head_grads);

/*! \brief Storage type named by a variable's "__storage_type__" attribute, or undefined. */
int VariableStorageType(const nnvm::Node* n);

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_INFER_STORAGE_H_
