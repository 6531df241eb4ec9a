/*!
 * \file image_io.cc
 * \brief The image operators MXNet 1.9.1 implements with OpenCV, here over src/io/image_codec:
 *
 *   _cvimdecode(buf, flag=1, to_rgb=True)       bytes (uint8 NDArray) -> (H, W, 1 or 3) uint8
 *   _cvimread(filename, flag=1, to_rgb=True)    file -> (H, W, 1 or 3) uint8
 *   _cvcopyMakeBorder(src, top, bot, left, right, type=0, value=0, values=())
 *                                               (H, W, C) -> (H+top+bot, W+left+right, C)
 *   (_cvimresize lives in src/operator/image/resize.cc, next to the resampling kernels.)
 *
 * The decoded size depends on the bytes, so the decoders have FDataDependentShape (imperative
 * only, like 1.9.1's NDArray functions). It decodes the whole image there, so that a corrupt file
 * raises at the call, and leaves the pixels in a small cache the FCompute takes them from (keyed
 * by the call and checked against the encoded bytes, so a stale entry is never used).
 */
#include <dmlc/parameter.h>
#include <mxnet/data_dependent_shape.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../host_fallback.h"
#include "../operator_common.h"
#include "../../common/image_codec.h"

namespace mxnet {
namespace op {

using image_codec::DecodeImage;
using image_codec::DecodedChannels;
using image_codec::ImageInfo;

struct ImdecodeParam : public dmlc::Parameter<ImdecodeParam> {
  int flag;
  bool to_rgb;
  DMLC_DECLARE_PARAMETER(ImdecodeParam) {
    DMLC_DECLARE_FIELD(flag).set_lower_bound(0).set_default(1)
        .describe("Convert decoded image to grayscale (0) or color (1).");
    DMLC_DECLARE_FIELD(to_rgb).set_default(true)
        .describe("Whether to convert decoded image to mxnet's default RGB format (instead of "
                  "opencv's default BGR).");
  }
};

struct ImreadParam : public dmlc::Parameter<ImreadParam> {
  std::string filename;
  int flag;
  bool to_rgb;
  DMLC_DECLARE_PARAMETER(ImreadParam) {
    DMLC_DECLARE_FIELD(filename).describe("Name of the image file to be loaded.");
    DMLC_DECLARE_FIELD(flag).set_lower_bound(0).set_default(1)
        .describe("Convert decoded image to grayscale (0) or color (1).");
    DMLC_DECLARE_FIELD(to_rgb).set_default(true)
        .describe("Whether to convert decoded image to mxnet's default RGB format (instead of "
                  "opencv's default BGR).");
  }
};

struct MakeBorderParam : public dmlc::Parameter<MakeBorderParam> {
  int top, bot, left, right;
  int type;
  double value;
  mxnet::Tuple<double> values;
  DMLC_DECLARE_PARAMETER(MakeBorderParam) {
    DMLC_DECLARE_FIELD(top).describe("Top margin.");
    DMLC_DECLARE_FIELD(bot).describe("Bottom margin.");
    DMLC_DECLARE_FIELD(left).describe("Left margin.");
    DMLC_DECLARE_FIELD(right).describe("Right margin.");
    DMLC_DECLARE_FIELD(type).set_default(0)
        .describe("Filling type (default=cv2.BORDER_CONSTANT).");
    DMLC_DECLARE_FIELD(value).set_default(0.0)
        .describe("(Deprecated! Use ``values`` instead.) Fill with single value.");
    DMLC_DECLARE_FIELD(values).set_default(mxnet::Tuple<double>())
        .describe("Fill with value(RGB[A] or gray), up to 4 channels.");
  }
};

DMLC_REGISTER_PARAMETER(ImdecodeParam);
DMLC_REGISTER_PARAMETER(ImreadParam);
DMLC_REGISTER_PARAMETER(MakeBorderParam);

namespace {

// ---- decoded-pixel hand-over between FDataDependentShape and FCompute --------------------------

struct DecodedImage {
  std::string source;  // the encoded bytes the pixels came from
  std::vector<uint8_t> pixels;
};

class DecodeCache {
 public:
  static DecodeCache* Get() {
    static DecodeCache cache;
    return &cache;
  }
  void Put(const std::string& key, DecodedImage image) {
    std::lock_guard<std::mutex> lock(mu_);
    // Entries are taken right after they are put; only failed calls leave one behind.
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_[key] = std::move(image);
  }
  /*! \brief Moves the pixels out if the entry for `key` was decoded from `source`. */
  bool Take(const std::string& key, const uint8_t* source, size_t size,
            std::vector<uint8_t>* pixels) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return false;
    const bool same = it->second.source.size() == size &&
                      std::memcmp(it->second.source.data(), source, size) == 0;
    if (same) *pixels = std::move(it->second.pixels);
    entries_.erase(it);
    return same;
  }

