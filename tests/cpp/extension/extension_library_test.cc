// Extension libraries end to end from C++: a tiny library is compiled with the documented
// command line (c++ -shared -fPIC -std=c++17 src lib_api.cc -I include), loaded through the C
// API (MXLoadLib) and its operators invoked with MXImperativeInvoke; the stateful backward op
// is checked to run on the forward's state instance.
#include <gtest/gtest.h>
#include <mxnet/c_api.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>
#include <nnvm/op.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The project's source tree: $MXNET_SOURCE_DIR, else CMAKE_HOME_DIRECTORY of the build folder
// holding this test binary.
std::string SourceDir() {
  if (const char* env = std::getenv("MXNET_SOURCE_DIR")) return env;
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string dir(buf, n);
  while (!dir.empty()) {
    dir = dir.substr(0, dir.find_last_of('/'));
    std::ifstream cache(dir + "/CMakeCache.txt");
    std::string line;
    while (std::getline(cache, line)) {
      const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
      if (line.compare(0, key.size(), key) == 0) return line.substr(key.size());
    }
  }
  return "";
}

const char* kLibrarySource = R"(
#include "mxnet/lib_api.h"
#include <string>
using namespace mxnet::ext;
using Attrs = std::unordered_map<std::string, std::string>;

static float Factor(const Attrs& a) { return a.count("factor") ? std::stof(a.at("factor")) : 1; }
static MXReturnValue parse(const Attrs& a, int* i, int* o) {
  if (a.count("factor") && std::stof(a.at("factor")) == 0) {
    MX_ERROR_MSG << "factor must not be 0";
    return MX_FAIL;
  }
  *i = 1; *o = 1; return MX_SUCCESS;
}
static MXReturnValue type(const Attrs&, std::vector<int>* in, std::vector<int>* out) {
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue shape(const Attrs&, std::vector<std::vector<unsigned int>>* in,
                           std::vector<std::vector<unsigned int>>* out) {
  out->at(0) = in->at(0); return MX_SUCCESS;
}
static MXReturnValue scale(const Attrs& a, std::vector<MXTensor>* in, std::vector<MXTensor>* out,
                           const OpResource&) {
  for (int64_t i = 0; i < in->at(0).size(); ++i)
    out->at(0).data<float>()[i] = Factor(a) * in->at(0).data<float>()[i];
  return MX_SUCCESS;
}
REGISTER_OP(cpp_scale).setParseAttrs(parse).setInferType(type).setInferShape(shape)
    .setForward(scale, "cpu");

// Forward writes x + calls; backward writes the same instance's call count.
class Counter : public CustomStatefulOp {
 public:
  MXReturnValue Forward(std::vector<MXTensor>* in, std::vector<MXTensor>* out,
                        const OpResource&) {
    ++calls;
    for (int64_t i = 0; i < in->at(0).size(); ++i)
      out->at(0).data<float>()[i] = in->at(0).data<float>()[i] + calls;
    return MX_SUCCESS;
  }
  MXReturnValue Backward(std::vector<MXTensor>* in, std::vector<MXTensor>* out,
                         const OpResource&) {
    for (int64_t i = 0; i < out->at(0).size(); ++i) out->at(0).data<float>()[i] = calls;
    return MX_SUCCESS;
  }
  int calls = 0;
};
static MXReturnValue create(const Attrs&, const MXContext&,
                            const std::vector<std::vector<unsigned int>>&, const std::vector<int>,
                            CustomStatefulOp** inst) {
  *inst = CustomStatefulOp::create<Counter>();
  return MX_SUCCESS;
}
REGISTER_OP(cpp_counter).setParseAttrs(parse).setInferType(type).setInferShape(shape)
    .setCreateOpState(create, "cpu");

MXReturnValue initialize(int version) { return version >= 10900 ? MX_SUCCESS : MX_FAIL; }
)";

class ExtensionLibraryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string src_dir = SourceDir();
    ASSERT_FALSE(src_dir.empty()) << "cannot find the source tree (set MXNET_SOURCE_DIR)";
    char tmpl[] = "/tmp/mxnet_ext_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const std::string src = dir_ + "/tiny_lib.cc";
    std::ofstream(src) << kLibrarySource;
    lib_ = dir_ + "/libtiny.so";
    const std::string cmd = "c++ -shared -fPIC -std=c++17 " + src + " " + src_dir +
                            "/src/lib_api.cc -o " + lib_ + " -I " + src_dir + "/include";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    ASSERT_EQ(MXLoadLib(lib_.c_str(), 0), 0) << MXGetLastError();
  }
  static void TearDownTestSuite() {
    std::system(("rm -rf " + dir_).c_str());
  }

  static NDArrayHandle Array(const std::vector<float>& values) {
    const int64_t shape[1] = {static_cast<int64_t>(values.size())};
    NDArrayHandle h = nullptr;
    EXPECT_EQ(MXNDArrayCreateEx64(shape, 1, 1, 0, 0, 0, &h), 0) << MXGetLastError();
    EXPECT_EQ(MXNDArraySyncCopyFromCPU(h, values.data(), values.size()), 0);
    return h;
  }
  static std::vector<float> Values(NDArrayHandle h, size_t n) {
    std::vector<float> out(n);
    EXPECT_EQ(MXNDArraySyncCopyToCPU(h, out.data(), n), 0) << MXGetLastError();
    return out;
  }
  /*! \brief Invoke op on one input; returns the output handle or nullptr (error kept). */
  static NDArrayHandle Invoke(const char* op, NDArrayHandle in, const char* key = nullptr,
                              const char* val = nullptr) {
    OpHandle creator = nullptr;
    EXPECT_EQ(NNGetOpHandle(op, &creator), 0) << MXGetLastError();
    int num_out = 0;
    NDArrayHandle* outs = nullptr;
    const char* keys[1] = {key};
    const char* vals[1] = {val};
    if (MXImperativeInvoke(creator, 1, &in, &num_out, &outs, key ? 1 : 0, keys, vals) != 0) {
      return nullptr;
    }
    EXPECT_EQ(num_out, 1);
    return outs[0];
  }

  static std::string dir_, lib_;
};
std::string ExtensionLibraryTest::dir_;
std::string ExtensionLibraryTest::lib_;

