// Backward operators of the reduction / shape / indexing families against central finite
// differences of their forward operators (float64). The forward runs through Imperative; the
// backward op's FCompute<cpu> is called directly with the output shapes the gradient pass would
// take from the forward node (these ops are TIsBackward and have no FInferShape of their own).
#include <gtest/gtest.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <mxnet/resource.h>
#include <nnvm/op.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

using mxnet::Context;
using mxnet::Imperative;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

using KW = std::map<std::string, std::string>;

struct Arr {
  TShape shape;
  std::vector<double> v;
};

NDArray ToND(const Arr& a) {
  NDArray n(a.shape, Context::CPU(), false, mshadow::kFloat64);
  n.SyncCopyFromCPU(a.v.data(), a.v.size());
  return n;
}

Arr FromND(const NDArray& n) {
  Arr a{n.shape(), std::vector<double>(n.shape().Size())};
  if (n.dtype() == mshadow::kFloat64) {
    n.SyncCopyToCPU(a.v.data(), a.v.size());
  } else {  // indices of topk come back as float32
    std::vector<float> f(a.v.size());
    n.SyncCopyToCPU(f.data(), f.size());
    for (size_t i = 0; i < f.size(); ++i) a.v[i] = f[i];
  }
  return a;
}

std::shared_ptr<const nnvm::NodeAttrs> Attrs(const std::string& op, size_t nin, const KW& kw) {
  std::vector<const char*> keys, vals;
  for (const auto& p : kw) {
    keys.push_back(p.first.c_str());
    vals.push_back(p.second.c_str());
  }
  return Imperative::Get()->ParseAttrs(nnvm::Op::Get(op), static_cast<int>(nin),
                                       static_cast<int>(keys.size()), keys.data(), vals.data());
}

std::vector<Arr> Forward(const std::string& op, const std::vector<Arr>& in, const KW& kw) {
  auto attrs = Attrs(op, in.size(), kw);
  std::vector<NDArray> ins, outs(Imperative::NumOutputs(*attrs));
  for (const Arr& a : in) ins.push_back(ToND(a));
  std::vector<NDArray*> ip, op_;
  for (auto& a : ins) ip.push_back(&a);
  for (auto& a : outs) op_.push_back(&a);
  Imperative::Get()->Invoke(attrs, ip, op_);
  std::vector<Arr> ret;
  for (uint32_t i = 0; i < Imperative::NumVisibleOutputs(*attrs); ++i) ret.push_back(FromND(outs[i]));
  return ret;
}

std::vector<Arr> Backward(const std::string& op, const std::vector<Arr>& in,
                          const std::vector<TShape>& out_shapes, const KW& kw) {
  auto attrs = Attrs(op, in.size(), kw);
  std::vector<NDArray> ins, outs;
  std::vector<mxnet::TBlob> ib, ob;
  for (const Arr& a : in) ins.push_back(ToND(a));
  for (const TShape& s : out_shapes) outs.emplace_back(s, Context::CPU(), false, mshadow::kFloat64);
  for (auto& a : ins) ib.push_back(a.data());
  for (auto& a : outs) ob.push_back(a.data());
  std::vector<mxnet::OpReqType> req(outs.size(), mxnet::kWriteTo);
  mxnet::OpContext ctx;
  nnvm::Op::GetAttr<mxnet::FCompute>("FCompute<cpu>")[attrs->op](*attrs, ctx, ib, req, ob);
  std::vector<Arr> ret;
  for (auto& o : outs) ret.push_back(FromND(o));
  return ret;
}

Arr Random(const TShape& s, std::mt19937* rng) {
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  Arr a{s, std::vector<double>(s.Size())};
  for (double& x : a.v) x = ((*rng)() & 1 ? 1 : -1) * mag(*rng);
  return a;
}

/*!
 * \brief bconv lists the backward op's inputs: "g<i>" head gradient i, "i<i>" forward input i,
 *        "o<i>" forward output i. Checks the gradients of the inputs in `wrt`.
 */
