/*!
 * \file iter_image_recordio.cc
 * \brief ImageRecordIter / ImageRecordUInt8Iter: batches of images from a RecordIO (.rec) file of
 *        MXNet image records (IRHeader + JPEG/PNG bytes), with MXNet 1.9.1's parameter names.
 *
 * Per image, in this order (the default augmenter of 1.9.1):
 *   decode (grey when data_shape[0] == 1, else RGB) -> resize the shorter edge to `resize`
 *   (inter_method) -> pad by `pad` pixels of fill_value -> crop data_shape's (H, W): centred, or
 *   at a random place with rand_crop -> mirror (always with mirror, p = 0.5 with rand_mirror)
 *   -> float output (pixel - mean_c) / std_c * scale (ImageRecordIter) or raw uint8
 *   (ImageRecordUInt8Iter).
 * Labels: the record header's label(s) (first label_width), or the line of path_imglist whose
 * index is the record's id. Batches: (batch, C, H, W) data and (batch,) or (batch, label_width)
 * labels; the last batch follows round_batch like CSVIter: wrap around to the start, or (unlike
 * 1.9.1, which reports pad 0 over uninitialised rows) report the missing rows as pad. shuffle needs
 * nothing extra: record offsets come from path_imgidx or one scan of the file. Images of a batch
 * are decoded in parallel (preprocess_threads OpenMP threads).
 *
 * The affine / colour augmentations of 1.9.1 (rotation, shear, random scale/area/aspect,
 * brightness, contrast, saturation, HSL, PCA noise, mean_img) are not implemented: setting one
 * raises NotImplementedError naming it rather than silently ignoring it.
 */
#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/io.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../common/image_resize.h"
#include "../common/image_codec.h"
#include "./image_record.h"
#include "./iter_prefetcher.h"

