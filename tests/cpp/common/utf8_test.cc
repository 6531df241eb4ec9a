#include <gtest/gtest.h>

#include <string>

#include "common/utf8.h"

using mxnet::common::FindInvalidUtf8;

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_EQ(FindInvalidUtf8(""), std::string::npos);
  EXPECT_EQ(FindInvalidUtf8("plain ascii {\"op\": \"null\"}"), std::string::npos);
  // 2-, 3- and 4-byte forms: e-acute, the euro sign, U+10FFFF (the last code point).
  EXPECT_EQ(FindInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF4\x8F\xBF\xBF"), std::string::npos);
}

TEST(Utf8, FindsTheFirstBadByte) {
  EXPECT_EQ(FindInvalidUtf8("ab\xFF"), 2u);              // never valid
  EXPECT_EQ(FindInvalidUtf8("a\xC3"), 1u);               // truncated sequence
  EXPECT_EQ(FindInvalidUtf8("a\xC3(b"), 1u);             // bad continuation byte
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);            // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("x\xE0\x80\xAF"), 1u);       // overlong 3-byte form
  EXPECT_EQ(FindInvalidUtf8("\xED\xA0\x80"), 0u);        // a UTF-16 surrogate
  EXPECT_EQ(FindInvalidUtf8("ok\xF4\x90\x80\x80"), 2u);  // past U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("\x80"), 0u);                // a lone continuation byte
}
