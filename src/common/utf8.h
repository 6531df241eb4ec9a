// UTF-8 validation for text that file formats carry (symbol JSON, NDArray file names): a loader
// refuses bytes that are not UTF-8 instead of handing the front end a string it cannot decode.
#ifndef MXNET_COMMON_UTF8_H_
#define MXNET_COMMON_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mxnet {
namespace common {

// Offset of the first byte that does not belong to a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points past U+10FFFF included), or npos when the whole text is UTF-8.
inline size_t FindInvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t code;
    if ((c & 0xE0) == 0xC0) {
      len = 2, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, code = c & 0x07;
    } else {
      return i;
    }
    if (n - i < len) return i;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    static constexpr uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kMinForLength[len] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_UTF8_H_
