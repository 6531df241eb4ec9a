/*!
 * \file legacy_op_test.cc
 * \brief The legacy OperatorProperty adapter honours every method of a property: a test
 *        operator overriding all optional methods is registered here with
 *        MXNET_REGISTER_OP_PROPERTY, and each attribute of the resulting nnvm ops (and a real
 *        run through Imperative) is checked against what the property declared.
 */
#include <gtest/gtest.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <mxnet/operator.h>
#include <mxnet/resource.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <atomic>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {
namespace op {
namespace {

struct LegacyTestParam : public dmlc::Parameter<LegacyTestParam> {
  float scale;
  DMLC_DECLARE_PARAMETER(LegacyTestParam) {
    DMLC_DECLARE_FIELD(scale).set_default(2.0f).set_range(-100.0f, 100.0f).describe("lhs factor");
  }
};
DMLC_REGISTER_PARAMETER(LegacyTestParam);

// What the test operator observed, for the assertions.
std::atomic<int> g_created{0};
std::atomic<int> g_created_ex{0};
std::atomic<int> g_backward_calls{0};
std::vector<TShape> g_create_ex_shapes;

/*!
 * \brief out = scale * lhs + rhs; extra (hidden) = lhs; counter (aux) += 1 per forward.
 *        Backward declares only out_grad[0] and rhs: it checks lhs and the outputs are empty.
 */
class LegacyTestOp : public Operator {
 public:
  explicit LegacyTestOp(LegacyTestParam p) : param_(p) {}
  void Forward(const OpContext& ctx, const std::vector<TBlob>& in_data,
               const std::vector<OpReqType>& req, const std::vector<TBlob>& out_data,
               const std::vector<TBlob>& aux_states) override {
    CHECK_EQ(in_data.size(), 2U);
    CHECK_EQ(out_data.size(), 2U);
    CHECK_EQ(aux_states.size(), 1U);
    CHECK_EQ(ctx.requested.size(), 1U) << "ForwardResource asked for one temp space";
    CHECK_EQ(ctx.requested[0].req.type, ResourceRequest::kTempSpace);
    float* tmp = ctx.requested[0].get_space_typed_ptr<float>(in_data[0].Size());
    const float* lhs = in_data[0].dptr<float>();
    const float* rhs = in_data[1].dptr<float>();
    for (size_t i = 0; i < in_data[0].Size(); ++i) tmp[i] = param_.scale * lhs[i] + rhs[i];
    float* extra = out_data[1].dptr<float>();
    for (size_t i = 0; i < in_data[0].Size(); ++i) extra[i] = lhs[i];
    float* out = out_data[0].dptr<float>();
    for (size_t i = 0; i < in_data[0].Size(); ++i) out[i] = tmp[i];
    aux_states[0].dptr<float>()[0] += 1.f;
  }
  void Backward(const OpContext& ctx, const std::vector<TBlob>& out_grad,
                const std::vector<TBlob>& in_data, const std::vector<TBlob>& out_data,
                const std::vector<OpReqType>& req, const std::vector<TBlob>& in_grad,
                const std::vector<TBlob>& aux_states) override {
    ++g_backward_calls;
    CHECK_EQ(out_grad.size(), 1U) << "only visible outputs have gradients";
    CHECK_EQ(in_data.size(), 2U);
    CHECK_EQ(out_data.size(), 2U);
    CHECK(in_data[0].dptr_ == nullptr) << "lhs was not declared as a backward dependency";
    CHECK(out_data[0].dptr_ == nullptr && out_data[1].dptr_ == nullptr)
        << "outputs were not declared as backward dependencies";
    CHECK(in_data[1].dptr_ != nullptr && out_grad[0].dptr_ != nullptr);
    CHECK_EQ(aux_states.size(), 1U);
    CHECK_EQ(ctx.requested.size(), 2U) << "BackwardResource asked for temp space + random";
    CHECK_EQ(ctx.requested[0].req.type, ResourceRequest::kTempSpace);
    CHECK_EQ(ctx.requested[1].req.type, ResourceRequest::kRandom);
    const float* og = out_grad[0].dptr<float>();
    const float* rhs = in_data[1].dptr<float>();
    float* glhs = in_grad[0].dptr<float>();
    float* grhs = in_grad[1].dptr<float>();
    for (size_t i = 0; i < out_grad[0].Size(); ++i) {
      // d/d rhs of sum(og * (scale*lhs + rhs)) is og; we add 0*rhs to prove rhs is readable.
      const float r = og[i] + 0.f * rhs[i];
      const float l = param_.scale * og[i];
      if (req[1] == kAddTo) grhs[i] += r; else if (req[1] != kNullOp) grhs[i] = r;
      if (req[0] == kAddTo) glhs[i] += l; else if (req[0] != kNullOp) glhs[i] = l;
    }
  }

