/*!
 * \file legacy_op_adapter.cc
 * \brief Turns each MXNET_REGISTER_OP_PROPERTY entry into registry attributes (see the header).
 */
#include "./legacy_op_adapter.h"

#include <mxnet/resource.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

#include "../operator_common.h"

namespace mxnet {

// ------------------------------------------------------------------ OperatorPropertyReg

OperatorPropertyReg& OperatorPropertyReg::describe(const std::string& descr) {
  this->description = descr;
  if (nnvm_op != nullptr) nnvm_op->describe(descr);
  return *this;
}

OperatorPropertyReg& OperatorPropertyReg::add_argument(const std::string& arg_name,
                                                       const std::string& type,
                                                       const std::string& descr) {
  this->arguments.push_back(dmlc::ParamFieldInfo{arg_name, type, type, descr});
  if (nnvm_op != nullptr) nnvm_op->add_argument(arg_name, type, descr);
  return *this;
}

OperatorPropertyReg& OperatorPropertyReg::add_arguments(
    const std::vector<dmlc::ParamFieldInfo>& args) {
  this->arguments.insert(this->arguments.end(), args.begin(), args.end());
  if (nnvm_op != nullptr) nnvm_op->add_arguments(args);
  return *this;
}

OperatorPropertyReg& OperatorPropertyReg::set_key_var_num_args(const std::string& key) {
  key_var_num_args = key;
  if (nnvm_op != nullptr) nnvm_op->set_attr<std::string>("key_var_num_args", key);
  return *this;
}

OperatorPropertyReg& OperatorPropertyReg::check_name() {
  std::unique_ptr<OperatorProperty> prop(body());
  CHECK_EQ(prop->TypeString(), this->name)
      << "Legacy operator registered as " << this->name << " reports TypeString() "
      << prop->TypeString() << "; they must be the same";
  op::RegisterLegacyOp(this);
  return *this;
}

OperatorProperty* OperatorProperty::Create(const char* type_name) {
  const OperatorPropertyReg* reg = dmlc::Registry<OperatorPropertyReg>::Find(type_name);
  if (reg == nullptr) return nullptr;
  return reg->body();
}

namespace op {
namespace {

const ParsedOpProp& Parsed(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<ParsedOpProp>(attrs.parsed);
}

/*! \brief Attribute parser: a fresh property initialised from the node's string attributes. */
void ParseLegacy(const OperatorPropertyReg* reg, nnvm::NodeAttrs* attrs) {
  ParsedOpProp p;
  p.ptr.reset(reg->body());
  // Attributes like __ctx_group__ or __lr_mult__ belong to the graph, not to the operator.
  std::map<std::string, std::string> sorted;
  for (const auto& kv : attrs->dict) {
    if (kv.first.size() > 4 && kv.first.compare(0, 2, "__") == 0) continue;
    sorted.insert(kv);
  }
  std::vector<std::pair<std::string, std::string>> kwargs(sorted.begin(), sorted.end());
  try {
    p.ptr->Init(kwargs);
  } catch (const dmlc::ParamError& e) {
    std::ostringstream os;
    os << e.what() << ", in operator " << reg->name << "(name=\"" << attrs->name << "\"";
    for (const auto& kv : sorted) os << ", " << kv.first << "=\"" << kv.second << "\"";
    os << ")";
    throw dmlc::ParamError(os.str());
  }
  p.arguments = p.ptr->ListArguments();
  p.aux_states = p.ptr->ListAuxiliaryStates();
  p.outputs = p.ptr->ListOutputs();
  p.num_outputs = p.ptr->NumOutputs();
  p.num_visible_outputs = p.ptr->NumVisibleOutputs();
  std::vector<int> og(p.num_visible_outputs), id(p.arguments.size()), od(p.num_outputs);
  for (size_t i = 0; i < og.size(); ++i) og[i] = p.out_grad_id(i);
  for (size_t i = 0; i < id.size(); ++i) id[i] = p.in_data_id(i);
  for (size_t i = 0; i < od.size(); ++i) od[i] = p.out_data_id(i);
  p.backward_deps = p.ptr->DeclareBackwardDependency(og, id, od);
  const int num_ids = p.out_data_id(p.num_outputs);
  for (int dep : p.backward_deps) {
    CHECK(dep >= 0 && dep < num_ids) << "Operator " << reg->name
                                     << ": DeclareBackwardDependency returned unknown id " << dep;
  }
  attrs->parsed = std::move(p);
}

std::string ShapesString(const ShapeVector& v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  os << "]";
  return os.str();
}

/*! \brief Copy the property's result back, checking it kept the vector sizes. */
template <typename T>
void CheckSize(const char* what, const std::string& op_name, const std::vector<T>& v,
               size_t expected) {
  CHECK_EQ(v.size(), expected) << "Operator " << op_name << ": Infer" << what
                               << " changed the number of entries (a bug in the operator)";
}

bool LegacyInferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const ParsedOpProp& p = Parsed(attrs);
  const size_t nargs = p.arguments.size();
  CHECK_EQ(in->size(), nargs + p.aux_states.size());
  ShapeVector args(in->begin(), in->begin() + nargs), aux(in->begin() + nargs, in->end());
  ShapeVector outs = *out;
  bool ok = false;
  const std::string name = p.ptr->TypeString();
  try {
    ok = p.ptr->InferShape(&args, &outs, &aux);
  } catch (const InferShapeError& e) {
    // Name the operator and the input (the property's checks only name vector slots).
    const std::vector<std::string>& names = p.arguments;
    throw InferShapeError("Operator " + name + ": " + e.msg +
                              (e.index >= 0 && e.index < static_cast<int>(names.size())
                                   ? " (input " + names[e.index] + ")"
                                   : std::string()),
                          e.index);
  }
  CheckSize("Shape", name, args, nargs);
  CheckSize("Shape", name, outs, out->size());
  CheckSize("Shape", name, aux, p.aux_states.size());
  for (size_t i = 0; i < nargs; ++i) SHAPE_ASSIGN_CHECK(*in, i, args[i]);
  for (size_t i = 0; i < aux.size(); ++i) SHAPE_ASSIGN_CHECK(*in, nargs + i, aux[i]);
  for (size_t i = 0; i < outs.size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, outs[i]);
  return ok && std::all_of(out->begin(), out->end(), [](const TShape& s) { return shape_is_known(s); });
}

bool LegacyInferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const ParsedOpProp& p = Parsed(attrs);
  const size_t nargs = p.arguments.size();
  std::vector<int> args(in->begin(), in->begin() + nargs), aux(in->begin() + nargs, in->end());
  std::vector<int> outs = *out;
  bool ok = false;
  const std::string name = p.ptr->TypeString();
  try {
    ok = p.ptr->InferType(&args, &outs, &aux);
  } catch (const InferTypeError& e) {
    throw InferTypeError("Operator " + name + ": " + e.msg, e.index);
  }
  CheckSize("Type", name, args, nargs);
  CheckSize("Type", name, outs, out->size());
  CheckSize("Type", name, aux, p.aux_states.size());
  for (size_t i = 0; i < nargs; ++i) TYPE_ASSIGN_CHECK(*in, i, args[i]);
  for (size_t i = 0; i < aux.size(); ++i) TYPE_ASSIGN_CHECK(*in, nargs + i, aux[i]);
  for (size_t i = 0; i < outs.size(); ++i) TYPE_ASSIGN_CHECK(*out, i, outs[i]);
  return ok && std::all_of(out->begin(), out->end(), [](int t) { return t != -1; });
}

std::vector<std::pair<int, int>> LegacyInplace(const nnvm::NodeAttrs& attrs) {
  const ParsedOpProp& p = Parsed(attrs);
  std::vector<int> in_ids(p.arguments.size()), out_ids(p.num_outputs);
  std::vector<void*> out_ptrs(p.num_outputs);
  for (size_t i = 0; i < in_ids.size(); ++i) in_ids[i] = static_cast<int>(i);
  for (size_t i = 0; i < out_ids.size(); ++i) {
    out_ids[i] = static_cast<int>(i);
    out_ptrs[i] = &out_ids[i];
  }
  std::vector<std::pair<int, int>> ret;
  for (const auto& kv : p.ptr->ForwardInplaceOption(in_ids, out_ptrs)) {
    ret.emplace_back(kv.first, static_cast<int>(static_cast<int*>(kv.second) - out_ids.data()));
  }
  return ret;
}

/*! \brief The state of one node: its Operator plus the parsed property. */
struct StateHolder {
  std::shared_ptr<Operator> opr;
  ParsedOpProp prop;
  StateHolder(Operator* o, const ParsedOpProp& p) : opr(o), prop(p) {}
};

OpStatePtr CreateForwardState(const nnvm::NodeAttrs& attrs, Context ctx,
                              const ShapeVector& in_shape, const std::vector<int>& in_type) {
  const ParsedOpProp& p = Parsed(attrs);
  const size_t nargs = p.arguments.size();
  ShapeVector shapes(in_shape.begin(), in_shape.begin() + nargs);
  std::vector<int> types(in_type.begin(), in_type.begin() + nargs);
  return OpStatePtr::Create<StateHolder>(p.ptr->CreateOperatorEx(ctx, &shapes, &types), p);
}

void LegacyForward(const OpStatePtr& state, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  StateHolder& st = state.get_state<StateHolder>();
  const size_t nargs = st.prop.arguments.size();
  std::vector<TBlob> in_data(inputs.begin(), inputs.begin() + nargs);
  std::vector<TBlob> aux(inputs.begin() + nargs, inputs.end());
  st.opr->Forward(ctx, in_data, req, outputs, aux);
}

std::vector<nnvm::NodeEntry> LegacyGradient(const std::string& backward_name,
                                            const nnvm::ObjectPtr& n,
                                            const std::vector<nnvm::NodeEntry>& ograds) {
  const ParsedOpProp& p = Parsed(n->attrs);
  const size_t nargs = p.arguments.size();
  std::vector<nnvm::NodeEntry> og(ograds.begin(), ograds.begin() + p.num_visible_outputs);
  std::vector<nnvm::NodeEntry> id(n->inputs.begin(), n->inputs.begin() + nargs);
  std::vector<nnvm::NodeEntry> od;
  for (int i = 0; i < p.num_outputs; ++i) od.emplace_back(n, i, 0);
  nnvm::ObjectPtr b = nnvm::Node::Create();
  b->attrs.op = nnvm::Op::Get(backward_name);
  b->attrs.name = n->attrs.name + "_backward";
  b->attrs.dict = n->attrs.dict;
  b->attrs.parsed = n->attrs.parsed;
  b->control_deps.push_back(n);
  b->inputs = p.ptr->BackwardInputs(og, id, od);
  b->inputs.insert(b->inputs.end(), n->inputs.begin() + nargs, n->inputs.end());
  std::vector<nnvm::NodeEntry> ret;
  for (size_t i = 0; i < nargs; ++i) ret.emplace_back(b, static_cast<uint32_t>(i), 0);
  // Aux states are not learned: their "gradient" is zero.
  for (size_t i = nargs; i < n->inputs.size(); ++i) {
    ret.push_back(nnvm::MakeNode("zeros_like", n->attrs.name + "_aux" + std::to_string(i - nargs) +
                                                   "_backward",
                                 {n->inputs[i]}));
  }
  return ret;
}

// ---------------------------------------------------------------------------- backward op

/*!
 * \brief Shapes of the forward arrays from what the backward op sees: its inputs (the declared
 *        dependencies, then aux) and its outputs (argument gradients).
 */
template <typename T, typename AssignFn>
void SplitBackward(const ParsedOpProp& p, const std::vector<T>& in, const std::vector<T>& out,
                   std::vector<T>* og, std::vector<T>* args, std::vector<T>* outs,
                   std::vector<T>* aux, AssignFn assign) {
  const int n_vis = p.num_visible_outputs;
  const int nargs = static_cast<int>(p.arguments.size());
  for (size_t k = 0; k < p.backward_deps.size(); ++k) {
    const int dep = p.backward_deps[k];
    if (dep < n_vis) {
      assign(&(*og)[dep], in[k]);
      assign(&(*outs)[dep], in[k]);
    } else if (dep < n_vis + nargs) {
      assign(&(*args)[dep - n_vis], in[k]);
    } else {
      assign(&(*outs)[dep - n_vis - nargs], in[k]);
    }
  }
  for (size_t i = 0; i < aux->size(); ++i) assign(&(*aux)[i], in[p.backward_deps.size() + i]);
  for (size_t i = 0; i < out.size(); ++i) assign(&(*args)[i], out[i]);
}

bool LegacyBackwardInferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const ParsedOpProp& p = Parsed(attrs);
  ShapeVector og(p.num_visible_outputs), args(p.arguments.size()), outs(p.num_outputs),
      aux(p.aux_states.size());
  auto merge = [&](TShape* dst, const TShape& src) {
    if (!shape_assign(dst, src)) {
      MX_THROW(ValueError) << "Operator _backward_" << p.ptr->TypeString()
                           << ": inconsistent shapes " << *dst << " and " << src;
    }
  };
  SplitBackward(p, *in, *out, &og, &args, &outs, &aux, merge);
  p.ptr->InferShape(&args, &outs, &aux);
  for (size_t i = 0; i < out->size(); ++i) SHAPE_ASSIGN_CHECK(*out, i, args[i]);
  const int n_vis = p.num_visible_outputs;
  const int nargs = static_cast<int>(p.arguments.size());
  for (size_t k = 0; k < p.backward_deps.size(); ++k) {
    const int dep = p.backward_deps[k];
    const TShape& s = dep < n_vis ? outs[dep]
                      : dep < n_vis + nargs ? args[dep - n_vis] : outs[dep - n_vis - nargs];
    SHAPE_ASSIGN_CHECK(*in, k, s);
  }
  for (size_t i = 0; i < aux.size(); ++i) SHAPE_ASSIGN_CHECK(*in, p.backward_deps.size() + i, aux[i]);
  return std::all_of(out->begin(), out->end(), [](const TShape& s) { return shape_is_known(s); });
}

