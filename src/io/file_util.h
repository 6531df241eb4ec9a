/*!
 * \file file_util.h
 * \brief Reading whole input files for the data iterators (gzip-compressed files are
 *        decompressed transparently when the library is built with zlib).
 */
#ifndef MXNET_IO_FILE_UTIL_H_
#define MXNET_IO_FILE_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace mxnet {
namespace io {

/*!
 * \brief The bytes of the file at `path` (decompressed if it is gzip). `what` names the file in
 *        errors, e.g. "MNISTIter: image file". Raises if it cannot be opened or read.
 */
std::vector<uint8_t> ReadWholeFile(const std::string& path, const std::string& what);

/*! \brief True if `path` is a directory. */
bool IsDirectory(const std::string& path);

/*! \brief Regular files directly in directory `path`, sorted by name. */
std::vector<std::string> ListFiles(const std::string& path);

}  // namespace io
}  // namespace mxnet

#endif  // MXNET_IO_FILE_UTIL_H_
