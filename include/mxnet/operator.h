/*!
 * \file mxnet/operator.h
 * \brief The legacy (pre-NNVM) operator interface: an Operator does the computation, an
 *        OperatorProperty describes it (arguments, shapes, dtypes, resources, backward
 *        dependencies, in-place pairs). MXNET_REGISTER_OP_PROPERTY turns the property into an
 *        ordinary nnvm::Op (src/operator/legacy/legacy_op_adapter.cc), so these operators live
 *        in the one registry with everything else: mx.nd.<Name>, mx.sym.<Name>, autograd.
 *
 *   class ScaleOp : public Operator {
 *    public:
 *     explicit ScaleOp(ScaleParam p) : param_(p) {}
 *     void Forward(const OpContext& ctx, const std::vector<TBlob>& in_data,
 *                  const std::vector<OpReqType>& req, const std::vector<TBlob>& out_data,
 *                  const std::vector<TBlob>& aux_states) override { ... }
 *     void Backward(...) override { ... }   // gets only what DeclareBackwardDependency names
 *   };
 *   class ScaleProp : public OperatorProperty {
 *     void Init(const std::vector<std::pair<std::string, std::string>>& kw) override {
 *       param_.Init(kw);
 *     }
 *     std::map<std::string, std::string> GetParams() const override { return param_.__DICT__(); }
 *     bool InferShape(mxnet::ShapeVector* in, mxnet::ShapeVector* out,
 *                     mxnet::ShapeVector* aux) const override { ... }
 *     OperatorProperty* Copy() const override { return new ScaleProp(*this); }
 *     std::string TypeString() const override { return "Scale"; }
 *     Operator* CreateOperator(Context ctx) const override { return new ScaleOp(param_); }
 *     ScaleParam param_;
 *   };
 *   DMLC_REGISTER_PARAMETER(ScaleParam);
 *   MXNET_REGISTER_OP_PROPERTY(Scale, ScaleProp)
 *   .describe("Multiplies by a scalar.")
 *   .add_argument("data", "NDArray-or-Symbol", "Input")
 *   .add_arguments(ScaleParam::__FIELDS__());
 *
 * What the system does with the property: inputs are ListArguments() then
 * ListAuxiliaryStates() (aux states are mutable inputs, updated in place); the backward op
 * `_backward_<Name>` takes exactly the arrays DeclareBackwardDependency names (others are not
 * kept alive for it) followed by the aux states; ForwardResource/BackwardResource arrive in
 * OpContext::requested; Forward/BackwardInplaceOption pairs may share memory.
 */
#ifndef MXNET_OPERATOR_H_
#define MXNET_OPERATOR_H_

#include <dmlc/logging.h>
#include <dmlc/parameter.h>
#include <dmlc/registry.h>
#include <mxnet/base.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tensor_blob.h>
#include <mxnet/tuple.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nnvm {
class Op;
}

