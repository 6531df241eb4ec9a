/*!
 * \file common/env_util.h
 * \brief Reading MXNET_* environment variables with defaults and a clear error on bad values.
 *
 *   int64_t copies = common::GetEnvInt("MXNET_CPU_TEMP_COPY", 4);
 *   std::string pool = common::GetEnvString("MXNET_CPU_MEM_POOL_TYPE", "Naive");
 */
#ifndef MXNET_COMMON_ENV_UTIL_H_
#define MXNET_COMMON_ENV_UTIL_H_

#include <dmlc/logging.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace mxnet {
namespace common {

/*! \brief Value of `name`, or `fallback` when unset or empty. */
inline std::string GetEnvString(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v == nullptr || *v == '\0') ? fallback : std::string(v);
}

/*! \brief Integer value of `name`, or `fallback` when unset or empty; throws ValueError if
 *         the value is not an integer. */
inline int64_t GetEnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0') {
    MX_THROW(::dmlc::ValueError) << "environment variable " << name
                                 << ": expected an integer, got '" << v << "'";
  }
  return static_cast<int64_t>(parsed);
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_ENV_UTIL_H_