namespace mxnet {
namespace io {

struct ImageRecParserParam : public dmlc::Parameter<ImageRecParserParam> {
  std::string path_imglist, path_imgrec, path_imgidx, aug_seq;
  int label_width;
  TShape data_shape;
  int preprocess_threads;
  bool verbose;
  int num_parts, part_index, device_id;
  size_t shuffle_chunk_size;
  int shuffle_chunk_seed;
  dmlc::optional<int> seed_aug;
  bool shuffle;
  int seed;
  int batch_size;
  bool round_batch;
  DMLC_DECLARE_PARAMETER(ImageRecParserParam) {
    DMLC_DECLARE_FIELD(path_imglist).set_default("")
        .describe("Path to the image list (.lst) file. Generally created with tools/im2rec.py. "
                  "Format (Tab separated): <index of record>\t<one or more labels>\t<relative "
                  "path from root folder>.");
    DMLC_DECLARE_FIELD(path_imgrec).set_default("")
        .describe("Path to the image RecordIO (.rec) file or a directory path. Created with "
                  "tools/im2rec.py.");
    DMLC_DECLARE_FIELD(path_imgidx).set_default("")
        .describe("Path to the image RecordIO index (.idx) file. Created with tools/im2rec.py.");
    DMLC_DECLARE_FIELD(aug_seq).set_default("aug_default")
        .describe("The augmenter names to represent sequence of augmenters to be applied, "
                  "seperated by comma. Additional keyword parameters will be seen by these "
                  "augmenters.");
    DMLC_DECLARE_FIELD(label_width).set_default(1)
        .describe("The number of labels per image.");
    DMLC_DECLARE_FIELD(data_shape)
        .describe("The shape of one output image in (channels, height, width) format.");
    DMLC_DECLARE_FIELD(preprocess_threads).set_default(4)
        .describe("The number of threads to do preprocessing.");
    DMLC_DECLARE_FIELD(verbose).set_default(true)
        .describe("If or not output verbose information.");
    DMLC_DECLARE_FIELD(num_parts).set_default(1)
        .describe("Virtually partition the data into these many parts.");
    DMLC_DECLARE_FIELD(part_index).set_default(0)
        .describe("The *i*-th virtual partition to be read.");
    DMLC_DECLARE_FIELD(device_id).set_default(0)
        .describe("The device id used to create context for internal NDArray. Setting "
                  "device_id to -1 will create Context::CPU(0).");
    DMLC_DECLARE_FIELD(shuffle_chunk_size).set_default(0)
        .describe("The data shuffle buffer size in MB. Only valid if shuffle is true.");
    DMLC_DECLARE_FIELD(shuffle_chunk_seed).set_default(0)
        .describe("The random seed for shuffling");
    DMLC_DECLARE_FIELD(seed_aug).set_default(dmlc::optional<int>())
        .describe("Random seed for augmentations.");
    DMLC_DECLARE_FIELD(shuffle).set_default(false)
        .describe("Whether to shuffle data randomly or not.");
    DMLC_DECLARE_FIELD(seed).set_default(0).describe("The random seed.");
    DMLC_DECLARE_FIELD(batch_size).set_lower_bound(1).describe("Batch size.");
    DMLC_DECLARE_FIELD(round_batch).set_default(true)
        .describe("Whether to use round robin to handle overflow batch or not.");
  }
};

struct ImageRecAugParam : public dmlc::Parameter<ImageRecAugParam> {
  int resize;
  bool rand_crop, random_resized_crop;
  int max_rotate_angle;
  float max_aspect_ratio;
  dmlc::optional<float> min_aspect_ratio;
  float max_shear_ratio;
  int max_crop_size, min_crop_size;
  float max_random_scale, min_random_scale, max_random_area, min_random_area;
  float max_img_size, min_img_size;
  float brightness, contrast, saturation, pca_noise;
  int random_h, random_s, random_l, rotate, fill_value, inter_method, pad;
  DMLC_DECLARE_PARAMETER(ImageRecAugParam) {
    DMLC_DECLARE_FIELD(resize).set_default(-1)
        .describe("Down scale the shorter edge to a new size  before applying other "
                  "augmentations.");
    DMLC_DECLARE_FIELD(rand_crop).set_default(false)
        .describe("If or not randomly crop the image");
    DMLC_DECLARE_FIELD(random_resized_crop).set_default(false)
        .describe("Whether to use random resized crop (not implemented here).");
    DMLC_DECLARE_FIELD(max_rotate_angle).set_default(0)
        .describe("Rotate by a random degree in ``[-v,v]`` (not implemented here)");
    DMLC_DECLARE_FIELD(max_aspect_ratio).set_default(0.0f)
        .describe("Change the aspect (namely width/height) to a random value (not implemented "
                  "here).");
    DMLC_DECLARE_FIELD(min_aspect_ratio).set_default(dmlc::optional<float>())
        .describe("Change the aspect (namely width/height) to a random value (not implemented "
                  "here).");
    DMLC_DECLARE_FIELD(max_shear_ratio).set_default(0.0f)
        .describe("Apply a shear transformation (not implemented here)");
    DMLC_DECLARE_FIELD(max_crop_size).set_default(-1)
        .describe("Crop both width and height into a random size (not implemented here)");
    DMLC_DECLARE_FIELD(min_crop_size).set_default(-1)
        .describe("Crop both width and height into a random size (not implemented here)");
    DMLC_DECLARE_FIELD(max_random_scale).set_default(1.0f)
        .describe("Resize into ``[width*s, height*s]`` (not implemented here)");
    DMLC_DECLARE_FIELD(min_random_scale).set_default(1.0f)
        .describe("Resize into ``[width*s, height*s]`` (not implemented here)");
    DMLC_DECLARE_FIELD(max_random_area).set_default(1.0f)
        .describe("Change the area (namely width * height) to a random value (not implemented "
                  "here)");
    DMLC_DECLARE_FIELD(min_random_area).set_default(1.0f)
        .describe("Change the area (namely width * height) to a random value (not implemented "
                  "here)");
    DMLC_DECLARE_FIELD(max_img_size).set_default(1e10f)
        .describe("Set the maximal width and height after all resize and rotate argumentation "
                  "are applied");
    DMLC_DECLARE_FIELD(min_img_size).set_default(0.0f)
        .describe("Set the minimal width and height after all resize and rotate argumentation "
                  "are applied");
    DMLC_DECLARE_FIELD(brightness).set_default(0.0f)
        .describe("Add a random value in ``[-brightness, brightness]`` to the brightness of "
                  "image (not implemented here).");
    DMLC_DECLARE_FIELD(contrast).set_default(0.0f)
        .describe("Add a random value in ``[-contrast, contrast]`` to the contrast of image "
                  "(not implemented here).");
    DMLC_DECLARE_FIELD(saturation).set_default(0.0f)
        .describe("Add a random value in ``[-saturation, saturation]`` to the saturation of "
                  "image (not implemented here).");
    DMLC_DECLARE_FIELD(pca_noise).set_default(0.0f)
        .describe("Add PCA based noise to the image (not implemented here).");
    DMLC_DECLARE_FIELD(random_h).set_default(0)
        .describe("Add a random value in ``[-random_h, random_h]`` to the H channel in HSL "
                  "color space (not implemented here).");
    DMLC_DECLARE_FIELD(random_s).set_default(0)
        .describe("Add a random value in ``[-random_s, random_s]`` to the S channel in HSL "
                  "color space (not implemented here).");
    DMLC_DECLARE_FIELD(random_l).set_default(0)
        .describe("Add a random value in ``[-random_l, random_l]`` to the L channel in HSL "
                  "color space (not implemented here).");
    DMLC_DECLARE_FIELD(rotate).set_default(-1)
        .describe("Rotate by an angle. If set, it overwrites the ``max_rotate_angle`` option "
                  "(not implemented here).");
    DMLC_DECLARE_FIELD(fill_value).set_default(255)
        .describe("Set the padding pixels value to ``fill_value``.");
    DMLC_DECLARE_FIELD(inter_method).set_default(1)
        .describe("The interpolation method: 0-NN 1-bilinear 2-cubic 3-area 4-lanczos4 9-auto "
                  "10-rand.");
    DMLC_DECLARE_FIELD(pad).set_default(0)
        .describe("Change size from ``[width, height]`` into ``[pad + width + pad, pad + "
                  "height + pad]`` by padding pixes");
  }
};

struct ImageRecNormParam : public dmlc::Parameter<ImageRecNormParam> {
  bool mirror, rand_mirror;
  std::string mean_img;
  float mean_r, mean_g, mean_b, mean_a, std_r, std_g, std_b, std_a, scale;
  float max_random_contrast, max_random_illumination;
  DMLC_DECLARE_PARAMETER(ImageRecNormParam) {
    DMLC_DECLARE_FIELD(mirror).set_default(false)
        .describe("Whether to mirror the image or not. If true, images are flipped along the "
                  "horizontal axis.");
    DMLC_DECLARE_FIELD(rand_mirror).set_default(false)
        .describe("Whether to randomly mirror images or not. If true, 50% of the images will "
                  "be randomly mirrored (flipped along the horizontal axis)");
    DMLC_DECLARE_FIELD(mean_img).set_default("")
        .describe("Filename of the mean image (not implemented here).");
    DMLC_DECLARE_FIELD(mean_r).set_default(0.0f).describe("The mean value to be subtracted on "
                                                          "the R channel");
    DMLC_DECLARE_FIELD(mean_g).set_default(0.0f).describe("The mean value to be subtracted on "
                                                          "the G channel");
    DMLC_DECLARE_FIELD(mean_b).set_default(0.0f).describe("The mean value to be subtracted on "
                                                          "the B channel");
    DMLC_DECLARE_FIELD(mean_a).set_default(0.0f).describe("The mean value to be subtracted on "
                                                          "the alpha channel");
    DMLC_DECLARE_FIELD(std_r).set_default(1.0f).describe("Augmentation Param: Standard "
                                                         "deviation on R channel.");
    DMLC_DECLARE_FIELD(std_g).set_default(1.0f).describe("Augmentation Param: Standard "
                                                         "deviation on G channel.");
    DMLC_DECLARE_FIELD(std_b).set_default(1.0f).describe("Augmentation Param: Standard "
                                                         "deviation on B channel.");
    DMLC_DECLARE_FIELD(std_a).set_default(1.0f).describe("Augmentation Param: Standard "
                                                         "deviation on Alpha channel.");
    DMLC_DECLARE_FIELD(scale).set_default(1.0f).describe("Multiply the image with a scale "
                                                         "value.");
    DMLC_DECLARE_FIELD(max_random_contrast).set_default(0.0f)
        .describe("Change the contrast with a value randomly chosen from ``[-max_random_"
                  "contrast, max_random_contrast]`` (not implemented here)");
    DMLC_DECLARE_FIELD(max_random_illumination).set_default(0.0f)
        .describe("Change the illumination with a value randomly chosen from ``[-max_random_"
                  "illumination, max_random_illumination]`` (not implemented here)");
  }
};

DMLC_REGISTER_PARAMETER(ImageRecParserParam);
DMLC_REGISTER_PARAMETER(ImageRecAugParam);
DMLC_REGISTER_PARAMETER(ImageRecNormParam);

namespace {

/*! \brief What the iterator writes per pixel: the normalized float, the raw byte, or (int8,
 *         as 1.9.1's quantized-model input) the pixel minus the channel mean, rounded to nearest
 *         (halves down) and saturated; std and scale do not apply to int8. */
enum class PixelOut { kFloat, kUint8, kInt8 };

}  // namespace

class ImageRecordSource : public BatchSource {
 public:
  ImageRecordSource(const ImageRecParserParam& parser, const ImageRecAugParam& aug,
                    const ImageRecNormParam& norm, PixelOut out, const std::string& name)
      : parser_(parser), aug_(aug), norm_(norm), out_(out), name_(name) {
    CheckParams();
    file_ = std::make_unique<RecordFile>(name_, parser_.path_imgrec, parser_.path_imgidx,
                                         parser_.num_parts, parser_.part_index, parser_.shuffle,
                                         parser_.seed);
    if (!parser_.path_imglist.empty()) {
      list_labels_ = LoadImageListLabels(parser_.path_imglist, name_);
    }
    const int64_t batch = parser_.batch_size;
    const TShape& s = parser_.data_shape;
    buffer_.arrays.resize(2);
    buffer_.arrays[0].Resize(TShape({batch, s[0], s[1], s[2]}),
                             out_ == PixelOut::kUint8  ? mshadow::kUint8 :
                             out_ == PixelOut::kInt8 ? mshadow::kInt8 : mshadow::kFloat32);
    buffer_.arrays[1].Resize(parser_.label_width == 1 ? TShape({batch})
                                                      : TShape({batch, parser_.label_width}),
                             mshadow::kFloat32);
    std::fill(buffer_.arrays[0].bytes.begin(), buffer_.arrays[0].bytes.end(), 0);
    std::fill(buffer_.arrays[1].bytes.begin(), buffer_.arrays[1].bytes.end(), 0);
    buffer_.index.assign(batch, 0);
    aug_rng_.seed(static_cast<uint32_t>(parser_.seed_aug.has_value() ? parser_.seed_aug.value()
                                                                     : parser_.seed));
  }