 private:
  static constexpr size_t kMaxEntries = 64;
  std::mutex mu_;
  std::map<std::string, DecodedImage> entries_;
};

std::string CallKey(const void* where, const std::string& name, int flag, bool to_rgb) {
  std::string key(reinterpret_cast<const char*>(&where), sizeof(where));
  return key + name + '\x00' + std::to_string(flag) + (to_rgb ? "r" : "b");
}

std::string ReadWholeFile(const std::string& path, const char* who) {
  std::ifstream f(path, std::ios::binary);
  if (!f.is_open()) {
    MX_THROW(dmlc::ValueError) << who << ": cannot open image file '" << path
                               << "': " << std::strerror(errno);
  }
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

mxnet::TShape DecodedShape(const ImageInfo& info, int flag) {
  return mxnet::TShape({info.height, info.width, DecodedChannels(flag, info)});
}

void CheckBuffer(const TBlob& buf) {
  if (buf.type_flag_ != mshadow::kUint8) {
    MX_THROW(dmlc::TypeError) << "_cvimdecode: buf must be a uint8 NDArray of encoded bytes, "
                              << "but got dtype " << mshadow::dtype_string(buf.type_flag_);
  }
}

// ---- _cvimdecode -------------------------------------------------------------------------------

void ImdecodeDataShape(const nnvm::NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                       mxnet::ShapeVector* out_shapes) {
  const ImdecodeParam& p = nnvm::get<ImdecodeParam>(attrs.parsed);
  const TBlob& buf = inputs[0];
  CheckBuffer(buf);
  const auto* bytes = static_cast<const uint8_t*>(buf.dptr_);
  const size_t size = buf.shape_.Size();
  DecodedImage image;
  ImageInfo info;
  image.pixels = DecodeImage(bytes, size, p.flag, p.to_rgb, &info, "_cvimdecode");
  image.source.assign(reinterpret_cast<const char*>(bytes), size);
  DecodeCache::Get()->Put(CallKey(buf.dptr_, "", p.flag, p.to_rgb), std::move(image));
  (*out_shapes)[0] = DecodedShape(info, p.flag);
}

bool ImdecodeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  // Known only once the bytes were read (imperative calls): a graph cannot decode.
  return shape_is_known((*out)[0]);
}

bool ImdecodeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  if ((*in)[0] != -1 && (*in)[0] != mshadow::kUint8) {
    MX_THROW(dmlc::TypeError) << "_cvimdecode: buf must be a uint8 NDArray of encoded bytes, "
                              << "but got dtype " << mshadow::dtype_string((*in)[0]);
  }
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kUint8);
  return true;
}

void CopyPixels(const std::vector<uint8_t>& pixels, const TBlob& out, const char* who) {
  if (pixels.size() != out.shape_.Size()) {
    MX_THROW(dmlc::ValueError) << who << ": decoded " << pixels.size() << " bytes but the output "
                               << "has shape " << out.shape_;
  }
  std::memcpy(out.dptr_, pixels.data(), pixels.size());
}

void ImdecodeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ImdecodeParam& p = nnvm::get<ImdecodeParam>(attrs.parsed);
  const TBlob& buf = inputs[0];
  CheckBuffer(buf);
  const auto* bytes = static_cast<const uint8_t*>(buf.dptr_);
  const size_t size = buf.shape_.Size();
  std::vector<uint8_t> pixels;
  if (!DecodeCache::Get()->Take(CallKey(buf.dptr_, "", p.flag, p.to_rgb), bytes, size, &pixels)) {
    ImageInfo info;
    pixels = DecodeImage(bytes, size, p.flag, p.to_rgb, &info, "_cvimdecode");
  }
  CopyPixels(pixels, outputs[0], "_cvimdecode");
}

// ---- _cvimread ---------------------------------------------------------------------------------

