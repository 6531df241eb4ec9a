/*!
 * \file image_codec.h
 * \brief JPEG (libjpeg-turbo) and PNG (libpng) decoding and encoding of 8-bit images, with the
 *        conventions of OpenCV's imdecode / imencode that MXNet 1.9.1 relies on.
 *
 * Decoded images are (height, width, channels) uint8, row-major:
 *   flag 0: 1 channel (grey; colour sources converted the way OpenCV does: libjpeg's Y channel,
 *           libpng's rgb_to_gray with weights 0.299 / 0.587);
 *   flag != 0: 3 channels, RGB when to_rgb else BGR (grey sources replicated; alpha dropped;
 *           16-bit PNG samples keep their high byte; palettes expanded; CMYK JPEGs converted).
 *
 *   ImageInfo info = ReadImageInfo(bytes, n, "_cvimdecode");      // header only
 *   std::vector<uint8_t> hwc(info.height * info.width * DecodedChannels(flag, info));
 *   DecodeImage(bytes, n, flag, to_rgb, hwc.data(), info, "_cvimdecode");
 *   std::string jpg = EncodeImage(".jpg", hwc.data(), h, w, 3, false, 95, "pack_img");
 *
 * Every failure (empty, unknown format, corrupt or truncated data) throws dmlc::Error (a
 * ValueError) whose message starts with the caller's name (`who`); nothing aborts the process.
 */
#ifndef MXNET_COMMON_IMAGE_CODEC_H_
#define MXNET_COMMON_IMAGE_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mxnet {
namespace image_codec {

enum class ImageFormat { kUnknown, kJPEG, kPNG };

/*! \brief The format named by the leading magic bytes. */
ImageFormat DetectImageFormat(const uint8_t* data, size_t size);

struct ImageInfo {
  ImageFormat format{ImageFormat::kUnknown};
  int height{0};
  int width{0};
  int channels{0};  // samples per pixel in the file (after palette expansion)
};

/*!
 * \brief Channels of a decoded image for OpenCV-style `flag`: 0 grey, > 0 colour, < 0 as the file
 *        has it (grey stays grey, colour becomes 3 channels: alpha is always dropped).
 */
inline int DecodedChannels(int flag, const ImageInfo& info) {
  if (flag < 0) return info.channels <= 2 ? 1 : 3;
  return flag == 0 ? 1 : 3;
}

/*! \brief Reads the header only; throws when the bytes are not a JPEG/PNG or it is corrupt. */
ImageInfo ReadImageInfo(const uint8_t* data, size_t size, const char* who);

/*!
 * \brief Decodes into `out` (height * width * DecodedChannels(flag, info) bytes), `info` from
 *        ReadImageInfo of the same bytes. Truncated or corrupt data throws.
 */
void DecodeImage(const uint8_t* data, size_t size, int flag, bool to_rgb, const ImageInfo& info,
                 uint8_t* out, const char* who);

/*! \brief ReadImageInfo + DecodeImage into a new buffer; `info` receives the header. */
std::vector<uint8_t> DecodeImage(const uint8_t* data, size_t size, int flag, bool to_rgb,
                                 ImageInfo* info, const char* who);

/*!
 * \brief Encodes an (h, w, c) uint8 image, c = 1 or 3 (4 for PNG: with alpha), whose colour
 *        channels are RGB when `is_rgb` else BGR (OpenCV's order).
 * \param ext ".jpg"/".jpeg" or ".png" (any case).
 * \param quality JPEG quality 1..100, or PNG compression level (clamped to 0..9).
 */
std::string EncodeImage(const std::string& ext, const uint8_t* img, int h, int w, int c,
                        bool is_rgb, int quality, const char* who);

}  // namespace image_codec
}  // namespace mxnet

#endif  // MXNET_COMMON_IMAGE_CODEC_H_