 private:
  LegacyTestParam param_;
};

class LegacyTestProp : public OperatorProperty {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    param_.Init(kwargs);
  }
  std::map<std::string, std::string> GetParams() const override { return param_.__DICT__(); }
  std::vector<std::string> ListArguments() const override { return {"lhs", "rhs"}; }
  std::vector<std::string> ListOutputs() const override { return {"out", "extra"}; }
  std::vector<std::string> ListAuxiliaryStates() const override { return {"counter"}; }
  int NumOutputs() const override { return 2; }
  int NumVisibleOutputs() const override { return 1; }
  bool InferShape(ShapeVector* in_shape, ShapeVector* out_shape,
                  ShapeVector* aux_shape) const override {
    TShape s = (*in_shape)[0];
    if (!shape_is_known(s)) s = (*in_shape)[1];
    if (!shape_is_known(s)) return false;
    (*in_shape)[0] = s;
    (*in_shape)[1] = s;
    out_shape->clear();  // legacy properties often rebuild the vectors
    out_shape->push_back(s);
    out_shape->push_back(s);
    aux_shape->assign(1, TShape({1}));
    return true;
  }
  bool InferType(std::vector<int>* in_type, std::vector<int>* out_type,
                 std::vector<int>* aux_type) const override {
    for (int& t : *in_type) {
      if (t == -1) t = mshadow::kFloat32;
      if (t != mshadow::kFloat32) MX_THROW(TypeError) << "_test_legacy_all: float32 only";
    }
    out_type->assign(2, mshadow::kFloat32);
    aux_type->assign(1, mshadow::kFloat32);
    return true;
  }
  OperatorProperty* Copy() const override { return new LegacyTestProp(*this); }
  Operator* CreateOperator(Context ctx) const override {
    ++g_created;
    return new LegacyTestOp(param_);
  }
  Operator* CreateOperatorEx(Context ctx, ShapeVector* in_shape,
                             std::vector<int>* in_type) const override {
    ++g_created_ex;
    g_create_ex_shapes = *in_shape;
    return OperatorProperty::CreateOperatorEx(ctx, in_shape, in_type);
  }
  std::string TypeString() const override { return "_test_legacy_all"; }
  std::vector<ResourceRequest> ForwardResource(const ShapeVector& in_shape) const override {
    return {ResourceRequest::kTempSpace};
  }
  std::vector<ResourceRequest> BackwardResource(const ShapeVector& in_shape) const override {
    return {ResourceRequest::kTempSpace, ResourceRequest::kRandom};
  }
  std::vector<int> DeclareBackwardDependency(const std::vector<int>& out_grad,
                                             const std::vector<int>& in_data,
                                             const std::vector<int>& out_data) const override {
    return {out_grad[0], in_data[1]};
  }
  std::vector<std::pair<int, void*>> ForwardInplaceOption(
      const std::vector<int>& in_data, const std::vector<void*>& out_data) const override {
    return {{in_data[1], out_data[0]}};
  }
  std::vector<std::pair<int, void*>> BackwardInplaceOption(
      const std::vector<int>& out_grad, const std::vector<int>& in_data,
      const std::vector<int>& out_data, const std::vector<void*>& in_grad) const override {
    // out_grad -> rhs grad is usable; lhs is not a dependency, so that pair must be dropped.
    return {{out_grad[0], in_grad[1]}, {in_data[0], in_grad[0]}};
  }