void ImreadDataShape(const nnvm::NodeAttrs& attrs, const std::vector<TBlob>& inputs,
                     mxnet::ShapeVector* out_shapes) {
  const ImreadParam& p = nnvm::get<ImreadParam>(attrs.parsed);
  DecodedImage image;
  image.source = ReadWholeFile(p.filename, "_cvimread");
  ImageInfo info;
  const std::string who = "_cvimread('" + p.filename + "')";
  image.pixels = DecodeImage(reinterpret_cast<const uint8_t*>(image.source.data()),
                             image.source.size(), p.flag, p.to_rgb, &info, who.c_str());
  // The file is read again by FCompute only if the hand-over fails; the key holds no pointer.
  DecodeCache::Get()->Put(CallKey(nullptr, p.filename, p.flag, p.to_rgb), std::move(image));
  (*out_shapes)[0] = DecodedShape(info, p.flag);
}

bool ImreadType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, mshadow::kUint8);
  return true;
}

void ImreadCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const ImreadParam& p = nnvm::get<ImreadParam>(attrs.parsed);
  const std::string who = "_cvimread('" + p.filename + "')";
  const std::string source = ReadWholeFile(p.filename, "_cvimread");
  const auto* bytes = reinterpret_cast<const uint8_t*>(source.data());
  std::vector<uint8_t> pixels;
  if (!DecodeCache::Get()->Take(CallKey(nullptr, p.filename, p.flag, p.to_rgb), bytes,
                                source.size(), &pixels)) {
    ImageInfo info;
    pixels = DecodeImage(bytes, source.size(), p.flag, p.to_rgb, &info, who.c_str());
  }
  CopyPixels(pixels, outputs[0], who.c_str());
}

// ---- _cvcopyMakeBorder -------------------------------------------------------------------------

enum BorderType { kConstant = 0, kReplicate = 1, kReflect = 2, kWrap = 3, kReflect101 = 4 };
/*! \brief OpenCV's BORDER_ISOLATED flag (16) may be or-ed in; it changes nothing for a whole
 *         image (there is no parent image to read from), so it is dropped. */
constexpr int kBorderIsolated = 16;
inline int BorderBase(int type) { return type & ~kBorderIsolated; }

bool MakeBorderShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                     mxnet::ShapeVector* out) {
  const MakeBorderParam& p = nnvm::get<MakeBorderParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  if (s.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: src must be an image of shape (height, "
                               << "width, channels), but got " << s;
  }
  if (p.top < 0 || p.bot < 0 || p.left < 0 || p.right < 0) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: margins must be >= 0, got top=" << p.top
                               << " bot=" << p.bot << " left=" << p.left << " right=" << p.right;
  }
  const int border = BorderBase(p.type);
  if (border < kConstant || border > kReflect101) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: type must be 0 (constant), 1 (replicate), "
                               << "2 (reflect), 3 (wrap) or 4 (reflect_101), optionally + 16 "
                               << "(isolated), got " << p.type;
  }
  if (p.values.ndim() > 4) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: values holds at most 4 channel values, got "
                               << p.values;
  }
  if (!shape_is_known(s)) return false;
  if (border != kConstant && (s[0] == 0 || s[1] == 0)) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: an empty image " << s
                               << " can only be padded with type=0 (constant)";
  }
  SHAPE_ASSIGN_CHECK(*out, 0,
                     mxnet::TShape({s[0] + p.top + p.bot, s[1] + p.left + p.right, s[2]}));
  return true;
}

/*! \brief OpenCV's borderInterpolate: the source index of position p on an axis of length n,
 *         or -1 for the constant border. */
index_t BorderIndex(index_t p, index_t n, int type) {
  if (p >= 0 && p < n) return p;
  switch (type) {
    case kReplicate: return p < 0 ? 0 : n - 1;
    case kWrap: return ((p % n) + n) % n;
    case kReflect:
    case kReflect101: {
      if (n == 1) return 0;
      const index_t delta = type == kReflect101 ? 1 : 0;
      do {
        p = p < 0 ? -p - 1 + delta : n - 1 - (p - n) - delta;
      } while (p < 0 || p >= n);
      return p;
    }
    default: return -1;
  }
}

/*! \brief A fill value stored as OpenCV's saturate_cast does: integers round and clamp. */
template <typename DType>
DType SaturateRound(double v) {
  if constexpr (std::is_integral<DType>::value) {
    const double lo = static_cast<double>(std::numeric_limits<DType>::min());
    const double hi = static_cast<double>(std::numeric_limits<DType>::max());
    const double r = std::nearbyint(v);
    return static_cast<DType>(r < lo ? lo : (r > hi ? hi : r));
  } else {
    return static_cast<DType>(v);
  }
}

