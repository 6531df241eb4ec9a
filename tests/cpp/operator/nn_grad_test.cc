/*!
 * \file nn_grad_test.cc
 * \brief FGradient wiring of dot, batch_dot, FullyConnected and the softmax family, end to end:
 *        build the forward node, ask FGradient for the gradient entries, evaluate the backward
 *        nodes with their FCompute<cpu> (a tiny interpreter over the entries), and compare with
 *        central finite differences of sum(out_grad * forward(x)) in float64.
 *        Loss heads (SoftmaxOutput, regression outputs) are checked for wiring and for their
 *        documented gradient (which ignores the head gradient).
 */
#include <gtest/gtest.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <mxnet/tensor_blob.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using mxnet::TBlob;
using mxnet::TShape;
using Dict = std::unordered_map<std::string, std::string>;
using Buffer = std::vector<double>;

TBlob Blob(Buffer* b, const TShape& s) { return TBlob(b->data(), s, mshadow::cpu::kDevMask); }

/*! \brief Forward node with one variable per input. */
nnvm::ObjectPtr MakeForward(const std::string& op, const Dict& dict, size_t nin) {
  nnvm::ObjectPtr n = nnvm::Node::Create();
  n->attrs.op = nnvm::Op::Get(op);
  n->attrs.name = op + "0";
  n->attrs.dict = dict;
  if (n->attrs.op->attr_parser) n->attrs.op->attr_parser(&n->attrs);
  for (size_t i = 0; i < nin; ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = "in" + std::to_string(i);
    n->inputs.emplace_back(v, 0, 0);
  }
  return n;
}

uint32_t NumOutputs(const nnvm::NodeAttrs& attrs) {
  const nnvm::Op* op = attrs.op;
  return op->get_num_outputs ? op->get_num_outputs(attrs) : op->num_outputs;
}

/*! \brief Shapes of the outputs of a node given its input shapes. */
std::vector<TShape> InferOut(const nnvm::NodeAttrs& attrs, std::vector<TShape> in) {
  static auto& fshape = nnvm::Op::GetAttr<mxnet::FInferShape>("FInferShape");
  std::vector<TShape> out(NumOutputs(attrs));
  EXPECT_TRUE(fshape[attrs.op](attrs, &in, &out)) << attrs.op->name;
  return out;
}

void Compute(const nnvm::NodeAttrs& attrs, const std::vector<TBlob>& in,
             const std::vector<TBlob>& out) {
  static auto& fcompute = nnvm::Op::GetAttr<mxnet::FCompute>("FCompute<cpu>");
  ASSERT_TRUE(fcompute.count(attrs.op)) << attrs.op->name;
  mxnet::OpContext ctx;
  fcompute[attrs.op](attrs, ctx, in, std::vector<mxnet::OpReqType>(out.size(), mxnet::kWriteTo),
                     out);
}

struct Case {
  std::string op;
  Dict dict;
  std::vector<TShape> shapes;
  std::vector<bool> differentiable;  // per input (labels are not)
};

/*! \brief Run forward; returns outputs and their shapes. */
std::vector<Buffer> Forward(const nnvm::ObjectPtr& n, std::vector<Buffer>& x,
                            const std::vector<TShape>& shapes, std::vector<TShape>* oshapes) {
  *oshapes = InferOut(n->attrs, shapes);
  std::vector<Buffer> y;
  for (const TShape& s : *oshapes) y.emplace_back(s.Size());
  std::vector<TBlob> in, out;
  for (size_t i = 0; i < x.size(); ++i) in.push_back(Blob(&x[i], shapes[i]));
  for (size_t i = 0; i < y.size(); ++i) out.push_back(Blob(&y[i], (*oshapes)[i]));
  Compute(n->attrs, in, out);
  return y;
}

/*!
 * \brief Evaluate the gradient entries of n: every backward node's inputs are forward inputs,
 *        forward outputs or head gradients (variables), which we have values for.
 */
