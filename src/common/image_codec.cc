/*!
 * \file image_codec.cc
 * \brief JPEG/PNG decoding and encoding over libjpeg-turbo and libpng (see image_codec.h).
 *
 * Both libraries report fatal errors through a callback that must not return; we longjmp back
 * to the function that called setjmp. Those functions are written C-style: no local object with
 * a destructor lives across the setjmp, and they report failure through a fixed char buffer that
 * the C++ caller turns into an exception afterwards.
 */
#include "./image_codec.h"

#include <dmlc/logging.h>
// jpeglib.h needs size_t and FILE declared first.
#include <cstdio>
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mxnet {
namespace image_codec {
namespace {

constexpr size_t kMessageSize = 512;

/*! \brief Copies `msg` into a fixed buffer (usable from the longjmp-ing callbacks). */
void SetMessage(char* buf, const char* msg) {
  std::strncpy(buf, msg, kMessageSize - 1);
  buf[kMessageSize - 1] = '\0';
}

[[noreturn]] void ThrowCodecError(const char* who, const std::string& what) {
  throw dmlc::ValueError(std::string(who) + ": " + what);
}

// ---- JPEG ---------------------------------------------------------------------------------

struct JpegErrorState {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[kMessageSize];
};

void JpegErrorExit(j_common_ptr cinfo) {
  auto* state = reinterpret_cast<JpegErrorState*>(cinfo->err);
  char buf[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buf);
  SetMessage(state->message, buf);
  std::longjmp(state->jump, 1);
}

/*!
 * \brief Warnings are silent, except the ones saying the data ended early: libjpeg would pad
 *        the rest of the image with grey, we report the file as truncated instead.
 */
void JpegEmitMessage(j_common_ptr cinfo, int level) {
  if (level >= 0) return;  // trace messages
  const int code = cinfo->err->msg_code;
  if (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) {
    auto* state = reinterpret_cast<JpegErrorState*>(cinfo->err);
    char buf[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buf);
    SetMessage(state->message, (std::string("truncated or corrupt JPEG data (") + buf + ")").c_str());
    std::longjmp(state->jump, 1);
  }
  cinfo->err->num_warnings++;
}

void JpegSilence(j_common_ptr) {}

void InstallJpegErrors(jpeg_decompress_struct* cinfo, JpegErrorState* state) {
  cinfo->err = jpeg_std_error(&state->mgr);
  state->mgr.error_exit = JpegErrorExit;
  state->mgr.emit_message = JpegEmitMessage;
  state->mgr.output_message = JpegSilence;
  state->message[0] = '\0';
}

/*! \brief Reads the JPEG header; false (message in state) on error. */
bool JpegReadInfo(const uint8_t* data, size_t size, ImageInfo* info, JpegErrorState* state) {
  jpeg_decompress_struct cinfo;
  InstallJpegErrors(&cinfo, state);
  if (setjmp(state->jump)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&cinfo, TRUE);
  info->height = static_cast<int>(cinfo.image_height);
  info->width = static_cast<int>(cinfo.image_width);
  info->channels = cinfo.num_components;
  jpeg_destroy_decompress(&cinfo);
  return true;
}

/*!
 * \brief OpenCV's CMYK (Adobe, inverted) to BGR/RGB or grey conversion of one row.
 */
void ConvertCmykRow(const uint8_t* cmyk, int w, int channels, bool to_rgb, uint8_t* out) {
  for (int x = 0; x < w; ++x) {
    const int k = cmyk[4 * x + 3];
    const int c = k - ((255 - cmyk[4 * x]) * k >> 8);
    const int m = k - ((255 - cmyk[4 * x + 1]) * k >> 8);
    const int y = k - ((255 - cmyk[4 * x + 2]) * k >> 8);
    // c, m, y now hold the red, green and blue intensities.
    if (channels == 1) {
      // OpenCV's fixed-point grey weights (14 fractional bits), rounded.
      out[x] = static_cast<uint8_t>((c * 4899 + m * 9617 + y * 1868 + (1 << 13)) >> 14);
    } else {
      out[3 * x + 0] = static_cast<uint8_t>(to_rgb ? c : y);
      out[3 * x + 1] = static_cast<uint8_t>(m);
      out[3 * x + 2] = static_cast<uint8_t>(to_rgb ? y : c);
    }
  }
}

bool JpegDecode(const uint8_t* data, size_t size, int channels, bool to_rgb, int h, int w,
                uint8_t* out, JpegErrorState* state) {
  jpeg_decompress_struct cinfo;
  uint8_t* volatile cmyk_row = nullptr;
  InstallJpegErrors(&cinfo, state);
  if (setjmp(state->jump)) {
    jpeg_destroy_decompress(&cinfo);
    std::free(cmyk_row);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&cinfo, TRUE);
  const bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
  if (cmyk) {
    cinfo.out_color_space = JCS_CMYK;
  } else if (channels == 1) {
    cinfo.out_color_space = JCS_GRAYSCALE;
  } else {
    cinfo.out_color_space = to_rgb ? JCS_RGB : JCS_EXT_BGR;
  }
  jpeg_start_decompress(&cinfo);
  if (static_cast<int>(cinfo.output_width) != w || static_cast<int>(cinfo.output_height) != h) {
    SetMessage(state->message, "JPEG output size differs from its header");
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  if (cmyk) cmyk_row = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(w) * 4));
  while (cinfo.output_scanline < cinfo.output_height) {
    const size_t y = cinfo.output_scanline;
    uint8_t* dst = out + y * static_cast<size_t>(w) * channels;
    JSAMPROW row = cmyk ? cmyk_row : dst;
    jpeg_read_scanlines(&cinfo, &row, 1);
    if (cmyk) ConvertCmykRow(cmyk_row, w, channels, to_rgb, dst);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  std::free(cmyk_row);
  return true;
}

struct JpegCompressErrorState {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[kMessageSize];
};

void JpegCompressErrorExit(j_common_ptr cinfo) {
  auto* state = reinterpret_cast<JpegCompressErrorState*>(cinfo->err);
  char buf[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buf);
  SetMessage(state->message, buf);
  std::longjmp(state->jump, 1);
}

/*! \brief Encodes into a malloc'ed buffer (*buf, *len), freed by the caller. */
bool JpegEncode(const uint8_t* img, int h, int w, int c, bool is_rgb, int quality,
                unsigned char** buf, unsigned long* len, JpegCompressErrorState* state) {
  jpeg_compress_struct cinfo;
  cinfo.err = jpeg_std_error(&state->mgr);
  state->mgr.error_exit = JpegCompressErrorExit;
  state->mgr.output_message = JpegSilence;
  if (setjmp(state->jump)) {
    jpeg_destroy_compress(&cinfo);
    return false;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, buf, len);
  cinfo.image_width = static_cast<JDIMENSION>(w);
  cinfo.image_height = static_cast<JDIMENSION>(h);
  cinfo.input_components = c;
  cinfo.in_color_space = c == 1 ? JCS_GRAYSCALE : (is_rgb ? JCS_RGB : JCS_EXT_BGR);
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(img) + static_cast<size_t>(cinfo.next_scanline) * w * c;
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

// ---- PNG ----------------------------------------------------------------------------------

struct PngState {
  const uint8_t* data;
  size_t size;
  size_t pos;
  std::string* sink;  // encoding: where the bytes go
  char message[kMessageSize];
};

void PngError(png_structp png, png_const_charp msg) {
  auto* state = static_cast<PngState*>(png_get_error_ptr(png));
  SetMessage(state->message, msg);
  png_longjmp(png, 1);
}

void PngWarning(png_structp, png_const_charp) {}

void PngReadBytes(png_structp png, png_bytep out, png_size_t n) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  if (state->size - state->pos < n) png_error(png, "truncated PNG data (the stream ends early)");
  std::memcpy(out, state->data + state->pos, n);
  state->pos += n;
}

void PngWriteBytes(png_structp png, png_bytep in, png_size_t n) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  state->sink->append(reinterpret_cast<const char*>(in), n);
}

void PngFlush(png_structp) {}

bool PngReadInfo(const uint8_t* data, size_t size, ImageInfo* info, PngState* state) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, PngError, PngWarning);
  if (png == nullptr) {
    SetMessage(state->message, "out of memory");
    return false;
  }
  png_infop pinfo = png_create_info_struct(png);
  if (pinfo == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &pinfo, nullptr);
    return false;
  }
  png_set_read_fn(png, state, PngReadBytes);
  png_read_info(png, pinfo);
  info->height = static_cast<int>(png_get_image_height(png, pinfo));
  info->width = static_cast<int>(png_get_image_width(png, pinfo));
  const int color_type = png_get_color_type(png, pinfo);
  info->channels = color_type == PNG_COLOR_TYPE_PALETTE ? 3 : png_get_channels(png, pinfo);
  png_destroy_read_struct(&png, &pinfo, nullptr);
  return true;
}

