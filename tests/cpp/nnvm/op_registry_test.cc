// Tests of the nnvm::Op registry (attributes, plevel, aliases, variadic ops, runtime
// registration, concurrent lookups), nodes, and the operator helpers of operator_common.h /
// elemwise_op_common.h, using a quadratic op written in the MXNet tutorial style.
#include <gtest/gtest.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "operator/elemwise_op_common.h"
#include "operator/operator_common.h"

namespace mxnet {
namespace op {

// ---- A tutorial-style operator: parameter struct, shape/type functions, kernel, registration.

struct QuadraticParam : public dmlc::Parameter<QuadraticParam> {
  float a, b, c;
  DMLC_DECLARE_PARAMETER(QuadraticParam) {
    DMLC_DECLARE_FIELD(a).set_default(0.0).describe(
        "Coefficient of the quadratic term in the quadratic function.");
    DMLC_DECLARE_FIELD(b).set_default(0.0).describe(
        "Coefficient of the linear term in the quadratic function.");
    DMLC_DECLARE_FIELD(c).set_default(0.0).describe("Constant term in the quadratic function.");
  }
};

inline bool QuadraticOpShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                             mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, in_attrs->at(0));
  SHAPE_ASSIGN_CHECK(*in_attrs, 0, out_attrs->at(0));
  return out_attrs->at(0).ndim() != 0U && out_attrs->at(0).Size() != 0U;
}

inline bool QuadraticOpType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                            std::vector<int>* out_attrs) {
  CHECK_EQ(in_attrs->size(), 1U);
  CHECK_EQ(out_attrs->size(), 1U);
  TYPE_ASSIGN_CHECK(*out_attrs, 0, in_attrs->at(0));
  TYPE_ASSIGN_CHECK(*in_attrs, 0, out_attrs->at(0));
  return out_attrs->at(0) != -1;
}

template <typename xpu>
void QuadraticOpForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  CHECK_EQ(inputs.size(), 1U);
  CHECK_EQ(outputs.size(), 1U);
  CHECK_EQ(req.size(), 1U);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  (void)s;
  const TBlob& in_data = inputs[0];
  const TBlob& out_data = outputs[0];
  const QuadraticParam& param = nnvm::get<QuadraticParam>(attrs.parsed);
  MSHADOW_TYPE_SWITCH(out_data.type_flag_, DType, {
    const DType* x = in_data.dptr<DType>();
    DType* y = out_data.dptr<DType>();
    for (size_t i = 0; i < out_data.Size(); ++i) {
      DType v = static_cast<DType>(param.a * x[i] * x[i] + param.b * x[i] + param.c);
      if (req[0] == kAddTo) {
        y[i] += v;
      } else if (req[0] != kNullOp) {
        y[i] = v;
      }
    }
  });
}

DMLC_REGISTER_PARAMETER(QuadraticParam);

NNVM_REGISTER_OP(_test_quadratic)
.describe(R"code(This operators implements the quadratic function.
)code" ADD_FILELINE)
.set_attr_parser(ParamParser<QuadraticParam>)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr<nnvm::FListInputNames>("FListInputNames",
  [](const NodeAttrs& attrs) {
    return std::vector<std::string>{"data"};
  })
.set_attr<nnvm::FInferShape>("FInferShape", QuadraticOpShape)
.set_attr<nnvm::FInferType>("FInferType", QuadraticOpType)
.set_attr<FCompute>("FCompute<cpu>", QuadraticOpForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_test_quadratic"})
.set_attr<nnvm::FInplaceOption>("FInplaceOption",
  [](const NodeAttrs& attrs) {
    return std::vector<std::pair<int, int> >{{0, 0}};
  })
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_arguments(QuadraticParam::__FIELDS__())
MXNET_ADD_SPARSE_OP_ALIAS(_test_quadratic)
.add_alias("_test_quad_alias");

NNVM_REGISTER_OP(_backward_test_quadratic)
.set_attr_parser(ParamParser<QuadraticParam>)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FCompute>("FCompute<cpu>", QuadraticOpForward<cpu>);

// A second registration block for the same op (as a .cu file would add FCompute<gpu>).
NNVM_REGISTER_OP(_test_quadratic)
.set_attr<FCompute>("FCompute<gpu>", QuadraticOpForward<gpu>);

// ---- A variadic op with key_var_num_args and attribute priorities.

struct ConcatLikeParam : public dmlc::Parameter<ConcatLikeParam> {
  int num_args;
  int dim;
  DMLC_DECLARE_PARAMETER(ConcatLikeParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1).describe("Number of inputs.");
    DMLC_DECLARE_FIELD(dim).set_default(1).describe("Axis.");
  }
};
DMLC_REGISTER_PARAMETER(ConcatLikeParam);