std::vector<Buffer> EvalGradients(const nnvm::ObjectPtr& n, std::vector<Buffer>& x,
                                  const std::vector<TShape>& shapes, std::vector<Buffer>& y,
                                  const std::vector<TShape>& oshapes, std::vector<Buffer>& og,
                                  std::vector<TShape>* gshapes) {
  static auto& fgrad = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient");
  std::vector<nnvm::NodeEntry> heads;
  std::vector<nnvm::ObjectPtr> head_vars;
  for (size_t i = 0; i < y.size(); ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = "head" + std::to_string(i);
    head_vars.push_back(v);
    heads.emplace_back(v, 0, 0);
  }
  std::vector<nnvm::NodeEntry> grads = fgrad[n->attrs.op](n, heads);
  EXPECT_EQ(grads.size(), x.size()) << n->attrs.op->name << ": one gradient per input";
  // Evaluate each distinct backward node once.
  std::map<nnvm::Node*, std::vector<Buffer>> values;
  std::map<nnvm::Node*, std::vector<TShape>> vshapes;
  auto lookup = [&](const nnvm::NodeEntry& e, Buffer** buf, TShape* shape) {
    if (e.node == n) {
      *buf = &y[e.index];
      *shape = oshapes[e.index];
      return;
    }
    for (size_t i = 0; i < x.size(); ++i) {
      if (e.node == n->inputs[i].node) {
        *buf = &x[i];
        *shape = shapes[i];
        return;
      }
    }
    for (size_t i = 0; i < head_vars.size(); ++i) {
      if (e.node == head_vars[i]) {
        *buf = &og[i];
        *shape = oshapes[i];
        return;
      }
    }
    ADD_FAILURE() << "gradient of " << n->attrs.op->name << " reads an unknown entry of "
                  << e.node->attrs.name;
  };
  std::vector<Buffer> result;
  gshapes->clear();
  for (const nnvm::NodeEntry& g : grads) {
    nnvm::Node* b = g.node.get();
    if (!values.count(b)) {
      std::vector<TBlob> in;
      std::vector<TShape> in_shapes;
      for (const nnvm::NodeEntry& e : g.node->inputs) {
        Buffer* buf = nullptr;
        TShape s;
        lookup(e, &buf, &s);
        in.push_back(Blob(buf, s));
        in_shapes.push_back(s);
      }
      if (g.node->attrs.op->attr_parser && !g.node->attrs.parsed.has_value()) {
        g.node->attrs.op->attr_parser(&g.node->attrs);
      }
      std::vector<TShape> outs = InferOut(g.node->attrs, in_shapes);
      std::vector<Buffer>& vals = values[b];
      for (const TShape& s : outs) vals.emplace_back(s.Size(), 0.0);
      std::vector<TBlob> out;
      for (size_t i = 0; i < outs.size(); ++i) out.push_back(Blob(&vals[i], outs[i]));
      Compute(g.node->attrs, in, out);
      vshapes[b] = outs;
    }
    result.push_back(values[b][g.index]);
    gshapes->push_back(vshapes[b][g.index]);
  }
  return result;
}

void CheckNumeric(const Case& c) {
  SCOPED_TRACE(c.op);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  nnvm::ObjectPtr n = MakeForward(c.op, c.dict, c.shapes.size());
  std::vector<Buffer> x;
  for (const TShape& s : c.shapes) {
    Buffer b(s.Size());
    for (auto& v : b) v = dist(gen);
    x.push_back(b);
  }
  std::vector<TShape> oshapes;
  std::vector<Buffer> y = Forward(n, x, c.shapes, &oshapes);
  std::vector<Buffer> og;
  for (const TShape& s : oshapes) {
    Buffer b(s.Size());
    for (auto& v : b) v = dist(gen);
    og.push_back(b);
  }
  std::vector<TShape> gshapes;
  std::vector<Buffer> grads = EvalGradients(n, x, c.shapes, y, oshapes, og, &gshapes);
  ASSERT_EQ(grads.size(), x.size());
  const double eps = 1e-6;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!c.differentiable[i]) continue;
    ASSERT_EQ(gshapes[i], c.shapes[i]) << "gradient shape of input " << i;
    for (size_t k = 0; k < x[i].size(); ++k) {
      const double old = x[i][k];
      std::vector<TShape> tmp;
      x[i][k] = old + eps;
      std::vector<Buffer> hi = Forward(n, x, c.shapes, &tmp);
      x[i][k] = old - eps;
      std::vector<Buffer> lo = Forward(n, x, c.shapes, &tmp);
      x[i][k] = old;
      double num = 0;
      for (size_t o = 0; o < y.size(); ++o)
        for (size_t j = 0; j < y[o].size(); ++j) num += og[o][j] * (hi[o][j] - lo[o][j]);
      num /= 2 * eps;
      ASSERT_NEAR(grads[i][k], num, 1e-6 + 1e-5 * std::fabs(num))
          << "input " << i << " element " << k;
    }
  }
}

TEST(Gradient, DotAndBatchDot) {
  for (const char* ta : {"0", "1"})
    for (const char* tb : {"0", "1"}) {
      const bool a = ta[0] == '1', b = tb[0] == '1';
      CheckNumeric({"dot", {{"transpose_a", ta}, {"transpose_b", tb}},
                    {a ? TShape({4, 3}) : TShape({3, 4}), b ? TShape({5, 4}) : TShape({4, 5})},
                    {true, true}});
      CheckNumeric({"batch_dot", {{"transpose_a", ta}, {"transpose_b", tb}},
                    {a ? TShape({2, 4, 3}) : TShape({2, 3, 4}),
                     b ? TShape({2, 5, 4}) : TShape({2, 4, 5})},
                    {true, true}});
    }
  CheckNumeric({"dot", {}, {TShape({2, 3, 4}), TShape({4, 2})}, {true, true}});
  CheckNumeric({"dot", {}, {TShape({5}), TShape({5})}, {true, true}});
}

