// The RecordIO reader: arbitrary bytes read as records (each within the file) or an error with a
// message, and reading ends.
#include <mxnet/c_api.h>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  MemoryFile file(data, size);
  RecordIOHandle reader = nullptr;
  if (MXRecordIOReaderCreate(file.path(), &reader) != 0) return 0;
  size_t total = 0;
  // Every record holds at least its 8-byte header, so a file yields at most size/8 records.
  for (size_t records = 0; records <= size / 8 + 1; ++records) {
    const char* buf = nullptr;
    size_t length = 0;
    int rc = MXRecordIOReaderReadRecord(reader, &buf, &length);
    ExpectMessageOnFailure(rc, MXGetLastError);
    if (rc != 0 || buf == nullptr) break;
    total += length;
    if (total > size) abort();  // records cannot hold more payload than the file has
    volatile char sink = 0;
    for (size_t i = 0; i < length; ++i) sink ^= buf[i];  // ASan checks the bounds
  }
  MXRecordIOReaderFree(reader);
  return 0;
}
