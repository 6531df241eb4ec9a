/*!
 * \file operator_common.h
 * \brief Helpers shared by operator implementations: parameter parsing with the op named in
 *        errors, shape/type/storage assignment checks, and gradient-node builders.
 *
 *   NNVM_REGISTER_OP(Activation).set_attr_parser(ParamParser<ActivationParam>);
 *
 *   bool MyShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
 *     SHAPE_ASSIGN_CHECK(*out, 0, in->at(0));   // throws InferShapeError on a mismatch
 *     SHAPE_ASSIGN_CHECK(*in, 0, out->at(0));
 *     return shape_is_known(out->at(0));
 *   }
 */
#ifndef MXNET_OPERATOR_OPERATOR_COMMON_H_
#define MXNET_OPERATOR_OPERATOR_COMMON_H_

#include <dmlc/logging.h>
#include <dmlc/parameter.h>
#include <mxnet/base.h>
#include <mxnet/infer_error.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tuple.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mxnet {
namespace op {

// The inference errors live in <mxnet/infer_error.h>, shared with the graph passes.
using mxnet::InferShapeError;
using mxnet::InferStorageTypeError;
using mxnet::InferTypeError;

/*! \brief True when the shape is not fully known. */
inline bool shape_is_none(const mxnet::TShape& x) { return !mxnet::shape_is_known(x); }
/*! \brief True when the dtype is unknown (-1). */
inline bool type_is_none(const int& x) { return x == -1; }
/*! \brief True when the storage type is undefined (-1). */
inline bool storage_type_is_none(const int& x) { return x == -1; }

/*! \brief Printable shape ("[2,3]", "None"). */
inline std::string shape_string(const mxnet::TShape& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
/*! \brief Printable dtype ("float32", "unknown"). */
inline std::string type_string(const int& x) { return mshadow::dtype_string(x); }
/*! \brief Printable storage type. */
inline std::string stype_string(const int& x) {
  switch (x) {
    case 0: return "default";
    case 1: return "row_sparse";
    case 2: return "csr";
    case -1: return "undefined";
  }
  return "unknown";
}

/*!
 * \brief Merge x into *y: fill unknown parts of *y from x. Returns false when both are known
 *        and disagree (in ndim or in some dim).
 */
inline bool shape_assign(mxnet::TShape* y, const mxnet::TShape& x) {
  if (!mxnet::ndim_is_known(*y)) {
    *y = x;
    return true;
  } else if (y->ndim() != x.ndim()) {
    return !mxnet::ndim_is_known(x);
  } else {
    for (int i = 0; i < y->ndim(); ++i) {
      if (!mxnet::dim_size_is_known(*y, i)) {
        (*y)[i] = x[i];
      } else if ((*y)[i] != x[i] && x[i] >= 0) {
        return false;
      }
    }
    return true;
  }
}

/*! \brief Merge dtype x into *y (-1 unknown); false when both known and different. */
inline bool type_assign(int* y, const int& x) {
  if (*y == -1) {
    *y = x;
    return true;
  } else if (*y != x && x != -1) {
    return false;
  }
  return true;
}

/*! \brief Merge storage type x into *y (-1 undefined); false when both known and different. */
inline bool storage_type_assign(int* y, const int& x) { return type_assign(y, x); }

/*! \brief Set *y to x if undefined; false when already set to something else. */
inline bool dispatch_mode_assign(DispatchMode* y, const DispatchMode& x) {
  if (*y == DispatchMode::kUndefined) {
    *y = x;
    return true;
  }
  return *y == x;
}

/*!
 * \brief Assign `shape` to shape_array[index]; on a mismatch throw InferShapeError naming the
 *        vector, the index and both shapes.
 */
#define SHAPE_ASSIGN_CHECK(shape_array, index, shape)                                       \
  {                                                                                         \
    if (!::mxnet::op::shape_assign(&(shape_array)[index], mxnet::TShape(shape))) {          \
      std::ostringstream os;                                                                \
      os << #shape_array << "[" << (index) << "]: Shape inconsistent, Provided = "          \
         << (shape_array)[index] << ',' << " inferred shape=" << (shape);                   \
      throw ::mxnet::op::InferShapeError(os.str(), index);                                  \
    }                                                                                       \
  }

/*!
 * \brief Assign dtype `type` to type_array[index]; on a mismatch throw InferTypeError naming
 *        the vector, the index and both dtypes.
 */
#define TYPE_ASSIGN_CHECK(type_array, index, type)                                          \
  {                                                                                         \
    if (!::mxnet::op::type_assign(&(type_array)[index], type)) {                            \
      std::ostringstream os;                                                                \
      os << #type_array << "[" << (index) << "]: "                                          \
         << "expected " << ::mxnet::op::type_string((type_array)[index]) << ", got "        \
         << ::mxnet::op::type_string(type);                                                 \
      throw ::mxnet::op::InferTypeError(os.str(), index);                                   \
    }                                                                                       \
  }

/*! \brief Like TYPE_ASSIGN_CHECK for storage types. */
#define STORAGE_TYPE_ASSIGN_CHECK(type_array, index, type)                                  \
  {                                                                                         \
    if (!::mxnet::op::storage_type_assign(&(type_array)[index], type)) {                    \
      std::ostringstream os;                                                                \
      os << #type_array << "[" << (index) << "]: "                                          \
         << "expected " << ::mxnet::op::stype_string((type_array)[index]) << ", got "       \
         << ::mxnet::op::stype_string(type);                                                \
      throw ::mxnet::op::InferStorageTypeError(os.str(), index);                            \
    }                                                                                       \
  }

/*! \brief Set the dispatch mode if undefined; throws when already set to another mode. */
#define DISPATCH_MODE_ASSIGN_CHECK(type_array, index, type)                                 \
  {                                                                                         \
    if (!::mxnet::op::dispatch_mode_assign((type_array) + (index), type)) {                 \
      std::ostringstream os;                                                                \
      os << #type_array << "[" << (index) << "]: "                                          \
         << "expected " << ::mxnet::dispatch_mode_string((type_array)[index]) << ", got "   \
         << ::mxnet::dispatch_mode_string(type);                                            \
      LOG(FATAL) << os.str();                                                               \
    }                                                                                       \
  }

/*! \brief All known dtypes in type_array must equal type. */
#define UNIFORM_TYPE_CHECK(type, expected, arg)                                             \
  {                                                                                         \
    CHECK_EQ(type, expected) << "This layer requires uniform type. "                        \
                             << "Expected '" << ::mxnet::op::type_string(expected)          \
                             << "' v.s. given '" << ::mxnet::op::type_string(type)          \
                             << "' at '" << (arg) << "'";                                   \
  }

/*!
 * \brief The attribute parser of ops with a parameter struct: parses attrs->dict into
 *        attrs->parsed. On a ParamError, rethrows it with the op and its attributes appended:
 *        `..., in operator Activation(name="", act_type="foo")` (keys sorted).
 */
template <typename PType>
inline void ParamParser(nnvm::NodeAttrs* attrs) {
  PType param;
  try {
    param.Init(attrs->dict);
  } catch (const dmlc::ParamError& e) {
    std::ostringstream os;
    os << e.what();
    os << ", in operator " << (attrs->op != nullptr ? attrs->op->name : std::string("<none>"))
       << "(name=\"" << attrs->name << "\"";
    std::map<std::string, std::string> sorted(attrs->dict.begin(), attrs->dict.end());
    for (const auto& k : sorted) os << ", " << k.first << "=\"" << k.second << "\"";
    os << ")";
    throw dmlc::ParamError(os.str());
  }
  attrs->parsed = std::move(param);
}

/*!
 * \brief A new node of op `op_name` (parser run), with optional inputs, attributes and the
 *        forward node as its control dependency (for backward ops).
 */
inline nnvm::ObjectPtr MakeNode(const char* op_name, const std::string& name,
                                std::vector<nnvm::NodeEntry> const* inputs = nullptr,
                                std::unordered_map<std::string, std::string> const* dict = nullptr,
                                nnvm::ObjectPtr const* fwd_node = nullptr) {
  auto p = nnvm::Node::Create();
  p->attrs.op = nnvm::Op::Get(op_name);
  p->attrs.name = name;
  if (dict != nullptr) p->attrs.dict = *dict;
  if (inputs != nullptr) p->inputs = *inputs;
  if (fwd_node != nullptr) p->control_deps.emplace_back(*fwd_node);
  if (p->op()->attr_parser != nullptr) p->op()->attr_parser(&(p->attrs));
  return p;
}

inline nnvm::ObjectPtr MakeNode(const char* op_name, const std::string& name,
                                const std::vector<nnvm::NodeEntry>& inputs,
                                std::unordered_map<std::string, std::string> const* dict,
                                nnvm::ObjectPtr const* fwd_node) {
  return MakeNode(op_name, name, &inputs, dict, fwd_node);
}

/*! \brief Gradient node of n named "<n>_backward"; returns all its outputs. */
inline std::vector<nnvm::NodeEntry> MakeGradNode(
    const char* op_name, const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& inputs,
    const std::unordered_map<std::string, std::string>& dict) {
  auto p = MakeNode(op_name, n->attrs.name + "_backward", &inputs, &dict, &n);
  std::vector<nnvm::NodeEntry> ret;
  for (uint32_t i = 0; i < p->num_outputs(); ++i) ret.emplace_back(p, i, 0);
  return ret;
}

/*! \brief zeros_like gradients for every input of n. */
inline std::vector<nnvm::NodeEntry> MakeZeroGradNodes(const nnvm::ObjectPtr& n,
                                                      const std::vector<nnvm::NodeEntry>& ograds) {
  std::vector<nnvm::NodeEntry> ret;
  for (uint32_t i = 0; i < n->num_inputs(); ++i) {
    std::ostringstream os;
    if (1 == n->num_inputs()) {
      os << n->attrs.name << "_backward";
    } else {
      os << n->attrs.name << "_in" << i << "_backward";
    }
    auto p = MakeNode("zeros_like", os.str(), {n->inputs[i]}, nullptr, &n);
    ret.emplace_back(p);
  }
  return ret;
}

/*! \brief True when every output gradient is a zeros_like/_zeros node. */
inline bool CheckGradAllZero(const std::vector<nnvm::NodeEntry>& ograds) {
  const nnvm::Op* zeros_like = nnvm::Op::Find("zeros_like");
  const nnvm::Op* zeros = nnvm::Op::Find("_zeros");
  if (ograds.empty()) return false;
  for (const auto& grad : ograds) {
    if (!grad.node || grad.node->op() == nullptr) return false;
    if (grad.node->op() != zeros_like && grad.node->op() != zeros) return false;
  }
  return true;
}

/*!
 * \brief Gradient node whose inputs are ograds then `inputs`; if every ograd is zero, zero
 *        gradients instead (the op does not contribute to the objective).
 */
inline std::vector<nnvm::NodeEntry> MakeNonlossGradNode(
    const char* op_name, const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds,
    const std::vector<nnvm::NodeEntry>& inputs,
    const std::unordered_map<std::string, std::string>& dict) {
  if (CheckGradAllZero(ograds)) return MakeZeroGradNodes(n, ograds);
  auto p = MakeNode(op_name, n->attrs.name + "_backward", nullptr, &dict, &n);
  p->inputs.insert(p->inputs.end(), ograds.begin(), ograds.end());
  p->inputs.insert(p->inputs.end(), inputs.begin(), inputs.end());
  std::vector<nnvm::NodeEntry> ret;
  for (uint32_t i = 0; i < p->num_outputs(); ++i) ret.emplace_back(p, i, 0);
  return ret;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_OPERATOR_COMMON_H_