bool LegacyBackwardInferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                             std::vector<int>* out) {
  const ParsedOpProp& p = Parsed(attrs);
  std::vector<int> og(p.num_visible_outputs, -1), args(p.arguments.size(), -1),
      outs(p.num_outputs, -1), aux(p.aux_states.size(), -1);
  auto merge = [&](int* dst, int src) {
    if (!type_assign(dst, src)) {
      MX_THROW(TypeError) << "Operator _backward_" << p.ptr->TypeString()
                          << ": inconsistent dtypes " << type_string(*dst) << " and "
                          << type_string(src);
    }
  };
  SplitBackward(p, *in, *out, &og, &args, &outs, &aux, merge);
  p.ptr->InferType(&args, &outs, &aux);
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, args[i]);
  const int n_vis = p.num_visible_outputs;
  const int nargs = static_cast<int>(p.arguments.size());
  for (size_t k = 0; k < p.backward_deps.size(); ++k) {
    const int dep = p.backward_deps[k];
    int t = dep < n_vis ? outs[dep] : dep < n_vis + nargs ? args[dep - n_vis] : outs[dep - n_vis - nargs];
    TYPE_ASSIGN_CHECK(*in, k, t);
  }
  for (size_t i = 0; i < aux.size(); ++i) TYPE_ASSIGN_CHECK(*in, p.backward_deps.size() + i, aux[i]);
  return std::all_of(out->begin(), out->end(), [](int t) { return t != -1; });
}

