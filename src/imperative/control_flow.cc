/*!
 * \file control_flow.cc
 * \brief The symbolic control-flow operators: _foreach, _while_loop and _cond (MXNet 1.9.1's
 *        names, parameters and input layout), with their backward operators.
 *
 * Each node keeps its bodies in attrs.subgraphs (mx.sym.contrib.foreach & co. build them; the
 * symbol JSON stores them under "subgraphs"). The operators run graphs, so they live with
 * CachedOp in the front-end layer: FExecType kSubgraphExec makes the executor and imperative
 * invoke call their FStatefulComputeEx directly on the calling thread (exec_core.h
 * KernelKind::kSubgraph), where they push the body's operators like any front end does:
 *
 *   forward    per step, a CachedOp of the body runs on views of the inputs (foreach: row t of
 *              every data input) and writes views of the outputs; the carried values (loop
 *              states) are kept in the op state for the backward.
 *   backward   per step in reverse order, an executor bound with gradients for the body reruns
 *              the step's forward and backward; the gradients of the carried values flow to
 *              the previous step, those of the free inputs (weights) are summed over the steps.
 *
 * _while_loop and _cond read their condition's value, so they wait for it (on the calling
 * thread, never inside an engine worker).
 */
#include <dmlc/parameter.h>
#include <mxnet/executor.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../operator/operator_common.h"
#include "./cached_op.h"

namespace mxnet {
namespace control_flow {
namespace {

using Locs = mxnet::Tuple<int64_t>;

struct ForeachParam : public dmlc::Parameter<ForeachParam> {
  int num_args;
  int num_outputs;
  int num_out_data;
  Locs in_state_locs;
  Locs in_data_locs;
  Locs remain_locs;
  DMLC_DECLARE_PARAMETER(ForeachParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe("Number of inputs.");
    DMLC_DECLARE_FIELD(num_outputs).describe("The number of outputs of the subgraph.");
    DMLC_DECLARE_FIELD(num_out_data).describe("The number of output data of the subgraph.");
    DMLC_DECLARE_FIELD(in_state_locs).describe("The locations of loop states among the inputs.");
    DMLC_DECLARE_FIELD(in_data_locs).describe("The locations of input data among the inputs.");
    DMLC_DECLARE_FIELD(remain_locs).describe("The locations of remaining data among the inputs.");
  }
};

struct WhileLoopParam : public dmlc::Parameter<WhileLoopParam> {
  int num_args;
  int num_outputs;
  int num_out_data;
  int max_iterations;
  Locs cond_input_locs;
  Locs func_input_locs;
  Locs func_var_locs;
  DMLC_DECLARE_PARAMETER(WhileLoopParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(2).describe("Number of input arguments, "
                                                             "including cond and func as two "
                                                             "symbol inputs.");
    DMLC_DECLARE_FIELD(num_outputs).set_lower_bound(1)
        .describe("The number of outputs of the subgraph.");
    DMLC_DECLARE_FIELD(num_out_data).set_lower_bound(0)
        .describe("The number of outputs from the function body.");
    DMLC_DECLARE_FIELD(max_iterations).set_lower_bound(1).describe("Maximum number of iterations.");
    DMLC_DECLARE_FIELD(cond_input_locs).describe("The locations of cond's inputs in the given "
                                                 "inputs.");
    DMLC_DECLARE_FIELD(func_input_locs).describe("The locations of func's inputs in the given "
                                                 "inputs.");
    DMLC_DECLARE_FIELD(func_var_locs).describe("The locations of loop_vars among func's inputs.");
  }
};

struct CondParam : public dmlc::Parameter<CondParam> {
  int num_args;
  int num_outputs;
  Locs cond_input_locs;
  Locs then_input_locs;
  Locs else_input_locs;
  DMLC_DECLARE_PARAMETER(CondParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(3).describe("Number of input arguments, "
                                                             "including cond, then and else as "
                                                             "three symbol inputs.");
    DMLC_DECLARE_FIELD(num_outputs).set_lower_bound(1)
        .describe("The number of outputs of the subgraph.");
    DMLC_DECLARE_FIELD(cond_input_locs).describe("The locations of cond's inputs in the given "
                                                 "inputs.");
    DMLC_DECLARE_FIELD(then_input_locs).describe("The locations of then's inputs in the given "
                                                 "inputs.");
    DMLC_DECLARE_FIELD(else_input_locs).describe("The locations of else's inputs in the given "
                                                 "inputs.");
  }
};

DMLC_REGISTER_PARAMETER(ForeachParam);
DMLC_REGISTER_PARAMETER(WhileLoopParam);
DMLC_REGISTER_PARAMETER(CondParam);

std::vector<size_t> ToVec(const Locs& t) {
  std::vector<size_t> v;
  for (int64_t x : t) v.push_back(static_cast<size_t>(x));
  return v;
}

const nnvm::Symbol& Subgraph(const nnvm::NodeAttrs& attrs, size_t i) {
  if (attrs.subgraphs.size() <= i || !attrs.subgraphs[i]) {
    MX_THROW(ValueError) << "Operator " << attrs.op->name << " (" << attrs.name << "): expected "
                         << "subgraph " << i << ", the node has " << attrs.subgraphs.size()
                         << " subgraph(s) (build it with mx.sym.contrib)";
  }
  return *attrs.subgraphs[i];
}

size_t NumGraphInputs(const nnvm::Symbol& g) { return g.ListInputs(nnvm::Symbol::kAll).size(); }

// ---------------------------------------------------------------------------------------------
// Array helpers: every one is an engine operation ordered by the arrays' variables.

NDArray Fresh(const TShape& shape, const Context& ctx, int dtype) {
  return NDArray(shape, ctx, false, dtype);
}

NDArray Fresh(const NDArray& like) { return Fresh(like.shape(), like.ctx(), like.dtype()); }

NDArray CopyOf(const NDArray& a) {
  NDArray r = Fresh(a);
  CopyFromTo(a, r);
  return r;
}

void ZeroFill(const NDArray& a) {
  NDArray arr = a;
  Engine::Get()->PushSync(
      [arr](RunContext) {
        TBlob b = arr.data();
        std::memset(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(b.type_flag_));
      },
      arr.ctx(), {}, {arr.var()}, FnProperty::kNormal, 0, "control_flow_zeros");
}

/*! \brief dst += src (same shape and dtype). */
void AddInto(const NDArray& src, const NDArray& dst) {
  NDArray s = src, d = dst;
  Engine::Get()->PushSync(
      [s, d](RunContext) {
        TBlob a = s.data(), b = d.data();
        MSHADOW_TYPE_SWITCH(b.type_flag_, DType, {
          const DType* x = a.dptr<DType>();
          DType* y = b.dptr<DType>();
          const size_t n = b.Size();
          for (size_t i = 0; i < n; ++i) y[i] += x[i];
        });
      },
      d.ctx(), {s.var()}, {d.var()}, FnProperty::kNormal, 0, "control_flow_accumulate");
}

/*! \brief Write `src` into `dst` as `req` asks. */
void Assign(const NDArray& src, const NDArray& dst, OpReqType req) {
  if (req == kNullOp || dst.is_none()) return;
  if (req == kAddTo) {
    AddInto(src, dst);
  } else {
    CopyFromTo(src, dst);
  }
}

/*! \brief Wait for a one-element array and read it as a truth value. */
bool ReadCondition(const NDArray& c, const char* op_name) {
  if (c.shape().Size() != 1) {
    MX_THROW(ValueError) << "Operator " << op_name << ": the condition must be a one-element "
                         << "array, got shape " << c.shape();
  }
  c.WaitToRead();
  const TBlob b = c.data();
  bool value = false;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(b.type_flag_, DType, {
    value = static_cast<double>(*b.dptr<DType>()) != 0.0;
  });
  return value;
}

/*! \brief While a body runs: no recording (the node itself is what autograd sees), and the
 *         training flag of the call. */
class BodyScope {
 public:
  explicit BodyScope(bool is_train) : imp_(Imperative::Get()) {
    prev_recording_ = imp_->set_is_recording(false);
    prev_training_ = imp_->set_is_training(is_train);
  }
  ~BodyScope() {
    imp_->set_is_recording(prev_recording_);
    imp_->set_is_training(prev_training_);
  }

