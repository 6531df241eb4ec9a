/*!
 * \file file_util.cc
 * \brief Whole-file reads for the data iterators.
 */
#include "./file_util.h"

#include <dirent.h>
#include <sys/stat.h>
#include <dmlc/logging.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#if MXNET_USE_ZLIB
#include <zlib.h>
#endif

namespace mxnet {
namespace io {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> ListFiles(const std::string& path) {
  std::vector<std::string> files;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return files;
  while (dirent* entry = ::readdir(dir)) {
    std::string full = path + (path.back() == '/' ? "" : "/") + entry->d_name;
    struct stat st;
    if (::stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode)) files.push_back(full);
  }
  ::closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> ReadWholeFile(const std::string& path, const std::string& what) {
  if (IsDirectory(path)) {
    LOG(FATAL) << what << " '" << path << "' is a directory, expected a file";
  }
  std::vector<uint8_t> bytes;
#if MXNET_USE_ZLIB
  // gzread passes plain (not gzip) files through unchanged.
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    LOG(FATAL) << what << " '" << path << "' cannot be opened: " << std::strerror(errno);
  }
  std::unique_ptr<gzFile_s, int (*)(gzFile)> guard(f, gzclose);
  std::vector<uint8_t> chunk(1 << 20);
  while (true) {
    int n = gzread(f, chunk.data(), static_cast<unsigned>(chunk.size()));
    if (n < 0) {
      int code = 0;
      const char* msg = gzerror(f, &code);
      LOG(FATAL) << what << " '" << path << "' is corrupt or truncated: " << msg;
    }
    if (n == 0) break;
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
  }
  int code = 0;
  const char* msg = gzerror(f, &code);
  if (code != Z_OK && code != Z_STREAM_END) {
    LOG(FATAL) << what << " '" << path << "' is corrupt or truncated: " << msg;
  }
#else
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    LOG(FATAL) << what << " '" << path << "' cannot be opened: " << std::strerror(errno);
  }
  std::unique_ptr<FILE, int (*)(FILE*)> guard(f, std::fclose);
  std::vector<uint8_t> chunk(1 << 20);
  size_t n;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), f)) > 0) {
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
  }
#endif
  return bytes;
}

}  // namespace io
}  // namespace mxnet