std::vector<std::pair<int, int>> LegacyBackwardInplace(const nnvm::NodeAttrs& attrs) {
  const ParsedOpProp& p = Parsed(attrs);
  std::vector<int> og(p.num_visible_outputs), id(p.arguments.size()), od(p.num_outputs);
  for (size_t i = 0; i < og.size(); ++i) og[i] = p.out_grad_id(i);
  for (size_t i = 0; i < id.size(); ++i) id[i] = p.in_data_id(i);
  for (size_t i = 0; i < od.size(); ++i) od[i] = p.out_data_id(i);
  std::vector<int> grad_ids(p.arguments.size());
  std::vector<void*> grad_ptrs(p.arguments.size());
  for (size_t i = 0; i < grad_ids.size(); ++i) {
    grad_ids[i] = static_cast<int>(i);
    grad_ptrs[i] = &grad_ids[i];
  }
  std::vector<std::pair<int, int>> ret;
  for (const auto& kv : p.ptr->BackwardInplaceOption(og, id, od, grad_ptrs)) {
    auto pos = std::find(p.backward_deps.begin(), p.backward_deps.end(), kv.first);
    // A pair naming an array backward does not receive cannot share memory with anything.
    if (pos == p.backward_deps.end()) continue;
    ret.emplace_back(static_cast<int>(pos - p.backward_deps.begin()),
                     static_cast<int>(static_cast<int*>(kv.second) - grad_ids.data()));
  }
  return ret;
}