NNVM_REGISTER_OP(_test_concat)
.describe("Joins arrays.")
.set_num_inputs([](const NodeAttrs& attrs) {
  return static_cast<uint32_t>(nnvm::get<ConcatLikeParam>(attrs.parsed).num_args);
})
.set_num_outputs(1)
.set_attr_parser(ParamParser<ConcatLikeParam>)
.set_attr<std::string>("key_var_num_args", "num_args")
.set_attr<int>("TTestPriority", 1, 5)
.set_attr<int>("TTestPriority", 2, 20)   // higher plevel overrides
.set_attr<int>("TTestPriority", 3, 11)   // lower than current: ignored
.add_argument("data", "NDArray-or-Symbol[]", "List of arrays to concatenate")
.add_arguments(ConcatLikeParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet

namespace {

using mxnet::TShape;
using nnvm::Op;

TEST(OpRegistry, RegisteredOpReportsItsInfo) {
  const Op* op = Op::Get("_test_quadratic");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->name, "_test_quadratic");
  EXPECT_EQ(op->description.rfind("This operators implements the quadratic function.\n", 0), 0U);
  EXPECT_NE(op->description.find("\n\nDefined in "), std::string::npos);
  EXPECT_NE(op->description.find("op_registry_test.cc:L"), std::string::npos);
  EXPECT_EQ(op->num_inputs, 1U);
  EXPECT_EQ(op->num_outputs, 1U);
  EXPECT_EQ(op->key_var_num_args, "");
  ASSERT_EQ(op->arguments.size(), 4U);
  EXPECT_EQ(op->arguments[0].name, "data");
  EXPECT_EQ(op->arguments[0].type, "NDArray-or-Symbol");
  EXPECT_EQ(op->arguments[0].type_info_str, "NDArray-or-Symbol");
  EXPECT_EQ(op->arguments[0].description, "Input ndarray");
  EXPECT_EQ(op->arguments[1].name, "a");
  EXPECT_EQ(op->arguments[1].type_info_str, "float, optional, default=0");
  EXPECT_EQ(op->arguments[3].description, "Constant term in the quadratic function.");
}

TEST(OpRegistry, GetThrowsAndFindReturnsNullForUnknownOps) {
  try {
    Op::Get("no_such_op_xyz");
    FAIL() << "Op::Get did not throw";
  } catch (const dmlc::Error& e) {
    EXPECT_EQ(std::string(e.what()), "Operator no_such_op_xyz is not registered");
  }
  EXPECT_EQ(Op::Find("no_such_op_xyz"), nullptr);
}

TEST(OpRegistry, AliasesResolveToTheSameOp) {
  const Op* op = Op::Get("_test_quadratic");
  EXPECT_EQ(Op::Get("_sparse__test_quadratic"), op);
  EXPECT_EQ(Op::Get("_test_quad_alias"), op);
  EXPECT_EQ(Op::Get("_test_quad_alias")->name, "_test_quadratic");
  // Re-registering an alias name reopens the op itself.
  EXPECT_EQ(&Op::Register("_test_quad_alias"), op);
  // An alias that names another op is refused.
  EXPECT_THROW(Op::Register("_test_concat").add_alias("_test_quad_alias"), dmlc::Error);

  std::vector<std::string> names = Op::ListAllNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* n : {"_test_quadratic", "_sparse__test_quadratic", "_test_quad_alias",
                        "_backward_test_quadratic", "_test_concat"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  }
  std::vector<const Op*> ops = Op::ListAllOps();
  EXPECT_EQ(std::count(ops.begin(), ops.end(), op), 1);
  EXPECT_LT(ops.size(), names.size());
}

TEST(OpRegistry, AttributesAreTypedAndQueryable) {
  const Op* quad = Op::Get("_test_quadratic");
  const Op* bwd = Op::Get("_backward_test_quadratic");
  static const auto& fcompute = Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  static const auto& fcompute_gpu = Op::GetAttr<mxnet::FCompute>("FCompute<gpu>");
  static const auto& is_backward = Op::GetAttr<nnvm::TIsBackward>("TIsBackward");
  EXPECT_EQ(fcompute.count(quad), 1);
  EXPECT_EQ(fcompute.count(bwd), 1);
  EXPECT_EQ(fcompute_gpu.count(quad), 1);  // from the second registration block
  EXPECT_EQ(fcompute_gpu.count(bwd), 0);
  EXPECT_EQ(fcompute.count(nullptr), 0);
  EXPECT_TRUE(is_backward.get(bwd, false));
  EXPECT_FALSE(is_backward.get(quad, false));
  EXPECT_FALSE(is_backward.get(nullptr, false));
  EXPECT_THROW(is_backward[quad], dmlc::Error);
  EXPECT_EQ(is_backward.attr_name(), "TIsBackward");
  // An attribute nobody set is an empty map.
  const auto& none = Op::GetAttr<int>("TNobodySetThis");
  EXPECT_EQ(none.count(quad), 0);
  // Asking with the wrong type is an error.
  EXPECT_THROW(Op::GetAttr<int>("FCompute<cpu>"), dmlc::Error);
  EXPECT_THROW(Op::Register("_test_quadratic").set_attr<int>("TIsBackward", 1, 50), dmlc::Error);
  auto names = Op::GetAttr<nnvm::FListInputNames>("FListInputNames")[quad](nnvm::NodeAttrs());
  EXPECT_EQ(names, std::vector<std::string>{"data"});
  auto inplace = Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption")[quad](nnvm::NodeAttrs());
  ASSERT_EQ(inplace.size(), 1U);
  EXPECT_EQ(inplace[0], std::make_pair(0, 0));
}

TEST(OpRegistry, PlevelDecidesWhichValueWins) {
  const Op* op = Op::Get("_test_concat");
  EXPECT_EQ(Op::GetAttr<int>("TTestPriority")[op], 2);
  try {
    Op::Register("_test_concat").set_attr<int>("TTestPriority", 9, 20);
    FAIL() << "same plevel twice did not throw";
  } catch (const dmlc::Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("Attribute TTestPriority of operator _test_concat is already registered "
                       "with same plevel=20"),
              std::string::npos)
        << msg;
  }
  EXPECT_EQ(Op::GetAttr<int>("TTestPriority")[op], 2);
  Op::Register("_test_concat").set_attr<int>("TTestPriority", 4, 30);
  EXPECT_EQ(Op::GetAttr<int>("TTestPriority")[op], 4);
  EXPECT_THROW(Op::Register("_test_concat").set_attr<int>("TTestPriority", 4, 0), dmlc::Error);
}

