// Tests of src/io/image_codec: PNG round trips are exact (grey/colour, RGB/BGR), JPEG round trips
// are close, header reading, OpenCV's grey/colour conversions, and that truncated, corrupt or
// random bytes throw a ValueError naming the caller instead of crashing.
#include <gtest/gtest.h>
#include <dmlc/logging.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "common/image_codec.h"

namespace {

using mxnet::image_codec::DecodeImage;
using mxnet::image_codec::DetectImageFormat;
using mxnet::image_codec::EncodeImage;
using mxnet::image_codec::ImageFormat;
using mxnet::image_codec::ImageInfo;
using mxnet::image_codec::ReadImageInfo;

std::vector<uint8_t> RandomImage(int h, int w, int c, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> img(static_cast<size_t>(h) * w * c);
  for (auto& v : img) v = static_cast<uint8_t>(rng() & 0xff);
  return img;
}

std::vector<uint8_t> Decode(const std::string& bytes, int flag, bool to_rgb, ImageInfo* info) {
  return DecodeImage(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), flag, to_rgb,
                     info, "test");
}

TEST(ImageCodec, PngRoundTripIsExact) {
  const int h = 5, w = 7;
  const std::vector<uint8_t> rgb = RandomImage(h, w, 3, 1);
  const std::string png = EncodeImage(".png", rgb.data(), h, w, 3, true, 3, "test");
  EXPECT_EQ(DetectImageFormat(reinterpret_cast<const uint8_t*>(png.data()), png.size()),
            ImageFormat::kPNG);
  ImageInfo info;
  EXPECT_EQ(Decode(png, 1, true, &info), rgb);
  EXPECT_EQ(info.height, h);
  EXPECT_EQ(info.width, w);
  EXPECT_EQ(info.channels, 3);
  // BGR output is the same pixels with the first and last channel swapped.
  const std::vector<uint8_t> bgr = Decode(png, 1, false, &info);
  for (int i = 0; i < h * w; ++i) {
    EXPECT_EQ(bgr[3 * i], rgb[3 * i + 2]);
    EXPECT_EQ(bgr[3 * i + 1], rgb[3 * i + 1]);
    EXPECT_EQ(bgr[3 * i + 2], rgb[3 * i]);
  }
  // Encoding BGR input with is_rgb=false gives back the RGB image.
  const std::string png2 = EncodeImage(".PNG", bgr.data(), h, w, 3, false, 9, "test");
  EXPECT_EQ(Decode(png2, 1, true, &info), rgb);
}

TEST(ImageCodec, PngGreyReplicatesToColourAndStaysGrey) {
  const int h = 4, w = 3;
  const std::vector<uint8_t> grey = RandomImage(h, w, 1, 2);
  const std::string png = EncodeImage(".png", grey.data(), h, w, 1, true, 1, "test");
  ImageInfo info;
  EXPECT_EQ(Decode(png, 0, true, &info), grey);
  EXPECT_EQ(info.channels, 1);
  EXPECT_EQ(Decode(png, -1, true, &info), grey);  // "unchanged" keeps one channel
  const std::vector<uint8_t> colour = Decode(png, 1, true, &info);
  ASSERT_EQ(colour.size(), grey.size() * 3);
  for (size_t i = 0; i < grey.size(); ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(colour[3 * i + k], grey[i]);
  }
}

TEST(ImageCodec, PngAlphaIsDropped) {
  const int h = 3, w = 4;
  const std::vector<uint8_t> rgba = RandomImage(h, w, 4, 3);
  const std::string png = EncodeImage(".png", rgba.data(), h, w, 4, true, 6, "test");
  ImageInfo info;
  const std::vector<uint8_t> rgb = Decode(png, 1, true, &info);
  EXPECT_EQ(info.channels, 4);
  for (int i = 0; i < h * w; ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(rgb[3 * i + k], rgba[4 * i + k]);
  }
}