bool PngDecode(const uint8_t* data, size_t size, int channels, bool to_rgb, int h, int w,
               uint8_t* out, PngState* state) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, PngError, PngWarning);
  if (png == nullptr) {
    SetMessage(state->message, "out of memory");
    return false;
  }
  png_infop pinfo = png_create_info_struct(png);
  png_bytep* volatile rows = nullptr;
  if (pinfo == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &pinfo, nullptr);
    std::free(rows);
    return false;
  }
  png_set_read_fn(png, state, PngReadBytes);
  png_read_info(png, pinfo);
  const int bit_depth = png_get_bit_depth(png, pinfo);
  const int color_type = png_get_color_type(png, pinfo);
  // The transformations OpenCV's PNG decoder asks libpng for (8-bit output, no alpha).
  if (bit_depth == 16) png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0 && bit_depth < 8) {
    png_set_expand_gray_1_2_4_to_8(png);
  }
  if (color_type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
  const bool source_color = (color_type & PNG_COLOR_MASK_COLOR) != 0;
  if (channels == 3) {
    if (!source_color) png_set_gray_to_rgb(png);
    if (!to_rgb) png_set_bgr(png);
  } else if (source_color) {
    png_set_rgb_to_gray(png, 1, 0.299, 0.587);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, pinfo);
  const size_t row_bytes = static_cast<size_t>(w) * channels;
  if (png_get_rowbytes(png, pinfo) != row_bytes) {
    SetMessage(state->message, "unsupported PNG pixel layout");
    png_destroy_read_struct(&png, &pinfo, nullptr);
    return false;
  }
  rows = static_cast<png_bytep*>(std::malloc(sizeof(png_bytep) * h));
  for (int y = 0; y < h; ++y) rows[y] = out + y * row_bytes;
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &pinfo, nullptr);
  std::free(rows);
  return true;
}