 private:
  Imperative* imp_;
  bool prev_recording_, prev_training_;
};

// ---------------------------------------------------------------------------------------------
// Running a body: forward through a CachedOp, backward through an executor bound with gradients.

/*! \brief Forward runs of one body graph (inputs in ListInputs(kAll) order). */
class BodyForward {
 public:
  /*! \param copied: per input, it changes between steps (bound as a private copy). */
  BodyForward(const nnvm::Symbol& body, const std::vector<bool>& copied) {
    std::ostringstream os;
    os << '[';
    bool first = true;
    for (size_t i = 0; i < copied.size(); ++i) {
      if (!copied[i]) continue;
      os << (first ? "" : ", ") << i;
      first = false;
    }
    os << ']';
    CachedOp::Flags flags;
    if (!first) flags.emplace_back("data_indices", os.str());
    op_ = std::make_shared<CachedOp>(body, flags);
  }
  /*!
   * \brief Run on `inputs`, writing each output into `outputs` (views allowed; none arrays,
   *        or an empty vector, get new arrays). Returns the outputs.
   */
  std::vector<NDArray> Run(const std::vector<NDArray>& inputs,
                           const std::vector<NDArray>& outputs) {
    std::vector<NDArray> ins = inputs, outs = outputs;
    outs.resize(op_->num_outputs());
    std::vector<NDArray*> in_ptrs, out_ptrs;
    for (NDArray& a : ins) in_ptrs.push_back(&a);
    for (NDArray& a : outs) out_ptrs.push_back(&a);
    op_->Forward(in_ptrs, out_ptrs);
    return outs;
  }
  uint32_t num_outputs() const { return op_->num_outputs(); }

 private:
  std::shared_ptr<CachedOp> op_;
};

/*!
 * \brief A body graph bound with gradients for every argument: one step's forward (kept for
 *        its backward) and backward.
 */
class BodyWithGrad {
 public:
  explicit BodyWithGrad(const nnvm::Symbol& body) : sym_(body) {
    std::vector<nnvm::ObjectPtr> all = sym_.ListInputs(nnvm::Symbol::kAll);
    std::vector<nnvm::ObjectPtr> args = sym_.ListInputs(nnvm::Symbol::kReadOnlyArgs);
    std::vector<nnvm::ObjectPtr> aux = sym_.ListInputs(nnvm::Symbol::kAuxiliaryStates);
    num_args_ = args.size();
    num_aux_ = aux.size();
    for (const nnvm::ObjectPtr& n : all) {
      auto a = std::find(args.begin(), args.end(), n);
      if (a != args.end()) {
        is_aux_.push_back(false);
        pos_.push_back(static_cast<size_t>(a - args.begin()));
      } else {
        is_aux_.push_back(true);
        pos_.push_back(static_cast<size_t>(std::find(aux.begin(), aux.end(), n) - aux.begin()));
      }
    }
  }

  /*!
   * \brief Rerun the step on `inputs` and backpropagate `heads` (one per body output). The
   *        gradients are valid until the next Run (read them with grad()).
   */
  void Run(const std::vector<NDArray>& inputs, const std::vector<NDArray>& heads) {
    Forward(inputs, true);
    Backward(heads);
  }
  /*! \brief The step's forward on `inputs` (copied in); its values stay for Backward. */
  void Forward(const std::vector<NDArray>& inputs, bool is_train) {
    Bind(inputs);
    for (size_t k = 0; k < inputs.size(); ++k) CopyFromTo(inputs[k], slots_[k]);
    exec_->Forward(is_train);
  }
  /*! \brief The outputs of the last Forward. */
  const std::vector<NDArray>& outputs() const { return exec_->outputs(); }
  /*! \brief Backpropagate `heads` (one per body output) through the last Forward. */
  void Backward(const std::vector<NDArray>& heads) { exec_->Backward(heads, true); }
  /*! \brief Gradient of input k (none for an auxiliary state). */
  const NDArray& grad(size_t k) const { return grads_[k]; }

 private:
  void Bind(const std::vector<NDArray>& inputs) {
    bool same = exec_ != nullptr && inputs.size() == slots_.size();
    for (size_t k = 0; same && k < inputs.size(); ++k) {
      same = inputs[k].shape() == slots_[k].shape() && inputs[k].dtype() == slots_[k].dtype() &&
             inputs[k].ctx() == slots_[k].ctx();
    }
    if (same) return;
    std::vector<NDArray> args(num_args_), aux(num_aux_), arg_grads(num_args_);
    std::vector<OpReqType> reqs(num_args_, kWriteTo);
    slots_.assign(inputs.size(), NDArray());
    grads_.assign(inputs.size(), NDArray());
    for (size_t k = 0; k < inputs.size(); ++k) {
      slots_[k] = Fresh(inputs[k]);
      if (is_aux_[k]) {
        aux[pos_[k]] = slots_[k];
      } else {
        args[pos_[k]] = slots_[k];
        grads_[k] = Fresh(inputs[k]);
        arg_grads[pos_[k]] = grads_[k];
      }
    }
    const Context ctx = inputs.empty() ? Context::CPU() : inputs[0].ctx();
    exec_.reset(Executor::Bind(sym_, ctx, {}, args, arg_grads, reqs, aux));
  }

