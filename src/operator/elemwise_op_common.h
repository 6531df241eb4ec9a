/*!
 * \file elemwise_op_common.h
 * \brief Inference and gradient helpers for elementwise ops: every input and output has the
 *        same shape (dtype), inferred in both directions.
 *
 *   NNVM_REGISTER_OP(quadratic)
 *   .set_attr<mxnet::FInferShape>("FInferShape", ElemwiseShape<1, 1>)
 *   .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
 *   .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_quadratic"});
 */
#ifndef MXNET_OPERATOR_ELEMWISE_OP_COMMON_H_
#define MXNET_OPERATOR_ELEMWISE_OP_COMMON_H_

#include <string>
#include <vector>

#include "./operator_common.h"

namespace mxnet {
namespace op {

/*!
 * \brief Make the first n_in inputs and n_out outputs (all when -1) agree on one attribute:
 *        merge them all (inputs, then outputs if reverse_infer) and write the result back.
 *        Returns false while the merged attribute is still unknown.
 */
template <typename AttrType, bool (*is_none)(const AttrType&),
          bool (*assign)(AttrType*, const AttrType&), bool reverse_infer,
          std::string (*attr_string)(const AttrType&), int n_in = -1, int n_out = -1>
inline bool ElemwiseAttr(const nnvm::NodeAttrs& attrs, std::vector<AttrType>* in_attrs,
                         std::vector<AttrType>* out_attrs, const AttrType& none) {
  AttrType dattr = none;
  size_t in_size = n_in != -1 ? static_cast<size_t>(n_in) : in_attrs->size();
  size_t out_size = n_out != -1 ? static_cast<size_t>(n_out) : out_attrs->size();
  CHECK_LE(in_size, in_attrs->size());
  CHECK_LE(out_size, out_attrs->size());
  auto deduce = [&](const std::vector<AttrType>& vec, size_t size, const char* name) {
    for (size_t i = 0; i < size; ++i) {
      CHECK(assign(&dattr, vec.at(i)))
          << "Incompatible attr in node " << attrs.name << " at " << i << "-th " << name << ": "
          << "expected " << attr_string(dattr) << ", got " << attr_string(vec.at(i));
    }
  };
  deduce(*in_attrs, in_size, "input");
  if (reverse_infer) deduce(*out_attrs, out_size, "output");
  auto write = [&](std::vector<AttrType>* vec, size_t size, const char* name) {
    for (size_t i = 0; i < size; ++i) {
      CHECK(assign(&(vec->at(i)), dattr))
          << "Incompatible attr in node " << attrs.name << " at " << i << "-th " << name << ": "
          << "expected " << attr_string(dattr) << ", got " << attr_string(vec->at(i));
    }
  };
  write(in_attrs, in_size, "input");
  write(out_attrs, out_size, "output");
  return !is_none(dattr);
}

/*! \brief All n_in inputs and n_out outputs (-1: any number) have one shape. */
template <int n_in, int n_out>
inline bool ElemwiseShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                          mxnet::ShapeVector* out_attrs) {
  if (n_in != -1) {
    CHECK_EQ(in_attrs->size(), static_cast<size_t>(n_in)) << " in operator " << attrs.name;
  }
  if (n_out != -1) {
    CHECK_EQ(out_attrs->size(), static_cast<size_t>(n_out)) << " in operator " << attrs.name;
  }
  return ElemwiseAttr<mxnet::TShape, shape_is_none, shape_assign, true, shape_string>(
      attrs, in_attrs, out_attrs, mxnet::TShape());
}

/*! \brief All n_in inputs and n_out outputs (-1: any number) have one dtype. */
template <int n_in, int n_out>
inline bool ElemwiseType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                         std::vector<int>* out_attrs) {
  if (n_in != -1) {
    CHECK_EQ(in_attrs->size(), static_cast<size_t>(n_in)) << " in operator " << attrs.name;
  }
  if (n_out != -1) {
    CHECK_EQ(out_attrs->size(), static_cast<size_t>(n_out)) << " in operator " << attrs.name;
  }
  return ElemwiseAttr<int, type_is_none, type_assign, true, type_string>(attrs, in_attrs,
                                                                        out_attrs, -1);
}

/*! \brief FGradient: backward op op_name takes (out grads, inputs). */
struct ElemwiseGradUseIn {
  const char* op_name;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    return MakeNonlossGradNode(op_name, n, ograds, n->inputs, n->attrs.dict);
  }
};

/*! \brief FGradient: backward op op_name takes (out grads, outputs). */
struct ElemwiseGradUseOut {
  const char* op_name;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    std::vector<nnvm::NodeEntry> heads;
    uint32_t n_out = n->num_outputs();
    for (uint32_t i = 0; i < n_out; ++i) heads.emplace_back(n, i, 0);
    return MakeNonlossGradNode(op_name, n, ograds, heads, n->attrs.dict);
  }
};

/*! \brief FGradient: backward op op_name takes (out grads, inputs, outputs). */
struct ElemwiseGradUseInOut {
  const char* op_name;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    std::vector<nnvm::NodeEntry> heads(ograds.begin(), ograds.end());
    for (auto& h : n->inputs) heads.push_back(h);
    uint32_t n_out = n->num_outputs();
    for (uint32_t i = 0; i < n_out; ++i) heads.emplace_back(n, i, 0);
    return MakeGradNode(op_name, n, heads, n->attrs.dict);
  }
};

/*! \brief FGradient: backward op op_name takes only the out grads. */
struct ElemwiseGradUseNone {
  const char* op_name;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    return MakeNonlossGradNode(op_name, n, ograds, {}, n->attrs.dict);
  }
};

/*! \brief FGradient: each input's gradient is the output gradient itself (identity-like ops). */
struct CloneGradient {
  const char* op_name;
  std::vector<nnvm::NodeEntry> operator()(const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) const {
    std::vector<nnvm::NodeEntry> ret;
    const size_t input_count = n->inputs.size();
    ret.reserve(input_count);
    for (size_t i = 0; i < input_count; ++i) ret.emplace_back(ograds[0]);
    return ret;
  }
};

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_ELEMWISE_OP_COMMON_H_