bool PngEncode(const uint8_t* img, int h, int w, int c, bool is_rgb, int level, PngState* state) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, PngError, PngWarning);
  if (png == nullptr) {
    SetMessage(state->message, "out of memory");
    return false;
  }
  png_infop pinfo = png_create_info_struct(png);
  if (pinfo == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &pinfo);
    return false;
  }
  png_set_write_fn(png, state, PngWriteBytes, PngFlush);
  png_set_compression_level(png, level);
  const int color_type = c == 1 ? PNG_COLOR_TYPE_GRAY
                       : c == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR(png, pinfo, w, h, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, pinfo);
  if (c > 1 && !is_rgb) png_set_bgr(png);
  for (int y = 0; y < h; ++y) {
    png_write_row(png, const_cast<uint8_t*>(img) + static_cast<size_t>(y) * w * c);
  }
  png_write_end(png, pinfo);
  png_destroy_write_struct(&png, &pinfo);
  return true;
}

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

ImageFormat DetectImageFormat(const uint8_t* data, size_t size) {
  static const uint8_t kPngMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) return ImageFormat::kJPEG;
  if (size >= 8 && std::memcmp(data, kPngMagic, 8) == 0) return ImageFormat::kPNG;
  return ImageFormat::kUnknown;
}

ImageInfo ReadImageInfo(const uint8_t* data, size_t size, const char* who) {
  if (size == 0) ThrowCodecError(who, "the image buffer is empty");
  ImageInfo info;
  info.format = DetectImageFormat(data, size);
  if (info.format == ImageFormat::kJPEG) {
    JpegErrorState state;
    if (!JpegReadInfo(data, size, &info, &state)) {
      ThrowCodecError(who, std::string("invalid JPEG header: ") + state.message);
    }
  } else if (info.format == ImageFormat::kPNG) {
    PngState state{data, size, 0, nullptr, ""};
    if (!PngReadInfo(data, size, &info, &state)) {
      ThrowCodecError(who, std::string("invalid PNG header: ") + state.message);
    }
  } else {
    ThrowCodecError(who, "unsupported image format: the " + std::to_string(size) +
                         " bytes are neither JPEG (starts with FF D8 FF) nor PNG");
  }
  if (info.height <= 0 || info.width <= 0) {
    ThrowCodecError(who, "the image header gives an empty size " + std::to_string(info.height) +
                         "x" + std::to_string(info.width));
  }
  return info;
}