  nnvm::Symbol sym_;
  size_t num_args_{0}, num_aux_{0};
  std::vector<bool> is_aux_;
  std::vector<size_t> pos_;
  std::unique_ptr<Executor> exec_;
  std::vector<NDArray> slots_, grads_;
};

/*! \brief Head gradients: a none gradient (an output nobody differentiates) becomes zeros. */
NDArray HeadOrZeros(const NDArray& g, const TShape& shape, const Context& ctx, int dtype) {
  if (!g.is_none()) return g;
  NDArray z = Fresh(shape, ctx, dtype);
  ZeroFill(z);
  return z;
}

// ---------------------------------------------------------------------------------------------
// Shape and dtype inference of a body.

/*!
 * \brief Infer `g` from its input attributes `in` (ListInputs(kAll) order, updated with what the
 *        graph implies) and output hints `out` (updated). True when every output is known.
 */
template <typename Attr, typename Pass>
bool InferBody(const nnvm::Symbol& g, std::vector<Attr>* in, std::vector<Attr>* out,
               const Attr& unknown, Pass pass) {
  nnvm::Graph graph;
  graph.outputs = g.outputs;
  const nnvm::IndexedGraph& idx = graph.indexed_graph();
  std::vector<Attr> values(idx.num_node_entries(), unknown);
  std::vector<nnvm::ObjectPtr> inputs = g.ListInputs(nnvm::Symbol::kAll);
  for (size_t i = 0; i < inputs.size() && i < in->size(); ++i) {
    values[idx.entry_id(idx.node_id(inputs[i].get()), 0)] = (*in)[i];
  }
  for (size_t i = 0; i < out->size() && i < idx.outputs().size(); ++i) {
    const uint32_t eid = idx.entry_id(idx.outputs()[i]);
    if (values[eid] == unknown) values[eid] = (*out)[i];
  }
  pass(idx, &values);
  for (size_t i = 0; i < inputs.size() && i < in->size(); ++i) {
    (*in)[i] = values[idx.entry_id(idx.node_id(inputs[i].get()), 0)];
  }
  bool known = true;
  out->resize(idx.outputs().size());
  for (size_t i = 0; i < out->size(); ++i) {
    (*out)[i] = values[idx.entry_id(idx.outputs()[i])];
    known = known && !((*out)[i] == unknown);
  }
  return known;
}

bool InferBodyShape(const nnvm::Symbol& g, ShapeVector* in, ShapeVector* out) {
  return InferBody<TShape>(g, in, out, TShape(), [](const nnvm::IndexedGraph& idx,
                                                    ShapeVector* v) {
    nnvm::pass::InferShape(idx, v);
  });
}

bool InferBodyType(const nnvm::Symbol& g, std::vector<int>* in, std::vector<int>* out) {
  return InferBody<int>(g, in, out, -1, [](const nnvm::IndexedGraph& idx, std::vector<int>* v) {
    nnvm::pass::InferType(idx, v);
  });
}

/*! \brief `into` takes `from` when `into` is unknown; false on a conflict. */
bool Merge(TShape* into, const TShape& from) {
  if (!ndim_is_known(from)) return true;
  if (!ndim_is_known(*into)) {
    *into = from;
    return true;
  }
  if (into->ndim() != from.ndim()) return false;
  for (int i = 0; i < from.ndim(); ++i) {
    if ((*into)[i] < 0) {
      (*into)[i] = from[i];
    } else if (from[i] >= 0 && (*into)[i] != from[i]) {
      return false;
    }
  }
  return true;
}

bool Merge(int* into, int from) {
  if (from < 0) return true;
  if (*into < 0) {
    *into = from;
    return true;
  }
  return *into == from;
}

TShape DropFirst(const TShape& s) {
  if (!ndim_is_known(s) || s.ndim() < 1) return TShape();
  return TShape(s.begin() + 1, s.end());
}

TShape PrependDim(dim_t n, const TShape& s) {
  if (!ndim_is_known(s)) return TShape();
  std::vector<dim_t> d{n};
  d.insert(d.end(), s.begin(), s.end());
  return TShape(d.begin(), d.end());
}

void Mismatch(const nnvm::NodeAttrs& attrs, const std::string& what,
                           const std::string& a, const std::string& b) {
  MX_THROW(ValueError) << "Operator " << attrs.op->name << " (" << attrs.name << "): " << what
                       << ": expected " << a << ", got " << b;
}

template <typename T>
std::string Str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// ---------------------------------------------------------------------------------------------
// _foreach

/*! \brief Where each body input comes from: kind 0 data, 1 state, 2 remaining; its index
 *         among the node's inputs. */
struct ForeachLayout {
  size_t num_data{0}, num_states{0}, num_remain{0}, num_out_data{0};
  std::vector<int> kind;
  std::vector<size_t> op_input;
  explicit ForeachLayout(const nnvm::NodeAttrs& attrs) {
    const ForeachParam& p = nnvm::get<ForeachParam>(attrs.parsed);
    const nnvm::Symbol& body = Subgraph(attrs, 0);
    const size_t n = NumGraphInputs(body);
    const std::vector<size_t> data = ToVec(p.in_data_locs), states = ToVec(p.in_state_locs),
                              remain = ToVec(p.remain_locs);
    num_data = data.size();
    num_states = states.size();
    num_remain = remain.size();
    num_out_data = static_cast<size_t>(p.num_out_data);
    if (num_data + num_states + num_remain != n ||
        num_data + num_states + num_remain + 1 != static_cast<size_t>(p.num_args)) {
      MX_THROW(ValueError) << "Operator _foreach (" << attrs.name << "): the body has " << n
                           << " inputs but in_data_locs, in_state_locs and remain_locs name "
                           << num_data + num_states + num_remain << " (num_args " << p.num_args
                           << ")";
    }
    if (num_data == 0) {
      MX_THROW(ValueError) << "Operator _foreach (" << attrs.name
                           << "): no data input to loop over";
    }
    if (static_cast<size_t>(p.num_outputs) != num_out_data + num_states ||
        body.outputs.size() != static_cast<size_t>(p.num_outputs)) {
      MX_THROW(ValueError) << "Operator _foreach (" << attrs.name << "): num_outputs "
                           << p.num_outputs << " must equal num_out_data " << p.num_out_data
                           << " + the number of states " << num_states << " and the body's "
                           << body.outputs.size() << " outputs";
    }
    kind.assign(n, -1);
    op_input.assign(n, 0);
    auto place = [&](const std::vector<size_t>& locs, int k, size_t offset) {
      for (size_t j = 0; j < locs.size(); ++j) {
        if (locs[j] >= n || kind[locs[j]] != -1) {
          MX_THROW(ValueError) << "Operator _foreach (" << attrs.name << "): body input location "
                               << locs[j] << " is out of range or listed twice";
        }
        kind[locs[j]] = k;
        op_input[locs[j]] = offset + j;
      }
    };
    place(data, 0, 0);
    place(states, 1, num_data);
    place(remain, 2, num_data + num_states);
  }
};

bool ForeachShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const ForeachLayout L(attrs);
  const nnvm::Symbol& body = Subgraph(attrs, 0);
  const size_t n = L.kind.size();
  dim_t steps = -1;
  for (size_t j = 0; j < L.num_data; ++j) {
    if (ndim_is_known((*in)[j]) && (*in)[j].ndim() >= 1 && (*in)[j][0] >= 0) steps = (*in)[j][0];
  }
  for (size_t i = 0; i < L.num_out_data && steps < 0; ++i) {
    if (ndim_is_known((*out)[i]) && (*out)[i].ndim() >= 1 && (*out)[i][0] >= 0) {
      steps = (*out)[i][0];
    }
  }
  ShapeVector sub_in(n), sub_out(L.num_out_data + L.num_states);
  for (size_t k = 0; k < n; ++k) {
    const TShape& s = (*in)[L.op_input[k]];
    sub_in[k] = L.kind[k] == 0 ? DropFirst(s) : s;
  }
  for (size_t i = 0; i < L.num_out_data; ++i) sub_out[i] = DropFirst((*out)[i]);
  for (size_t j = 0; j < L.num_states; ++j) {
    sub_out[L.num_out_data + j] = (*out)[L.num_out_data + j];
  }
  // A state's shape is the same before and after a step.
  const std::vector<size_t> state_locs = ToVec(nnvm::get<ForeachParam>(attrs.parsed).in_state_locs);
  for (int round = 0; round < 2; ++round) {
    for (size_t j = 0; j < L.num_states; ++j) {
      Merge(&sub_in[state_locs[j]], sub_out[L.num_out_data + j]);
      Merge(&sub_out[L.num_out_data + j], sub_in[state_locs[j]]);
    }
    InferBodyShape(body, &sub_in, &sub_out);
  }
  for (size_t j = 0; j < L.num_states; ++j) {
    if (!Merge(&sub_out[L.num_out_data + j], sub_in[state_locs[j]])) {
      Mismatch(attrs, "loop state " + std::to_string(j) + " changes shape in the body",
               Str(sub_in[state_locs[j]]), Str(sub_out[L.num_out_data + j]));
    }
  }
  for (size_t k = 0; k < n; ++k) {
    TShape& s = (*in)[L.op_input[k]];
    const TShape implied = L.kind[k] == 0 ? PrependDim(steps, sub_in[k]) : sub_in[k];
    if (!Merge(&s, implied)) {
      Mismatch(attrs, "input " + std::to_string(L.op_input[k]), Str(implied), Str(s));
    }
  }
  bool known = true;
  for (size_t i = 0; i < L.num_out_data; ++i) {
    Merge(&(*out)[i], PrependDim(steps, sub_out[i]));
    known = known && shape_is_known((*out)[i]);
  }
  for (size_t j = 0; j < L.num_states; ++j) {
    Merge(&(*out)[L.num_out_data + j], sub_out[L.num_out_data + j]);
    known = known && shape_is_known((*out)[L.num_out_data + j]);
  }
  for (const TShape& s : *in) known = known && shape_is_known(s);
  return known;
}

bool ForeachType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const ForeachLayout L(attrs);
  const size_t n = L.kind.size();
  std::vector<int> sub_in(n), sub_out(*out);
  for (size_t k = 0; k < n; ++k) sub_in[k] = (*in)[L.op_input[k]];
  InferBodyType(Subgraph(attrs, 0), &sub_in, &sub_out);
  for (size_t k = 0; k < n; ++k) Merge(&(*in)[L.op_input[k]], sub_in[k]);
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    Merge(&(*out)[i], sub_out[i]);
    known = known && (*out)[i] >= 0;
  }
  return known;
}