 private:
  LegacyTestParam param_;
};

MXNET_REGISTER_OP_PROPERTY(_test_legacy_all, LegacyTestProp)
.describe("Test operator overriding every optional OperatorProperty method.")
.add_argument("lhs", "NDArray-or-Symbol", "left")
.add_argument("rhs", "NDArray-or-Symbol", "right")
.add_arguments(LegacyTestParam::__FIELDS__());

class BadNameProp : public LegacyTestProp {
 public:
  std::string TypeString() const override { return "SomethingElse"; }
};

nnvm::NodeAttrs Attrs(const std::string& op, std::unordered_map<std::string, std::string> dict) {
  nnvm::NodeAttrs attrs;
  attrs.op = nnvm::Op::Get(op);
  attrs.name = "t0";
  attrs.dict = std::move(dict);
  attrs.op->attr_parser(&attrs);
  return attrs;
}

NDArray Full(const TShape& s, float v) {
  NDArray a(s, Context::CPU());
  std::vector<float> buf(s.Size(), v);
  a.SyncCopyFromCPU(buf.data(), buf.size());
  return a;
}

std::vector<float> Host(const NDArray& a) {
  std::vector<float> buf(a.Size());
  a.SyncCopyToCPU(buf.data(), buf.size());
  return buf;
}

std::shared_ptr<const nnvm::NodeAttrs> Parse(const std::string& op, const char* scale) {
  const char* keys[] = {"scale"};
  const char* vals[] = {scale};
  return Imperative::Get()->ParseAttrs(nnvm::Op::Get(op), 0, 1, keys, vals);
}

TEST(LegacyOp, NamesCountsAndVisibility) {
  nnvm::NodeAttrs attrs = Attrs("_test_legacy_all", {{"scale", "3"}});
  const nnvm::Op* op = attrs.op;
  EXPECT_EQ(op->get_num_inputs(attrs), 3U);
  EXPECT_EQ(op->get_num_outputs(attrs), 2U);
  auto names = nnvm::Op::GetAttr<nnvm::FListInputNames>("FListInputNames")[op](attrs);
  EXPECT_EQ(names, (std::vector<std::string>{"lhs", "rhs", "counter"}));
  auto outs = nnvm::Op::GetAttr<nnvm::FListOutputNames>("FListOutputNames")[op](attrs);
  EXPECT_EQ(outs, (std::vector<std::string>{"out", "extra"}));
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs")[op](attrs), 1U);
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs")[op](attrs),
            (std::vector<uint32_t>{2}));
  EXPECT_EQ(op->description, "Test operator overriding every optional OperatorProperty method.");
  ASSERT_GE(op->arguments.size(), 3U);
  EXPECT_EQ(op->arguments[0].name, "lhs");
  EXPECT_EQ(op->arguments[2].name, "scale");
}

