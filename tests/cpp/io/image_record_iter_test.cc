// Tests of ImageRecordIter / ImageRecordUInt8Iter through the registry: a .rec of PNG images
// written here (RecordIOWriter + the codec) comes back as the centre crops of the images, with
// the header labels, mean/std/scale applied, round_batch wrap-around, and clear errors.
#include <gtest/gtest.h>
#include <dmlc/logging.h>
#include <mxnet/io.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/image_codec.h"
#include "io/recordio.h"

namespace {

using mxnet::DataBatch;
using mxnet::DataIteratorReg;
using mxnet::IIterator;
using Kwargs = std::vector<std::pair<std::string, std::string>>;

struct TestImage {
  int h, w;
  std::vector<uint8_t> rgb;  // (h, w, 3)
};

/*! \brief An image record: IRHeader (flag 0, label, id, id2) + PNG bytes. */
std::string ImageRecord(const TestImage& img, float label, uint64_t id) {
  std::string rec(24, '\0');
  const uint32_t flag = 0;
  const uint64_t id2 = 0;
  std::memcpy(&rec[0], &flag, 4);
  std::memcpy(&rec[4], &label, 4);
  std::memcpy(&rec[8], &id, 8);
  std::memcpy(&rec[16], &id2, 8);
  return rec + mxnet::image_codec::EncodeImage(".png", img.rgb.data(), img.h, img.w, 3, true, 1, "test");
}

std::string WriteRec(const std::string& name, const std::vector<TestImage>& imgs) {
  const std::string path = std::string(::testing::TempDir()) + "/imgrec_" +
                           std::to_string(::getpid()) + "_" + name;
  mxnet::io::RecordIOWriter writer(path);
  for (size_t i = 0; i < imgs.size(); ++i) {
    const std::string rec = ImageRecord(imgs[i], static_cast<float>(i), i);
    writer.WriteRecord(rec.data(), rec.size());
  }
  return path;
}

std::vector<TestImage> MakeImages(int n) {
  std::mt19937 rng(7);
  std::vector<TestImage> imgs;
  for (int i = 0; i < n; ++i) {
    TestImage img{6 + i, 8, {}};
    img.rgb.resize(static_cast<size_t>(img.h) * img.w * 3);
    for (auto& v : img.rgb) v = static_cast<uint8_t>(rng() & 0xff);
    imgs.push_back(img);
  }
  return imgs;
}

template <typename T>
std::vector<T> ToVector(const mxnet::NDArray& a) {
  std::vector<T> out(a.Size());
  a.SyncCopyToCPU(out.data(), out.size());
  return out;
}

/*! \brief Pixel (y, x, channel k) of the (oh, ow) centre crop of `img`. */
uint8_t CentreCrop(const TestImage& img, int oh, int ow, int y, int x, int k) {
  const int y0 = (img.h - oh) / 2, x0 = (img.w - ow) / 2;
  return img.rgb[(static_cast<size_t>(y + y0) * img.w + (x + x0)) * 3 + k];
}

TEST(ImageRecordIter, Uint8CentreCropsLabelsAndRoundBatch) {
  const std::vector<TestImage> imgs = MakeImages(3);
  const std::string rec = WriteRec("a.rec", imgs);
  std::unique_ptr<IIterator<DataBatch>> it(DataIteratorReg::Create(
      "ImageRecordUInt8Iter", Kwargs{{"path_imgrec", rec}, {"data_shape", "(3, 5, 6)"},
                                     {"batch_size", "2"}, {"prefetch_buffer", "1"}}));
  std::vector<int> pads;
  std::vector<float> labels;
  int batches = 0;
  while (it->Next()) {
    const DataBatch& b = it->Value();
    ASSERT_EQ(b.data[0].shape(), mxnet::TShape({2, 3, 5, 6}));
    const std::vector<uint8_t> data = ToVector<uint8_t>(b.data[0]);
    const std::vector<float> lbl = ToVector<float>(b.data[1]);
    for (int s = 0; s < 2; ++s) {
      const int i = static_cast<int>(lbl[s]);
      for (int k = 0; k < 3; ++k)
        for (int y = 0; y < 5; ++y)
          for (int x = 0; x < 6; ++x)
            ASSERT_EQ(data[((s * 3 + k) * 5 + y) * 6 + x], CentreCrop(imgs[i], 5, 6, y, x, k));
      labels.push_back(lbl[s]);
    }
    pads.push_back(b.num_batch_padd);
    ++batches;
  }
  EXPECT_EQ(batches, 2);
  EXPECT_EQ(labels, (std::vector<float>{0, 1, 2, 0}));  // wrapped around
  EXPECT_EQ(pads, (std::vector<int>{0, 1}));
  std::remove(rec.c_str());
}

TEST(ImageRecordIter, FloatNormalizationAndMirror) {
  const std::vector<TestImage> imgs = MakeImages(2);
  const std::string rec = WriteRec("b.rec", imgs);
  std::unique_ptr<IIterator<DataBatch>> it(DataIteratorReg::Create(
      "ImageRecordIter",
      Kwargs{{"path_imgrec", rec}, {"data_shape", "(3, 4, 4)"}, {"batch_size", "2"},
             {"mean_r", "10"}, {"mean_g", "20"}, {"mean_b", "30"}, {"std_r", "2"},
             {"std_g", "4"}, {"std_b", "8"}, {"scale", "0.5"}, {"mirror", "1"}}));
  ASSERT_TRUE(it->Next());
  const std::vector<float> data = ToVector<float>(it->Value().data[0]);
  const float mean[3] = {10, 20, 30}, stdv[3] = {2, 4, 8};
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 3; ++k)
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
          const float px = CentreCrop(imgs[s], 4, 4, y, 3 - x, k);
          EXPECT_FLOAT_EQ(data[((s * 3 + k) * 4 + y) * 4 + x], (px - mean[k]) / stdv[k] * 0.5f);
        }
  std::remove(rec.c_str());
}

TEST(ImageRecordIter, Errors) {
  const std::vector<TestImage> imgs = MakeImages(1);
  const std::string rec = WriteRec("c.rec", imgs);
  EXPECT_THROW(DataIteratorReg::Create("ImageRecordIter",
                                       Kwargs{{"path_imgrec", rec}, {"data_shape", "(3, 4, 4)"},
                                              {"batch_size", "1"}, {"max_shear_ratio", "0.1"}}),
               dmlc::NotImplementedError);
  EXPECT_THROW(DataIteratorReg::Create("ImageRecordIter",
                                       Kwargs{{"path_imgrec", rec}, {"data_shape", "(4, 4)"},
                                              {"batch_size", "1"}}),
               dmlc::Error);
  EXPECT_THROW(DataIteratorReg::Create("ImageRecordIter",
                                       Kwargs{{"path_imgrec", rec + ".missing"},
                                              {"data_shape", "(3, 4, 4)"}, {"batch_size", "1"}}),
               dmlc::Error);
  // A crop larger than the image fails when the batch is made, with the record named.
  std::unique_ptr<IIterator<DataBatch>> it(DataIteratorReg::Create(
      "ImageRecordIter",
      Kwargs{{"path_imgrec", rec}, {"data_shape", "(3, 40, 4)"}, {"batch_size", "1"}}));
  try {
    it->Next();
    ADD_FAILURE() << "no error for a crop larger than the image";
  } catch (const dmlc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("record id 0"), std::string::npos) << e.what();
  }
  std::remove(rec.c_str());
}

}  // namespace