struct ForeachState {
  std::unique_ptr<ForeachLayout> layout;
  nnvm::Symbol body;
  std::unique_ptr<BodyForward> forward;
  std::unique_ptr<BodyWithGrad> backward;
  /*!
   * \brief When the forward ran for a gradient: one executor per step holding the step's
   *        values (so the backward reuses them, random masks included).
   */
  std::vector<std::unique_ptr<BodyWithGrad>> step_execs;
  bool kept_steps{false};
  /*! \brief Otherwise, per step t >= 1: the states the step started from (recomputed). */
  std::vector<std::vector<NDArray>> step_states;
  dim_t steps{0};
};

/*! \brief Executor `t` of `execs` (bound on first use). */
BodyWithGrad* StepExec(std::vector<std::unique_ptr<BodyWithGrad>>* execs, size_t t,
                       const nnvm::Symbol& body) {
  while (execs->size() <= t) execs->push_back(std::make_unique<BodyWithGrad>(body));
  return (*execs)[t].get();
}

/*! \brief Run one step: with a kept executor when `exec` is given, else through `forward`. */
void RunStep(BodyForward* forward, BodyWithGrad* exec, const std::vector<NDArray>& inputs,
             const std::vector<NDArray>& outputs, bool is_train) {
  if (exec == nullptr) {
    forward->Run(inputs, outputs);
    return;
  }
  exec->Forward(inputs, is_train);
  const std::vector<NDArray>& results = exec->outputs();
  for (size_t i = 0; i < outputs.size(); ++i) CopyFromTo(results[i], outputs[i]);
}

OpStatePtr CreateForeachState(const nnvm::NodeAttrs& attrs, Context, const ShapeVector&,
                              const std::vector<int>&) {
  OpStatePtr state = OpStatePtr::Create<ForeachState>();
  ForeachState& s = state.get_state<ForeachState>();
  s.layout = std::make_unique<ForeachLayout>(attrs);
  std::vector<bool> copied(s.layout->kind.size());
  for (size_t k = 0; k < copied.size(); ++k) copied[k] = s.layout->kind[k] != 2;
  s.forward = std::make_unique<BodyForward>(Subgraph(attrs, 0), copied);
  s.backward = std::make_unique<BodyWithGrad>(Subgraph(attrs, 0));
  s.body = Subgraph(attrs, 0);
  return state;
}

void ForeachForward(const OpStatePtr& state_ptr, const OpContext& ctx,
                    const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<NDArray>& outputs) {
  ForeachState& s = state_ptr.get_state<ForeachState>();
  const ForeachLayout& L = *s.layout;
  BodyScope scope(ctx.is_train);
  const dim_t steps = inputs[0].shape()[0];
  for (size_t j = 1; j < L.num_data; ++j) {
    if (inputs[j].shape()[0] != steps) {
      MX_THROW(ValueError) << "Operator _foreach: data input " << j << " has "
                           << inputs[j].shape()[0]
                           << " rows, data input 0 has " << steps;
    }
  }
  std::vector<NDArray> outs(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (req[i] == kAddTo) {
      MX_THROW(NotImplementedError) << "Operator _foreach: output " << i
                                    << " with request 'add' is not supported";
    }
    outs[i] = outputs[i];
    outs[i].CheckAndAlloc();
  }
  std::vector<NDArray> states(inputs.begin() + L.num_data,
                              inputs.begin() + L.num_data + L.num_states);
  s.step_states.assign(steps > 0 ? steps : 0, {});
  s.steps = steps;
  s.kept_steps = ctx.need_grad;
  const size_t n = L.kind.size();
  std::vector<NDArray> body_in(n), body_out(L.num_out_data + L.num_states);
  for (dim_t t = 0; t < steps; ++t) {
    if (t > 0 && !s.kept_steps) s.step_states[t] = states;
    for (size_t k = 0; k < n; ++k) {
      const size_t src = L.op_input[k];
      if (L.kind[k] == 0) {
        body_in[k] = inputs[src].At(t);
      } else if (L.kind[k] == 1) {
        body_in[k] = states[src - L.num_data];
      } else {
        body_in[k] = inputs[src];
      }
    }
    for (size_t i = 0; i < L.num_out_data; ++i) body_out[i] = outs[i].At(t);
    std::vector<NDArray> next(L.num_states);
    for (size_t j = 0; j < L.num_states; ++j) {
      next[j] = t + 1 == steps ? outs[L.num_out_data + j] : Fresh(states[j]);
      body_out[L.num_out_data + j] = next[j];
    }
    RunStep(s.forward.get(), s.kept_steps ? StepExec(&s.step_execs, t, s.body) : nullptr,
            body_in, body_out, ctx.is_train);
    states = std::move(next);
  }
  if (steps == 0) {
    for (size_t j = 0; j < L.num_states; ++j) CopyFromTo(states[j], outs[L.num_out_data + j]);
  }
}