  void BeforeFirst() override { file_->BeforeFirst(parser_.round_batch); }

  bool Next(HostBatch* out) override {
    BatchPicks picks;
    if (!file_->Next(parser_.batch_size, parser_.round_batch, &picks)) return false;
    buffer_.num_batch_padd = picks.pad;
    FillBatch(picks.records);
    *out = buffer_;
    return true;
  }

 private:
  void CheckParams() const {
    const TShape& s = parser_.data_shape;
    if (s.ndim() != 3 || s[0] <= 0 || s[1] <= 0 || s[2] <= 0) {
      MX_THROW(dmlc::ValueError) << name_ << ": data_shape must be (channels, height, width), "
                                 << "got " << s;
    }
    if (s[0] != 1 && s[0] != 3) {
      MX_THROW(dmlc::ValueError) << name_ << ": data_shape[0] (channels) must be 1 or 3, got "
                                 << s[0];
    }
    if (parser_.path_imgrec.empty()) {
      MX_THROW(dmlc::ValueError) << name_ << ": path_imgrec must be given";
    }
    if (parser_.label_width < 1) {
      MX_THROW(dmlc::ValueError) << name_ << ": label_width must be >= 1, got "
                                 << parser_.label_width;
    }
    const int im = aug_.inter_method;
    if (!((im >= 0 && im <= 4) || im == 9 || im == 10)) {
      MX_THROW(dmlc::ValueError) << name_ << ": inter_method must be 0-4, 9 (auto) or 10 "
                                 << "(random), got " << im;
    }
    if (aug_.pad < 0) MX_THROW(dmlc::ValueError) << name_ << ": pad must be >= 0";
    const float stds[4] = {norm_.std_r, norm_.std_g, norm_.std_b, norm_.std_a};
    for (float sd : stds) {
      if (sd == 0.0f) MX_THROW(dmlc::ValueError) << name_ << ": std_r/g/b/a must be non-zero";
    }
    // Augmentations of 1.9.1 this build does not have: refuse rather than ignore them.
    std::vector<std::string> unsupported;
    if (parser_.aug_seq != "aug_default") unsupported.push_back("aug_seq");
    if (aug_.random_resized_crop) unsupported.push_back("random_resized_crop");
    if (aug_.max_rotate_angle != 0) unsupported.push_back("max_rotate_angle");
    if (aug_.rotate != -1) unsupported.push_back("rotate");
    if (aug_.max_aspect_ratio != 0.0f) unsupported.push_back("max_aspect_ratio");
    if (aug_.min_aspect_ratio.has_value()) unsupported.push_back("min_aspect_ratio");
    if (aug_.max_shear_ratio != 0.0f) unsupported.push_back("max_shear_ratio");
    if (aug_.max_crop_size != -1 || aug_.min_crop_size != -1) unsupported.push_back("crop_size");
    if (aug_.max_random_scale != 1.0f || aug_.min_random_scale != 1.0f) {
      unsupported.push_back("random_scale");
    }
    if (aug_.max_random_area != 1.0f || aug_.min_random_area != 1.0f) {
      unsupported.push_back("random_area");
    }
    if (aug_.brightness != 0.0f) unsupported.push_back("brightness");
    if (aug_.contrast != 0.0f) unsupported.push_back("contrast");
    if (aug_.saturation != 0.0f) unsupported.push_back("saturation");
    if (aug_.pca_noise != 0.0f) unsupported.push_back("pca_noise");
    if (aug_.random_h != 0 || aug_.random_s != 0 || aug_.random_l != 0) {
      unsupported.push_back("random_h/random_s/random_l");
    }
    if (!norm_.mean_img.empty()) unsupported.push_back("mean_img");
    if (norm_.max_random_contrast != 0.0f) unsupported.push_back("max_random_contrast");
    if (norm_.max_random_illumination != 0.0f) unsupported.push_back("max_random_illumination");
    if (!unsupported.empty()) {
      std::ostringstream os;
      for (size_t i = 0; i < unsupported.size(); ++i) os << (i ? ", " : "") << unsupported[i];
      MX_THROW(dmlc::NotImplementedError)
          << name_ << ": these augmentation parameters are not implemented in this build: "
          << os.str() << " (use mx.image.ImageIter with Python augmenters instead)";
    }
  }

