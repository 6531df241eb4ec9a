/*!
 * \file recordio.cc
 * \brief RecordIO writer and reader (format in recordio.h).
 */
#include "./recordio.h"

#include <dmlc/logging.h>

#include <cerrno>
#include <cstring>

namespace mxnet {
namespace io {

namespace {
inline uint32_t PaddedLength(uint32_t length) { return (length + 3U) & ~3U; }
}  // namespace

RecordIOWriter::RecordIOWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) {
    LOG(FATAL) << "RecordIO: cannot open '" << path << "' for writing: " << std::strerror(errno);
  }
}

RecordIOWriter::~RecordIOWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void RecordIOWriter::WriteBytes(const void* data, size_t size) {
  if (size == 0) return;
  if (std::fwrite(data, 1, size, file_) != size) {
    LOG(FATAL) << "RecordIO: write to '" << path_ << "' failed: " << std::strerror(errno);
  }
  pos_ += size;
}

void RecordIOWriter::WritePart(uint32_t cflag, const char* data, uint32_t length) {
  const uint32_t header[2] = {kRecordIOMagic, (cflag << 29U) | length};
  WriteBytes(header, sizeof(header));
  WriteBytes(data, length);
}

void RecordIOWriter::WriteRecord(const void* buf, size_t size) {
  if (size > kRecordIOMaxLength) {
    MX_THROW(dmlc::ValueError) << "RecordIO: a record must be shorter than 2^29 bytes, got "
                               << size << " bytes";
  }
  const char* bytes = static_cast<const char*>(buf);
  const uint32_t length = static_cast<uint32_t>(size);
  const uint32_t magic = kRecordIOMagic;
  // Split wherever the payload holds the magic at a 4-byte aligned offset, so a reader that
  // scans for the magic never mistakes payload bytes for a record start.
  uint32_t part_begin = 0;
  for (uint32_t i = 0; i + 4 <= length; i += 4) {
    if (std::memcmp(bytes + i, &magic, 4) == 0) {
      WritePart(part_begin == 0 ? 1U : 2U, bytes + part_begin, i - part_begin);
      part_begin = i + 4;
    }
  }
  WritePart(part_begin == 0 ? 0U : 3U, bytes + part_begin, length - part_begin);
  const uint32_t zero = 0;
  WriteBytes(&zero, PaddedLength(length) - length);
  if (std::fflush(file_) != 0) {
    LOG(FATAL) << "RecordIO: write to '" << path_ << "' failed: " << std::strerror(errno);
  }
}

RecordIOReader::RecordIOReader(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    LOG(FATAL) << "RecordIO: cannot open '" << path << "' for reading: " << std::strerror(errno);
  }
}

RecordIOReader::~RecordIOReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool RecordIOReader::ReadExact(void* buf, size_t size, bool eof_ok, const char* what) {
  if (size == 0) return true;
  const size_t got = std::fread(buf, 1, size, file_);
  pos_ += got;
  if (got == size) return true;
  if (got == 0 && eof_ok) return false;
  LOG(FATAL) << "RecordIO: '" << path_ << "' is truncated: " << what << " needs " << size
             << " bytes at offset " << (pos_ - got) << " but only " << got << " remain";
  return false;
}

bool RecordIOReader::NextRecord(std::string* out) {
  out->clear();
  bool first = true;
  while (true) {
    const size_t part_offset = pos_;
    uint32_t header[2];
    if (!ReadExact(header, sizeof(header), first, "a record header")) return false;
    if (header[0] != kRecordIOMagic) {
      LOG(FATAL) << "RecordIO: '" << path_ << "' has an invalid record at offset " << part_offset
                 << ": magic number 0x" << std::hex << header[0] << ", expected 0x"
                 << kRecordIOMagic << std::dec << " (not a RecordIO file, or corrupt)";
    }
    const uint32_t cflag = header[1] >> 29U;
    const uint32_t length = header[1] & kRecordIOMaxLength;
    if (first ? (cflag != 0 && cflag != 1) : (cflag != 2 && cflag != 3)) {
      LOG(FATAL) << "RecordIO: '" << path_ << "' has an invalid continuation flag " << cflag
                 << " at offset " << part_offset << " (corrupt file)";
    }
    if (!first) out->append(reinterpret_cast<const char*>(&kRecordIOMagic), 4);
    const size_t old = out->size();
    out->resize(old + length);
    ReadExact(&(*out)[old], length, false, "the record payload");
    if (cflag == 0 || cflag == 3) {
      // Padding follows only the last part; parts before it are 4-byte multiples already.
      char pad[4];
      ReadExact(pad, PaddedLength(length) - length, false, "the record padding");
      return true;
    }
    first = false;
  }
}

void RecordIOReader::Seek(size_t pos) {
  if (std::fseek(file_, static_cast<long>(pos), SEEK_SET) != 0) {  // NOLINT(runtime/int)
    LOG(FATAL) << "RecordIO: cannot seek '" << path_ << "' to offset " << pos << ": "
               << std::strerror(errno);
  }
  pos_ = pos;
}

}  // namespace io
}  // namespace mxnet