TEST(LegacyOp, ShapeTypeInplaceResources) {
  nnvm::NodeAttrs attrs = Attrs("_test_legacy_all", {});
  const nnvm::Op* op = attrs.op;
  ShapeVector in{TShape(), TShape({2, 3}), TShape()}, out(2);
  EXPECT_TRUE(nnvm::Op::GetAttr<FInferShape>("FInferShape")[op](attrs, &in, &out));
  EXPECT_EQ(in[0], TShape({2, 3}));
  EXPECT_EQ(in[2], TShape({1}));
  EXPECT_EQ(out[1], TShape({2, 3}));
  std::vector<int> tin{-1, -1, -1}, tout{-1, -1};
  EXPECT_TRUE(nnvm::Op::GetAttr<nnvm::FInferType>("FInferType")[op](attrs, &tin, &tout));
  EXPECT_EQ(tin, (std::vector<int>{0, 0, 0}));
  std::vector<int> bad{mshadow::kFloat64, -1, -1};
  EXPECT_THROW(nnvm::Op::GetAttr<nnvm::FInferType>("FInferType")[op](attrs, &bad, &tout),
               dmlc::Error);
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[op](attrs),
            (std::vector<std::pair<int, int>>{{1, 0}}));
  auto fres = nnvm::Op::GetAttr<FResourceRequest>("FResourceRequest");
  auto r = fres[op](attrs);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0].type, ResourceRequest::kTempSpace);
  EXPECT_EQ(nnvm::Op::GetAttr<FExecType>("FExecType")[op](attrs), ExecType::kSync);

  const nnvm::Op* bwd = nnvm::Op::Get("_backward__test_legacy_all");
  nnvm::NodeAttrs battrs = Attrs("_backward__test_legacy_all", {});
  EXPECT_TRUE(nnvm::Op::GetAttr<bool>("TIsBackward").get(bwd, false));
  EXPECT_TRUE(nnvm::Op::GetAttr<bool>("TIsLayerOpBackward").get(bwd, false));
  // Backward inputs: out_grad, rhs (declared), counter (aux).
  EXPECT_EQ(bwd->get_num_inputs(battrs), 3U);
  EXPECT_EQ(bwd->get_num_outputs(battrs), 2U);
  auto br = fres[bwd](battrs);
  ASSERT_EQ(br.size(), 2U);
  EXPECT_EQ(br[1].type, ResourceRequest::kRandom);
  // (out_grad -> rhs grad) kept as (backward input 0, output 1); the lhs pair is dropped.
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[bwd](battrs),
            (std::vector<std::pair<int, int>>{{0, 1}}));
  EXPECT_EQ(nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs")[bwd](battrs),
            (std::vector<uint32_t>{2}));
}

TEST(LegacyOp, GradientNodeTakesOnlyDeclaredDependencies) {
  nnvm::ObjectPtr n = nnvm::Node::Create();
  n->attrs = Attrs("_test_legacy_all", {{"scale", "3"}});
  n->attrs.name = "legacy0";
  std::vector<nnvm::ObjectPtr> vars;
  for (const char* v : {"lhs", "rhs", "counter"}) {
    vars.push_back(nnvm::Node::Create());
    vars.back()->attrs.name = v;
    n->inputs.emplace_back(vars.back(), 0, 0);
  }
  nnvm::ObjectPtr head = nnvm::Node::Create();
  head->attrs.name = "head_grad";
  nnvm::ObjectPtr hidden = nnvm::Node::Create();
  hidden->attrs.name = "hidden_grad";
  std::vector<nnvm::NodeEntry> ograds{nnvm::NodeEntry(head, 0, 0), nnvm::NodeEntry(hidden, 0, 0)};
  auto grads = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient")[n->attrs.op](n, ograds);
  ASSERT_EQ(grads.size(), 3U);
  nnvm::ObjectPtr b = grads[0].node;
  EXPECT_EQ(b->attrs.op->name, "_backward__test_legacy_all");
  EXPECT_EQ(grads[1].node, b);
  EXPECT_EQ(grads[1].index, 1U);
  ASSERT_EQ(b->inputs.size(), 3U);
  EXPECT_EQ(b->inputs[0].node, head);        // out_grad[0] (not the hidden output's grad)
  EXPECT_EQ(b->inputs[1].node, vars[1]);     // rhs; lhs and the outputs are not kept
  EXPECT_EQ(b->inputs[2].node, vars[2]);     // aux state
  ASSERT_EQ(b->control_deps.size(), 1U);
  EXPECT_EQ(b->control_deps[0], n);
  EXPECT_EQ(grads[2].node->attrs.op->name, "zeros_like");  // aux states get no gradient
}

