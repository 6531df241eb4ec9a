/*!
 * \file recordio.h
 * \brief MXNet's RecordIO file format (dmlc RecordIO), writer and reader.
 *
 * Each part on disk: u32 magic 0xced7230a | u32 lrec = (cflag << 29) | length | payload, padded
 * with zeros to a multiple of 4 bytes. A payload that contains the magic at a 4-byte aligned
 * offset is split there (the magic itself is not stored): cflag 1 = first part, 2 = middle,
 * 3 = last, 0 = a whole record. The reader re-inserts the magic between parts.
 *
 *   RecordIOWriter w("f.rec");  w.WriteRecord(buf, n);  size_t pos = w.Tell();
 *   RecordIOReader r("f.rec");  std::string rec;  while (r.NextRecord(&rec)) use(rec);
 */
#ifndef MXNET_IO_RECORDIO_H_
#define MXNET_IO_RECORDIO_H_

#include <cstdint>
#include <cstdio>
#include <string>

namespace mxnet {
namespace io {

constexpr uint32_t kRecordIOMagic = 0xced7230a;
/*! \brief Records (and parts) must be shorter than 2^29 bytes: the length has 29 bits. */
constexpr uint32_t kRecordIOMaxLength = (1U << 29) - 1;

class RecordIOWriter {
 public:
  /*! \brief Create (truncate) the file at `path`; raises if it cannot be opened. */
  explicit RecordIOWriter(const std::string& path);
  ~RecordIOWriter();
  void WriteRecord(const void* buf, size_t size);
  /*! \brief Bytes written so far (the offset the next record starts at). */
  size_t Tell() const { return pos_; }

 private:
  void WritePart(uint32_t cflag, const char* data, uint32_t length);
  void WriteBytes(const void* data, size_t size);
  std::string path_;
  std::FILE* file_{nullptr};
  size_t pos_{0};
};

class RecordIOReader {
 public:
  /*! \brief Open the file at `path`; raises if it cannot be opened. */
  explicit RecordIOReader(const std::string& path);
  ~RecordIOReader();
  /*!
   * \brief Read the next record into `out`; false at a clean end of file. Raises on a bad magic
   *        number or a truncated record, naming the file and offset.
   */
  bool NextRecord(std::string* out);
  /*! \brief Move to byte offset `pos` (a value Tell returned, or a writer's Tell). */
  void Seek(size_t pos);
  size_t Tell() const { return pos_; }

 private:
  /*! \brief Read exactly `size` bytes; false if the file ends before the first byte. */
  bool ReadExact(void* buf, size_t size, bool eof_ok, const char* what);
  std::string path_;
  std::FILE* file_{nullptr};
  size_t pos_{0};
};

}  // namespace io
}  // namespace mxnet

#endif  // MXNET_IO_RECORDIO_H_