TEST(OpRegistry, VariadicOpsUseKeyVarNumArgs) {
  const Op* op = Op::Get("_test_concat");
  EXPECT_EQ(op->key_var_num_args, "num_args");
  EXPECT_EQ(Op::GetAttr<std::string>("key_var_num_args")[op], "num_args");
  EXPECT_EQ(op->arguments[0].type, "NDArray-or-Symbol[]");
  nnvm::ObjectPtr n = nnvm::Node::Create();
  n->attrs.op = op;
  n->attrs.name = "concat0";
  n->attrs.dict = {{"num_args", "3"}};
  op->attr_parser(&n->attrs);
  EXPECT_EQ(n->num_inputs(), 3U);
  EXPECT_EQ(n->num_outputs(), 1U);
  EXPECT_EQ(nnvm::get<mxnet::op::ConcatLikeParam>(n->attrs.parsed).dim, 1);
}

TEST(OpRegistry, ParamParserNamesTheOperator) {
  nnvm::NodeAttrs attrs;
  attrs.op = Op::Get("_test_concat");
  attrs.name = "";
  attrs.dict = {{"num_args", "2"}, {"dim", "foo"}};
  try {
    attrs.op->attr_parser(&attrs);
    FAIL() << "bad parameter did not throw";
  } catch (const dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Invalid Parameter format for dim expect int but value='foo', in operator "
              "_test_concat(name=\"\", dim=\"foo\", num_args=\"2\")");
  }
  attrs.dict = {};
  attrs.name = "c1";
  try {
    attrs.op->attr_parser(&attrs);
    FAIL() << "missing parameter did not throw";
  } catch (const dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Required parameter num_args of int is not presented, in operator "
              "_test_concat(name=\"c1\")");
  }
}