namespace mxnet {

/*! \brief The computation of a legacy operator (one instance per node/invocation). */
class Operator {
 public:
  virtual ~Operator() = default;
  /*!
   * \brief Compute out_data from in_data.
   * \param req how to write each output (kNullOp / kWriteTo / kWriteInplace / kAddTo)
   * \param aux_states auxiliary states (e.g. moving averages), updated in place
   */
  virtual void Forward(const OpContext& ctx, const std::vector<TBlob>& in_data,
                       const std::vector<OpReqType>& req, const std::vector<TBlob>& out_data,
                       const std::vector<TBlob>& aux_states) = 0;
  /*!
   * \brief Compute in_grad. Entries of out_grad/in_data/out_data that the property did not
   *        declare as backward dependencies are empty TBlobs (dptr_ == nullptr).
   */
  virtual void Backward(const OpContext& ctx, const std::vector<TBlob>& out_grad,
                        const std::vector<TBlob>& in_data, const std::vector<TBlob>& out_data,
                        const std::vector<OpReqType>& req, const std::vector<TBlob>& in_grad,
                        const std::vector<TBlob>& aux_states) {
    LOG(FATAL) << "Backward is not implemented";
  }
  /*! \brief Legacy operators always run synchronously on an engine worker. */
  virtual ExecType exec_type() const final { return ExecType::kSync; }
};

/*! \brief The description of a legacy operator; see the file comment. */
class OperatorProperty {
 public:
  virtual ~OperatorProperty() = default;
  /*! \brief Set the parameters from string key/value pairs (throws dmlc::ParamError). */
  virtual void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) = 0;
  /*! \brief The parameters as strings. */
  virtual std::map<std::string, std::string> GetParams() const = 0;
  /*! \brief Names of the (non-aux) inputs. */
  virtual std::vector<std::string> ListArguments() const { return {"data"}; }
  /*! \brief Names of the outputs. */
  virtual std::vector<std::string> ListOutputs() const { return {"output"}; }
  /*! \brief Names of the auxiliary states (inputs the operator updates in place). */
  virtual std::vector<std::string> ListAuxiliaryStates() const { return {}; }
  /*! \brief Number of outputs. */
  virtual int NumOutputs() const { return static_cast<int>(this->ListOutputs().size()); }
  /*! \brief Number of outputs the user sees (the first k). */
  virtual int NumVisibleOutputs() const { return NumOutputs(); }
  /*!
   * \brief Infer shapes (unknown shape: ndim -1; unknown dim: -1). Fill what can be known;
   *        return false if something is still unknown; throw on inconsistent shapes.
   */
  virtual bool InferShape(mxnet::ShapeVector* in_shape, mxnet::ShapeVector* out_shape,
                          mxnet::ShapeVector* aux_shape) const = 0;
  /*! \brief Infer dtypes (-1 unknown). Default: everything float32. */
  virtual bool InferType(std::vector<int>* in_type, std::vector<int>* out_type,
                         std::vector<int>* aux_type) const {
    for (size_t i = 0; i < in_type->size(); ++i) {
      if ((*in_type)[i] != -1 && (*in_type)[i] != mshadow::kFloat32) {
        MX_THROW(TypeError) << "Operator " << TypeString() << ": input "
                            << (i < ListArguments().size() ? ListArguments()[i]
                                                           : std::to_string(i))
                            << " must be float32, got " << mshadow::dtype_string((*in_type)[i]);
      }
      (*in_type)[i] = mshadow::kFloat32;
    }
    out_type->assign(NumOutputs(), mshadow::kFloat32);
    aux_type->assign(ListAuxiliaryStates().size(), mshadow::kFloat32);
    return true;
  }
  /*! \brief A copy of this property. */
  virtual OperatorProperty* Copy() const = 0;
  /*! \brief Create the operator for a device. */
  virtual Operator* CreateOperator(Context ctx) const = 0;
  /*!
   * \brief Create the operator knowing input shapes and dtypes (e.g. to pick a kernel).
   *        Default: infer types and shapes, then CreateOperator(ctx).
   */
  virtual Operator* CreateOperatorEx(Context ctx, mxnet::ShapeVector* in_shape,
                                     std::vector<int>* in_type) const {
    std::vector<int> out_type, aux_type;
    mxnet::ShapeVector out_shape, aux_shape;
    out_type.assign(this->NumOutputs(), -1);
    out_shape.assign(this->NumOutputs(), mxnet::TShape());
    aux_type.assign(this->ListAuxiliaryStates().size(), -1);
    aux_shape.assign(this->ListAuxiliaryStates().size(), mxnet::TShape());
    CHECK(InferType(in_type, &out_type, &aux_type))
        << "Operator " << TypeString() << ": cannot infer dtypes";
    CHECK(InferShape(in_shape, &out_shape, &aux_shape))
        << "Operator " << TypeString() << ": cannot infer shapes";
    return CreateOperator(ctx);
  }
  /*! \brief The registered name of the operator. */
  virtual std::string TypeString() const = 0;
  /*! \brief Resources Forward needs (in OpContext::requested order). */
  virtual std::vector<ResourceRequest> ForwardResource(const mxnet::ShapeVector& in_shape) const {
    return {};
  }
  /*! \brief Resources Backward needs. */
  virtual std::vector<ResourceRequest> BackwardResource(const mxnet::ShapeVector& in_shape) const {
    return {};
  }
  /*!
   * \brief Which arrays Backward reads, as a subset of the given ids (default: all). Arrays
   *        not named may be freed after Forward.
   */
  virtual std::vector<int> DeclareBackwardDependency(const std::vector<int>& out_grad,
                                                     const std::vector<int>& in_data,
                                                     const std::vector<int>& out_data) const {
    std::vector<int> ret = out_grad;
    ret.insert(ret.end(), in_data.begin(), in_data.end());
    ret.insert(ret.end(), out_data.begin(), out_data.end());
    return ret;
  }
  /*! \brief (in_data id, out_data pointer) pairs that may share memory in Forward. */
  virtual std::vector<std::pair<int, void*>> ForwardInplaceOption(
      const std::vector<int>& in_data, const std::vector<void*>& out_data) const {
    return {};
  }
  /*! \brief (backward input id, in_grad pointer) pairs that may share memory in Backward. */
  virtual std::vector<std::pair<int, void*>> BackwardInplaceOption(
      const std::vector<int>& out_grad, const std::vector<int>& in_data,
      const std::vector<int>& out_data, const std::vector<void*>& in_grad) const {
    return {};
  }
  /*!
   * \brief Select the backward inputs from the three lists, in DeclareBackwardDependency order
   *        (ids: out_grad 0.., then in_data, then out_data).
   */
  template <typename T>
  std::vector<T> BackwardInputs(const std::vector<T>& out_grad, const std::vector<T>& in_data,
                                const std::vector<T>& out_data) const {
    std::vector<int> og(out_grad.size()), id(in_data.size()), od(out_data.size());
    std::vector<T> all;
    int counter = 0;
    for (size_t i = 0; i < og.size(); ++i, ++counter) og[i] = counter, all.push_back(out_grad[i]);
    for (size_t i = 0; i < id.size(); ++i, ++counter) id[i] = counter, all.push_back(in_data[i]);
    for (size_t i = 0; i < od.size(); ++i, ++counter) od[i] = counter, all.push_back(out_data[i]);
    std::vector<T> ret;
    for (int dep : this->DeclareBackwardDependency(og, id, od)) ret.push_back(all.at(dep));
    return ret;
  }
  /*! \brief How the engine runs the operator (legacy operators: kSync). */
  virtual ExecType exec_type() const { return ExecType::kSync; }
  /*! \brief A new property of the registered type_name, or nullptr if there is none. */
  static OperatorProperty* Create(const char* type_name);
};