OpStatePtr CreateBackwardState(const nnvm::NodeAttrs& attrs, Context ctx,
                               const ShapeVector& in_shape, const std::vector<int>& in_type) {
  // Used when the backward op runs on its own (e.g. called directly); with autograd or an
  // executor it reuses the forward node's state (TIsLayerOpBackward).
  const ParsedOpProp& p = Parsed(attrs);
  ShapeVector bin = in_shape, bout(p.arguments.size());
  std::vector<int> tin = in_type, tout(p.arguments.size(), -1);
  LegacyBackwardInferShape(attrs, &bin, &bout);
  LegacyBackwardInferType(attrs, &tin, &tout);
  return OpStatePtr::Create<StateHolder>(p.ptr->CreateOperatorEx(ctx, &bout, &tout), p);
}

void LegacyBackward(const OpStatePtr& state, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  StateHolder& st = state.get_state<StateHolder>();
  const ParsedOpProp& p = st.prop;
  const int n_vis = p.num_visible_outputs;
  const int nargs = static_cast<int>(p.arguments.size());
  std::vector<TBlob> out_grad(n_vis), in_data(nargs), out_data(p.num_outputs);
  for (size_t k = 0; k < p.backward_deps.size(); ++k) {
    const int dep = p.backward_deps[k];
    if (dep < n_vis) {
      out_grad[dep] = inputs[k];
    } else if (dep < n_vis + nargs) {
      in_data[dep - n_vis] = inputs[k];
    } else {
      out_data[dep - n_vis - nargs] = inputs[k];
    }
  }
  std::vector<TBlob> aux(inputs.begin() + p.backward_deps.size(), inputs.end());
  st.opr->Backward(ctx, out_grad, in_data, out_data, req, outputs, aux);
}

}  // namespace