TEST(Gradient, FullyConnected) {
  CheckNumeric({"FullyConnected", {{"num_hidden", "3"}},
                {TShape({2, 2, 3}), TShape({3, 6}), TShape({3})}, {true, true, true}});
  CheckNumeric({"FullyConnected", {{"num_hidden", "4"}, {"no_bias", "True"}},
                {TShape({3, 5}), TShape({4, 5})}, {true, true}});
  CheckNumeric({"FullyConnected", {{"num_hidden", "2"}, {"flatten", "False"}},
                {TShape({2, 3, 4}), TShape({2, 4}), TShape({2})}, {true, true, true}});
}

TEST(Gradient, SoftmaxFamily) {
  for (const char* op : {"softmax", "log_softmax", "softmin"}) {
    CheckNumeric({op, {}, {TShape({3, 4})}, {true}});
    CheckNumeric({op, {{"axis", "1"}, {"temperature", "2.5"}}, {TShape({2, 3, 4})}, {true}});
    CheckNumeric({op, {{"axis", "0"}}, {TShape({3, 2})}, {true}});
  }
  CheckNumeric({"SoftmaxActivation", {}, {TShape({2, 3, 2})}, {true}});
  CheckNumeric({"SoftmaxActivation", {{"mode", "channel"}}, {TShape({2, 3, 2})}, {true}});
}

TEST(Gradient, SoftmaxCrossEntropyDataGradient) {
  SCOPED_TRACE("softmax_cross_entropy");
  nnvm::ObjectPtr n = MakeForward("softmax_cross_entropy", {}, 2);
  std::vector<TShape> shapes{TShape({3, 4}), TShape({3})};
  std::vector<Buffer> x{{0.1, -0.2, 0.3, 0.5, 1.0, 2.0, -1.0, 0.0, 0.3, 0.3, 0.3, -0.3},
                        {1, 3, 0}};
  std::vector<TShape> oshapes;
  std::vector<Buffer> y = Forward(n, x, shapes, &oshapes);
  std::vector<Buffer> og{{1.5}};
  std::vector<TShape> gshapes;
  std::vector<Buffer> g = EvalGradients(n, x, shapes, y, oshapes, og, &gshapes);
  const double eps = 1e-6;
  for (size_t k = 0; k < x[0].size(); ++k) {
    const double old = x[0][k];
    std::vector<TShape> tmp;
    x[0][k] = old + eps;
    const double hi = Forward(n, x, shapes, &tmp)[0][0];
    x[0][k] = old - eps;
    const double lo = Forward(n, x, shapes, &tmp)[0][0];
    x[0][k] = old;
    EXPECT_NEAR(g[0][k], 1.5 * (hi - lo) / (2 * eps), 1e-6);
  }
  for (double v : g[1]) EXPECT_EQ(v, 0.0);
}

TEST(Gradient, LossHeadsIgnoreHeadGradient) {
  // SoftmaxOutput: (p - onehot(label)) * grad_scale, whatever the head gradient.
  nnvm::ObjectPtr n = MakeForward("SoftmaxOutput", {{"grad_scale", "0.5"}}, 2);
  std::vector<TShape> shapes{TShape({2, 3}), TShape({2})};
  std::vector<Buffer> x{{1, 2, 3, 0, 0, 0}, {2, 0}};
  std::vector<TShape> oshapes;
  std::vector<Buffer> y = Forward(n, x, shapes, &oshapes);
  std::vector<Buffer> og{{100, 100, 100, 100, 100, 100}};
  std::vector<TShape> gshapes;
  std::vector<Buffer> g = EvalGradients(n, x, shapes, y, oshapes, og, &gshapes);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 3; ++k) {
      const double target = k == static_cast<int>(x[1][r]) ? 1.0 : 0.0;
      EXPECT_NEAR(g[0][r * 3 + k], (y[0][r * 3 + k] - target) * 0.5, 1e-12);
    }
  for (double v : g[1]) EXPECT_EQ(v, 0.0);
  // LinearRegressionOutput: (out - label) * grad_scale / num_output.
  nnvm::ObjectPtr lr = MakeForward("LinearRegressionOutput", {{"grad_scale", "2"}}, 2);
  std::vector<TShape> lshapes{TShape({2, 2}), TShape({2, 2})};
  std::vector<Buffer> lx{{1, 2, 3, 4}, {0, 0, 1, 1}};
  std::vector<Buffer> ly = Forward(lr, lx, lshapes, &oshapes);
  std::vector<Buffer> log_{{7, 7, 7, 7}};
  std::vector<Buffer> lg = EvalGradients(lr, lx, lshapes, ly, oshapes, log_, &gshapes);
  const double want[] = {1, 2, 2, 3};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(lg[0][i], want[i], 1e-12);
}

TEST(Gradient, NonDifferentiableOpsAreMarked) {
  static auto& fgrad = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient");
  static auto& nondiff = nnvm::Op::GetAttr<bool>("TNonDifferentiable");
  for (const char* op : {"_random_uniform", "_random_normal", "_random_randint", "_shuffle",
                         "_sample_normal", "sgd_update", "adam_update", "multi_sgd_mom_update",
                         "_contrib_allclose", "reset_arrays"}) {
    const nnvm::Op* o = nnvm::Op::Get(op);
    EXPECT_TRUE(nondiff.get(o, false) || fgrad.count(o)) << op;
  }
}

}  // namespace