  /*! \brief Random choices for one image, drawn serially so results don't depend on threads. */
  struct Draw {
    double crop_y{0.5}, crop_x{0.5};
    bool mirror{false};
    int interp{1};
  };

  void FillBatch(const std::vector<size_t>& picks) {
    const size_t n = picks.size();
    std::vector<std::string> recs(n);
    std::vector<Draw> draws(n);
    for (size_t i = 0; i < n; ++i) {
      file_->Read(picks[i], &recs[i]);
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      draws[i].crop_y = aug_.rand_crop ? unit(aug_rng_) : -1.0;
      draws[i].crop_x = aug_.rand_crop ? unit(aug_rng_) : -1.0;
      draws[i].mirror = norm_.mirror || (norm_.rand_mirror && unit(aug_rng_) < 0.5);
      draws[i].interp = aug_.inter_method == 10
                            ? std::uniform_int_distribution<int>(0, 4)(aug_rng_)
                            : aug_.inter_method;
    }
    std::vector<std::string> errors(n);
    const int threads = std::max(1, parser_.preprocess_threads);
    #pragma omp parallel for num_threads(threads) schedule(dynamic)
    for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
      try {
        ProcessImage(recs[i], draws[i], static_cast<size_t>(i));
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
    for (size_t i = 0; i < n; ++i) {
      if (!errors[i].empty()) MX_THROW(dmlc::ValueError) << errors[i];
      buffer_.index[i] = picks[i];
    }
  }

  void ProcessImage(const std::string& rec, const Draw& draw, size_t slot) {
    const ImageRecord header = ParseImageRecord(rec, name_);
    const std::string who = name_ + " (record id " + std::to_string(header.id) + ")";
    const int channels = static_cast<int>(parser_.data_shape[0]);
    const int out_h = static_cast<int>(parser_.data_shape[1]);
    const int out_w = static_cast<int>(parser_.data_shape[2]);
    image_codec::ImageInfo info;
    const auto* bytes = reinterpret_cast<const uint8_t*>(rec.data()) + header.image_offset;
    std::vector<uint8_t> img = image_codec::DecodeImage(bytes, rec.size() - header.image_offset,
                                           channels == 1 ? 0 : 1, true, &info, who.c_str());
    int h = info.height, w = info.width;
    if (aug_.resize > 0) {
      int nh, nw;
      if (h > w) {
        nh = static_cast<int>(static_cast<int64_t>(aug_.resize) * h / w);
        nw = aug_.resize;
      } else {
        nh = aug_.resize;
        nw = static_cast<int>(static_cast<int64_t>(aug_.resize) * w / h);
      }
      std::vector<uint8_t> resized(static_cast<size_t>(nh) * nw * channels);
      std::mt19937 unused;
      const int interp = PickInterp(draw.interp, h, w, nh, nw, &unused);
      image_resize::ResizeUint8Image(img.data(), resized.data(), h, w, channels, nh, nw, interp);
      img.swap(resized);
      h = nh;
      w = nw;
    }
    if (aug_.pad > 0) {
      const int p = aug_.pad;
      const int ph = h + 2 * p, pw = w + 2 * p;
      const uint8_t fill = static_cast<uint8_t>(std::min(255, std::max(0, aug_.fill_value)));
      std::vector<uint8_t> padded(static_cast<size_t>(ph) * pw * channels, fill);
      for (int y = 0; y < h; ++y) {
        std::memcpy(&padded[(static_cast<size_t>(y + p) * pw + p) * channels],
                    &img[static_cast<size_t>(y) * w * channels],
                    static_cast<size_t>(w) * channels);
      }
      img.swap(padded);
      h = ph;
      w = pw;
    }
    if (h < out_h || w < out_w) {
      MX_THROW(dmlc::ValueError) << who << ": the image is " << h << "x" << w << " after resize/"
                                 << "pad, smaller than data_shape's " << out_h << "x" << out_w
                                 << " (set resize to at least the crop size)";
    }
    int y0, x0;
    if (draw.crop_y >= 0) {
      y0 = std::min(h - out_h, static_cast<int>(draw.crop_y * (h - out_h + 1)));
      x0 = std::min(w - out_w, static_cast<int>(draw.crop_x * (w - out_w + 1)));
    } else {
      y0 = (h - out_h) / 2;
      x0 = (w - out_w) / 2;
    }
    const float mean[4] = {norm_.mean_r, norm_.mean_g, norm_.mean_b, norm_.mean_a};
    const float std_[4] = {norm_.std_r, norm_.std_g, norm_.std_b, norm_.std_a};
    const size_t plane = static_cast<size_t>(out_h) * out_w;
    for (int y = 0; y < out_h; ++y) {
      for (int x = 0; x < out_w; ++x) {
        const int dx = draw.mirror ? out_w - 1 - x : x;
        const uint8_t* px = &img[(static_cast<size_t>(y + y0) * w + (x + x0)) * channels];
        for (int k = 0; k < channels; ++k) {
          const size_t o = slot * channels * plane + k * plane + static_cast<size_t>(y) * out_w + dx;
          if (out_ == PixelOut::kUint8) {
            buffer_.arrays[0].ptr<uint8_t>()[o] = px[k];
          } else if (out_ == PixelOut::kInt8) {
            const float v = std::ceil(px[k] - mean[k] - 0.5f);  // halves round down, as 1.9.1
            buffer_.arrays[0].ptr<int8_t>()[o] =
                static_cast<int8_t>(std::min(127.0f, std::max(-128.0f, v)));
          } else {
            buffer_.arrays[0].ptr<float>()[o] = (px[k] - mean[k]) / std_[k] * norm_.scale;
          }
        }
      }
    }
    // Labels: the image list's line for this record id wins over the header.
    const std::vector<float>* labels = &header.labels;
    if (!list_labels_.empty()) {
      auto it = list_labels_.find(header.id);
      if (it == list_labels_.end()) {
        MX_THROW(dmlc::ValueError) << who << ": no line for this index in path_imglist '"
                                   << parser_.path_imglist << "'";
      }
      labels = &it->second;
    }
    const int lw = parser_.label_width;
    if (static_cast<int>(labels->size()) != lw) {
      MX_THROW(dmlc::ValueError) << who << ": the record provides " << labels->size()
                                 << " label(s) but label_width is " << lw;
    }
    float* dst = buffer_.arrays[1].ptr<float>() + slot * lw;
    std::copy(labels->begin(), labels->begin() + lw, dst);
  }

  ImageRecParserParam parser_;
  ImageRecAugParam aug_;
  ImageRecNormParam norm_;
  PixelOut out_;
  std::string name_;
  std::unique_ptr<RecordFile> file_;
  std::map<uint64_t, std::vector<float>> list_labels_;
  std::mt19937 aug_rng_;
  HostBatch buffer_;
};

template <PixelOut kOut>
class ImageRecordIterT : public PrefetchIter {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    const std::string name = kOut == PixelOut::kUint8 ? "ImageRecordUInt8Iter" :
                             kOut == PixelOut::kInt8  ? "ImageRecordInt8Iter" : "ImageRecordIter";
    ImageRecParserParam parser;
    ImageRecAugParam aug;
    ImageRecNormParam norm;
    auto rest = parser.InitAllowUnknown(kwargs);
    rest = aug.InitAllowUnknown(rest);
    rest = norm.InitAllowUnknown(rest);
    PrefetcherParam pparam = ParsePrefetcherParam(name, rest);
    PixelOut out = kOut;
    // ImageRecordIter(dtype='int8') is ImageRecordInt8Iter, as in 1.9.1.
    if (out == PixelOut::kFloat && pparam.dtype.has_value() &&
        pparam.dtype.value() == mshadow::kInt8) {
      out = PixelOut::kInt8;
    }
    Start(std::make_unique<ImageRecordSource>(parser, aug, norm, out, name), pparam);
  }
};

MXNET_REGISTER_IO_ITER(ImageRecordIter)
    .describe(
        "Iterates on image RecordIO files\n\n"
        "Reads batches of images from .rec files. Images are decoded (JPEG/PNG), resized "
        "(`resize`), padded (`pad`), cropped to `data_shape` (centred or `rand_crop`), mirrored "
        "(`mirror`, `rand_mirror`) and normalized: (pixel - mean_c) / std_c * scale.\n\n"
        "The .rec file is created with tools/im2rec.py or mx.recordio.pack_img.\n")
    .add_arguments(ImageRecParserParam::__FIELDS__())
    .add_arguments(ImageRecAugParam::__FIELDS__())
    .add_arguments(ImageRecNormParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new ImageRecordIterT<PixelOut::kFloat>(); });

MXNET_REGISTER_IO_ITER(ImageRecordUInt8Iter)
    .describe(
        "Iterating on image RecordIO files\n\n"
        "Like ImageRecordIter, but the data is the augmented images as uint8 (no "
        "normalization).\n")
    .add_arguments(ImageRecParserParam::__FIELDS__())
    .add_arguments(ImageRecAugParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new ImageRecordIterT<PixelOut::kUint8>(); });