TEST(ImageCodec, JpegRoundTripIsClose) {
  // A smooth image: JPEG at quality 100 keeps it within a few levels.
  const int h = 16, w = 24;
  std::vector<uint8_t> rgb(h * w * 3);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      rgb[(y * w + x) * 3 + 0] = static_cast<uint8_t>(40 + 4 * x);
      rgb[(y * w + x) * 3 + 1] = static_cast<uint8_t>(60 + 5 * y);
      rgb[(y * w + x) * 3 + 2] = 128;
    }
  }
  const std::string jpg = EncodeImage(".jpg", rgb.data(), h, w, 3, true, 100, "test");
  EXPECT_EQ(DetectImageFormat(reinterpret_cast<const uint8_t*>(jpg.data()), jpg.size()),
            ImageFormat::kJPEG);
  const ImageInfo header = ReadImageInfo(reinterpret_cast<const uint8_t*>(jpg.data()),
                                         jpg.size(), "test");
  EXPECT_EQ(header.height, h);
  EXPECT_EQ(header.width, w);
  EXPECT_EQ(header.channels, 3);
  ImageInfo info;
  const std::vector<uint8_t> back = Decode(jpg, 1, true, &info);
  ASSERT_EQ(back.size(), rgb.size());
  int worst = 0;
  for (size_t i = 0; i < rgb.size(); ++i) worst = std::max(worst, std::abs(back[i] - rgb[i]));
  EXPECT_LE(worst, 4);
  // Grey decode is the luma: 0.299 R + 0.587 G + 0.114 B.
  const std::vector<uint8_t> grey = Decode(jpg, 0, true, &info);
  ASSERT_EQ(grey.size(), static_cast<size_t>(h * w));
  for (int i = 0; i < h * w; ++i) {
    const double luma = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
    EXPECT_NEAR(grey[i], luma, 4.0);
  }
  // Lower quality makes a smaller file.
  const std::string small = EncodeImage(".jpeg", rgb.data(), h, w, 3, true, 10, "test");
  EXPECT_LT(small.size(), jpg.size());
}

void ExpectDecodeError(const std::string& bytes, const std::string& fragment) {
  try {
    ImageInfo info;
    Decode(bytes, 1, true, &info);
    ADD_FAILURE() << "decoding did not throw (" << fragment << ")";
  } catch (const dmlc::ValueError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("test: "), std::string::npos) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
  }
}

TEST(ImageCodec, BadBytesThrowNamingTheCaller) {
  ExpectDecodeError("", "empty");
  ExpectDecodeError("GIF89a....", "unsupported image format");
  const std::vector<uint8_t> img = RandomImage(12, 10, 3, 4);
  const std::string png = EncodeImage(".png", img.data(), 12, 10, 3, true, 1, "test");
  const std::string jpg = EncodeImage(".jpg", img.data(), 12, 10, 3, true, 90, "test");
  // Every truncation of both files throws (never crashes, never returns garbage).
  for (size_t n = 1; n < png.size() - 12; n += 3) ExpectDecodeError(png.substr(0, n), "PNG");
  for (size_t n = 3; n < jpg.size() - 2; n += 7) ExpectDecodeError(jpg.substr(0, n), "JPEG");
  // Random bytes behind valid magic numbers.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    std::string junk(200, '\0');
    for (char& ch : junk) ch = static_cast<char>(rng() & 0xff);
    const std::string fake_jpg = std::string("\xff\xd8\xff", 3) + junk;
    const std::string fake_png = png.substr(0, 8) + junk;
    ExpectDecodeError(fake_jpg, "JPEG");
    ExpectDecodeError(fake_png, "PNG");
  }
  // A corrupted CRC in the pixel data chunk.
  std::string bad = png;
  bad[bad.size() - 20] ^= 0x55;
  ExpectDecodeError(bad, "PNG");
}

TEST(ImageCodec, EncodeRejectsBadArguments) {
  const std::vector<uint8_t> img = RandomImage(2, 2, 4, 6);
  EXPECT_THROW(EncodeImage(".jpg", img.data(), 2, 2, 4, true, 90, "test"), dmlc::ValueError);
  EXPECT_THROW(EncodeImage(".bmp", img.data(), 2, 2, 3, true, 90, "test"), dmlc::ValueError);
  EXPECT_THROW(EncodeImage(".png", img.data(), 0, 2, 3, true, 1, "test"), dmlc::ValueError);
}

}  // namespace
