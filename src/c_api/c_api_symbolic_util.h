/*!
 * \file c_api_symbolic_util.h
 * \brief Helpers shared by the symbol and executor C API shims.
 */
#ifndef MXNET_C_API_C_API_SYMBOLIC_UTIL_H_
#define MXNET_C_API_C_API_SYMBOLIC_UTIL_H_

#include <mxnet/c_api.h>
#include <mxnet/tuple.h>
#include <nnvm/graph.h>
#include <nnvm/symbolic.h>

#include <string>
#include <vector>

/*! \brief Inferred shapes of arguments, outputs and auxiliary states. */
struct ShapeVectorTriple {
  mxnet::ShapeVector args, outs, aux;
};

namespace mxnet {
namespace c_api {

/*! \brief The symbol behind a handle (ValueError when NULL). */
nnvm::Symbol* SymbolFromHandle(SymbolHandle h);
/*! \brief Whether key is one of MXNet's hidden attribute names (ctx_group, lr_mult, ...). */
bool IsHiddenKey(const std::string& key);
/*! \brief k for "__k__" when k is a hidden key, else "". */
std::string StripHidden(const std::string& key);

}  // namespace c_api
}  // namespace mxnet

#endif  // MXNET_C_API_C_API_SYMBOLIC_UTIL_H_