void ForeachBackward(const OpStatePtr& state_ptr, const OpContext& ctx,
                     const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<NDArray>& outputs) {
  ForeachState& s = state_ptr.get_state<ForeachState>();
  const ForeachLayout& L = *s.layout;
  BodyScope scope(ctx.is_train);
  const size_t num_out = L.num_out_data + L.num_states;
  const std::vector<NDArray> ograds(inputs.begin(), inputs.begin() + num_out);
  const std::vector<NDArray> fwd_in(inputs.begin() + num_out, inputs.end());
  const dim_t steps = fwd_in[0].shape()[0];
  if (steps != s.steps) {
    MX_THROW(InternalError) << "Operator _backward_foreach: the forward ran " << s.steps
                            << " steps, the inputs have " << steps;
  }
  const Context dev = fwd_in[0].ctx();
  std::vector<NDArray> state_grads(L.num_states);
  for (size_t j = 0; j < L.num_states; ++j) {
    const NDArray& init = fwd_in[L.num_data + j];
    state_grads[j] = HeadOrZeros(ograds[L.num_out_data + j], init.shape(), dev, init.dtype());
  }
  std::vector<NDArray> remain_grads(L.num_remain);
  std::vector<NDArray> step_heads(num_out);
  const size_t n = L.kind.size();
  std::vector<NDArray> body_in(n);
  for (dim_t t = steps - 1; t >= 0; --t) {
    for (size_t k = 0; k < n && !s.kept_steps; ++k) {
      const size_t src = L.op_input[k];
      if (L.kind[k] == 0) {
        body_in[k] = fwd_in[src].At(t);
      } else if (L.kind[k] == 1) {
        body_in[k] = t == 0 ? fwd_in[src] : s.step_states[t][src - L.num_data];
      } else {
        body_in[k] = fwd_in[src];
      }
    }
    for (size_t i = 0; i < L.num_out_data; ++i) {
      if (ograds[i].is_none()) {
        MX_THROW(InternalError) << "Operator _backward_foreach: no gradient for output " << i;
      }
      step_heads[i] = ograds[i].At(t);
    }
    for (size_t j = 0; j < L.num_states; ++j) step_heads[L.num_out_data + j] = state_grads[j];
    BodyWithGrad* exec = s.backward.get();
    if (s.kept_steps) {
      exec = s.step_execs[t].get();
      exec->Backward(step_heads);
    } else {
      exec->Run(body_in, step_heads);  // the forward ran without gradients: recompute
    }
    for (size_t k = 0; k < n; ++k) {
      const NDArray& g = exec->grad(k);
      const size_t dst = L.op_input[k];
      if (g.is_none()) continue;
      if (L.kind[k] == 0) {
        if (req[dst] != kNullOp) Assign(g, outputs[dst].At(t), req[dst]);
      } else if (L.kind[k] == 1) {
        state_grads[dst - L.num_data] = CopyOf(g);
      } else {
        NDArray& acc = remain_grads[dst - L.num_data - L.num_states];
        if (acc.is_none()) {
          acc = CopyOf(g);
        } else {
          AddInto(g, acc);
        }
      }
    }
  }
  for (size_t j = 0; j < L.num_states; ++j) {
    const size_t dst = L.num_data + j;
    Assign(state_grads[j], outputs[dst], req[dst]);
  }
  for (size_t j = 0; j < L.num_remain; ++j) {
    const size_t dst = L.num_data + L.num_states + j;
    if (req[dst] == kNullOp) continue;
    if (remain_grads[j].is_none()) {
      if (req[dst] != kAddTo) ZeroFill(outputs[dst]);
    } else {
      Assign(remain_grads[j], outputs[dst], req[dst]);
    }
  }
  if (steps == 0) {
    for (size_t j = 0; j < L.num_data; ++j) {
      if (req[j] == kWriteTo || req[j] == kWriteInplace) ZeroFill(outputs[j]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// _while_loop

struct WhileLayout {
  std::vector<size_t> cond_locs, func_locs, var_locs;  // var_locs: op input of loop var j
  std::vector<size_t> var_func_pos;                    // func input of loop var j
  size_t num_inputs{0}, num_out_data{0}, num_vars{0}, max_iterations{0};
  explicit WhileLayout(const nnvm::NodeAttrs& attrs) {
    const WhileLoopParam& p = nnvm::get<WhileLoopParam>(attrs.parsed);
    cond_locs = ToVec(p.cond_input_locs);
    func_locs = ToVec(p.func_input_locs);
    var_func_pos = ToVec(p.func_var_locs);
    num_inputs = static_cast<size_t>(p.num_args - 2);
    num_out_data = static_cast<size_t>(p.num_out_data);
    num_vars = var_func_pos.size();
    max_iterations = static_cast<size_t>(p.max_iterations);
    const nnvm::Symbol& cond = Subgraph(attrs, 0);
    const nnvm::Symbol& func = Subgraph(attrs, 1);
    if (NumGraphInputs(cond) != cond_locs.size() || NumGraphInputs(func) != func_locs.size()) {
      MX_THROW(ValueError) << "Operator _while_loop (" << attrs.name << "): cond has "
                           << NumGraphInputs(cond) << " inputs and func "
                           << NumGraphInputs(func) << ", cond_input_locs names "
                           << cond_locs.size() << " and func_input_locs " << func_locs.size();
    }
    if (cond.outputs.size() != 1) {
      MX_THROW(ValueError) << "Operator _while_loop (" << attrs.name << "): cond must have one "
                           << "output, it has " << cond.outputs.size();
    }
    if (func.outputs.size() != static_cast<size_t>(p.num_outputs) ||
        num_out_data + num_vars != static_cast<size_t>(p.num_outputs)) {
      MX_THROW(ValueError) << "Operator _while_loop (" << attrs.name << "): func has "
                           << func.outputs.size() << " outputs; num_outputs " << p.num_outputs
                           << " must equal num_out_data " << p.num_out_data << " + "
                           << num_vars << " loop variables";
    }
    auto check = [&](const std::vector<size_t>& locs, const char* what, size_t limit) {
      for (size_t l : locs) {
        if (l >= limit) {
          MX_THROW(ValueError) << "Operator _while_loop (" << attrs.name << "): " << what
                               << " names " << l << ", expected a location below " << limit;
        }
      }
    };
    check(cond_locs, "cond_input_locs", num_inputs);
    check(func_locs, "func_input_locs", num_inputs);
    check(var_func_pos, "func_var_locs", func_locs.size());
    for (size_t v : var_func_pos) {
      var_locs.push_back(func_locs[v]);
    }
  }
};

bool WhileShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const WhileLayout L(attrs);
  const nnvm::Symbol& func = Subgraph(attrs, 1);
  ShapeVector sub_in(L.func_locs.size()), sub_out(L.num_out_data + L.num_vars);
  for (size_t k = 0; k < L.func_locs.size(); ++k) sub_in[k] = (*in)[L.func_locs[k]];
  for (size_t i = 0; i < L.num_out_data; ++i) sub_out[i] = DropFirst((*out)[i]);
  for (size_t j = 0; j < L.num_vars; ++j) sub_out[L.num_out_data + j] = (*out)[L.num_out_data + j];
  for (int round = 0; round < 2; ++round) {
    for (size_t j = 0; j < L.num_vars; ++j) {
      Merge(&sub_in[L.var_func_pos[j]], sub_out[L.num_out_data + j]);
      Merge(&sub_out[L.num_out_data + j], sub_in[L.var_func_pos[j]]);
    }
    InferBodyShape(func, &sub_in, &sub_out);
  }
  for (size_t j = 0; j < L.num_vars; ++j) {
    if (!Merge(&sub_out[L.num_out_data + j], sub_in[L.var_func_pos[j]])) {
      Mismatch(attrs, "loop variable " + std::to_string(j) + " changes shape in func",
               Str(sub_in[L.var_func_pos[j]]), Str(sub_out[L.num_out_data + j]));
    }
  }
  for (size_t k = 0; k < L.func_locs.size(); ++k) Merge(&(*in)[L.func_locs[k]], sub_in[k]);
  ShapeVector cond_in(L.cond_locs.size()), cond_out(1);
  for (size_t k = 0; k < L.cond_locs.size(); ++k) cond_in[k] = (*in)[L.cond_locs[k]];
  InferBodyShape(Subgraph(attrs, 0), &cond_in, &cond_out);
  for (size_t k = 0; k < L.cond_locs.size(); ++k) Merge(&(*in)[L.cond_locs[k]], cond_in[k]);
  bool known = true;
  for (size_t i = 0; i < L.num_out_data; ++i) {
    Merge(&(*out)[i], PrependDim(static_cast<dim_t>(L.max_iterations), sub_out[i]));
    known = known && shape_is_known((*out)[i]);
  }
  for (size_t j = 0; j < L.num_vars; ++j) {
    Merge(&(*out)[L.num_out_data + j], sub_out[L.num_out_data + j]);
    known = known && shape_is_known((*out)[L.num_out_data + j]);
  }
  return known;
}

bool WhileType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const WhileLayout L(attrs);
  std::vector<int> sub_in(L.func_locs.size()), sub_out(*out);
  for (size_t k = 0; k < L.func_locs.size(); ++k) sub_in[k] = (*in)[L.func_locs[k]];
  for (size_t j = 0; j < L.num_vars; ++j) {
    Merge(&sub_out[L.num_out_data + j], sub_in[L.var_func_pos[j]]);
  }
  InferBodyType(Subgraph(attrs, 1), &sub_in, &sub_out);
  for (size_t k = 0; k < L.func_locs.size(); ++k) Merge(&(*in)[L.func_locs[k]], sub_in[k]);
  std::vector<int> cond_in(L.cond_locs.size()), cond_out(1, -1);
  for (size_t k = 0; k < L.cond_locs.size(); ++k) cond_in[k] = (*in)[L.cond_locs[k]];
  InferBodyType(Subgraph(attrs, 0), &cond_in, &cond_out);
  for (size_t k = 0; k < L.cond_locs.size(); ++k) Merge(&(*in)[L.cond_locs[k]], cond_in[k]);
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    Merge(&(*out)[i], sub_out[i]);
    known = known && (*out)[i] >= 0;
  }
  return known;
}

struct WhileState {
  std::unique_ptr<WhileLayout> layout;
  std::unique_ptr<BodyForward> cond, func;
  std::unique_ptr<BodyWithGrad> func_backward;
  nnvm::Symbol func_sym;
  /*! \brief As ForeachState: executors per step when the forward ran for a gradient. */
  std::vector<std::unique_ptr<BodyWithGrad>> step_execs;
  bool kept_steps{false};
  /*! \brief Per step: the loop variables the step started from. */
  std::vector<std::vector<NDArray>> step_vars;
  size_t steps{0};
};

OpStatePtr CreateWhileState(const nnvm::NodeAttrs& attrs, Context, const ShapeVector&,
                            const std::vector<int>&) {
  OpStatePtr state = OpStatePtr::Create<WhileState>();
  WhileState& s = state.get_state<WhileState>();
  s.layout = std::make_unique<WhileLayout>(attrs);
  const WhileLayout& L = *s.layout;
  auto varying = [&](const std::vector<size_t>& locs) {
    std::vector<bool> v(locs.size(), false);
    for (size_t k = 0; k < locs.size(); ++k) {
      v[k] = std::find(L.var_locs.begin(), L.var_locs.end(), locs[k]) != L.var_locs.end();
    }
    return v;
  };
  s.cond = std::make_unique<BodyForward>(Subgraph(attrs, 0), varying(L.cond_locs));
  s.func = std::make_unique<BodyForward>(Subgraph(attrs, 1), varying(L.func_locs));
  s.func_backward = std::make_unique<BodyWithGrad>(Subgraph(attrs, 1));
  s.func_sym = Subgraph(attrs, 1);
  return state;
}

std::vector<NDArray> Gather(const std::vector<NDArray>& values, const std::vector<size_t>& locs) {
  std::vector<NDArray> r;
  for (size_t l : locs) r.push_back(values[l]);
  return r;
}


void WhileForward(const OpStatePtr& state_ptr, const OpContext& ctx,
                  const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<NDArray>& outputs) {
  WhileState& s = state_ptr.get_state<WhileState>();
  const WhileLayout& L = *s.layout;
  BodyScope scope(ctx.is_train);
  std::vector<NDArray> outs(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (req[i] == kAddTo) {
      MX_THROW(NotImplementedError) << "Operator _while_loop: output " << i
                                    << " with request 'add' is not supported";
    }
    outs[i] = outputs[i];
    outs[i].CheckAndAlloc();
  }
  std::vector<NDArray> current = inputs;  // loop variables replaced as the loop runs
  s.step_vars.clear();
  s.steps = 0;
  s.kept_steps = ctx.need_grad;
  while (s.steps < L.max_iterations) {
    std::vector<NDArray> c = s.cond->Run(Gather(current, L.cond_locs), {});
    if (!ReadCondition(c[0], "_while_loop")) break;
    s.step_vars.push_back(Gather(current, L.var_locs));
    std::vector<NDArray> body_out(L.num_out_data + L.num_vars);
    for (size_t i = 0; i < L.num_out_data; ++i) {
      body_out[i] = outs[i].At(static_cast<index_t>(s.steps));
    }
    for (size_t j = 0; j < L.num_vars; ++j) {
      body_out[L.num_out_data + j] = Fresh(current[L.var_locs[j]]);
    }
    RunStep(s.func.get(), s.kept_steps ? StepExec(&s.step_execs, s.steps, s.func_sym) : nullptr,
            Gather(current, L.func_locs), body_out, ctx.is_train);
    for (size_t j = 0; j < L.num_vars; ++j) current[L.var_locs[j]] = body_out[L.num_out_data + j];
    ++s.steps;
  }
  // Rows past the last step: MXNet 1.9.1 leaves them uninitialized; they are zeros here.
  for (size_t i = 0; i < L.num_out_data; ++i) {
    const dim_t rows = outs[i].shape()[0];
    if (static_cast<dim_t>(s.steps) < rows) {
      ZeroFill(outs[i].Slice(static_cast<index_t>(s.steps), rows));
    }
  }
  for (size_t j = 0; j < L.num_vars; ++j) {
    CopyFromTo(current[L.var_locs[j]], outs[L.num_out_data + j]);
  }
}

void WhileBackward(const OpStatePtr& state_ptr, const OpContext& ctx,
                   const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<NDArray>& outputs) {
  WhileState& s = state_ptr.get_state<WhileState>();
  const WhileLayout& L = *s.layout;
  BodyScope scope(ctx.is_train);
  const size_t num_out = L.num_out_data + L.num_vars;
  const std::vector<NDArray> ograds(inputs.begin(), inputs.begin() + num_out);
  const std::vector<NDArray> fwd_in(inputs.begin() + num_out, inputs.end());
  const Context dev = fwd_in.empty() ? Context::CPU() : fwd_in[0].ctx();
  std::vector<NDArray> var_grads(L.num_vars);
  for (size_t j = 0; j < L.num_vars; ++j) {
    const NDArray& init = fwd_in[L.var_locs[j]];
    var_grads[j] = HeadOrZeros(ograds[L.num_out_data + j], init.shape(), dev, init.dtype());
  }
  // Gradients of the inputs that are not loop variables, summed over the steps.
  std::vector<NDArray> acc(L.num_inputs);
  std::vector<NDArray> heads(num_out);
  for (size_t t = s.steps; t-- > 0;) {
    std::vector<NDArray> current = fwd_in;
    for (size_t j = 0; j < L.num_vars; ++j) current[L.var_locs[j]] = s.step_vars[t][j];
    for (size_t i = 0; i < L.num_out_data; ++i) {
      const NDArray& o = ograds[i];
      heads[i] = o.is_none() ? NDArray() : o.At(static_cast<index_t>(t));
    }
    for (size_t j = 0; j < L.num_vars; ++j) heads[L.num_out_data + j] = var_grads[j];
    for (size_t i = 0; i < L.num_out_data; ++i) {
      if (heads[i].is_none()) {
        MX_THROW(InternalError) << "Operator _backward_while_loop: no gradient for output " << i;
      }
    }
    BodyWithGrad* exec = s.func_backward.get();
    if (s.kept_steps) {
      exec = s.step_execs[t].get();
      exec->Backward(heads);
    } else {
      exec->Run(Gather(current, L.func_locs), heads);  // recompute the step
    }
    std::vector<NDArray> next_var_grads = var_grads;
    for (size_t k = 0; k < L.func_locs.size(); ++k) {
      const NDArray& g = exec->grad(k);
      if (g.is_none()) continue;
      const auto v = std::find(L.var_func_pos.begin(), L.var_func_pos.end(), k);
      if (v != L.var_func_pos.end()) {
        next_var_grads[v - L.var_func_pos.begin()] = CopyOf(g);
      } else if (acc[L.func_locs[k]].is_none()) {
        acc[L.func_locs[k]] = CopyOf(g);
      } else {
        AddInto(g, acc[L.func_locs[k]]);
      }
    }
    var_grads = std::move(next_var_grads);
  }
  std::vector<bool> written(L.num_inputs, false);
  for (size_t j = 0; j < L.num_vars; ++j) {
    const size_t dst = L.var_locs[j];
    if (written[dst]) continue;
    written[dst] = true;
    Assign(var_grads[j], outputs[dst], req[dst]);
  }
  for (size_t i = 0; i < L.num_inputs; ++i) {
    if (written[i] || req[i] == kNullOp) continue;
    if (!acc[i].is_none()) {
      Assign(acc[i], outputs[i], req[i]);
    } else if (req[i] != kAddTo) {
      ZeroFill(outputs[i]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// _cond

struct CondLayout {
  std::vector<size_t> locs[3];  // cond, then, else: op input of each graph input
  size_t num_inputs{0}, num_outputs{0};
  explicit CondLayout(const nnvm::NodeAttrs& attrs) {
    const CondParam& p = nnvm::get<CondParam>(attrs.parsed);
    locs[0] = ToVec(p.cond_input_locs);
    locs[1] = ToVec(p.then_input_locs);
    locs[2] = ToVec(p.else_input_locs);
    num_inputs = static_cast<size_t>(p.num_args - 3);
    num_outputs = static_cast<size_t>(p.num_outputs);
    static const char* names[3] = {"cond", "then_branch", "else_branch"};
    for (size_t g = 0; g < 3; ++g) {
      const nnvm::Symbol& sym = Subgraph(attrs, g);
      if (NumGraphInputs(sym) != locs[g].size()) {
        MX_THROW(ValueError) << "Operator _cond (" << attrs.name << "): " << names[g] << " has "
                             << NumGraphInputs(sym) << " inputs, its locations name "
                             << locs[g].size();
      }
      for (size_t l : locs[g]) {
        if (l >= num_inputs) {
          MX_THROW(ValueError) << "Operator _cond (" << attrs.name << "): " << names[g]
                               << " input location " << l << " out of range (" << num_inputs
                               << " inputs)";
        }
      }
      const size_t want = g == 0 ? 1 : num_outputs;
      if (sym.outputs.size() != want) {
        MX_THROW(ValueError) << "Operator _cond (" << attrs.name << "): " << names[g]
                             << " has " << sym.outputs.size() << " outputs, expected " << want;
      }
    }
  }
};

bool CondShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const CondLayout L(attrs);
  ShapeVector outs[3];
  for (size_t g = 0; g < 3; ++g) {
    ShapeVector sub_in(L.locs[g].size());
    for (size_t k = 0; k < sub_in.size(); ++k) sub_in[k] = (*in)[L.locs[g][k]];
    outs[g] = g == 0 ? ShapeVector(1) : *out;
    InferBodyShape(Subgraph(attrs, g), &sub_in, &outs[g]);
    for (size_t k = 0; k < sub_in.size(); ++k) Merge(&(*in)[L.locs[g][k]], sub_in[k]);
  }
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    if (!Merge(&(*out)[i], outs[1][i]) || !Merge(&(*out)[i], outs[2][i])) {
      Mismatch(attrs, "output " + std::to_string(i) + " differs between the branches",
               Str(outs[1][i]), Str(outs[2][i]));
    }
    known = known && shape_is_known((*out)[i]);
  }
  return known;
}

bool CondType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const CondLayout L(attrs);
  std::vector<int> outs[3];
  for (size_t g = 0; g < 3; ++g) {
    std::vector<int> sub_in(L.locs[g].size());
    for (size_t k = 0; k < sub_in.size(); ++k) sub_in[k] = (*in)[L.locs[g][k]];
    outs[g] = g == 0 ? std::vector<int>(1, -1) : *out;
    InferBodyType(Subgraph(attrs, g), &sub_in, &outs[g]);
    for (size_t k = 0; k < sub_in.size(); ++k) Merge(&(*in)[L.locs[g][k]], sub_in[k]);
  }
  bool known = true;
  for (size_t i = 0; i < out->size(); ++i) {
    Merge(&(*out)[i], outs[1][i]);
    Merge(&(*out)[i], outs[2][i]);
    known = known && (*out)[i] >= 0;
  }
  return known;
}

struct CondState {
  std::unique_ptr<CondLayout> layout;
  std::unique_ptr<BodyForward> graphs[3];
  std::unique_ptr<BodyWithGrad> branch_backward[2];
  int taken{-1};  // 1 then, 2 else
  /*! \brief The forward ran the branch through branch_backward (for a gradient). */
  bool kept_branch{false};
};

OpStatePtr CreateCondState(const nnvm::NodeAttrs& attrs, Context, const ShapeVector&,
                           const std::vector<int>&) {
  OpStatePtr state = OpStatePtr::Create<CondState>();
  CondState& s = state.get_state<CondState>();
  s.layout = std::make_unique<CondLayout>(attrs);
  for (size_t g = 0; g < 3; ++g) {
    s.graphs[g] = std::make_unique<BodyForward>(Subgraph(attrs, g),
                                                std::vector<bool>(s.layout->locs[g].size(), true));
  }
  s.branch_backward[0] = std::make_unique<BodyWithGrad>(Subgraph(attrs, 1));
  s.branch_backward[1] = std::make_unique<BodyWithGrad>(Subgraph(attrs, 2));
  return state;
}

void CondForward(const OpStatePtr& state_ptr, const OpContext& ctx,
                 const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<NDArray>& outputs) {
  CondState& s = state_ptr.get_state<CondState>();
  const CondLayout& L = *s.layout;
  BodyScope scope(ctx.is_train);
  std::vector<NDArray> c = s.graphs[0]->Run(Gather(inputs, L.locs[0]), {});
  s.taken = ReadCondition(c[0], "_cond") ? 1 : 2;
  std::vector<NDArray> outs(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (req[i] == kAddTo) {
      MX_THROW(NotImplementedError) << "Operator _cond: output " << i
                                    << " with request 'add' is not supported";
    }
    outs[i] = outputs[i];
    outs[i].CheckAndAlloc();
  }
  s.kept_branch = ctx.need_grad;
  RunStep(s.graphs[s.taken].get(), s.kept_branch ? s.branch_backward[s.taken - 1].get() : nullptr,
          Gather(inputs, L.locs[s.taken]), outs, ctx.is_train);
}

void CondBackward(const OpStatePtr& state_ptr, const OpContext& ctx,
                  const std::vector<NDArray>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<NDArray>& outputs) {
  CondState& s = state_ptr.get_state<CondState>();
  const CondLayout& L = *s.layout;
  if (s.taken < 1) {
    MX_THROW(InternalError) << "Operator _backward_cond: the forward has not run";
  }
  BodyScope scope(ctx.is_train);
  const std::vector<NDArray> ograds(inputs.begin(), inputs.begin() + L.num_outputs);
  const std::vector<NDArray> fwd_in(inputs.begin() + L.num_outputs, inputs.end());
  const std::vector<size_t>& locs = L.locs[s.taken];
  BodyWithGrad& bwd = *s.branch_backward[s.taken - 1];
  std::vector<NDArray> heads = ograds;
  for (NDArray& h : heads) {
    if (h.is_none()) {
      MX_THROW(InternalError) << "Operator _backward_cond: a head gradient is missing";
    }
  }
  if (s.kept_branch) {
    bwd.Backward(heads);
  } else {
    bwd.Run(Gather(fwd_in, locs), heads);  // the forward ran without gradients: recompute
  }
  std::vector<NDArray> acc(L.num_inputs);
  for (size_t k = 0; k < locs.size(); ++k) {
    const NDArray& g = bwd.grad(k);
    if (g.is_none()) continue;
    if (acc[locs[k]].is_none()) {
      acc[locs[k]] = CopyOf(g);
    } else {
      AddInto(g, acc[locs[k]]);
    }
  }
  for (size_t i = 0; i < L.num_inputs; ++i) {
    if (req[i] == kNullOp) continue;
    if (!acc[i].is_none()) {
      Assign(acc[i], outputs[i], req[i]);
    } else if (req[i] != kAddTo) {
      ZeroFill(outputs[i]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Registration helpers.

template <typename Param>
uint32_t NumDataInputs(const nnvm::NodeAttrs& attrs, int num_graphs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_args - num_graphs);
}

template <typename Param>
uint32_t NumOutputs(const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<Param>(attrs.parsed).num_outputs);
}

/*! \brief The gradient node: reads every output gradient and every forward input, runs on
 *         the forward node's state and writes one gradient per forward input. */
nnvm::FGradient MakeGradient(const char* backward_op) {
  return [backward_op](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    nnvm::ObjectPtr b = nnvm::Node::Create();
    b->attrs = n->attrs;
    b->attrs.op = nnvm::Op::Get(backward_op);
    b->attrs.name = n->attrs.name + "_backward";
    b->inputs = ograds;
    b->inputs.insert(b->inputs.end(), n->inputs.begin(), n->inputs.end());
    b->control_deps.push_back(n);
    std::vector<nnvm::NodeEntry> ret;
    for (uint32_t i = 0; i < n->inputs.size(); ++i) ret.emplace_back(b, i, 0);
    return ret;
  };
}

ExecType SubgraphExec(const nnvm::NodeAttrs&) { return ExecType::kSubgraphExec; }

std::vector<std::string> DataNames(uint32_t n) {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < n; ++i) names.push_back("data" + std::to_string(i));
  return names;
}

}  // namespace
}  // namespace control_flow

using namespace control_flow;  // NOLINT(build/namespaces)

NNVM_REGISTER_OP(_foreach)
.describe(R"code(Run a for loop over an NDArray with user-defined computation.

The body subgraph (attribute `subgraphs[0]`) runs once per row of the data inputs (axis 0),
carrying the loop states from step to step; the per-step outputs are stacked along axis 0 and
the last states are returned after them. Build it with ``mx.sym.contrib.foreach``.
)code" ADD_FILELINE)
.set_attr_parser(op::ParamParser<ForeachParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) { return NumDataInputs<ForeachParam>(attrs, 1); })
.set_num_outputs(NumOutputs<ForeachParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  return DataNames(NumDataInputs<ForeachParam>(attrs, 1));
})
.set_attr<nnvm::FInputGraph>("FInputGraph", [](const nnvm::NodeAttrs&) {
  return std::vector<uint32_t>{0};
})
.set_attr<mxnet::FInferShape>("FInferShape", ForeachShape)
.set_attr<nnvm::FInferType>("FInferType", ForeachType)
.set_attr<FExecType>("FExecType", SubgraphExec)
.set_attr<FCreateOpState>("FCreateOpState", CreateForeachState)
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", ForeachForward)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", ForeachForward)
#endif
.set_attr<nnvm::FGradient>("FGradient", MakeGradient("_backward_foreach"))
.set_attr<std::string>("key_var_num_args", "num_args")
.add_argument("fn", "Symbol", "Input graph.")
.add_argument("data", "NDArray-or-Symbol[]",
              "The input arrays that include data arrays and states.")
