/*!
 * \file dmlc/base.h
 * \brief Small macros and helpers shared by the dmlc-style headers (registry, parameter, json).
 *
 *   static DMLC_ATTRIBUTE_UNUSED int x = 0;
 *   size_t h = dmlc::HashCombine(dmlc::HashCombine(0, a), b);
 */
#ifndef DMLC_BASE_H_
#define DMLC_BASE_H_

#include <dmlc/logging.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#define DMLC_ATTRIBUTE_UNUSED __attribute__((unused))
#define DMLC_STR_CONCAT_(x, y) x##y
#define DMLC_STR_CONCAT(x, y) DMLC_STR_CONCAT_(x, y)
#define DMLC_STRINGIZE_(x) #x
#define DMLC_STRINGIZE(x) DMLC_STRINGIZE_(x)
#define DMLC_THROW_EXCEPTION noexcept(false)
#define DMLC_NO_INLINE __attribute__((noinline))
#define DMLC_USE_CXX11 1

namespace dmlc {

/*! \brief Mix the hash of `value` into `key` (boost::hash_combine). */
template <typename T>
inline size_t HashCombine(size_t key, const T& value) {
  return key ^ (std::hash<T>()(value) + 0x9e3779b9 + (key << 6) + (key >> 2));
}

/*! \brief Pointer to the first element, or nullptr for an empty vector. */
template <typename T>
inline T* BeginPtr(std::vector<T>& vec) {  // NOLINT(runtime/references)
  return vec.empty() ? nullptr : &vec[0];
}
template <typename T>
inline const T* BeginPtr(const std::vector<T>& vec) {
  return vec.empty() ? nullptr : &vec[0];
}
inline char* BeginPtr(std::string& str) {  // NOLINT(runtime/references)
  return str.empty() ? nullptr : &str[0];
}
inline const char* BeginPtr(const std::string& str) { return str.empty() ? nullptr : &str[0]; }

}  // namespace dmlc

#endif  // DMLC_BASE_H_