TEST_F(ExtensionLibraryTest, InvokeStatelessOp) {
  NDArrayHandle x = Array({1, -2, 3});
  NDArrayHandle y = Invoke("cpp_scale", x, "factor", "2.5");
  ASSERT_NE(y, nullptr) << MXGetLastError();
  EXPECT_EQ(Values(y, 3), (std::vector<float>{2.5f, -5.f, 7.5f}));
  MXNDArrayFree(y);
  MXNDArrayFree(x);
}

TEST_F(ExtensionLibraryTest, ParseFailureCarriesLibraryMessage) {
  NDArrayHandle x = Array({1});
  EXPECT_EQ(Invoke("cpp_scale", x, "factor", "0"), nullptr);
  const std::string err = MXGetLastError();
  EXPECT_NE(err.find("Error calling ParseAttrs for custom operator 'cpp_scale'"), std::string::npos)
      << err;
  EXPECT_NE(err.find("factor must not be 0"), std::string::npos) << err;
  MXNDArrayFree(x);
}

TEST_F(ExtensionLibraryTest, LoadingAgainIsHarmlessAndErrorsAreReported) {
  EXPECT_EQ(MXLoadLib(lib_.c_str(), 1), 0) << MXGetLastError();
  EXPECT_EQ(MXLoadLib((dir_ + "/missing.so").c_str(), 0), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("does not exist"), std::string::npos);
  const std::string not_lib = dir_ + "/tiny_lib.cc";
  EXPECT_EQ(MXLoadLib(not_lib.c_str(), 0), -1);
  EXPECT_NE(std::string(MXGetLastError()).find("Error loading library"), std::string::npos);
}

TEST_F(ExtensionLibraryTest, StatefulBackwardUsesTheForwardState) {
  using mxnet::OpStatePtr;
  const nnvm::Op* fwd = nnvm::Op::Get("cpp_counter");
  const nnvm::Op* bwd = nnvm::Op::Get("_backward_cpp_counter");
  EXPECT_TRUE(nnvm::Op::GetAttr<mxnet::TIsLayerOpBackward>("TIsLayerOpBackward").get(bwd, false));
  EXPECT_TRUE(nnvm::Op::GetAttr<nnvm::TIsBackward>("TIsBackward").get(bwd, false));
  nnvm::NodeAttrs attrs;
  attrs.op = fwd;
  fwd->attr_parser(&attrs);
  EXPECT_EQ(fwd->get_num_inputs(attrs), 1u);
  nnvm::NodeAttrs battrs;
  battrs.op = bwd;
  bwd->attr_parser(&battrs);
  EXPECT_EQ(bwd->get_num_inputs(battrs), 3u);  // out-grad, forward input, forward output
  EXPECT_EQ(bwd->get_num_outputs(battrs), 1u);

  mxnet::Context cpu = mxnet::Context::CPU();
  OpStatePtr state = nnvm::Op::GetAttr<mxnet::FCreateOpState>("FCreateOpState")[fwd](
      attrs, cpu, {mxnet::TShape({2})}, {0});
  mxnet::OpContext ctx;
  ctx.requested = {
      mxnet::ResourceManager::Get()->Request(cpu, mxnet::ResourceRequest::kTempSpace),
      mxnet::ResourceManager::Get()->Request(cpu, mxnet::ResourceRequest::kRandom)};
  float x[2] = {10, 20}, y[2] = {0, 0}, dy[2] = {1, 1}, dx[2] = {0, 0};
  mxnet::TBlob bx(x, mxnet::TShape({2}), mxnet::cpu::kDevMask, 0);
  mxnet::TBlob by(y, mxnet::TShape({2}), mxnet::cpu::kDevMask, 0);
  mxnet::TBlob bdy(dy, mxnet::TShape({2}), mxnet::cpu::kDevMask, 0);
  mxnet::TBlob bdx(dx, mxnet::TShape({2}), mxnet::cpu::kDevMask, 0);
  auto forward = nnvm::Op::GetAttr<mxnet::FStatefulCompute>("FStatefulCompute<cpu>")[fwd];
  auto backward = nnvm::Op::GetAttr<mxnet::FStatefulCompute>("FStatefulCompute<cpu>")[bwd];
  forward(state, ctx, {bx}, {mxnet::kWriteTo}, {by});
  forward(state, ctx, {bx}, {mxnet::kWriteTo}, {by});
  EXPECT_EQ(y[0], 12);  // second call on the same instance
  backward(state, ctx, {bdy, bx, by}, {mxnet::kWriteTo}, {bdx});
  EXPECT_EQ(dx[0], 2);
  // kAddTo: the library overwrites a scratch buffer, MXNet adds it.
  backward(state, ctx, {bdy, bx, by}, {mxnet::kAddTo}, {bdx});
  EXPECT_EQ(dx[1], 4);
}

}  // namespace