void CheckGrad(const std::string& op, std::vector<Arr> in, const KW& kw, const std::string& bop,
               const std::vector<std::string>& bconv, const std::vector<int>& wrt = {0},
               const KW* bkw = nullptr, const std::vector<TShape>* out_shapes = nullptr) {
  SCOPED_TRACE(op + " -> " + bop);
  std::mt19937 rng(7);
  std::vector<Arr> outs = Forward(op, in, kw);
  std::vector<Arr> heads;
  for (const Arr& o : outs) heads.push_back(Random(o.shape, &rng));
  std::vector<Arr> bin;
  for (const std::string& c : bconv) {
    const size_t i = std::stoul(c.substr(1));
    bin.push_back(c[0] == 'g' ? heads.at(i) : c[0] == 'i' ? in.at(i) : outs.at(i));
  }
  std::vector<TShape> shapes;
  if (out_shapes) {
    shapes = *out_shapes;
  } else {
    for (const Arr& a : in) shapes.push_back(a.shape);
  }
  std::vector<Arr> got = Backward(bop, bin, shapes, bkw ? *bkw : kw);
  const double eps = 1e-6;
  for (int k : wrt) {
    for (size_t e = 0; e < in[k].v.size(); ++e) {
      std::vector<Arr> p = in, m = in;
      p[k].v[e] += eps;
      m[k].v[e] -= eps;
      std::vector<Arr> fp = Forward(op, p, kw), fm = Forward(op, m, kw);
      double num = 0;
      for (size_t o = 0; o < fp.size(); ++o) {
        for (size_t j = 0; j < fp[o].v.size(); ++j) {
          num += (fp[o].v[j] - fm[o].v[j]) * heads[o].v[j];
        }
      }
      num /= 2 * eps;
      ASSERT_NEAR(got.at(k).v[e], num, 1e-5 + 1e-4 * std::fabs(num))
          << "input " << k << " element " << e;
    }
  }
}

std::vector<Arr> R(std::initializer_list<TShape> shapes) {
  std::mt19937 rng(3);
  std::vector<Arr> ret;
  for (const TShape& s : shapes) ret.push_back(Random(s, &rng));
  return ret;
}

}  // namespace

TEST(MatrixBackward, Reductions) {
  for (const KW& kw : {KW{}, KW{{"axis", "1"}}, KW{{"axis", "(0, 2)"}, {"keepdims", "True"}},
                       KW{{"axis", "1"}, {"exclude", "True"}}}) {
    CheckGrad("sum", R({{2, 3, 4}}), kw, "_backward_sum", {"g0"});
    CheckGrad("mean", R({{2, 3, 4}}), kw, "_backward_mean", {"g0"});
    for (const char* op : {"prod", "max", "min", "nansum", "nanprod"}) {
      CheckGrad(op, R({{2, 3, 4}}), kw, std::string("_backward_") + op, {"g0", "i0", "o0"});
    }
  }
  for (const KW& kw : {KW{}, KW{{"ord", "1"}}, KW{{"axis", "1"}},
                       KW{{"ord", "1"}, {"axis", "(0, 2)"}, {"keepdims", "True"}}}) {
    CheckGrad("norm", R({{2, 3, 4}}), kw, "_backward_norm", {"g0", "i0", "o0"});
  }
}

TEST(MatrixBackward, Broadcasts) {
  const KW keep{{"keepdims", "True"}};
  CheckGrad("broadcast_to", R({{1, 3, 1}}), {{"shape", "(2, 3, 4)"}}, "_broadcast_backward",
            {"g0"}, {0}, &keep);
  CheckGrad("broadcast_axis", R({{1, 3, 1}}), {{"axis", "(0, 2)"}, {"size", "(2, 4)"}},
            "_broadcast_backward", {"g0"}, {0}, &keep);
  const std::vector<TShape> lhs{{1, 3}};
  CheckGrad("broadcast_like", R({{1, 3}, {2, 3}}), {}, "_broadcast_backward", {"g0"}, {0}, &keep,
            &lhs);
}

TEST(MatrixBackward, ShapeOps) {
  const KW none;
  CheckGrad("Reshape", R({{2, 3, 4}}), {{"shape", "(-3, -2)"}}, "_backward_reshape", {"g0"}, {0},
            &none);
  CheckGrad("squeeze", R({{1, 3, 1}}), {}, "_backward_squeeze", {"g0"});
  CheckGrad("tile", R({{2, 3}}), {{"reps", "(2, 1, 2)"}}, "_backward_tile", {"g0"});
  CheckGrad("repeat", R({{2, 3}}), {{"repeats", "2"}, {"axis", "1"}}, "_backward_repeat", {"g0"});
  CheckGrad("repeat", R({{2, 3}}), {{"repeats", "3"}}, "_backward_repeat", {"g0"});
  CheckGrad("diag", R({{3, 4}}), {{"k", "1"}}, "_backward_diag", {"g0"});
  CheckGrad("diag", R({{3}}), {{"k", "-1"}}, "_backward_diag", {"g0"});
  CheckGrad("diag", R({{2, 3, 4}}), {{"axis1", "2"}, {"axis2", "0"}}, "_backward_diag", {"g0"});
}