MXNET_REGISTER_IO_ITER(ImageRecordInt8Iter)
    .describe(
        "Iterating on image RecordIO files\n\n"
        "Like ImageRecordIter, but the data is int8 (the input of quantized models): each "
        "augmented pixel minus its channel mean (mean_r/g/b/a), rounded to nearest (halves "
        "down) and saturated to [-128, 127]; std and scale do not apply. ImageRecordIter(dtype='int8') "
        "is the same.\n")
    .add_arguments(ImageRecParserParam::__FIELDS__())
    .add_arguments(ImageRecAugParam::__FIELDS__())
    .add_arguments(ImageRecNormParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new ImageRecordIterT<PixelOut::kInt8>(); });

// 1.9.1 keeps its first-generation implementations under these names; here they are the same.
MXNET_REGISTER_IO_ITER(ImageRecordIter_v1)
    .describe("Iterating on image RecordIO files (the same iterator as ImageRecordIter).\n")
    .add_arguments(ImageRecParserParam::__FIELDS__())
    .add_arguments(ImageRecAugParam::__FIELDS__())
    .add_arguments(ImageRecNormParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new ImageRecordIterT<PixelOut::kFloat>(); });

MXNET_REGISTER_IO_ITER(ImageRecordUInt8Iter_v1)
    .describe("Iterating on image RecordIO files (the same iterator as ImageRecordUInt8Iter).\n")
    .add_arguments(ImageRecParserParam::__FIELDS__())
    .add_arguments(ImageRecAugParam::__FIELDS__())
    .add_arguments(PrefetcherParam::__FIELDS__())
    .set_body([]() -> IIterator<DataBatch>* { return new ImageRecordIterT<PixelOut::kUint8>(); });

}  // namespace io
}  // namespace mxnet