.add_arguments(ForeachParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_foreach)
.describe("Backward of _foreach: backpropagates through the steps in reverse order."
          ADD_FILELINE)
.set_attr_parser(op::ParamParser<ForeachParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return NumOutputs<ForeachParam>(attrs) + NumDataInputs<ForeachParam>(attrs, 1);
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) { return NumDataInputs<ForeachParam>(attrs, 1); })
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true)
.set_attr<FExecType>("FExecType", SubgraphExec)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", ForeachBackward)
#endif
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", ForeachBackward);

NNVM_REGISTER_OP(_while_loop)
.describe(R"code(Run a while loop with user-defined condition and computation.

`subgraphs[0]` computes the condition from the loop variables (and other inputs); while it is
true and fewer than `max_iterations` steps ran, `subgraphs[1]` computes the step outputs and the
new loop variables. The step outputs are stacked along axis 0 into arrays of `max_iterations`
rows (rows after the last step are zeros; MXNet 1.9.1 leaves them uninitialized), followed by
the final loop variables. Build it with ``mx.sym.contrib.while_loop``.
)code" ADD_FILELINE)
.set_attr_parser(op::ParamParser<WhileLoopParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return NumDataInputs<WhileLoopParam>(attrs, 2);
})
.set_num_outputs(NumOutputs<WhileLoopParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  return DataNames(NumDataInputs<WhileLoopParam>(attrs, 2));
})
.set_attr<nnvm::FInputGraph>("FInputGraph", [](const nnvm::NodeAttrs&) {
  return std::vector<uint32_t>{0, 1};
})
.set_attr<mxnet::FInferShape>("FInferShape", WhileShape)
.set_attr<nnvm::FInferType>("FInferType", WhileType)
.set_attr<FExecType>("FExecType", SubgraphExec)
.set_attr<FCreateOpState>("FCreateOpState", CreateWhileState)
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", WhileForward)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", WhileForward)
#endif
.set_attr<nnvm::FGradient>("FGradient", MakeGradient("_backward_while_loop"))
.set_attr<std::string>("key_var_num_args", "num_args")
.add_argument("cond", "Symbol", "Input graph for the loop condition.")
.add_argument("func", "Symbol", "Input graph for the loop body.")
.add_argument("data", "NDArray-or-Symbol[]",
              "The input arrays that include data arrays and states.")
