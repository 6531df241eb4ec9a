/*!
 * \file iter_mnist.cc
 * \brief MNISTIter: batches of MNIST idx files (images scaled to [0, 1) by 1/256, labels as
 *        float), as MXNet 1.9.1's iterator: the data is loaded (and, with shuffle, permuted once
 *        with the seed) at creation; an incomplete last batch is dropped, so the pad is always 0.
 *
 * idx format: big-endian u32 magic (2051 images, 2049 labels), u32 count, [u32 rows, u32 cols],
 * then uint8 values. Files may be gzip-compressed.
 */
#include <dmlc/parameter.h>
#include <mxnet/io.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "./file_util.h"
#include "./iter_prefetcher.h"

namespace mxnet {
namespace io {

struct MNISTParam : public dmlc::Parameter<MNISTParam> {
  std::string image;
  std::string label;
  int batch_size;
  bool shuffle;
  bool flat;
  int seed;
  bool silent;
  int num_parts;
  int part_index;
  DMLC_DECLARE_PARAMETER(MNISTParam) {
    DMLC_DECLARE_FIELD(image).set_default("./train-images-idx3-ubyte")
        .describe("Dataset Param: Mnist image path.");
    DMLC_DECLARE_FIELD(label).set_default("./train-labels-idx1-ubyte")
        .describe("Dataset Param: Mnist label path.");
    DMLC_DECLARE_FIELD(batch_size).set_default(128).describe("Batch Param: Batch Size.");
    DMLC_DECLARE_FIELD(shuffle).set_default(true)
        .describe("Augmentation Param: Whether to shuffle data.");
    DMLC_DECLARE_FIELD(flat).set_default(false)
        .describe("Augmentation Param: Whether to flat the data into 1D.");
    DMLC_DECLARE_FIELD(seed).set_default(0).describe("Augmentation Param: Random Seed.");
    DMLC_DECLARE_FIELD(silent).set_default(false)
        .describe("Auxiliary Param: Whether to print out data info.");
    DMLC_DECLARE_FIELD(num_parts).set_default(1)
        .describe("partition the data into multiple parts");
    DMLC_DECLARE_FIELD(part_index).set_default(0)
        .describe("the index of the part will read");
  }
};
DMLC_REGISTER_PARAMETER(MNISTParam);

namespace {

constexpr uint32_t kImageMagic = 2051;
constexpr uint32_t kLabelMagic = 2049;

uint32_t ReadBigEndian32(const std::vector<uint8_t>& b, size_t offset) {
  return (uint32_t(b[offset]) << 24) | (uint32_t(b[offset + 1]) << 16) |
         (uint32_t(b[offset + 2]) << 8) | uint32_t(b[offset + 3]);
}

/*! \brief Check the idx header of `bytes`; return the item count. */
uint32_t CheckIdxHeader(const std::vector<uint8_t>& bytes, const std::string& path,
                        const std::string& what, uint32_t magic, size_t header_size) {
  if (bytes.empty()) {
    LOG(FATAL) << "MNISTIter: " << what << " file '" << path << "' is empty";
  }
  if (bytes.size() < header_size) {
    LOG(FATAL) << "MNISTIter: " << what << " file '" << path << "' is truncated: "
               << bytes.size() << " bytes, the idx header alone needs " << header_size;
  }
  const uint32_t got = ReadBigEndian32(bytes, 0);
  if (bytes[0] == 0x1f && bytes[1] == 0x8b) {
    LOG(FATAL) << "MNISTIter: " << what << " file '" << path << "' is gzip-compressed, but "
               << "this build has no zlib: decompress it first (gunzip)";
  }
  if (got != magic) {
    LOG(FATAL) << "MNISTIter: " << what << " file '" << path << "' has bad magic number "
               << got << " (expected " << magic << " for an idx " << what
               << " file); is it an MNIST " << what << " file?";
  }
  return ReadBigEndian32(bytes, 4);
}

}  // namespace

/*! \brief The MNIST batch source: everything in memory, batches cut from it in order. */
class MNISTSource : public BatchSource {
 public:
  explicit MNISTSource(const MNISTParam& param) : param_(param) {
    if (param_.batch_size <= 0) {
      MX_THROW(dmlc::ValueError) << "MNISTIter: batch_size must be positive, got "
                                 << param_.batch_size;
    }
    if (param_.num_parts < 1 || param_.part_index < 0 || param_.part_index >= param_.num_parts) {
      MX_THROW(dmlc::ValueError) << "MNISTIter: part_index must be in [0, num_parts), got part_index="
                                 << param_.part_index << " num_parts=" << param_.num_parts;
    }
    Load();
  }

  void BeforeFirst() override { cursor_ = 0; }