template <typename DType>
void MakeBorder(const MakeBorderParam& p, const TBlob& in, const TBlob& out) {
  const index_t h = in.shape_[0], w = in.shape_[1], c = in.shape_[2];
  const index_t oh = out.shape_[0], ow = out.shape_[1];
  // Deprecated `value` fills every channel; `values` gives one value per channel (rest 0).
  std::vector<DType> fill(c);
  for (index_t k = 0; k < c; ++k) {
    const double v = p.values.ndim() > 0 ? (k < p.values.ndim() ? p.values[k] : 0.0) : p.value;
    fill[k] = SaturateRound<DType>(v);
  }
  std::vector<index_t> cols(ow);
  const int border = BorderBase(p.type);
  for (index_t x = 0; x < ow; ++x) cols[x] = BorderIndex(x - p.left, w, border);
  const DType* src = in.dptr<DType>();
  DType* dst = out.dptr<DType>();
  #pragma omp parallel for
  for (index_t y = 0; y < oh; ++y) {
    const index_t sy = BorderIndex(y - p.top, h, border);
    DType* row = dst + y * ow * c;
    for (index_t x = 0; x < ow; ++x) {
      const index_t sx = cols[x];
      if (sy < 0 || sx < 0) {
        std::copy(fill.begin(), fill.end(), row + x * c);
      } else {
        const DType* px = src + (sy * w + sx) * c;
        std::copy(px, px + c, row + x * c);
      }
    }
  }
}

void MakeBorderCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(dmlc::ValueError) << "_cvcopyMakeBorder: req='add' is not supported";
  }
  const MakeBorderParam& p = nnvm::get<MakeBorderParam>(attrs.parsed);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    MakeBorder<DType>(p, inputs[0], outputs[0]);
  });
}

}  // namespace

NNVM_REGISTER_OP(_cvimdecode)
.describe(R"code(Decode image with OpenCV.
Note: return image in RGB by default, instead of OpenCV's default BGR.

Decodes JPEG or PNG bytes (a 1-D uint8 NDArray) into an (height, width, channels) uint8 image:
1 channel when flag is 0, 3 (RGB, or BGR with to_rgb=False) otherwise.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(op::ParamParser<ImdecodeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"buf"};
})
.set_attr<FDataDependentShape>("FDataDependentShape", ImdecodeDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", ImdecodeShape)
.set_attr<nnvm::FInferType>("FInferType", ImdecodeType)
.set_attr<FCompute>("FCompute<cpu>", ImdecodeCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("buf", "NDArray", "Buffer containing binary encoded image")
.add_arguments(ImdecodeParam::__FIELDS__());

NNVM_REGISTER_OP(_cvimread)
.describe(R"code(Read and decode image with OpenCV.
Note: return image in RGB by default, instead of OpenCV's default BGR.

Reads a JPEG or PNG file into an (height, width, channels) uint8 image, like _cvimdecode.
)code" ADD_FILELINE)
.set_num_inputs(0)
.set_num_outputs(1)
.set_attr_parser(op::ParamParser<ImreadParam>)
.set_attr<FDataDependentShape>("FDataDependentShape", ImreadDataShape)
.set_attr<mxnet::FInferShape>("FInferShape", ImdecodeShape)
.set_attr<nnvm::FInferType>("FInferType", ImreadType)
.set_attr<FCompute>("FCompute<cpu>", ImreadCompute)
.set_attr<bool>("TNonDifferentiable", true)
.add_arguments(ImreadParam::__FIELDS__());

NNVM_REGISTER_OP(_cvcopyMakeBorder)
.describe(R"code(Pad image border with OpenCV.

Pads an (height, width, channels) image by top/bot rows and left/right columns. type follows
OpenCV's border codes: 0 constant (values per channel, or value for all), 1 replicate,
2 reflect (fedcba|abcdef), 3 wrap, 4 reflect_101 (gfedcb|abcdefg).
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(op::ParamParser<MakeBorderParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"src"};
})
.set_attr<mxnet::FInferShape>("FInferShape", MakeBorderShape)
.set_attr<nnvm::FInferType>("FInferType", op::ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", MakeBorderCompute)
#if MXNET_USE_CUDA  // host path: padding of a decoded image, as the image pipeline does it
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(MakeBorderCompute))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("src", "NDArray", "source image")
.add_arguments(MakeBorderParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
