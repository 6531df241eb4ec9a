// The GPU samplers' Philox4x32-10, run on the host: the known-answer vectors published with the
// algorithm (Random123's kat_vectors), and the properties the samplers rely on.
#include <gtest/gtest.h>
#include <mxnet/random_generator.h>

#include <cmath>
#include <cstdint>
#include <vector>

using mxnet::common::random::Philox4x32;
using mxnet::common::random::PhiloxDraw;

TEST(Philox, MatchesPublishedKnownAnswers) {
  struct Kat {
    uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const Philox4x32 r =
        Philox4x32::Block(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3], k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(r.v[i], k.out[i]) << "word " << i;
  }
}

TEST(Philox, DrawsAreUniformAndNormalWithDistinctStreams) {
  const int n = 200000;
  double su = 0, su2 = 0, sn = 0, sn2 = 0;
  for (int i = 0; i < n; ++i) {
    const PhiloxDraw d(7u, 3u, i);
    const float u = d.uniform<float>();
    ASSERT_GE(u, 0.f);
    ASSERT_LT(u, 1.f);
    su += u;
    su2 += double(u) * u;
    const double z = d.normal<double>();
    ASSERT_TRUE(std::isfinite(z));
    sn += z;
    sn2 += z * z;
  }
  EXPECT_NEAR(su / n, 0.5, 0.005);
  EXPECT_NEAR(su2 / n - (su / n) * (su / n), 1.0 / 12, 0.002);
  EXPECT_NEAR(sn / n, 0.0, 0.01);
  EXPECT_NEAR(sn2 / n, 1.0, 0.02);
  // Another call, element or seed gives another block.
  EXPECT_NE(PhiloxDraw(7u, 3u, 5).word(0), PhiloxDraw(7u, 4u, 5).word(0));
  EXPECT_NE(PhiloxDraw(7u, 3u, 5).word(0), PhiloxDraw(7u, 3u, 6).word(0));
  EXPECT_NE(PhiloxDraw(7u, 3u, 5).word(0), PhiloxDraw(8u, 3u, 5).word(0));
  EXPECT_EQ(PhiloxDraw(7u, 3u, 5).word(2), PhiloxDraw(7u, 3u, 5).word(2));
}
