/*!
 * \file simple_op.cc
 * \brief SimpleOp registration (include/mxnet/operator_util.h): each entry is an nnvm::Op
 *        `<name>` plus `_backward_<name>`, whose attributes read the entry's functions, so the
 *        builder calls may come in any order (and from several files).
 */
#include <mxnet/operator_util.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace {

/*! \brief What the gradient function of an entry needs besides the output gradient. */
enum class GradKind { kNone, kUnaryT0, kUnaryT1, kUnaryT2, kBinaryT0, kBinaryT1 };

class SimpleOpEntry : public SimpleOpRegEntry {
 public:
  explicit SimpleOpEntry(const std::string& op_name) {
    name = op_name;
    Register();
  }

  SimpleOpRegEntry& set_symbol_op_name(char const* symbol_name) override {
    if (symbol_name != name) op_->add_alias(symbol_name);
    return *this;
  }
  SimpleOpRegEntry& set_enable_scalar(bool enable_scalar, SimpleOpScalarOption type_mask) override {
    CHECK(!(enable_scalar && enable_kwargs_))
        << "SimpleOp " << name << ": scalar and kwargs cannot both be enabled";
    enable_scalar_ = enable_scalar;
    scalar_type_mask_ = type_mask;
    UpdateArguments();
    return *this;
  }
  SimpleOpRegEntry& set_enable_kwargs(bool enable_kwargs) override {
    CHECK(!(enable_kwargs && enable_scalar_))
        << "SimpleOp " << name << ": scalar and kwargs cannot both be enabled";
    enable_kwargs_ = enable_kwargs;
    return *this;
  }
  SimpleOpRegEntry& set_resource_request(const std::vector<ResourceRequest>& reqs) override {
    resource_requests_ = reqs;
    return *this;
  }
  SimpleOpRegEntry& set_resource_request(ResourceRequest req) override {
    resource_requests_ = {req};
    return *this;
  }
  SimpleOpRegEntry& set_shape_function(SourceShapeFunction f) override {
    fshape_source_ = f;
    return *this;
  }
  SimpleOpRegEntry& set_shape_function(UnaryShapeFunction f) override {
    fshape_unary_ = f;
    return *this;
  }
  SimpleOpRegEntry& set_shape_function(BinaryShapeFunction f) override {
    fshape_binary_ = f;
    return *this;
  }
  SimpleOpRegEntry& set_function(int dev_mask, SourceFunction f, SimpleOpRegOption) override {
    SetArity(0);
    fsource_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& set_function(int dev_mask, UnaryFunction f, SimpleOpInplaceOption inplace,
                                 SimpleOpRegOption) override {
    SetArity(1);
    CHECK(inplace == kNoInplace || inplace == kInplaceInOut)
        << "SimpleOp " << name << ": a unary function takes kNoInplace or kInplaceInOut";
    funary_[dev_mask] = f;
    forward_inplace_ = inplace == kInplaceInOut;
    return *this;
  }
  SimpleOpRegEntry& set_function(int dev_mask, BinaryFunction f, SimpleOpInplaceOption inplace,
                                 SimpleOpRegOption) override {
    SetArity(2);
    CHECK(inplace == kNoInplace || inplace == kInplaceLhsOut)
        << "SimpleOp " << name << ": a binary function takes kNoInplace or kInplaceLhsOut";
    fbinary_[dev_mask] = f;
    forward_inplace_ = inplace == kInplaceLhsOut;
    return *this;
  }
  SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT0 f,
                                 SimpleOpInplaceOption inplace) override {
    SetGradKind(GradKind::kUnaryT0, inplace, kInplaceOutIn);
    fgrad_unary_t0_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT1 f,
                                 SimpleOpInplaceOption inplace) override {
    SetGradKind(GradKind::kUnaryT1, inplace, kInplaceOutIn);
    fgrad_unary_t1_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& set_gradient(int dev_mask, UnaryGradFunctionT2 f,
                                 SimpleOpInplaceOption inplace) override {
    SetGradKind(GradKind::kUnaryT2, inplace, kInplaceOutIn);
    fgrad_unary_t2_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& set_gradient(int dev_mask, BinaryGradFunctionT0 f,
                                 SimpleOpInplaceOption inplace) override {
    SetGradKind(GradKind::kBinaryT0, inplace, kInplaceOutLhs);
    fgrad_binary_t0_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& set_gradient(int dev_mask, BinaryGradFunctionT1 f,
                                 SimpleOpInplaceOption inplace) override {
    SetGradKind(GradKind::kBinaryT1, inplace, kInplaceOutLhs);
    fgrad_binary_t1_[dev_mask] = f;
    return *this;
  }
  SimpleOpRegEntry& describe(const std::string& description) override {
    op_->describe(description);
    return *this;
  }
  SimpleOpRegEntry& add_arguments(const std::vector<dmlc::ParamFieldInfo>& args) override {
    extra_arguments_.insert(extra_arguments_.end(), args.begin(), args.end());
    UpdateArguments();
    return *this;
  }

 private:
  // ---------------------------------------------------------------- builder bookkeeping
  void SetArity(int n) {
    CHECK(arity_ == -1 || arity_ == n)
        << "SimpleOp " << name << ": registered with " << arity_ << " and " << n << " inputs";
    arity_ = n;
    UpdateArguments();
  }
  void SetGradKind(GradKind kind, SimpleOpInplaceOption inplace, SimpleOpInplaceOption allowed) {
    CHECK(grad_kind_ == GradKind::kNone || grad_kind_ == kind)
        << "SimpleOp " << name << ": two different kinds of gradient functions";
    CHECK(inplace == kNoInplace || inplace == allowed)
        << "SimpleOp " << name << ": in-place option " << inplace << " does not apply to "
        << "this gradient";
    grad_kind_ = kind;
    backward_inplace_ = inplace == allowed;
  }
  /*! \brief op->arguments = the tensor inputs, then `scalar`, then add_arguments ones. */
  void UpdateArguments() {
    std::vector<dmlc::ParamFieldInfo> args;
    auto tensor = [](const char* n, const char* d) {
      return dmlc::ParamFieldInfo{n, "NDArray-or-Symbol", "NDArray-or-Symbol", d};
    };
    if (arity_ == 1) args.push_back(tensor("data", "source input"));
    if (arity_ == 2) {
      args.push_back(tensor("lhs", "Left operand to the function"));
      args.push_back(tensor("rhs", "Right operand to the function"));
    }
    if (enable_scalar_) {
      args.push_back(dmlc::ParamFieldInfo{"scalar", "float", "float, optional, default=1",
                                          "scalar input"});
    }
    args.insert(args.end(), extra_arguments_.begin(), extra_arguments_.end());
    op_->arguments = args;
  }

  // ---------------------------------------------------------------- nnvm attributes
  EnvArguments Env(const nnvm::NodeAttrs& attrs) const { return nnvm::get<EnvArguments>(attrs.parsed); }

  void Parse(nnvm::NodeAttrs* attrs) const {
    EnvArguments env;
    for (const auto& kv : attrs->dict) {
      if (kv.first.size() > 4 && kv.first.compare(0, 2, "__") == 0) continue;
      if (enable_scalar_ && kv.first == "scalar") {
        try {
          size_t pos = 0;
          env.scalar = std::stof(kv.second, &pos);
          if (pos != kv.second.size()) throw std::invalid_argument(kv.second);
        } catch (const std::exception&) {
          MX_THROW(dmlc::ParamError) << "Invalid Parameter format for scalar expect float but "
                                     << "value='" << kv.second << "', in operator " << name;
        }
      } else if (enable_kwargs_) {
        env.kwargs.emplace_back(kv.first, kv.second);
      } else {
        MX_THROW(dmlc::ParamError) << "Cannot find argument '" << kv.first << "', in operator "
                                   << name << (enable_scalar_ ? " (it takes only `scalar`)"
                                                              : " (it takes no parameters)");
      }
    }
    // Without `scalar` the scalar is 1 (as smooth_l1 in MXNet 1.9.1).
    if (enable_scalar_ && !attrs->dict.count("scalar")) env.scalar = 1.0f;
    std::sort(env.kwargs.begin(), env.kwargs.end());
    attrs->parsed = std::move(env);
  }

  bool InferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) const {
    const EnvArguments env = Env(attrs);
    if (arity_ == 0) {
      CHECK(fshape_source_ != nullptr) << "SimpleOp " << name << " has no shape function";
      SHAPE_ASSIGN_CHECK(*out, 0, fshape_source_(env));
    } else if (arity_ == 1) {
      if (!shape_is_known((*in)[0])) return false;
      TShape s = fshape_unary_ ? fshape_unary_((*in)[0], env) : (*in)[0];
      SHAPE_ASSIGN_CHECK(*out, 0, s);
    } else {
      if (fshape_binary_ != nullptr) {
        if (!shape_is_known((*in)[0]) || !shape_is_known((*in)[1])) return false;
        SHAPE_ASSIGN_CHECK(*out, 0, fshape_binary_((*in)[0], (*in)[1], env));
      } else {
        TShape s = (*in)[0];
        if (!shape_assign(&s, (*in)[1]) || !shape_assign(&s, (*out)[0])) {
          MX_THROW(ValueError) << "Operator " << name << ": lhs and rhs must have the same "
                               << "shape, got lhs " << (*in)[0] << " and rhs " << (*in)[1];
        }
        SHAPE_ASSIGN_CHECK(*in, 0, s);
        SHAPE_ASSIGN_CHECK(*in, 1, s);
        SHAPE_ASSIGN_CHECK(*out, 0, s);
      }
    }
    return shape_is_known((*out)[0]);
  }

  void Forward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
               const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
               const std::vector<TBlob>& outputs, int dev_mask) const {
    EnvArguments env = Env(attrs);
    env.resource = ctx.requested;
    TBlob ret = outputs[0];
    if (arity_ == 0) {
      Lookup(fsource_, dev_mask, "function")(env, &ret, req[0], ctx.run_ctx);
    } else if (arity_ == 1) {
      Lookup(funary_, dev_mask, "function")(inputs[0], env, &ret, req[0], ctx.run_ctx);
    } else {
      Lookup(fbinary_, dev_mask, "function")(inputs[0], inputs[1], env, &ret, req[0],
                                             ctx.run_ctx);
    }
  }

  /*! \brief Backward inputs: out_grad, then (T1 unary) the output or (T2/binary T1) inputs. */
  void Backward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs, int dev_mask) const {
    EnvArguments env = Env(attrs);
    env.resource = ctx.requested;
    OutputGrad og;
    og.data = inputs[0];
    std::vector<TBlob> grads = outputs;
    switch (grad_kind_) {
      case GradKind::kUnaryT0:
        Lookup(fgrad_unary_t0_, dev_mask, "gradient")(og, env, &grads[0], req[0], ctx.run_ctx);
        break;
      case GradKind::kUnaryT1: {
        OutputValue v;
        v.data = inputs[1];
        Lookup(fgrad_unary_t1_, dev_mask, "gradient")(og, v, env, &grads[0], req[0], ctx.run_ctx);
        break;
      }
      case GradKind::kUnaryT2: {
        Input0 in0;
        in0.data = inputs[1];
        Lookup(fgrad_unary_t2_, dev_mask, "gradient")(og, in0, env, &grads[0], req[0],
                                                      ctx.run_ctx);
        break;
      }
      case GradKind::kBinaryT0:
        Lookup(fgrad_binary_t0_, dev_mask, "gradient")(og, env, &grads[0], &grads[1], req[0],
                                                       req[1], ctx.run_ctx);
        break;
      case GradKind::kBinaryT1: {
        Input0 lhs;
        Input1 rhs;
        lhs.data = inputs[1];
        rhs.data = inputs[2];
        Lookup(fgrad_binary_t1_, dev_mask, "gradient")(og, lhs, rhs, env, &grads[0], &grads[1],
                                                       req[0], req[1], ctx.run_ctx);
        break;
      }
      case GradKind::kNone:
        MX_THROW(NotImplementedError) << "Operator " << name << " has no gradient";
    }
  }

