/*!
 * \file c_api_image.cc
 * \brief C API of the image codec (src/io/image_codec.h): encode/decode for recordio's
 *        pack_img / unpack_img, which work on NumPy arrays rather than NDArrays.
 */
#include <mxnet/c_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../common/image_codec.h"
#include "./c_api_common.h"

int MXImageEncode(const void* img, int height, int width, int channels, int is_rgb,
                  const char* ext, int quality, const char** out_buf, size_t* out_size) {
  thread_local std::string encoded;
  API_BEGIN();
  API_NOT_NULL(img);
  API_NOT_NULL(ext);
  API_NOT_NULL(out_buf);
  API_NOT_NULL(out_size);
  encoded = mxnet::image_codec::EncodeImage(ext, static_cast<const uint8_t*>(img), height, width, channels,
                                   is_rgb != 0, quality, "pack_img");
  *out_buf = encoded.data();
  *out_size = encoded.size();
  API_END();
}

int MXImageDecode(const void* buf, size_t size, int flag, int to_rgb,
                  const unsigned char** out_pixels, int* height, int* width, int* channels) {
  thread_local std::vector<uint8_t> pixels;
  API_BEGIN();
  mxnet::image_codec::ImageInfo info;
  pixels = mxnet::image_codec::DecodeImage(static_cast<const uint8_t*>(buf), size, flag, to_rgb != 0,
                                  &info, "unpack_img");
  *out_pixels = pixels.data();
  *height = info.height;
  *width = info.width;
  *channels = mxnet::image_codec::DecodedChannels(flag, info);
  API_END();
}
