// Tests of the C++ data iterators through the registry: CSV batches and padding, reset in the
// middle of an epoch, destroying an iterator while its producer thread is busy, errors.
#include <gtest/gtest.h>
#include <dmlc/logging.h>
#include <mxnet/io.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using mxnet::DataBatch;
using mxnet::DataIteratorReg;
using mxnet::IIterator;
using Kwargs = std::vector<std::pair<std::string, std::string>>;

std::string WriteCSV(const std::string& name, int rows, int cols) {
  std::string path = std::string(::testing::TempDir()) + "/iter_" + std::to_string(::getpid()) +
                     "_" + name;
  std::ofstream f(path);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) f << (c ? "," : "") << r * 100 + c;
    f << "\n";
  }
  return path;
}

std::vector<float> Column0(const DataBatch& b) {
  const auto& data = b.data[0];
  std::vector<float> all(data.Size());
  data.SyncCopyToCPU(all.data(), all.size());
  std::vector<float> col;
  const size_t row = data.Size() / data.shape()[0];
  for (int64_t i = 0; i < data.shape()[0]; ++i) col.push_back(all[i * row]);
  return col;
}

TEST(DataIter, RegistryListsMXNetNames) {
  EXPECT_NE(dmlc::Registry<DataIteratorReg>::Find("MNISTIter"), nullptr);
  EXPECT_NE(dmlc::Registry<DataIteratorReg>::Find("CSVIter"), nullptr);
  EXPECT_THROW(DataIteratorReg::Create("NoSuchIter", {}), dmlc::Error);
}

TEST(DataIter, CSVEpochsAndPadding) {
  const std::string path = WriteCSV("a.csv", 7, 3);
  std::unique_ptr<IIterator<DataBatch>> it(DataIteratorReg::Create(
      "CSVIter", Kwargs{{"data_csv", path}, {"data_shape", "(3,)"}, {"batch_size", "3"},
                        {"round_batch", "0"}, {"prefetch_buffer", "1"}}));
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::vector<std::vector<float>> cols;
    std::vector<int> pads;
    while (it->Next()) {
      cols.push_back(Column0(it->Value()));
      pads.push_back(it->Value().num_batch_padd);
    }
    ASSERT_EQ(cols.size(), 3u);
    EXPECT_EQ(cols[0], (std::vector<float>{0, 100, 200}));
    EXPECT_EQ(cols[2][0], 600);
    EXPECT_EQ(pads, (std::vector<int>{0, 0, 2}));
    it->BeforeFirst();
  }
  // Reset in the middle of an epoch starts over.
  ASSERT_TRUE(it->Next());
  ASSERT_TRUE(it->Next());
  it->BeforeFirst();
  ASSERT_TRUE(it->Next());
  EXPECT_EQ(Column0(it->Value())[0], 0);
  std::remove(path.c_str());
}

TEST(DataIter, DestroyWhileProducing) {
  const std::string path = WriteCSV("b.csv", 200, 2);
  for (int i = 0; i < 20; ++i) {
    std::unique_ptr<IIterator<DataBatch>> it(DataIteratorReg::Create(
        "CSVIter", Kwargs{{"data_csv", path}, {"data_shape", "(2,)"}, {"batch_size", "1"},
                          {"prefetch_buffer", "2"}}));
    if (i % 2) {
      ASSERT_TRUE(it->Next());
    }
  }  // each destructor must join the producer without hanging
  std::remove(path.c_str());
}

TEST(DataIter, ErrorsAtCreation) {
  EXPECT_THROW(DataIteratorReg::Create("CSVIter", Kwargs{{"data_csv", "/nonexistent/x.csv"},
                                                         {"data_shape", "(2,)"},
                                                         {"batch_size", "1"}}),
               dmlc::Error);
  const std::string path = WriteCSV("c.csv", 3, 2);
  EXPECT_THROW(DataIteratorReg::Create("CSVIter", Kwargs{{"data_csv", path},
                                                         {"data_shape", "(3,)"},
                                                         {"batch_size", "1"}}),
               dmlc::Error);
  EXPECT_THROW(DataIteratorReg::Create("CSVIter", Kwargs{{"data_csv", path},
                                                         {"data_shape", "(2,)"},
                                                         {"batch_size", "1"},
                                                         {"no_such_arg", "1"}}),
               dmlc::Error);
  EXPECT_THROW(DataIteratorReg::Create("MNISTIter", Kwargs{{"image", path}, {"label", path},
                                                           {"silent", "1"}}),
               dmlc::Error);
  std::remove(path.c_str());
}

}  // namespace