  uint32_t BackwardNumInputs() const {
    switch (grad_kind_) {
      case GradKind::kUnaryT1:
      case GradKind::kUnaryT2: return 2;
      case GradKind::kBinaryT1: return 3;
      default: return 1;
    }
  }

  std::vector<nnvm::NodeEntry> Gradient(const nnvm::ObjectPtr& n,
                                        const std::vector<nnvm::NodeEntry>& ograds) const {
    if (grad_kind_ == GradKind::kNone) {
      MX_THROW(NotImplementedError) << "Operator " << name << " has no gradient (the SimpleOp "
                                    << "registered no set_gradient)";
    }
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    if (grad_kind_ == GradKind::kUnaryT1) heads.emplace_back(n, 0, 0);
    if (grad_kind_ == GradKind::kUnaryT2 || grad_kind_ == GradKind::kBinaryT1) {
      heads.insert(heads.end(), n->inputs.begin(), n->inputs.end());
    }
    return MakeGradNode(backward_name_.c_str(), n, heads, n->attrs.dict);
  }

  /*! \brief Backward called on its own: gradients have the shape of the data they reach. */
  bool BackwardInferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) const {
    const bool has_inputs = grad_kind_ == GradKind::kUnaryT2 || grad_kind_ == GradKind::kBinaryT1;
    for (size_t i = 0; i < out->size(); ++i) {
      const TShape& src = has_inputs ? (*in)[1 + i] : (*in)[0];
      SHAPE_ASSIGN_CHECK(*out, i, src);
    }
    return std::all_of(out->begin(), out->end(), [](const TShape& s) { return shape_is_known(s); });
  }

  template <typename Fn>
  Fn Lookup(const std::map<int, Fn>& fns, int dev_mask, const char* what) const {
    auto it = fns.find(dev_mask);
    if (it == fns.end()) {
      MX_THROW(NotImplementedError) << "Operator " << name << " has no " << what
                                    << " for device mask " << dev_mask;
    }
    return it->second;
  }

  void Register() {
    backward_name_ = "_backward_" + name;
    const SimpleOpEntry* self = this;
    nnvm::Op& op = nnvm::Op::Register(name);
    op_ = &op;
    op.set_attr_parser([self](nnvm::NodeAttrs* attrs) { self->Parse(attrs); })
        .set_num_inputs([self](const nnvm::NodeAttrs&) {
          return static_cast<uint32_t>(std::max(self->arity_, 0));
        })
        .set_num_outputs(1)
        .set_attr<nnvm::FListInputNames>("FListInputNames",
                                         [self](const nnvm::NodeAttrs&) {
                                           if (self->arity_ == 1) return std::vector<std::string>{"data"};
                                           if (self->arity_ == 2) {
                                             return std::vector<std::string>{"lhs", "rhs"};
                                           }
                                           return std::vector<std::string>{};
                                         })
        .set_attr<mxnet::FInferShape>("FInferShape",
                                      [self](const nnvm::NodeAttrs& attrs, ShapeVector* in,
                                             ShapeVector* out) {
                                        return self->InferShape(attrs, in, out);
                                      })
        .set_attr<nnvm::FInferType>("FInferType",
                                    [self](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                           std::vector<int>* out) {
                                      if (self->arity_ == 0) {
                                        TYPE_ASSIGN_CHECK(*out, 0, mshadow::kFloat32);
                                        return true;
                                      }
                                      return ElemwiseTypeAll(attrs, in, out);
                                    })
        .set_attr<nnvm::FInplaceOption>("FInplaceOption",
                                        [self](const nnvm::NodeAttrs&) {
                                          if (self->forward_inplace_) {
                                            return std::vector<std::pair<int, int>>{{0, 0}};
                                          }
                                          return std::vector<std::pair<int, int>>{};
                                        })
        .set_attr<FResourceRequest>("FResourceRequest",
                                    [self](const nnvm::NodeAttrs&) {
                                      return self->resource_requests_;
                                    })
        .set_attr<FCompute>("FCompute<cpu>",
                            [self](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& out) {
                              self->Forward(attrs, ctx, in, req, out, cpu::kDevMask);
                            })
#if MXNET_USE_CUDA
        // Every SimpleOp of a CUDA build registers its gpu functions from a .cu file.
        .set_attr<FCompute>("FCompute<gpu>",
                            [self](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& out) {
                              self->Forward(attrs, ctx, in, req, out, gpu::kDevMask);
                            })
#endif
        .set_attr<nnvm::FGradient>("FGradient",
                                   [self](const nnvm::ObjectPtr& n,
                                          const std::vector<nnvm::NodeEntry>& ograds) {
                                     return self->Gradient(n, ograds);
                                   });

    nnvm::Op& bwd = nnvm::Op::Register(backward_name_);
    bwd.describe("Backward of the SimpleOp " + name + ".")
        .set_attr_parser([self](nnvm::NodeAttrs* attrs) { self->Parse(attrs); })
        .set_num_inputs([self](const nnvm::NodeAttrs&) { return self->BackwardNumInputs(); })
        .set_num_outputs([self](const nnvm::NodeAttrs&) {
          return static_cast<uint32_t>(self->arity_ == 2 ? 2 : 1);
        })
        .set_attr<nnvm::TIsBackward>("TIsBackward", true)
        .set_attr<mxnet::FInferShape>("FInferShape",
                                      [self](const nnvm::NodeAttrs& attrs, ShapeVector* in,
                                             ShapeVector* out) {
                                        return self->BackwardInferShape(attrs, in, out);
                                      })
        .set_attr<nnvm::FInferType>("FInferType", ElemwiseTypeAll)
        .set_attr<nnvm::FInplaceOption>("FInplaceOption",
                                        [self](const nnvm::NodeAttrs&) {
                                          if (self->backward_inplace_) {
                                            return std::vector<std::pair<int, int>>{{0, 0}};
                                          }
                                          return std::vector<std::pair<int, int>>{};
                                        })
        .set_attr<FResourceRequest>("FResourceRequest",
                                    [self](const nnvm::NodeAttrs&) {
                                      return self->resource_requests_;
                                    })
#if MXNET_USE_CUDA
        .set_attr<FCompute>("FCompute<gpu>",
                            [self](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& out) {
                              self->Backward(attrs, ctx, in, req, out, gpu::kDevMask);
                            })
#endif
        .set_attr<FCompute>("FCompute<cpu>",
                            [self](const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                   const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                                   const std::vector<TBlob>& out) {
                              self->Backward(attrs, ctx, in, req, out, cpu::kDevMask);
                            });
  }

  /*! \brief Every input and output has one dtype. */
  static bool ElemwiseTypeAll(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                              std::vector<int>* out) {
    int t = -1;
    for (int x : *in) t = t == -1 ? x : t;
    for (int x : *out) t = t == -1 ? x : t;
    for (size_t i = 0; i < in->size(); ++i) TYPE_ASSIGN_CHECK(*in, i, t);
    for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, t);
    return t != -1;
  }

  nnvm::Op* op_{nullptr};
  std::string backward_name_;
  int arity_{-1};
  bool enable_scalar_{false};
  bool enable_kwargs_{false};
  SimpleOpScalarOption scalar_type_mask_{kArrayBeforeScalar};
  bool forward_inplace_{false};
  bool backward_inplace_{false};
  GradKind grad_kind_{GradKind::kNone};
  std::vector<ResourceRequest> resource_requests_;
  std::vector<dmlc::ParamFieldInfo> extra_arguments_;
  SourceShapeFunction fshape_source_{nullptr};
  UnaryShapeFunction fshape_unary_{nullptr};
  BinaryShapeFunction fshape_binary_{nullptr};
  std::map<int, SourceFunction> fsource_;
  std::map<int, UnaryFunction> funary_;
  std::map<int, BinaryFunction> fbinary_;
  std::map<int, UnaryGradFunctionT0> fgrad_unary_t0_;
  std::map<int, UnaryGradFunctionT1> fgrad_unary_t1_;
  std::map<int, UnaryGradFunctionT2> fgrad_unary_t2_;
  std::map<int, BinaryGradFunctionT0> fgrad_binary_t0_;
  std::map<int, BinaryGradFunctionT1> fgrad_binary_t1_;
};

}  // namespace

SimpleOpRegistry* SimpleOpRegistry::Get() {
  static SimpleOpRegistry* inst = new SimpleOpRegistry();
  return inst;
}

SimpleOpRegEntry& SimpleOpRegistry::__REGISTER_OR_FIND__(char const* name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = fmap_.find(name);
  if (it != fmap_.end()) return *it->second;
  auto* entry = new SimpleOpEntry(name);
  fmap_[name].reset(entry);
  return *entry;
}

const SimpleOpRegEntry* SimpleOpRegistry::Find(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = fmap_.find(name);
  return it == fmap_.end() ? nullptr : it->second.get();
}

}  // namespace op
}  // namespace mxnet
