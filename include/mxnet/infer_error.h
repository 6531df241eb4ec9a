/*!
 * \file infer_error.h
 * \brief The errors an operator's shape, dtype or storage-type inference throws for one entry of
 *        its attribute vector. The graph passes catch them to name the node and the input or
 *        output at `index`, so they belong to the interface between operators and the graph IR.
 */
#ifndef MXNET_INFER_ERROR_H_
#define MXNET_INFER_ERROR_H_

#include <dmlc/logging.h>

#include <string>

namespace mxnet {

/*! \brief Base of the inference failures: the message and the failing entry's index. */
struct InferAttrError : public dmlc::Error {
  std::string msg;
  int index;
  InferAttrError(const std::string& msg_, int index_)
      : dmlc::Error(msg_), msg(msg_), index(index_) {}
};

/*! \brief A shape inference failure at entry `index` of a shape vector. */
struct InferShapeError : public InferAttrError {
  using InferAttrError::InferAttrError;
};

/*! \brief A dtype inference failure at entry `index` of a type vector. */
struct InferTypeError : public InferAttrError {
  using InferAttrError::InferAttrError;
};

/*! \brief A storage-type inference failure at entry `index`. */
struct InferStorageTypeError : public InferAttrError {
  using InferAttrError::InferAttrError;
};

}  // namespace mxnet

#endif  // MXNET_INFER_ERROR_H_
