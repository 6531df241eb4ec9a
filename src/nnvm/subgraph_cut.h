/*!
 * \file subgraph_cut.h
 * \brief Cutting a control-flow body out of the graph it was traced in (MXSymbolCutSubgraph).
 *
 *   // body nodes carry the attribute __subgraph_name__ = "foreach0"
 *   std::vector<nnvm::Symbol> outer = nnvm::CutSubgraphInputs(&body);
 *   // body's edges from nodes outside "foreach0" now read new variables named after the
 *   // outer outputs ("fc_output"); `outer` holds those outer outputs, in the cut order.
 */
#ifndef MXNET_NNVM_SUBGRAPH_CUT_H_
#define MXNET_NNVM_SUBGRAPH_CUT_H_

#include <nnvm/symbolic.h>

#include <vector>

namespace nnvm {

/*!
 * \brief The subgraph is the set of nodes whose "__subgraph_name__" equals that of the first
 *        output's node. Every input edge of such a node that comes from a node outside the set
 *        is replaced (in place) by a variable named after the outer entry's output name; one
 *        variable per distinct outer entry. Returns the outer entries, one Symbol each. A graph
 *        whose first output node has no "__subgraph_name__" is left alone (empty result).
 */
std::vector<Symbol> CutSubgraphInputs(Symbol* sym);

}  // namespace nnvm

#endif  // MXNET_NNVM_SUBGRAPH_CUT_H_
