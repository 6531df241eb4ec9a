#include <gtest/gtest.h>
#include <mxnet/base.h>

#include <sstream>

using mxnet::Context;

TEST(Context, ParsesEveryDeviceForm) {
  EXPECT_EQ(Context::FromString("cpu(0)"), Context::CPU(0));
  EXPECT_EQ(Context::FromString("gpu(3)"), Context::GPU(3));
  EXPECT_EQ(Context::FromString("cpu_pinned(1)"), Context::CPUPinned(1));
  EXPECT_EQ(Context::FromString("cpu_shared(0)"), Context::CPUShared(0));
  std::ostringstream os;
  os << Context::GPU(2);
  EXPECT_EQ(os.str(), "gpu(2)");
}

TEST(Context, RejectsMalformedStrings) {
  for (const char* bad : {"", "cpu", "cpu()", "tpu(0)", "cpu(x)", "cpu(0)junk"}) {
    EXPECT_THROW(Context::FromString(bad), mxnet::ValueError) << bad;
  }
}

TEST(Logging, CheckThrowsWithTheMessage) {
  try {
    int a = 2;
    CHECK_EQ(a, 3) << "extra context";
    FAIL() << "CHECK_EQ did not throw";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("extra context"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("2 vs. 3"), std::string::npos);
  }
}

TEST(Half, RoundTripsEveryFiniteValue) {
  using mshadow::half::half_t;
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    float f = half_t::ToFloat(static_cast<uint16_t>(bits));
    if (f != f) continue;  // NaN payloads need not round-trip
    EXPECT_EQ(half_t::FromFloat(f), bits);
  }
  EXPECT_EQ(static_cast<float>(half_t(1.0f / 3)), half_t::ToFloat(0x3555));
}