void RegisterLegacyOp(OperatorPropertyReg* reg) {
  const std::string name = reg->name;
  const std::string backward_name = "_backward_" + name;
  const OperatorPropertyReg* creg = reg;
  nnvm::Op& fwd = nnvm::Op::Register(name);
  reg->nnvm_op = &fwd;
  std::unique_ptr<OperatorProperty> sample(reg->body());
  fwd.describe(reg->description);
  if (!reg->arguments.empty()) fwd.add_arguments(reg->arguments);
  fwd.set_attr_parser([creg](nnvm::NodeAttrs* attrs) { ParseLegacy(creg, attrs); })
      .set_num_inputs([](const nnvm::NodeAttrs& attrs) {
        const ParsedOpProp& p = Parsed(attrs);
        return static_cast<uint32_t>(p.arguments.size() + p.aux_states.size());
      })
      .set_num_outputs([](const nnvm::NodeAttrs& attrs) {
        return static_cast<uint32_t>(Parsed(attrs).num_outputs);
      })
      .set_attr<nnvm::FListInputNames>("FListInputNames",
                                       [](const nnvm::NodeAttrs& attrs) {
                                         const ParsedOpProp& p = Parsed(attrs);
                                         std::vector<std::string> names = p.arguments;
                                         names.insert(names.end(), p.aux_states.begin(),
                                                      p.aux_states.end());
                                         return names;
                                       })
      .set_attr<nnvm::FListOutputNames>("FListOutputNames",
                                        [](const nnvm::NodeAttrs& attrs) {
                                          return Parsed(attrs).outputs;
                                        })
      .set_attr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs",
                                          [](const nnvm::NodeAttrs& attrs) {
                                            return static_cast<uint32_t>(
                                                Parsed(attrs).num_visible_outputs);
                                          })
      .set_attr<mxnet::FInferShape>("FInferShape", LegacyInferShape)
      .set_attr<nnvm::FInferType>("FInferType", LegacyInferType)
      .set_attr<nnvm::FMutateInputs>("FMutateInputs",
                                     [](const nnvm::NodeAttrs& attrs) {
                                       const ParsedOpProp& p = Parsed(attrs);
                                       std::vector<uint32_t> idx;
                                       for (size_t i = 0; i < p.aux_states.size(); ++i) {
                                         idx.push_back(
                                             static_cast<uint32_t>(p.arguments.size() + i));
                                       }
                                       return idx;
                                     })
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", LegacyInplace)
      .set_attr<FResourceRequest>("FResourceRequest",
                                  [](const nnvm::NodeAttrs& attrs) {
                                    const ParsedOpProp& p = Parsed(attrs);
                                    return p.ptr->ForwardResource(ShapeVector(p.arguments.size()));
                                  })
      .set_attr<FExecType>("FExecType",
                           [](const nnvm::NodeAttrs& attrs) { return Parsed(attrs).ptr->exec_type(); })
      .set_attr<FCreateOpState>("FCreateOpState", CreateForwardState)
      .set_attr<FStatefulCompute>("FStatefulCompute<cpu>", LegacyForward)