TEST(OpRegistry, RuntimeRegistrationIsVisibleEverywhere) {
  const auto& fcompute = Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");  // taken before
  EXPECT_EQ(Op::Find("_test_runtime_op"), nullptr);
  size_t before = Op::ListAllOps().size();
  Op::Register("_test_runtime_op")
      .describe("added after startup")
      .set_num_inputs(2)
      .set_attr<mxnet::FCompute>("FCompute<cpu>",
                                 [](const nnvm::NodeAttrs&, const mxnet::OpContext&,
                                    const std::vector<mxnet::TBlob>&,
                                    const std::vector<mxnet::OpReqType>&,
                                    const std::vector<mxnet::TBlob>&) {})
      .add_alias("_test_runtime_alias");
  const Op* op = Op::Get("_test_runtime_op");
  EXPECT_EQ(op->num_inputs, 2U);
  EXPECT_EQ(Op::Get("_test_runtime_alias"), op);
  EXPECT_EQ(fcompute.count(op), 1);
  EXPECT_EQ(Op::ListAllOps().size(), before + 1);
  auto names = Op::ListAllNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "_test_runtime_alias"), names.end());
}

TEST(OpRegistry, LookupsAreSafeWhileOpsRegister) {
  const Op* quad = Op::Get("_test_quadratic");
  const auto& fcompute = Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&]() {
      while (!stop.load()) {
        if (Op::Find("_test_quadratic") != quad) ++bad;
        if (fcompute.count(quad) != 1) ++bad;
        if (Op::GetAttr<int>("TTestConcurrent").count(quad) != 0) ++bad;
      }
    });
  }
  for (int i = 0; i < 2000; ++i) {
    std::string name = "_test_concurrent_" + std::to_string(i);
    Op::Register(name).set_attr<int>("TTestConcurrent", i).set_attr<mxnet::FCompute>(
        "FCompute<cpu>", nullptr);
    if (Op::GetAttr<int>("TTestConcurrent")[Op::Get(name)] != i) ++bad;
  }
  stop = true;
  for (auto& th : readers) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(Op::GetAttr<int>("TTestConcurrent")[Op::Get("_test_concurrent_1999")], 1999);
}

// ---- Inference helpers

TEST(OperatorCommon, ShapeAssignFillsUnknownsAndDetectsConflicts) {
  TShape y;
  EXPECT_TRUE(mxnet::op::shape_assign(&y, TShape({2, 3})));
  EXPECT_EQ(y, TShape({2, 3}));
  TShape partial{2, -1};
  EXPECT_TRUE(mxnet::op::shape_assign(&partial, TShape({-1, 5})));
  EXPECT_EQ(partial, TShape({2, 5}));
  TShape known{2, 3};
  EXPECT_TRUE(mxnet::op::shape_assign(&known, TShape()));
  EXPECT_FALSE(mxnet::op::shape_assign(&known, TShape({3, 3})));
  EXPECT_FALSE(mxnet::op::shape_assign(&known, TShape({2, 3, 1})));
  int t = -1;
  EXPECT_TRUE(mxnet::op::type_assign(&t, 0));
  EXPECT_EQ(t, 0);
  EXPECT_TRUE(mxnet::op::type_assign(&t, -1));
  EXPECT_FALSE(mxnet::op::type_assign(&t, 1));
  mxnet::DispatchMode m = mxnet::DispatchMode::kUndefined;
  EXPECT_TRUE(mxnet::op::dispatch_mode_assign(&m, mxnet::DispatchMode::kFCompute));
  EXPECT_FALSE(mxnet::op::dispatch_mode_assign(&m, mxnet::DispatchMode::kFComputeEx));
}

