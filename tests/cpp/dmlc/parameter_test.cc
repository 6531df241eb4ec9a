// Tests of dmlc::Parameter (parsing, errors, docs), dmlc::optional, dmlc::any, the JSON
// reader/writer and dmlc::Registry.
#include <gtest/gtest.h>
#include <dmlc/any.h>
#include <dmlc/json.h>
#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <dmlc/registry.h>

#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

typedef std::map<std::string, std::string> KW;

struct AllTypesParam : public dmlc::Parameter<AllTypesParam> {
  int i;
  int64_t l;
  uint32_t u;
  uint64_t ul;
  float f;
  double d;
  bool b;
  std::string s;
  mxnet::TShape shape;
  mxnet::Tuple<int> ti;
  mxnet::Tuple<int64_t> tl;
  mxnet::Tuple<float> tf;
  mxnet::Tuple<double> td;
  dmlc::optional<int> oi;
  dmlc::optional<float> of;
  dmlc::optional<double> od;
  dmlc::optional<bool> ob;
  dmlc::optional<mxnet::TShape> os;
  mxnet::Context ctx;
  DMLC_DECLARE_PARAMETER(AllTypesParam) {
    DMLC_DECLARE_FIELD(i).set_default(1).describe("an int");
    DMLC_DECLARE_FIELD(l).set_default(2).describe("a long");
    DMLC_DECLARE_FIELD(u).set_default(3);
    DMLC_DECLARE_FIELD(ul).set_default(4);
    DMLC_DECLARE_FIELD(f).set_default(0.9f);
    DMLC_DECLARE_FIELD(d).set_default(1e-3);
    DMLC_DECLARE_FIELD(b).set_default(false);
    DMLC_DECLARE_FIELD(s).set_default("");
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape(0, 0));
    DMLC_DECLARE_FIELD(ti).set_default(mxnet::Tuple<int>({1}));
    DMLC_DECLARE_FIELD(tl).set_default(mxnet::Tuple<int64_t>());
    DMLC_DECLARE_FIELD(tf).set_default(mxnet::Tuple<float>());
    DMLC_DECLARE_FIELD(td).set_default(mxnet::Tuple<double>());
    DMLC_DECLARE_FIELD(oi).set_default(dmlc::optional<int>());
    DMLC_DECLARE_FIELD(of).set_default(dmlc::optional<float>());
    DMLC_DECLARE_FIELD(od).set_default(dmlc::optional<double>());
    DMLC_DECLARE_FIELD(ob).set_default(dmlc::optional<bool>());
    DMLC_DECLARE_FIELD(os).set_default(dmlc::optional<mxnet::TShape>());
    DMLC_DECLARE_FIELD(ctx).set_default(mxnet::Context::CPU());
  }
};
DMLC_REGISTER_PARAMETER(AllTypesParam);

struct RequiredParam : public dmlc::Parameter<RequiredParam> {
  int num_hidden;
  float momentum;
  int act_type;
  dmlc::optional<int> dtype;
  float slope;
  int kernel_size;
  mxnet::TShape kernel;
  DMLC_DECLARE_PARAMETER(RequiredParam) {
    DMLC_DECLARE_FIELD(num_hidden).set_lower_bound(1).describe("Number of hidden units.");
    DMLC_DECLARE_FIELD(momentum).set_default(0.9f).set_range(0.f, 1.f).describe("Momentum.");
    DMLC_DECLARE_FIELD(act_type)
        .add_enum("relu", 0)
        .add_enum("sigmoid", 1)
        .add_enum("tanh", 2)
        .set_default(0)
        .describe("Activation function to be applied.");
    DMLC_DECLARE_FIELD(dtype)
        .add_enum("float32", 0)
        .add_enum("float16", 2)
        .set_default(dmlc::optional<int>())
        .describe("Output dtype.");
    DMLC_DECLARE_FIELD(slope).set_default(0.25f).set_upper_bound(1.f).describe("Slope.");
    DMLC_DECLARE_FIELD(kernel_size).set_default(3).set_lower_bound(1).describe("Kernel size.");
    DMLC_DECLARE_FIELD(kernel).set_default(mxnet::TShape(0, 0)).set_expect_ndim(2)
        .enforce_nonzero().describe("Kernel.");
    DMLC_DECLARE_ALIAS(num_hidden, nhidden);
  }
};
DMLC_REGISTER_PARAMETER(RequiredParam);