  bool Next(HostBatch* out) override {
    const size_t batch = static_cast<size_t>(param_.batch_size);
    if (cursor_ + batch > count_) return false;
    out->arrays.resize(2);
    TShape data_shape = param_.flat ? TShape({static_cast<int64_t>(batch), rows_ * cols_})
                                    : TShape({static_cast<int64_t>(batch), 1, rows_, cols_});
    out->arrays[0].Resize(data_shape, mshadow::kFloat32);
    out->arrays[1].Resize(TShape({static_cast<int64_t>(batch)}), mshadow::kFloat32);
    const size_t pixels = static_cast<size_t>(rows_ * cols_);
    std::copy(images_.begin() + cursor_ * pixels, images_.begin() + (cursor_ + batch) * pixels,
              out->arrays[0].ptr<float>());
    std::copy(labels_.begin() + cursor_, labels_.begin() + cursor_ + batch,
              out->arrays[1].ptr<float>());
    out->index.assign(order_.begin() + cursor_, order_.begin() + cursor_ + batch);
    out->num_batch_padd = 0;
    cursor_ += batch;
    return true;
  }

 private:
  void Load() {
    std::vector<uint8_t> img = ReadWholeFile(param_.image, "MNISTIter: image file");
    std::vector<uint8_t> lbl = ReadWholeFile(param_.label, "MNISTIter: label file");
    const uint32_t n_img = CheckIdxHeader(img, param_.image, "image", kImageMagic, 16);
    const uint32_t n_lbl = CheckIdxHeader(lbl, param_.label, "label", kLabelMagic, 8);
    rows_ = ReadBigEndian32(img, 8);
    cols_ = ReadBigEndian32(img, 12);
    const size_t pixels = static_cast<size_t>(rows_) * cols_;
    if (img.size() < 16 + pixels * n_img) {
      LOG(FATAL) << "MNISTIter: image file '" << param_.image << "' is truncated: header says "
                 << n_img << " images of " << rows_ << "x" << cols_ << " (" << 16 + pixels * n_img
                 << " bytes) but the file has " << img.size() << " bytes";
    }
    if (lbl.size() < 8 + static_cast<size_t>(n_lbl)) {
      LOG(FATAL) << "MNISTIter: label file '" << param_.label << "' is truncated: header says "
                 << n_lbl << " labels (" << 8 + n_lbl << " bytes) but the file has "
                 << lbl.size() << " bytes";
    }
    if (n_img != n_lbl) {
      LOG(FATAL) << "MNISTIter: image file '" << param_.image << "' has " << n_img
                 << " images but label file '" << param_.label << "' has " << n_lbl << " labels";
    }
    // This part's slice of the instances.
    const size_t begin = static_cast<size_t>(n_img) * param_.part_index / param_.num_parts;
    const size_t end = static_cast<size_t>(n_img) * (param_.part_index + 1) / param_.num_parts;
    count_ = end - begin;
    order_.resize(count_);
    std::iota(order_.begin(), order_.end(), static_cast<uint64_t>(begin));
    if (param_.shuffle) {
      // Forward Fisher-Yates with one uniform draw per position over mt19937(seed): the
      // order MXNet 1.9.1 produces (its std::shuffle), spelled out because newer libstdc++
      // std::shuffle draws two positions at once and would give another order.
      std::mt19937 rng(static_cast<uint32_t>(param_.seed));
      for (size_t i = 1; i < order_.size(); ++i) {
        std::uniform_int_distribution<int> pick(0, static_cast<int>(i));
        std::swap(order_[i], order_[pick(rng)]);
      }
    }
    if (count_ < static_cast<size_t>(param_.batch_size)) {
      MX_THROW(dmlc::ValueError) << "MNISTIter: batch_size " << param_.batch_size
                                 << " is larger than the " << count_ << " images"
                                 << (param_.num_parts > 1 ? " of this part" : "") << " in '"
                                 << param_.image << "'; no batch can be formed";
    }
    images_.resize(count_ * pixels);
    labels_.resize(count_);
    const float scale = 1.0f / 256.0f;
    for (size_t i = 0; i < count_; ++i) {
      const uint8_t* src = img.data() + 16 + order_[i] * pixels;
      float* dst = images_.data() + i * pixels;
      for (size_t p = 0; p < pixels; ++p) dst[p] = src[p] * scale;
      labels_[i] = static_cast<float>(lbl[8 + order_[i]]);
    }
    if (!param_.silent) {
      LOG(INFO) << "MNISTIter: load " << count_ << " images, shuffle=" << param_.shuffle
                << ", shape=(" << param_.batch_size << ",1," << rows_ << "," << cols_ << ")";
    }
  }

  MNISTParam param_;
  int64_t rows_{0};
  int64_t cols_{0};
  size_t count_{0};
  size_t cursor_{0};
  std::vector<uint64_t> order_;
  std::vector<float> images_;
  std::vector<float> labels_;
};

class MNISTIter : public PrefetchIter {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    MNISTParam param;
    auto rest = param.InitAllowUnknown(kwargs);
    PrefetcherParam pparam = ParsePrefetcherParam("MNISTIter", rest);
    Start(std::make_unique<MNISTSource>(param), pparam);
  }
};

MXNET_REGISTER_IO_ITER(MNISTIter)
    .describe(
        "Iterating on the MNIST dataset.\n\n"
        "One can download the dataset from http://yann.lecun.com/exdb/mnist/\n\n"
        "The image and label files are idx files, optionally gzip-compressed.\n")
    .add_arguments(MNISTParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new MNISTIter(); });

}  // namespace io
}  // namespace mxnet