.add_arguments(WhileLoopParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_while_loop)
.describe("Backward of _while_loop: backpropagates through the steps in reverse order."
          ADD_FILELINE)
.set_attr_parser(op::ParamParser<WhileLoopParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return NumOutputs<WhileLoopParam>(attrs) + NumDataInputs<WhileLoopParam>(attrs, 2);
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return NumDataInputs<WhileLoopParam>(attrs, 2);
})
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true)
.set_attr<FExecType>("FExecType", SubgraphExec)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", WhileBackward)
#endif
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", WhileBackward);

NNVM_REGISTER_OP(_cond)
.describe(R"code(Run an if-then-else using user-defined condition and computation.

`subgraphs[0]` computes a one-element condition; `subgraphs[1]` (then) runs when it is non-zero,
`subgraphs[2]` (else) otherwise. Build it with ``mx.sym.contrib.cond``.
)code" ADD_FILELINE)
.set_attr_parser(op::ParamParser<CondParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) { return NumDataInputs<CondParam>(attrs, 3); })
.set_num_outputs(NumOutputs<CondParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  return DataNames(NumDataInputs<CondParam>(attrs, 3));
})
.set_attr<nnvm::FInputGraph>("FInputGraph", [](const nnvm::NodeAttrs&) {
  return std::vector<uint32_t>{0, 1, 2};
})
.set_attr<mxnet::FInferShape>("FInferShape", CondShape)
.set_attr<nnvm::FInferType>("FInferType", CondType)
.set_attr<FExecType>("FExecType", SubgraphExec)
.set_attr<FCreateOpState>("FCreateOpState", CreateCondState)
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", CondForward)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", CondForward)
#endif
.set_attr<nnvm::FGradient>("FGradient", MakeGradient("_backward_cond"))
.set_attr<std::string>("key_var_num_args", "num_args")
.add_argument("cond", "Symbol", "Input graph for the condition.")
.add_argument("then_branch", "Symbol", "Input graph for the then branch.")
.add_argument("else_branch", "Symbol", "Input graph for the else branch.")
.add_argument("data", "NDArray-or-Symbol[]",
              "The input arrays that include data arrays and states.")
.add_arguments(CondParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_cond)
.describe("Backward of _cond: backpropagates through the branch the forward took." ADD_FILELINE)
.set_attr_parser(op::ParamParser<CondParam>)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return NumOutputs<CondParam>(attrs) + NumDataInputs<CondParam>(attrs, 3);
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) { return NumDataInputs<CondParam>(attrs, 3); })
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true)
.set_attr<FExecType>("FExecType", SubgraphExec)
#if MXNET_USE_CUDA
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<gpu>", CondBackward)
#endif
.set_attr<FStatefulComputeEx>("FStatefulComputeEx<cpu>", CondBackward);

}  // namespace mxnet