struct EnumRequiredParam : public dmlc::Parameter<EnumRequiredParam> {
  int act_type;
  DMLC_DECLARE_PARAMETER(EnumRequiredParam) {
    DMLC_DECLARE_FIELD(act_type).add_enum("tanh", 1).add_enum("relu", 0).describe("Act.");
  }
};
DMLC_REGISTER_PARAMETER(EnumRequiredParam);

std::string InitError(const KW& kw) {
  RequiredParam p;
  try {
    p.Init(kw);
  } catch (const dmlc::ParamError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string AllTypesError(const KW& kw) {
  AllTypesParam p;
  try {
    p.Init(kw);
  } catch (const dmlc::ParamError& e) {
    return e.what();
  }
  return "<no error>";
}

AllTypesParam Parse(const KW& kw) {
  AllTypesParam p;
  p.Init(kw);
  return p;
}

std::map<std::string, std::string> TypeInfo(const std::vector<dmlc::ParamFieldInfo>& fields) {
  std::map<std::string, std::string> ret;
  for (const auto& f : fields) ret[f.name] = f.type_info_str;
  return ret;
}

}  // namespace

TEST(Parameter, DefaultsApplyWhenNothingIsGiven) {
  AllTypesParam p = Parse({});
  EXPECT_EQ(p.i, 1);
  EXPECT_EQ(p.l, 2);
  EXPECT_EQ(p.u, 3U);
  EXPECT_FLOAT_EQ(p.f, 0.9f);
  EXPECT_FALSE(p.b);
  EXPECT_EQ(p.shape.ndim(), 0);
  EXPECT_FALSE(p.oi.has_value());
  EXPECT_EQ(p.ctx, mxnet::Context::CPU());
}

TEST(Parameter, ParsesIntegers) {
  EXPECT_EQ(Parse({{"i", "42"}}).i, 42);
  EXPECT_EQ(Parse({{"i", " -7 "}}).i, -7);
  EXPECT_EQ(Parse({{"i", "+5"}}).i, 5);
  EXPECT_EQ(Parse({{"l", "123456789012"}}).l, 123456789012LL);
  EXPECT_EQ(Parse({{"ul", "18446744073709551615"}}).ul, 18446744073709551615ULL);
  EXPECT_EQ(AllTypesError({{"i", "1.5"}}),
            "Invalid Parameter format for i expect int but value='1.5'");
  EXPECT_EQ(AllTypesError({{"i", "3abc"}}),
            "Invalid Parameter format for i expect int but value='3abc'");
  EXPECT_EQ(AllTypesError({{"i", ""}}), "Invalid Parameter format for i expect int but value=''");
  EXPECT_EQ(AllTypesError({{"u", "-1"}}),
            "Invalid Parameter format for u expect int (non-negative) but value='-1'");
  EXPECT_EQ(AllTypesError({{"l", "1e3"}}),
            "Invalid Parameter format for l expect long but value='1e3'");
  EXPECT_EQ(AllTypesError({{"i", "99999999999"}}), "Out of range value for i, value='99999999999'");
}

TEST(Parameter, ParsesFloats) {
  EXPECT_FLOAT_EQ(Parse({{"f", "1e-3"}}).f, 1e-3f);
  EXPECT_FLOAT_EQ(Parse({{"f", " 2.5 "}}).f, 2.5f);
  EXPECT_FLOAT_EQ(Parse({{"f", "3"}}).f, 3.f);
  EXPECT_DOUBLE_EQ(Parse({{"d", "-1.25E2"}}).d, -125.0);
  EXPECT_TRUE(std::isinf(Parse({{"f", "inf"}}).f));
  EXPECT_GT(Parse({{"f", "inf"}}).f, 0);
  EXPECT_LT(Parse({{"d", "-inf"}}).d, 0);
  EXPECT_TRUE(std::isinf(Parse({{"d", "-inf"}}).d));
  EXPECT_TRUE(std::isnan(Parse({{"f", "nan"}}).f));
  EXPECT_EQ(AllTypesError({{"f", "1.5x"}}),
            "Invalid Parameter format for f expect float but value='1.5x'");
  EXPECT_EQ(AllTypesError({{"d", "abc"}}),
            "Invalid Parameter format for d expect double but value='abc'");
  EXPECT_EQ(AllTypesError({{"f", "1e39"}}), "Out of range value for f, value='1e39'");
}

TEST(Parameter, ParsesBooleans) {
  for (const char* t : {"True", "true", "TRUE", "1", " True "}) EXPECT_TRUE(Parse({{"b", t}}).b) << t;
  for (const char* f : {"False", "false", "FaLsE", "0"}) EXPECT_FALSE(Parse({{"b", f}}).b) << f;
  EXPECT_EQ(AllTypesError({{"b", "yes"}}),
            "Invalid Parameter format for b expect boolean but value='yes'");
  EXPECT_EQ(AllTypesError({{"b", "2"}}),
            "Invalid Parameter format for b expect boolean but value='2'");
}

TEST(Parameter, ParsesStringsVerbatim) {
  EXPECT_EQ(Parse({{"s", " a b "}}).s, " a b ");
  EXPECT_EQ(Parse({{"s", ""}}).s, "");
}

TEST(Parameter, ParsesShapesAndTuples) {
  EXPECT_EQ(Parse({{"shape", "(2, 3)"}}).shape, mxnet::TShape({2, 3}));
  EXPECT_EQ(Parse({{"shape", "[2,3]"}}).shape, mxnet::TShape({2, 3}));
  EXPECT_EQ(Parse({{"shape", "(2,)"}}).shape, mxnet::TShape({2}));
  EXPECT_EQ(Parse({{"shape", "()"}}).shape, mxnet::TShape(0, 0));
  EXPECT_EQ(Parse({{"shape", "5"}}).shape, mxnet::TShape({5}));
  EXPECT_EQ(Parse({{"shape", "None"}}).shape.ndim(), -1);
  EXPECT_EQ(Parse({{"shape", "(2L, 3L)"}}).shape, mxnet::TShape({2, 3}));
  EXPECT_EQ(Parse({{"shape", " (4, 5) "}}).shape, mxnet::TShape({4, 5}));
  EXPECT_EQ(Parse({{"ti", "(1, -2)"}}).ti, mxnet::Tuple<int>({1, -2}));
  EXPECT_EQ(Parse({{"tl", "[10000000000]"}}).tl, mxnet::Tuple<int64_t>({10000000000LL}));
  EXPECT_EQ(Parse({{"tf", "(0.5, 1.5)"}}).tf, mxnet::Tuple<float>({0.5f, 1.5f}));
  EXPECT_EQ(Parse({{"td", "[0.25]"}}).td, mxnet::Tuple<double>({0.25}));
  EXPECT_EQ(AllTypesError({{"shape", "(2, 3"}}),
            "Invalid Parameter format for shape expect Shape(tuple) but value='(2, 3'");
  EXPECT_EQ(AllTypesError({{"shape", "(2.5, 3)"}}),
            "Invalid Parameter format for shape expect Shape(tuple) but value='(2.5, 3)'");
  EXPECT_EQ(AllTypesError({{"shape", "(2, 3) x"}}),
            "Invalid Parameter format for shape expect Shape(tuple) but value='(2, 3) x'");
  EXPECT_EQ(AllTypesError({{"tf", "(a)"}}),
            "Invalid Parameter format for tf expect tuple of <float> but value='(a)'");
}

TEST(Parameter, ParsesOptionals) {
  AllTypesParam p = Parse({{"oi", "3"}, {"of", "0.5"}, {"od", "None"}, {"ob", "True"},
                           {"os", "(1, 2)"}});
  EXPECT_EQ(p.oi.value(), 3);
  EXPECT_FLOAT_EQ(p.of.value(), 0.5f);
  EXPECT_FALSE(p.od.has_value());
  EXPECT_TRUE(p.ob.value());
  EXPECT_EQ(p.os.value(), mxnet::TShape({1, 2}));
  AllTypesParam q = Parse({{"oi", "None"}, {"ob", "0"}, {"os", " None "}});
  EXPECT_FALSE(q.oi.has_value());
  EXPECT_FALSE(q.ob.value());
  EXPECT_FALSE(q.os.has_value());
  EXPECT_EQ(AllTypesError({{"oi", "none"}}),
            "Invalid Parameter format for oi expect int or None but value='none'");
  EXPECT_EQ(AllTypesError({{"of", "x"}}),
            "Invalid Parameter format for of expect float or None but value='x'");
}

TEST(Parameter, ParsesContexts) {
  EXPECT_EQ(Parse({{"ctx", "gpu(1)"}}).ctx, mxnet::Context::GPU(1));
  EXPECT_EQ(Parse({{"ctx", "cpu(0)"}}).ctx, mxnet::Context::CPU(0));
  EXPECT_EQ(AllTypesError({{"ctx", "tpu(0)"}}),
            "Invalid Parameter format for ctx expect Context but value='tpu(0)'");
}

TEST(Parameter, EnumsParseByKeyAndPrintByKey) {
  RequiredParam p;
  p.Init(KW{{"num_hidden", "3"}, {"act_type", "tanh"}, {"dtype", "float16"}});
  EXPECT_EQ(p.act_type, 2);
  EXPECT_EQ(p.dtype.value(), 2);
  auto dict = p.__DICT__();
  EXPECT_EQ(dict["act_type"], "tanh");
  EXPECT_EQ(dict["dtype"], "float16");
  p.Init(KW{{"num_hidden", "3"}, {"dtype", "None"}});
  EXPECT_FALSE(p.dtype.has_value());
  EXPECT_EQ(p.__DICT__()["dtype"], "None");
  EXPECT_EQ(InitError({{"num_hidden", "3"}, {"act_type", "foo"}}),
            "Invalid Input: 'foo', valid values are: {'relu', 'sigmoid', 'tanh'}");
  EXPECT_EQ(InitError({{"num_hidden", "3"}, {"dtype", "int8"}}),
            "Invalid Input: 'int8', valid values are: {None, 'float16', 'float32'}");
}

TEST(Parameter, RangeErrorsNameTheBoundAndDescription) {
  EXPECT_EQ(InitError({{"num_hidden", "3"}, {"momentum", "1.5"}}),
            "value 1.5 for Parameter momentum exceed bound [0,1]\nmomentum: Momentum.");
  EXPECT_EQ(InitError({{"num_hidden", "0"}}),
            "value 0 for Parameter num_hidden should be greater equal to 1\n"
            "num_hidden: Number of hidden units.");
  EXPECT_EQ(InitError({{"num_hidden", "2"}, {"slope", "2"}}),
            "value 2 for Parameter slope should be smaller equal to 1\nslope: Slope.");
  EXPECT_EQ(InitError({{"num_hidden", "2"}, {"kernel", "(1, 2, 3)"}}),
            "value [1,2,3] for Parameter kernel has wrong dimensions, expected dimension=2");
  EXPECT_EQ(InitError({{"num_hidden", "2"}, {"kernel", "(1, 0)"}}),
            "value [1,0] for Parameter kernel is invalid, the input shape must be nonzero in all "
            "dimensions");
}

TEST(Parameter, MissingRequiredField) {
  EXPECT_EQ(InitError({}), "Required parameter num_hidden of int is not presented");
  EnumRequiredParam e;
  EXPECT_THROW(e.Init(KW{}), dmlc::ParamError);
}

TEST(Parameter, UnknownKeysFollowTheInitOption) {
  std::string err = InitError({{"num_hidden", "3"}, {"bogus", "1"}});
  EXPECT_EQ(err.rfind("Cannot find argument 'bogus', Possible Arguments:\n----------------\n"
                      "num_hidden : int, required\n    Number of hidden units.\n",
                      0),
            0U)
      << err;
  EXPECT_NE(err.find("momentum : float, optional, default=0.899999976\n    Momentum.\n"),
            std::string::npos);
  // Hidden keys __xxx__ are ignored by default, rejected by kAllMatch.
  RequiredParam p;
  EXPECT_NO_THROW(p.Init(KW{{"num_hidden", "3"}, {"__lr_mult__", "2"}}));
  EXPECT_THROW(p.Init(KW{{"num_hidden", "3"}, {"__lr_mult__", "2"}}, dmlc::parameter::kAllMatch),
               dmlc::ParamError);
  EXPECT_THROW(p.Init(KW{{"num_hidden", "3"}, {"____", "2"}}), dmlc::ParamError);
  EXPECT_NO_THROW(
      p.Init(KW{{"num_hidden", "3"}, {"bogus", "2"}}, dmlc::parameter::kAllowUnknown));
  auto unknown = p.InitAllowUnknown(KW{{"num_hidden", "4"}, {"x", "1"}, {"y", "2"}});
  EXPECT_EQ(p.num_hidden, 4);
  ASSERT_EQ(unknown.size(), 2U);
  EXPECT_EQ(unknown[0].first, "x");
  EXPECT_EQ(unknown[1].second, "2");
}

TEST(Parameter, AliasesAndContainers) {
  RequiredParam p;
  p.Init(std::unordered_map<std::string, std::string>{{"nhidden", "7"}});
  EXPECT_EQ(p.num_hidden, 7);
  p.Init(std::vector<std::pair<std::string, std::string>>{{"num_hidden", "8"}});
  EXPECT_EQ(p.num_hidden, 8);
}

TEST(Parameter, UpdateKeepsOtherFieldsAndReportsChange) {
  RequiredParam p;
  p.Init(KW{{"num_hidden", "3"}, {"act_type", "sigmoid"}});
  bool changed = true;
  auto unknown = p.UpdateAllowUnknown(KW{{"num_hidden", "3"}, {"z", "1"}}, &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(unknown.size(), 1U);
  p.UpdateAllowUnknown(KW{{"num_hidden", "5"}}, &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(p.num_hidden, 5);
  EXPECT_EQ(p.act_type, 1);  // untouched
  std::unordered_map<std::string, std::string> dict{{"other", "x"}};
  p.UpdateDict(&dict);
  EXPECT_EQ(dict["num_hidden"], "5");
  EXPECT_EQ(dict["act_type"], "sigmoid");
  EXPECT_EQ(dict["other"], "x");
}

TEST(Parameter, DictPrintsValuesLikeMXNet) {
  AllTypesParam p = Parse({{"f", "0.1"}, {"b", "True"}, {"shape", "(2,3)"}, {"ob", "False"},
                           {"s", "hi"}, {"ctx", "gpu(2)"}, {"i", "-3"}});
  auto d = p.__DICT__();
  EXPECT_EQ(d["f"], "0.100000001");
  EXPECT_EQ(d["d"], "0.001");
  EXPECT_EQ(d["b"], "1");
  EXPECT_EQ(d["shape"], "[2,3]");
  EXPECT_EQ(d["ob"], "0");
  EXPECT_EQ(d["oi"], "None");
  EXPECT_EQ(d["os"], "None");
  EXPECT_EQ(d["s"], "hi");
  EXPECT_EQ(d["ctx"], "gpu(2)");
  EXPECT_EQ(d["i"], "-3");
  // Re-parsing the printed values gives the same struct.
  AllTypesParam q;
  q.Init(d);
  EXPECT_EQ(q.__DICT__(), d);
}

TEST(Parameter, FieldDocStringsUseMXNetFormat) {
  auto info = TypeInfo(AllTypesParam::__FIELDS__());
  EXPECT_EQ(info["i"], "int, optional, default='1'");
  EXPECT_EQ(info["l"], "long, optional, default=2");
  EXPECT_EQ(info["u"], "int (non-negative), optional, default=3");
  EXPECT_EQ(info["ul"], "long (non-negative), optional, default=4");
  EXPECT_EQ(info["f"], "float, optional, default=0.899999976");
  EXPECT_EQ(info["d"], "double, optional, default=0.001");
  EXPECT_EQ(info["b"], "boolean, optional, default=0");
  EXPECT_EQ(info["s"], "string, optional, default=''");
  EXPECT_EQ(info["shape"], "Shape(tuple), optional, default=[]");
  EXPECT_EQ(info["ti"], "Shape(tuple), optional, default=[1]");
  EXPECT_EQ(info["tl"], "tuple of <long>, optional, default=[]");
  EXPECT_EQ(info["tf"], "tuple of <float>, optional, default=[]");
  EXPECT_EQ(info["td"], "tuple of <double>, optional, default=[]");
  EXPECT_EQ(info["oi"], "int or None, optional, default='None'");
  EXPECT_EQ(info["of"], "float or None, optional, default=None");
  EXPECT_EQ(info["od"], "double or None, optional, default=None");
  EXPECT_EQ(info["ob"], "boolean or None, optional, default=None");
  EXPECT_EQ(info["os"], "Shape or None, optional, default=None");
  EXPECT_EQ(info["ctx"], "Context, optional, default=cpu(0)");

  auto req = RequiredParam::__FIELDS__();
  ASSERT_EQ(req.size(), 7U);  // aliases are not listed
  EXPECT_EQ(req[0].name, "num_hidden");
  EXPECT_EQ(req[0].type, "int");
  EXPECT_EQ(req[0].type_info_str, "int, required");
  EXPECT_EQ(req[0].description, "Number of hidden units.");
  EXPECT_EQ(req[2].type_info_str, "{'relu', 'sigmoid', 'tanh'},optional, default='relu'");
  EXPECT_EQ(req[3].type_info_str,
            "{None, 'float16', 'float32'},optional, default='None'");
  EXPECT_EQ(req[5].type_info_str, "int, optional, default='3'");
  EXPECT_EQ(EnumRequiredParam::__FIELDS__()[0].type_info_str, "{'relu', 'tanh'}, required");

  EXPECT_EQ(EnumRequiredParam::__DOC__(), "act_type : {'relu', 'tanh'}, required\n    Act.\n");
}

TEST(Parameter, UnknownShapeDefaultPrintsNone) {
  std::ostringstream os;
  os << mxnet::TShape();
  EXPECT_EQ(os.str(), "None");
  dmlc::parameter::FieldEntry<mxnet::TShape> e;
  mxnet::TShape shape;
  e.Init("shape", &shape, shape);
  e.set_default(mxnet::TShape());
  EXPECT_EQ(e.GetFieldInfo().type_info_str, "Shape(tuple), optional, default=None");
}

TEST(Parameter, SaveLoadThroughJSON) {
  RequiredParam p;
  p.Init(KW{{"num_hidden", "9"}, {"act_type", "tanh"}});
  std::ostringstream os;
  dmlc::JSONWriter w(&os);
  p.Save(&w);
  std::istringstream is(os.str());
  dmlc::JSONReader r(&is);
  RequiredParam q;
  q.Load(&r);
  EXPECT_EQ(q.num_hidden, 9);
  EXPECT_EQ(q.act_type, 2);
}

TEST(Parameter, GetEnvParsesLikeAField) {
  setenv("MXNET_TEST_PARAM_INT", "12", 1);
  setenv("MXNET_TEST_PARAM_BOOL", "True", 1);
  EXPECT_EQ(dmlc::GetEnv("MXNET_TEST_PARAM_INT", 3), 12);
  EXPECT_TRUE(dmlc::GetEnv("MXNET_TEST_PARAM_BOOL", false));
  EXPECT_EQ(dmlc::GetEnv("MXNET_TEST_PARAM_UNSET_XYZ", 5), 5);
  EXPECT_EQ(dmlc::GetEnv("MXNET_TEST_PARAM_UNSET_XYZ", std::string("d")), "d");
  setenv("MXNET_TEST_PARAM_INT", "x", 1);
  EXPECT_THROW(dmlc::GetEnv("MXNET_TEST_PARAM_INT", 3), dmlc::ParamError);
  dmlc::SetEnv("MXNET_TEST_PARAM_INT", 77);
  EXPECT_EQ(dmlc::GetEnv("MXNET_TEST_PARAM_INT", 3), 77);
}

TEST(Optional, ValueNoneAndStreams) {
  dmlc::optional<int> a;
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(static_cast<bool>(a));
  EXPECT_THROW(a.value(), mxnet::ValueError);
  a = 4;
  EXPECT_EQ(*a, 4);
  EXPECT_EQ(a, dmlc::optional<int>(4));
  EXPECT_NE(a, dmlc::optional<int>());
  a = dmlc::nullopt;
  std::ostringstream os;
  os << a << ' ' << dmlc::optional<float>(1.5f);
  EXPECT_EQ(os.str(), "None 1.5");
  dmlc::optional<int> b;
  std::istringstream("7L") >> b;
  EXPECT_EQ(b.value(), 7);
  std::istringstream(" None") >> b;
  EXPECT_FALSE(b.has_value());
}

TEST(Any, CheckedGet) {
  dmlc::any a = std::string("x");
  EXPECT_EQ(dmlc::get<std::string>(a), "x");
  dmlc::get<std::string>(a) = "y";
  EXPECT_EQ(dmlc::get<std::string>(a), "y");
  EXPECT_THROW(dmlc::get<int>(a), mxnet::TypeError);
  const dmlc::any empty;
  EXPECT_THROW(dmlc::get<int>(empty), mxnet::TypeError);
}

TEST(JSON, WritesMXNetLayoutAndReadsItBack) {
  std::ostringstream os;
  dmlc::JSONWriter w(&os);
  w.BeginObject();
  w.WriteObjectKeyValue("name", std::string("a\"b\\c\nd\te\x01"));
  w.WriteObjectKeyValue("ints", std::vector<int>{1, 2, 3});
  w.WriteObjectKeyValue("attrs", std::map<std::string, std::string>{{"k", "v"}});
  w.WriteObjectKeyValue("x", 1.5);
  w.WriteObjectKeyValue("flag", true);
  w.WriteObjectKeyValue("pair", std::make_pair(std::string("p"), 2));
  w.EndObject();
  const std::string text = os.str();
  EXPECT_EQ(text,
            "{\n  \"name\": \"a\\\"b\\\\c\\nd\\te\\u0001\", \n  \"ints\": [1, 2, 3], \n"
            "  \"attrs\": {\"k\": \"v\"}, \n  \"x\": 1.5, \n  \"flag\": true, \n"
            "  \"pair\": [\"p\", 2]\n}");

  std::istringstream is(text);
  dmlc::JSONReader r(&is);
  std::string name;
  std::vector<int> ints;
  std::map<std::string, std::string> attrs;
  double x = 0;
  bool flag = false;
  std::pair<std::string, int> pair;
  dmlc::JSONObjectReadHelper helper;
  helper.DeclareField("name", &name);
  helper.DeclareField("ints", &ints);
  helper.DeclareOptionalField("attrs", &attrs);
  helper.DeclareField("x", &x);
  helper.DeclareField("flag", &flag);
  helper.DeclareField("pair", &pair);
  helper.ReadAllFields(&r);
  EXPECT_EQ(name, "a\"b\\c\nd\te\x01");
  EXPECT_EQ(ints, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(attrs["k"], "v");
  EXPECT_DOUBLE_EQ(x, 1.5);
  EXPECT_TRUE(flag);
  EXPECT_EQ(pair.second, 2);
}

TEST(JSON, ReaderHandlesUnicodeNestingAndErrors) {
  std::istringstream is("[\"\\u00e9\\ud83d\\ude00\", [[1], []], {}, -2e3]");
  dmlc::JSONReader r(&is);
  r.BeginArray();
  ASSERT_TRUE(r.NextArrayItem());
  std::string s;
  r.Read(&s);
  EXPECT_EQ(s, "\xc3\xa9\xf0\x9f\x98\x80");
  ASSERT_TRUE(r.NextArrayItem());
  std::vector<std::vector<int>> nested;
  r.Read(&nested);
  ASSERT_EQ(nested.size(), 2U);
  EXPECT_EQ(nested[0], std::vector<int>{1});
  EXPECT_TRUE(nested[1].empty());
  ASSERT_TRUE(r.NextArrayItem());
  r.SkipValue();
  ASSERT_TRUE(r.NextArrayItem());
  double d;
  r.Read(&d);
  EXPECT_DOUBLE_EQ(d, -2000.0);
  EXPECT_FALSE(r.NextArrayItem());

  std::istringstream bad("{\"a\" 1}");
  dmlc::JSONReader rb(&bad);
  std::map<std::string, int> m;
  EXPECT_THROW(rb.Read(&m), dmlc::Error);
  std::istringstream unknown("{\"zzz\": 1}");
  dmlc::JSONReader ru(&unknown);
  dmlc::JSONObjectReadHelper h;
  int v;
  h.DeclareField("a", &v);
  EXPECT_THROW(h.ReadAllFields(&ru), dmlc::Error);
}

namespace {
struct TestFunctionReg
    : public dmlc::FunctionRegEntryBase<TestFunctionReg, std::function<int(int)>> {};
}  // namespace
DMLC_REGISTRY_ENABLE(TestFunctionReg);
DMLC_REGISTRY_REGISTER(TestFunctionReg, TestFunctionReg, twice)
    .describe("Doubles.")
    .add_argument("x", "int", "input")
    .set_body([](int x) { return 2 * x; });

TEST(Registry, RegisterFindListAndAlias) {
  using Reg = dmlc::Registry<TestFunctionReg>;
  const TestFunctionReg* e = Reg::Find("twice");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name, "twice");
  EXPECT_EQ(e->description, "Doubles.");
  EXPECT_EQ(e->body(21), 42);
  ASSERT_EQ(e->arguments.size(), 1U);
  EXPECT_EQ(e->arguments[0].type_info_str, "int");
  EXPECT_EQ(Reg::Find("nope"), nullptr);
  Reg::Get()->__REGISTER__("thrice").set_body([](int x) { return 3 * x; });
  EXPECT_THROW(Reg::Get()->__REGISTER__("thrice"), dmlc::Error);
  EXPECT_EQ(&Reg::Get()->__REGISTER_OR_GET__("thrice"), Reg::Find("thrice"));
  Reg::Get()->AddAlias("thrice", "triple");
  EXPECT_EQ(Reg::Find("triple"), Reg::Find("thrice"));
  EXPECT_THROW(Reg::Get()->AddAlias("twice", "triple"), dmlc::Error);
  EXPECT_EQ(Reg::List().size(), 2U);
  EXPECT_EQ(Reg::ListAllNames(), (std::vector<std::string>{"thrice", "triple", "twice"}));
}