#if MXNET_USE_CUDA
      // The property's CreateOperator(ctx) picks the device (and names one it lacks).
      .set_attr<FStatefulCompute>("FStatefulCompute<gpu>", LegacyForward)
#endif
      .set_attr<nnvm::FGradient>("FGradient",
                                 [backward_name](const nnvm::ObjectPtr& n,
                                                 const std::vector<nnvm::NodeEntry>& ograds) {
                                   return LegacyGradient(backward_name, n, ograds);
                                 });
  if (!reg->key_var_num_args.empty()) {
    fwd.set_attr<std::string>("key_var_num_args", reg->key_var_num_args);
  }

  nnvm::Op& bwd = nnvm::Op::Register(backward_name);
  bwd.describe("Backward of the legacy operator " + name + ".")
      .set_attr_parser([creg](nnvm::NodeAttrs* attrs) { ParseLegacy(creg, attrs); })
      .set_num_inputs([](const nnvm::NodeAttrs& attrs) {
        const ParsedOpProp& p = Parsed(attrs);
        return static_cast<uint32_t>(p.backward_deps.size() + p.aux_states.size());
      })
      .set_num_outputs([](const nnvm::NodeAttrs& attrs) {
        return static_cast<uint32_t>(Parsed(attrs).arguments.size());
      })
      .set_attr<nnvm::TIsBackward>("TIsBackward", true)
      .set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true)
      .set_attr<mxnet::FInferShape>("FInferShape", LegacyBackwardInferShape)
      .set_attr<nnvm::FInferType>("FInferType", LegacyBackwardInferType)
      .set_attr<nnvm::FInplaceOption>("FInplaceOption", LegacyBackwardInplace)
      .set_attr<nnvm::FMutateInputs>("FMutateInputs",
                                     [](const nnvm::NodeAttrs& attrs) {
                                       // Backward may update aux states (e.g. moving averages).
                                       const ParsedOpProp& p = Parsed(attrs);
                                       std::vector<uint32_t> idx;
                                       for (size_t i = 0; i < p.aux_states.size(); ++i) {
                                         idx.push_back(
                                             static_cast<uint32_t>(p.backward_deps.size() + i));
                                       }
                                       return idx;
                                     })
      .set_attr<FResourceRequest>("FResourceRequest",
                                  [](const nnvm::NodeAttrs& attrs) {
                                    const ParsedOpProp& p = Parsed(attrs);
                                    return p.ptr->BackwardResource(ShapeVector(p.arguments.size()));
                                  })
      .set_attr<FExecType>("FExecType",
                           [](const nnvm::NodeAttrs& attrs) { return Parsed(attrs).ptr->exec_type(); })
      .set_attr<FCreateOpState>("FCreateOpState", CreateBackwardState)
#if MXNET_USE_CUDA
      .set_attr<FStatefulCompute>("FStatefulCompute<gpu>", LegacyBackward)
#endif
      .set_attr<FStatefulCompute>("FStatefulCompute<cpu>", LegacyBackward);
  if (!reg->key_var_num_args.empty()) {
    bwd.set_attr<std::string>("key_var_num_args", reg->key_var_num_args);
  }
}

}  // namespace op
}  // namespace mxnet
