// Tests of src/io/recordio: round trips of records of every length mod 4, payloads holding the
// magic (continuation parts), the exact on-disk layout, seek/tell, and corrupt files.
#include <gtest/gtest.h>
#include <dmlc/logging.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "io/recordio.h"

namespace {

using mxnet::io::kRecordIOMagic;
using mxnet::io::RecordIOReader;
using mxnet::io::RecordIOWriter;

std::string TempPath(const std::string& name) {
  return std::string(::testing::TempDir()) + "/recordio_" + std::to_string(::getpid()) + "_" +
         name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string MagicBytes() {
  std::string m(4, '\0');
  std::memcpy(&m[0], &kRecordIOMagic, 4);
  return m;
}

TEST(RecordIO, RoundTripEveryLengthAndMagicPlacement) {
  std::mt19937 rng(42);
  std::vector<std::string> records;
  for (int len = 0; len < 40; ++len) {
    std::string r(len, '\0');
    for (char& c : r) c = static_cast<char>(rng() & 0xff);
    records.push_back(r);
  }
  const std::string m = MagicBytes();
  records.push_back(m);
  records.push_back(m + m + m);
  records.push_back("ab" + m + "cd");          // unaligned: stays inline
  records.push_back("abcd" + m + "ef" + m);    // aligned then unaligned
  records.push_back(std::string(8, 'x') + m + m + "z");
  const std::string path = TempPath("roundtrip.rec");
  std::vector<size_t> offsets;
  {
    RecordIOWriter w(path);
    for (const auto& r : records) {
      offsets.push_back(w.Tell());
      w.WriteRecord(r.data(), r.size());
    }
  }
  RecordIOReader reader(path);
  std::string got;
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(reader.Tell(), offsets[i]);
    ASSERT_TRUE(reader.NextRecord(&got)) << i;
    EXPECT_EQ(got, records[i]) << "record " << i;
  }
  EXPECT_FALSE(reader.NextRecord(&got));
  // Random access by offset.
  reader.Seek(offsets[41]);
  ASSERT_TRUE(reader.NextRecord(&got));
  EXPECT_EQ(got, records[41]);
  std::remove(path.c_str());
}

TEST(RecordIO, OnDiskLayout) {
  const std::string path = TempPath("layout.rec");
  const std::string m = MagicBytes();
  {
    RecordIOWriter w(path);
    w.WriteRecord("abcde", 5);
    const std::string split = "abcd" + m + "ef";
    w.WriteRecord(split.data(), split.size());
  }
  const std::string bytes = ReadFile(path);
  auto u32 = [&](size_t off) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + off, 4);
    return v;
  };
  // Record 1: header, 5 bytes, 3 zero padding bytes.
  ASSERT_EQ(bytes.size(), 16u + 8u + 4u + 8u + 4u);
  EXPECT_EQ(u32(0), kRecordIOMagic);
  EXPECT_EQ(u32(4), 5u);
  EXPECT_EQ(bytes.substr(8, 5), "abcde");
  EXPECT_EQ(bytes.substr(13, 3), std::string(3, '\0'));
  // Record 2: part cflag=1 "abcd", part cflag=3 "ef" + 2 padding bytes.
  EXPECT_EQ(u32(16), kRecordIOMagic);
  EXPECT_EQ(u32(20), (1u << 29) | 4u);
  EXPECT_EQ(bytes.substr(24, 4), "abcd");
  EXPECT_EQ(u32(28), kRecordIOMagic);
  EXPECT_EQ(u32(32), (3u << 29) | 2u);
  EXPECT_EQ(bytes.substr(36, 2), "ef");
  std::remove(path.c_str());
}

TEST(RecordIO, CorruptFilesRaise) {
  const std::string path = TempPath("corrupt.rec");
  {
    std::ofstream f(path, std::ios::binary);
    f << "definitely not a recordio file";
  }
  RecordIOReader bad(path);
  std::string got;
  try {
    bad.NextRecord(&got);
    FAIL() << "expected an error";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("magic"), std::string::npos) << e.what();
  }
  {
    RecordIOWriter w(path);
    w.WriteRecord("0123456789", 10);
  }
  const std::string full = ReadFile(path);
  for (size_t cut : {3u, 9u, 15u}) {
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << full.substr(0, cut);
    }
    RecordIOReader r(path);
    try {
      r.NextRecord(&got);
      FAIL() << "expected an error for a file cut at " << cut;
    } catch (const dmlc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(RecordIOReader(TempPath("missing.rec")), dmlc::Error);
  std::remove(path.c_str());
}

}  // namespace