TEST(MatrixBackward, SlicesJoinsSplits) {
  CheckGrad("slice", R({{3, 4, 5}}),
            {{"begin", "(None, 0, 1)"}, {"end", "(None, 3, 5)"}, {"step", "(-1, 2, 2)"}},
            "_backward_slice", {"g0"});
  CheckGrad("slice_axis", R({{3, 4}}), {{"axis", "1"}, {"begin", "-3"}, {"end", "-1"}},
            "_backward_slice_axis", {"g0"});
  CheckGrad("slice_like", R({{3, 4}, {2, 3}}), {{"axes", "(1,)"}}, "_backward_slice_like",
            {"g0"});
  CheckGrad("Concat", R({{2, 3}, {2, 2}}), {{"num_args", "2"}, {"dim", "1"}}, "_backward_Concat",
            {"g0"}, {0, 1});
  CheckGrad("stack", R({{2, 3}, {2, 3}}), {{"num_args", "2"}, {"axis", "1"}}, "_backward_stack",
            {"g0"}, {0, 1});
  CheckGrad("SliceChannel", R({{2, 6}}), {{"num_outputs", "3"}}, "_backward_SliceChannel",
            {"g0", "g1", "g2"});
  CheckGrad("_split_v2", R({{5, 2}}), {{"indices", "(0, 2)"}, {"axis", "0"}},
            "_split_v2_backward", {"g0", "g1"});
}

TEST(MatrixBackward, Indexing) {
  std::vector<Arr> in = R({{3, 4}});
  in.push_back(Arr{TShape{3}, {0, 3, 1}});
  const std::vector<TShape> data_shape{{3, 4}};
  CheckGrad("pick", in, {{"axis", "1"}}, "_backward_pick", {"g0", "i1"}, {0}, nullptr,
            &data_shape);
  in[1] = Arr{TShape{3}, {-1, 5, 2}};
  CheckGrad("pick", in, {{"axis", "1"}, {"mode", "wrap"}}, "_backward_pick", {"g0", "i1"}, {0},
            nullptr, &data_shape);

  std::vector<Arr> take_in = R({{4, 3}});
  take_in.push_back(Arr{TShape{2, 2}, {0, 3, 3, 1}});  // a repeated row accumulates
  CheckGrad("take", take_in, {{"axis", "0"}}, "_backward_take", {"g0", "i1"});
  take_in[1] = Arr{TShape{3}, {4, -1, 0}};
  CheckGrad("take", take_in, {{"axis", "1"}, {"mode", "wrap"}}, "_backward_take", {"g0", "i1"});

  std::vector<Arr> emb{Arr{TShape{2, 2}, {0, 4, 4, 2}}};
  emb.push_back(R({{5, 3}})[0]);
  CheckGrad("Embedding", emb, {{"input_dim", "5"}, {"output_dim", "3"}}, "_backward_Embedding",
            {"g0", "i0"}, {1});

  std::vector<Arr> g = R({{3, 4}});
  g.push_back(Arr{TShape{2, 3}, {0, 2, 2, 1, -1, 3}});
  const KW none;
  CheckGrad("gather_nd", g, {}, "_backward_gather_nd", {"g0", "i1"}, {0}, &none, &data_shape);
}

TEST(MatrixBackward, TopK) {
  const std::vector<TShape> s{{3, 5}};
  CheckGrad("topk", R({{3, 5}}), {{"k", "2"}, {"ret_typ", "both"}}, "_backward_topk",
            {"g0", "o0", "o1"}, {0}, nullptr, &s);
  CheckGrad("topk", R({{3, 5}}), {{"k", "2"}, {"ret_typ", "both"}, {"axis", "0"}},
            "_backward_topk", {"g0", "o0", "o1"}, {0}, nullptr, &s);
  CheckGrad("topk", R({{3, 5}}), {{"k", "0"}, {"ret_typ", "both"}, {"axis", "None"}},
            "_backward_topk", {"g0", "o0", "o1"}, {0}, nullptr, &s);
}