TEST(OperatorCommon, AssignCheckMacrosNameIndexAndBothValues) {
  nnvm::NodeAttrs attrs;
  mxnet::ShapeVector in{TShape({2, 3})}, out{TShape({3, 3})};
  try {
    mxnet::op::QuadraticOpShape(attrs, &in, &out);
    FAIL() << "shape mismatch did not throw";
  } catch (const mxnet::op::InferShapeError& e) {
    EXPECT_EQ(e.index, 0);
    EXPECT_EQ(std::string(e.what()),
              "*out_attrs[0]: Shape inconsistent, Provided = [3,3], inferred shape=[2,3]");
  }
  std::vector<int> tin{mshadow::kFloat32}, tout{mshadow::kFloat64};
  try {
    mxnet::op::QuadraticOpType(attrs, &tin, &tout);
    FAIL() << "type mismatch did not throw";
  } catch (const mxnet::op::InferTypeError& e) {
    EXPECT_EQ(e.index, 0);
    EXPECT_EQ(std::string(e.what()), "*out_attrs[0]: expected float64, got float32");
  }
  // Mutual inference: output -> input.
  mxnet::ShapeVector in2{TShape()}, out2{TShape({4})};
  EXPECT_TRUE(mxnet::op::QuadraticOpShape(attrs, &in2, &out2));
  EXPECT_EQ(in2[0], TShape({4}));
  std::vector<int> tin2{-1}, tout2{-1};
  EXPECT_FALSE(mxnet::op::QuadraticOpType(attrs, &tin2, &tout2));
}