void DecodeImage(const uint8_t* data, size_t size, int flag, bool to_rgb, const ImageInfo& info,
                 uint8_t* out, const char* who) {
  const int channels = DecodedChannels(flag, info);
  if (info.format == ImageFormat::kJPEG) {
    JpegErrorState state;
    if (!JpegDecode(data, size, channels, to_rgb, info.height, info.width, out, &state)) {
      ThrowCodecError(who, std::string("cannot decode JPEG: ") + state.message);
    }
  } else if (info.format == ImageFormat::kPNG) {
    PngState state{data, size, 0, nullptr, ""};
    if (!PngDecode(data, size, channels, to_rgb, info.height, info.width, out, &state)) {
      ThrowCodecError(who, std::string("cannot decode PNG: ") + state.message);
    }
  } else {
    ThrowCodecError(who, "unsupported image format");
  }
}

std::vector<uint8_t> DecodeImage(const uint8_t* data, size_t size, int flag, bool to_rgb,
                                 ImageInfo* info, const char* who) {
  *info = ReadImageInfo(data, size, who);
  std::vector<uint8_t> out(static_cast<size_t>(info->height) * info->width *
                           DecodedChannels(flag, *info));
  DecodeImage(data, size, flag, to_rgb, *info, out.data(), who);
  return out;
}

std::string EncodeImage(const std::string& ext, const uint8_t* img, int h, int w, int c,
                        bool is_rgb, int quality, const char* who) {
  const std::string e = Lower(ext);
  if (h <= 0 || w <= 0) {
    ThrowCodecError(who, "cannot encode an empty image of size " + std::to_string(h) + "x" +
                         std::to_string(w));
  }
  if (e == ".jpg" || e == ".jpeg") {
    if (c != 1 && c != 3) {
      ThrowCodecError(who, "JPEG encoding needs 1 or 3 channels, got " + std::to_string(c));
    }
    const int q = std::min(100, std::max(1, quality));
    unsigned char* buf = nullptr;
    unsigned long len = 0;
    JpegCompressErrorState state;
    state.message[0] = '\0';
    const bool ok = JpegEncode(img, h, w, c, is_rgb, q, &buf, &len, &state);
    std::string out;
    if (ok) out.assign(reinterpret_cast<const char*>(buf), len);
    std::free(buf);
    if (!ok) ThrowCodecError(who, std::string("JPEG encoding failed: ") + state.message);
    return out;
  }
  if (e == ".png") {
    if (c != 1 && c != 3 && c != 4) {
      ThrowCodecError(who, "PNG encoding needs 1, 3 or 4 channels, got " + std::to_string(c));
    }
    std::string out;
    PngState state{nullptr, 0, 0, &out, ""};
    if (!PngEncode(img, h, w, c, is_rgb, std::min(9, std::max(0, quality)), &state)) {
      ThrowCodecError(who, std::string("PNG encoding failed: ") + state.message);
    }
    return out;
  }
  ThrowCodecError(who, "unsupported image encoding '" + ext + "' (use .jpg, .jpeg or .png)");
}

}  // namespace image_codec
}  // namespace mxnet
