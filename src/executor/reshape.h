/*!
 * \file reshape.h
 * \brief Executor.reshape's planning: infer the new shapes from the ones the caller names and
 *        bind a new executor that shares the old one's memory where the arrays fit.
 */
#ifndef MXNET_EXECUTOR_RESHAPE_H_
#define MXNET_EXECUTOR_RESHAPE_H_

#include <mxnet/executor.h>

#include <map>
#include <string>
#include <unordered_map>

namespace mxnet {
namespace exec {

/*! \brief What the caller of reshape gives besides the old executor. */
struct ReshapeSpec {
  Context ctx;
  std::map<std::string, Context> group2ctx;
  std::unordered_map<std::string, TShape> arg_shapes;  // new shapes by argument name
  bool partial_shaping{false};  // arguments not named may change shape (or stay unknown)
  bool allow_up_sizing{false};  // arrays may grow (new memory) instead of being views
};

/*! \brief A new executor of `old`'s symbol with the shapes `spec` implies; arrays that keep or
 *  shrink their size are views of `old`'s. Throws ValueError naming the argument otherwise. */
Executor* Reshape(Executor* old, const ReshapeSpec& spec);

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_RESHAPE_H_