TEST(ElemwiseOpCommon, ShapeAndTypeAgreeAcrossInputsAndOutputs) {
  nnvm::NodeAttrs attrs;
  attrs.name = "add0";
  mxnet::ShapeVector in{TShape({2, -1}), TShape()}, out{TShape({-1, 3})};
  EXPECT_TRUE((mxnet::op::ElemwiseShape<2, 1>(attrs, &in, &out)));
  EXPECT_EQ(in[0], TShape({2, 3}));
  EXPECT_EQ(in[1], TShape({2, 3}));
  EXPECT_EQ(out[0], TShape({2, 3}));
  mxnet::ShapeVector unknown_in{TShape(), TShape()}, unknown_out{TShape()};
  EXPECT_FALSE((mxnet::op::ElemwiseShape<2, 1>(attrs, &unknown_in, &unknown_out)));
  mxnet::ShapeVector bad_in{TShape({2}), TShape({3})}, bad_out{TShape()};
  try {
    mxnet::op::ElemwiseShape<2, 1>(attrs, &bad_in, &bad_out);
    FAIL() << "incompatible shapes did not throw";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "Incompatible attr in node add0 at 1-th input: expected [2], got [3]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((mxnet::op::ElemwiseShape<1, 1>(attrs, &in, &out)), dmlc::Error);  // wrong count
  std::vector<int> tin{-1, mshadow::kFloat16}, tout{-1};
  EXPECT_TRUE((mxnet::op::ElemwiseType<2, 1>(attrs, &tin, &tout)));
  EXPECT_EQ(tin[0], mshadow::kFloat16);
  EXPECT_EQ(tout[0], mshadow::kFloat16);
  std::vector<int> bad_t{mshadow::kFloat32, mshadow::kInt32}, bad_tout{-1};
  EXPECT_THROW((mxnet::op::ElemwiseType<-1, -1>(attrs, &bad_t, &bad_tout)), dmlc::Error);
}

// ---- Nodes, gradients, compute

TEST(Node, GradientHelperBuildsTheBackwardNode) {
  nnvm::ObjectPtr x = nnvm::Node::Create();
  x->attrs.name = "x";
  EXPECT_TRUE(x->is_variable());
  EXPECT_EQ(x->num_outputs(), 1U);
  EXPECT_EQ(x->num_inputs(), 0U);
  nnvm::ObjectPtr q = nnvm::Node::Create(Op::Get("_test_quadratic"), "quad0");
  q->attrs.dict = {{"a", "2"}};
  q->op()->attr_parser(&q->attrs);
  q->inputs.emplace_back(x, 0, 0);
  EXPECT_FLOAT_EQ(nnvm::get<mxnet::op::QuadraticParam>(q->attrs.parsed).a, 2.f);

  nnvm::ObjectPtr head = nnvm::Node::Create();
  head->attrs.name = "head_grad";
  auto fgrad = Op::GetAttr<nnvm::FGradient>("FGradient")[q->op()];
  std::vector<nnvm::NodeEntry> grads = fgrad(q, {nnvm::NodeEntry(head, 0, 0)});
  ASSERT_EQ(grads.size(), 1U);
  const nnvm::ObjectPtr& g = grads[0].node;
  EXPECT_EQ(g->op(), Op::Get("_backward_test_quadratic"));
  EXPECT_EQ(g->attrs.name, "quad0_backward");
  ASSERT_EQ(g->inputs.size(), 2U);  // out grad, then the forward input
  EXPECT_EQ(g->inputs[0].node, head);
  EXPECT_EQ(g->inputs[1].node, x);
  ASSERT_EQ(g->control_deps.size(), 1U);
  EXPECT_EQ(g->control_deps[0], q);
  EXPECT_FLOAT_EQ(nnvm::get<mxnet::op::QuadraticParam>(g->attrs.parsed).a, 2.f);

  nnvm::NodeEntry e = nnvm::MakeNode("_test_quadratic", "quad1", {nnvm::NodeEntry(x)},
                                     {{"c", "1"}});
  EXPECT_EQ(e.node->attrs.name, "quad1");
  EXPECT_FLOAT_EQ(nnvm::get<mxnet::op::QuadraticParam>(e.node->attrs.parsed).c, 1.f);
  EXPECT_THROW(nnvm::MakeNode("_test_quadratic", "bad", {}, {{"zzz", "1"}}), dmlc::ParamError);
}

TEST(Node, LongChainsAreReleasedWithoutRecursion) {
  std::weak_ptr<nnvm::Node> first;
  {
    nnvm::ObjectPtr cur = nnvm::Node::Create();
    first = cur;
    for (int i = 0; i < 200000; ++i) {
      nnvm::ObjectPtr n = nnvm::Node::Create(Op::Get("_test_quadratic"), "n");
      n->inputs.emplace_back(cur, 0, 0);
      cur = n;
    }
    EXPECT_FALSE(first.expired());
  }
  EXPECT_TRUE(first.expired());
}

TEST(OpAttrTypes, FComputeRunsAKernelOnTBlobs) {
  const Op* quad = Op::Get("_test_quadratic");
  nnvm::NodeAttrs attrs;
  attrs.op = quad;
  attrs.dict = {{"a", "1"}, {"b", "2"}, {"c", "3"}};
  quad->attr_parser(&attrs);
  std::vector<float> x{1, 2, 3, 4}, y(4, 100.f);
  mxnet::TBlob in(x.data(), TShape({2, 2}), mshadow::cpu::kDevMask);
  mxnet::TBlob out(y.data(), TShape({2, 2}), mshadow::cpu::kDevMask);
  // OpContext holds std::vector<Resource>, and Resource (include/mxnet/resource.h) is not
  // complete here, so an OpContext cannot be constructed in this file; the kernel only reads
  // run_ctx.stream, so a zeroed OpContext-sized buffer stands in for one.
  static_assert(std::is_same<mxnet::FCompute,
                             std::function<void(const nnvm::NodeAttrs&, const mxnet::OpContext&,
                                                const std::vector<mxnet::TBlob>&,
                                                const std::vector<mxnet::OpReqType>&,
                                                const std::vector<mxnet::TBlob>&)>>::value,
                "FCompute signature");
  auto fcompute = Op::GetAttr<mxnet::FCompute>("FCompute<cpu>")[quad];
  alignas(mxnet::OpContext) unsigned char storage[sizeof(mxnet::OpContext)] = {};
  const mxnet::OpContext& ctx = *reinterpret_cast<const mxnet::OpContext*>(storage);
  fcompute(attrs, ctx, {in}, {mxnet::kWriteTo}, {out});
  EXPECT_EQ(y, (std::vector<float>{6, 11, 18, 27}));
  fcompute(attrs, ctx, {in}, {mxnet::kAddTo}, {out});
  EXPECT_EQ(y, (std::vector<float>{12, 22, 36, 54}));
  std::vector<double> wrong(4);
  mxnet::TBlob out64(wrong.data(), TShape({2, 2}), mshadow::cpu::kDevMask);
  EXPECT_THROW(fcompute(attrs, ctx, {in}, {mxnet::kWriteTo}, {out64}), mxnet::TypeError);
}

TEST(OpAttrTypes, EnumsAndHelpers) {
  EXPECT_EQ(mxnet::kNullOp, 0);
  EXPECT_EQ(mxnet::kAddTo, 3);
  EXPECT_EQ(static_cast<int>(mxnet::DispatchMode::kUndefined), -1);
  EXPECT_EQ(static_cast<int>(mxnet::DispatchMode::kVariable), 3);
  EXPECT_STREQ(mxnet::dispatch_mode_string(mxnet::DispatchMode::kFComputeEx), "fcompute_ex");
  EXPECT_EQ(static_cast<int>(mxnet::ExecType::kSubgraphExec), 3);
  mxnet::OpStatePtr empty;
  EXPECT_FALSE(static_cast<bool>(empty));
}

}  // namespace

