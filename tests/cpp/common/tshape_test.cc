// Tests of mxnet::Tuple / TShape, mshadow::Shape / Tensor, TBlob and the DLPack conversion.
#include <gtest/gtest.h>
#include <mxnet/tensor_blob.h>
#include <mxnet/tuple.h>

#include <sstream>
#include <string>
#include <vector>

using mxnet::TBlob;
using mxnet::TShape;
using mxnet::Tuple;

namespace {

TShape ParseShape(const std::string& s, bool* ok = nullptr) {
  std::istringstream is(s);
  TShape t;
  is >> t;
  if (ok != nullptr) *ok = !is.fail();
  return t;
}

std::string Str(const TShape& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

}  // namespace

TEST(TShape, DefaultIsUnknownAndHelpersSaySo) {
  TShape s;
  EXPECT_EQ(s.ndim(), -1);
  EXPECT_FALSE(mxnet::ndim_is_known(s));
  EXPECT_FALSE(mxnet::shape_is_known(s));
  EXPECT_EQ(Str(s), "None");
  EXPECT_THROW(s.Size(), dmlc::Error);

  TShape partial{2, -1};
  EXPECT_TRUE(mxnet::ndim_is_known(partial));
  EXPECT_FALSE(mxnet::dim_size_is_known(partial, 1));
  EXPECT_TRUE(mxnet::dim_size_is_known(partial, 0));
  EXPECT_FALSE(mxnet::shape_is_known(partial));
  EXPECT_THROW(partial.Size(), dmlc::Error);

  TShape scalar(0, 0);
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_TRUE(mxnet::shape_is_known(scalar));
  EXPECT_EQ(scalar.Size(), 1U);
  EXPECT_EQ(Str(scalar), "[]");
  EXPECT_TRUE(mxnet::shape_is_known(std::vector<TShape>{TShape{1}, scalar}));
  EXPECT_FALSE(mxnet::shape_is_known(std::vector<TShape>{TShape{1}, s}));
}

TEST(TShape, SizeIndexingAndProducts) {
  TShape s{2, 3, 4};
  EXPECT_EQ(s.ndim(), 3);
  EXPECT_EQ(s.Size(), 24U);
  EXPECT_EQ(s[1], 3);
  s[1] = 5;
  EXPECT_EQ(s.Size(), 40U);
  EXPECT_EQ(s.ProdShape(1, 3), 20);
  EXPECT_EQ(s.ProdShape(0, 0), 1);
  EXPECT_THROW(s[3], dmlc::Error);
  std::vector<int64_t> dims(s.begin(), s.end());
  EXPECT_EQ(dims, (std::vector<int64_t>{2, 5, 4}));
  EXPECT_EQ(Str(s), "[2,5,4]");
  // More dims than the inline cache: heap storage, copies stay independent.
  TShape big{1, 2, 3, 4, 5, 6};
  TShape copy = big;
  copy[5] = 7;
  EXPECT_EQ(big[5], 6);
  EXPECT_EQ(copy.Size(), 1U * 2 * 3 * 4 * 5 * 7);
  TShape moved = std::move(copy);
  EXPECT_EQ(moved[5], 7);
  // 64-bit dims.
  TShape large{1LL << 33, 4};
  EXPECT_EQ(large.Size(), (size_t{1} << 35));
}

TEST(TShape, EqualityAndHash) {
  EXPECT_EQ(TShape({2, 3}), TShape({2, 3}));
  EXPECT_NE(TShape({2, 3}), TShape({3, 2}));
  EXPECT_NE(TShape({2}), TShape({2, 1}));
  EXPECT_EQ(TShape(), TShape());
  EXPECT_NE(TShape(), TShape(0, 0));
  EXPECT_EQ(std::hash<TShape>()(TShape({2, 3})), std::hash<TShape>()(TShape({2, 3})));
  EXPECT_TRUE(TShape({2, 3}) == mshadow::Shape2(2, 3));
  EXPECT_FALSE(TShape({2, 3}) == mshadow::Shape3(2, 3, 1));
}

TEST(TShape, ParsesEveryPythonForm) {
  bool ok = false;
  EXPECT_EQ(ParseShape("(2, 3)", &ok), TShape({2, 3}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("[2,3]", &ok), TShape({2, 3}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("(2,)", &ok), TShape({2}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("()", &ok), TShape(0, 0));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("[]", &ok).ndim(), 0);
  EXPECT_EQ(ParseShape("5", &ok), TShape({5}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("None", &ok).ndim(), -1);
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("(2L, 3L)", &ok), TShape({2, 3}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("  ( 1 , -1 , 4 )", &ok), TShape({1, -1, 4}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(ParseShape("(1, 2, 3, 4, 5, 6)", &ok).Size(), 720U);
  for (const char* bad : {"(2, x)", "(2 3)", "abc", "(2,", "", "Nope"}) {
    ParseShape(bad, &ok);
    EXPECT_FALSE(ok) << bad;
  }
}

TEST(Tuple, ValuesPrintAndParse) {
  Tuple<int> t{1, 2, 3};
  EXPECT_EQ(t.ndim(), 3);
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), "[1,2,3]");
  EXPECT_EQ(Tuple<int>().ndim(), 0);
  Tuple<float> f;
  std::istringstream("(1.5, 2.25)") >> f;
  EXPECT_EQ(f, Tuple<float>({1.5f, 2.25f}));
  Tuple<dmlc::optional<int>> o;
  std::istringstream("(None, 2, -1)") >> o;
  ASSERT_EQ(o.ndim(), 3);
  EXPECT_FALSE(o[0].has_value());
  EXPECT_EQ(o[1].value(), 2);
  std::ostringstream os2;
  os2 << o;
  EXPECT_EQ(os2.str(), "[None,2,-1]");
  Tuple<int> filled(3, 7);
  EXPECT_EQ(filled, Tuple<int>({7, 7, 7}));
}

TEST(TShape, ConvertsToFixedRankShapes) {
  TShape s{2, 3, 4};
  mshadow::Shape<3> m = s.get<3>();
  EXPECT_EQ(m[0], 2);
  EXPECT_EQ(m[2], 4);
  EXPECT_THROW(s.get<2>(), dmlc::Error);
  EXPECT_EQ(s.FlatTo2D(), mshadow::Shape2(6, 4));
  EXPECT_EQ(s.FlatTo3D(1), mshadow::Shape3(2, 3, 4));
  EXPECT_EQ(s.FlatTo3D(0, 1), mshadow::Shape3(1, 6, 4));
  EXPECT_EQ(TShape(0, 0).FlatTo2D(), mshadow::Shape2(1, 1));
  TShape back(mshadow::Shape2(5, 6));
  EXPECT_EQ(back, TShape({5, 6}));
}

TEST(MshadowShape, SizesAndSlices) {
  mshadow::Shape<4> s = mshadow::Shape4(2, 3, 4, 5);
  EXPECT_EQ(s.Size(), 120);
  EXPECT_EQ(s.ProdShape(1, 3), 12);
  EXPECT_EQ(s.FlatTo2D(), mshadow::Shape2(24, 5));
  EXPECT_EQ(s.FlatTo1D(), mshadow::Shape1(120));
  EXPECT_EQ(s.SubShape(), mshadow::Shape3(3, 4, 5));
  mshadow::Shape<2> mid = s.Slice<1, 3>();
  EXPECT_EQ(mid, mshadow::Shape2(3, 4));
  std::ostringstream os;
  os << mshadow::Shape2(3, 4);
  EXPECT_EQ(os.str(), "(3,4)");
  EXPECT_EQ(mshadow::Shape5(1, 2, 3, 4, 5).Size(), 120);
}

TEST(MshadowTensor, IndexingSlicingAndStrides) {
  std::vector<float> data(24);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  mshadow::Tensor<mshadow::cpu, 3, float> t(data.data(), mshadow::Shape3(2, 3, 4));
  EXPECT_TRUE(t.CheckContiguous());
  EXPECT_EQ(t.MSize(), 24);
  EXPECT_EQ(t.size(1), 3);
  EXPECT_EQ(t[1][2][3], 23.f);
  mshadow::Tensor<mshadow::cpu, 2, float> m = t.FlatTo2D();
  EXPECT_EQ(m.shape_, mshadow::Shape2(6, 4));
  EXPECT_EQ(m[5][0], 20.f);
  mshadow::Tensor<mshadow::cpu, 3, float> sl = t.Slice(1, 2);
  EXPECT_EQ(sl.shape_[0], 1);
  EXPECT_EQ(sl[0][0][0], 12.f);
  mshadow::Tensor<mshadow::cpu, 1, float> flat = t.FlatTo1D();
  EXPECT_EQ(flat[23], 23.f);
  EXPECT_EQ(flat.Slice(20, 24)[1], 21.f);
  // Padded rows: a 2x3 view over rows of stride 4.
  mshadow::Tensor<mshadow::cpu, 2, float> padded(data.data(), mshadow::Shape2(2, 3), 4, nullptr);
  EXPECT_FALSE(padded.CheckContiguous());
  EXPECT_EQ(padded.MSize(), 8);
  EXPECT_EQ(padded[1][0], 4.f);
  padded[1][2] = -1.f;
  EXPECT_EQ(data[6], -1.f);
}

TEST(TBlob, TypedAccessChecksTheDtype) {
  std::vector<float> data(6, 1.f);
  TBlob b(data.data(), TShape({2, 3}), mshadow::cpu::kDevMask);
  EXPECT_EQ(b.type_flag_, mshadow::kFloat32);
  EXPECT_EQ(b.ndim(), 2);
  EXPECT_EQ(b.Size(), 6U);
  EXPECT_EQ(b.size(1), 3);
  EXPECT_EQ(b.dptr<float>(), data.data());
  try {
    b.dptr<double>();
    FAIL() << "dptr<double>() on float32 data did not throw";
  } catch (const mxnet::TypeError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("expected float32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got float64"), std::string::npos) << msg;
  }
  EXPECT_THROW((b.FlatTo2D<mshadow::cpu, int>()), mxnet::TypeError);
  EXPECT_THROW((b.get<mshadow::gpu, 2, float>()), mxnet::ValueError);
}

TEST(TBlob, TensorViewsAndReshape) {
  std::vector<double> data(24);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i);
  TBlob b(static_cast<void*>(data.data()), TShape({2, 3, 4}), mshadow::cpu::kDevMask,
          mshadow::kFloat64);
  auto t3 = b.get<mshadow::cpu, 3, double>();
  EXPECT_EQ(t3[1][1][1], 17.0);
  auto t2 = b.FlatTo2D<mshadow::cpu, double>();
  EXPECT_EQ(t2.shape_, mshadow::Shape2(6, 4));
  auto t1 = b.FlatTo1D<mshadow::cpu, double>();
  EXPECT_EQ(t1.shape_[0], 24);
  auto t3b = b.FlatTo3D<mshadow::cpu, double>(1);
  EXPECT_EQ(t3b.shape_, mshadow::Shape3(2, 3, 4));
  auto k4 = b.FlatToKD<mshadow::cpu, 4, double>();
  EXPECT_EQ(k4.shape_, mshadow::Shape4(1, 2, 3, 4));
  auto k2 = b.FlatToKD<mshadow::cpu, 2, double>();
  EXPECT_EQ(k2.shape_, mshadow::Shape2(6, 4));
  auto ws = b.get_with_shape<mshadow::cpu, 2, double>(mshadow::Shape2(4, 6));
  EXPECT_EQ(ws[3][5], 23.0);
  EXPECT_THROW((b.get_with_shape<mshadow::cpu, 2, double>(mshadow::Shape2(4, 5))),
               dmlc::Error);
  EXPECT_THROW((b.get<mshadow::cpu, 2, double>()), dmlc::Error);
  TBlob r = b.reshape(TShape({4, 6}));
  EXPECT_EQ(r.shape_, TShape({4, 6}));
  EXPECT_EQ(r.dptr_, b.dptr_);
  EXPECT_EQ(r.type_flag_, mshadow::kFloat64);
  EXPECT_THROW(b.reshape(TShape({5, 5})), mxnet::ValueError);
  TBlob scalar(static_cast<void*>(data.data()), TShape(0, 0), mshadow::cpu::kDevMask,
               mshadow::kFloat64);
  EXPECT_EQ((scalar.FlatTo2D<mshadow::cpu, double>().shape_), mshadow::Shape2(1, 1));
  mshadow::Tensor<mshadow::cpu, 2, double> tens(data.data(), mshadow::Shape2(3, 8));
  TBlob fromt(tens);
  EXPECT_EQ(fromt.shape_, TShape({3, 8}));
  EXPECT_EQ(fromt.type_flag_, mshadow::kFloat64);
}

TEST(TBlob, DLPackRoundTrip) {
  std::vector<int32_t> data(6, 3);
  TBlob b(data.data(), TShape({3, 2}), mshadow::cpu::kDevMask, 0);
  DLTensor t = b.dltensor();
  EXPECT_EQ(t.data, data.data());
  EXPECT_EQ(t.ndim, 2);
  EXPECT_EQ(t.shape[0], 3);
  EXPECT_EQ(t.shape[1], 2);
  EXPECT_EQ(t.device.device_type, kDLCPU);
  EXPECT_EQ(t.ctx.device_id, 0);  // v0.x spelling of the same field
  EXPECT_EQ(t.dtype.code, kDLInt);
  EXPECT_EQ(t.dtype.bits, 32);
  EXPECT_EQ(t.dtype.lanes, 1);
  EXPECT_EQ(t.strides, nullptr);
  TBlob back(t);
  EXPECT_EQ(back.shape_, b.shape_);
  EXPECT_EQ(back.type_flag_, mshadow::kInt32);
  EXPECT_EQ(back.dptr_, b.dptr_);
  for (int flag : {mshadow::kFloat32, mshadow::kFloat64, mshadow::kFloat16, mshadow::kUint8,
                   mshadow::kInt8, mshadow::kInt64, mshadow::kBool}) {
    int back_flag = TBlob::DLDataTypeTransform(TBlob::DTypeTransform(flag));
    EXPECT_EQ(back_flag, flag);
  }
  int64_t strides[2] = {1, 3};  // column-major: refused
  t.strides = strides;
  EXPECT_THROW(TBlob{t}, mxnet::ValueError);
  DLDataType vec{kDLFloat, 32, 4};
  EXPECT_THROW(TBlob::DLDataTypeTransform(vec), mxnet::TypeError);
}