/*! \brief Makes a new property object. */
typedef std::function<OperatorProperty*()> OperatorPropertyFactory;

/*!
 * \brief Registry entry of a legacy operator. Besides the dmlc registry entry, check_name()
 *        registers the adapted nnvm::Op; describe/add_argument/add_arguments/
 *        set_key_var_num_args update both.
 */
struct MXNET_DLL OperatorPropertyReg
    : public dmlc::FunctionRegEntryBase<OperatorPropertyReg, OperatorPropertyFactory> {
  /*! \brief Name of the param carrying the number of inputs of a variadic op, or "". */
  std::string key_var_num_args;
  /*! \brief The adapted operator (set by check_name). */
  nnvm::Op* nnvm_op{nullptr};

  OperatorPropertyReg& describe(const std::string& description);
  OperatorPropertyReg& add_argument(const std::string& name, const std::string& type,
                                    const std::string& description);
  OperatorPropertyReg& add_arguments(const std::vector<dmlc::ParamFieldInfo>& args);
  OperatorPropertyReg& set_key_var_num_args(const std::string& key);
  /*!
   * \brief Check that the property's TypeString() is the registered name, then register the
   *        nnvm::Op `<name>` and `_backward_<name>` with the adapter attributes.
   */
  OperatorPropertyReg& check_name();
};

/*!
 * \brief Register a legacy operator: MXNET_REGISTER_OP_PROPERTY(Name, PropClass) followed by
 *        .describe(...), .add_argument(...), .add_arguments(Param::__FIELDS__()).
 */
#define MXNET_REGISTER_OP_PROPERTY(name, OperatorPropertyType)                                 \
  DMLC_REGISTRY_REGISTER(::mxnet::OperatorPropertyReg, OperatorPropertyReg, name)             \
      .set_body([]() -> ::mxnet::OperatorProperty* { return new OperatorPropertyType(); })  \
      .set_return_type("NDArray-or-Symbol")                                                    \
      .check_name()

}  // namespace mxnet

#endif  // MXNET_OPERATOR_H_