namespace {

struct CountedState {
  static std::atomic<int> alive;
  int step = 0;
  explicit CountedState(int s) : step(s) { ++alive; }
  ~CountedState() { --alive; }
};
std::atomic<int> CountedState::alive{0};

TEST(OpStatePtr, SharesStateAndReleasesItWithTheLastHandle) {
  {
    mxnet::OpStatePtr st = mxnet::OpStatePtr::Create<CountedState>(5);
    EXPECT_TRUE(static_cast<bool>(st));
    EXPECT_TRUE(st.unique());
    EXPECT_EQ(CountedState::alive.load(), 1);
    mxnet::OpStatePtr copy = st;
    EXPECT_FALSE(st.unique());
    copy.get_state<CountedState>().step += 1;
    EXPECT_EQ(st.get_state<CountedState>().step, 6);
    EXPECT_THROW(st.get_state<int>(), mxnet::TypeError);
    // The engine variable is created once and shared by all handles.
    mxnet::engine::VarHandle v = st.get_var();
    EXPECT_NE(v, nullptr);
    EXPECT_EQ(copy.get_var(), v);
    // Work pushed on the state's variable sees the state.
    int seen = 0;
    mxnet::Engine::Get()->PushSync(
        [copy, &seen](mxnet::RunContext) { seen = copy.get_state<CountedState>().step; },
        mxnet::Context::CPU(), {}, {v});
    mxnet::Engine::Get()->WaitForVar(v);
    EXPECT_EQ(seen, 6);
    copy.reset();
    EXPECT_FALSE(static_cast<bool>(copy));
  }
  // The engine may drop the pushed closure (which holds a handle) just after the wait returns.
  mxnet::Engine::Get()->WaitForAll();
  for (int i = 0; i < 2000 && CountedState::alive.load() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(CountedState::alive.load(), 0);
  // A state whose variable was never asked for does not need the engine at all.
  { mxnet::OpStatePtr st = mxnet::OpStatePtr::Create<CountedState>(1); }
  EXPECT_EQ(CountedState::alive.load(), 0);
}

}  // namespace