TEST(LegacyOp, ImperativeForwardBackwardAndAux) {
  const TShape s({2, 3});
  NDArray lhs = Full(s, 1.5f), rhs = Full(s, -1.f), counter = Full(TShape({1}), 0.f);
  NDArray out, extra;
  const int created_before = g_created_ex.load();
  auto attrs = Parse("_test_legacy_all", "3");
  Imperative::Get()->Invoke(attrs, {&lhs, &rhs, &counter}, {&out, &extra});
  Imperative::Get()->Invoke(attrs, {&lhs, &rhs, &counter}, {&out, &extra});
  for (float v : Host(out)) EXPECT_FLOAT_EQ(v, 3.5f);
  for (float v : Host(extra)) EXPECT_FLOAT_EQ(v, 1.5f);
  EXPECT_FLOAT_EQ(Host(counter)[0], 2.f) << "aux state updated in place by each forward";
  EXPECT_EQ(g_created_ex.load() - created_before, 2);
  ASSERT_EQ(g_create_ex_shapes.size(), 2U) << "CreateOperatorEx sees argument shapes only";
  EXPECT_EQ(g_create_ex_shapes[0], s);

  // The backward op called directly: inputs are (out_grad, rhs, counter).
  NDArray og = Full(s, 2.f), glhs, grhs;
  const int calls = g_backward_calls.load();
  auto battrs = Parse("_backward__test_legacy_all", "3");
  Imperative::Get()->Invoke(battrs, {&og, &rhs, &counter}, {&glhs, &grhs});
  for (float v : Host(glhs)) EXPECT_FLOAT_EQ(v, 6.f);
  for (float v : Host(grhs)) EXPECT_FLOAT_EQ(v, 2.f);
  EXPECT_EQ(g_backward_calls.load() - calls, 1);
}

TEST(LegacyOp, ParameterErrorsNameTheOperator) {
  try {
    Attrs("_test_legacy_all", {{"scale", "1000"}});
    FAIL() << "expected a ParamError";
  } catch (const dmlc::ParamError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("_test_legacy_all"), std::string::npos) << msg;
    EXPECT_NE(msg.find("scale"), std::string::npos) << msg;
  }
  EXPECT_THROW(Attrs("_test_legacy_all", {{"no_such_param", "1"}}), dmlc::Error);
}

TEST(LegacyOp, RegistryLookupsAndNameCheck) {
  std::unique_ptr<OperatorProperty> p(OperatorProperty::Create("_test_legacy_all"));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypeString(), "_test_legacy_all");
  p->Init({});
  EXPECT_EQ(p->GetParams().at("scale"), "2") << "defaults apply on Init";
  p->Init({{"scale", "5"}});
  std::unique_ptr<OperatorProperty> copy(p->Copy());
  EXPECT_EQ(copy->GetParams().at("scale"), "5");
  EXPECT_EQ(OperatorProperty::Create("_no_such_legacy_op"), nullptr);
  std::unique_ptr<OperatorProperty> real(OperatorProperty::Create("SequenceMask"));
  ASSERT_NE(real, nullptr);
  EXPECT_THROW(dmlc::Registry<OperatorPropertyReg>::Get()
                   ->__REGISTER__("_test_bad_name")
                   .set_body([]() -> OperatorProperty* { return new BadNameProp(); })
                   .check_name(),
               dmlc::Error);
}

TEST(LegacyOp, BackwardInputsSelectsDeclaredArrays) {
  LegacyTestProp p;
  std::vector<std::string> og{"og0"}, in{"lhs", "rhs"}, out{"out", "extra"};
  EXPECT_EQ(p.BackwardInputs(og, in, out), (std::vector<std::string>{"og0", "rhs"}));
  // The default dependency is everything, in out_grad, in_data, out_data order.
  struct Plain : public LegacyTestProp {
    std::vector<int> DeclareBackwardDependency(const std::vector<int>& a, const std::vector<int>& b,
                                               const std::vector<int>& c) const override {
      return OperatorProperty::DeclareBackwardDependency(a, b, c);
    }
  } plain;
  EXPECT_EQ(plain.BackwardInputs(og, in, out),
            (std::vector<std::string>{"og0", "lhs", "rhs", "out", "extra"}));
}

}  // namespace
}  // namespace op
}  // namespace mxnet
