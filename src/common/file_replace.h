/*!
 * \file file_replace.h
 * \brief Writes a file so that a failure part way leaves the previous file intact.
 */
#ifndef MXNET_COMMON_FILE_REPLACE_H_
#define MXNET_COMMON_FILE_REPLACE_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include <dmlc/logging.h>

namespace mxnet {
namespace common {

/*!
 * \brief Calls write(stream) on a new file next to `path` and renames it over `path` once the
 *  write is complete, so an exception in `write` (an array whose computation failed) or a full
 *  disk leaves an existing checkpoint as it was. What is not a regular file (a pipe, /dev/null,
 *  a symbolic link) is written in place.
 */
inline void WriteFileReplacing(const std::string& path,
                               const std::function<void(std::ostream*)>& write) {
  struct stat info;
  const bool in_place = lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
  const std::string target = in_place ? path : path + ".tmp-" + std::to_string(getpid());
  try {
    std::ofstream out(target, std::ios::binary);
    if (!out) throw dmlc::ValueError("cannot open '" + target + "' for writing");
    write(&out);
    out.close();
    if (!out) throw dmlc::Error("failed writing '" + target + "'");
    if (!in_place && std::rename(target.c_str(), path.c_str()) != 0) {
      throw dmlc::Error("cannot rename '" + target + "' to '" + path + "'");
    }
  } catch (...) {
    if (!in_place) std::remove(target.c_str());
    throw;
  }
}

}  // namespace common
}  // namespace mxnet

#endif  // MXNET_COMMON_FILE_REPLACE_H_
