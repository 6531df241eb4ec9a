// The NDArray file loader (.params / mx.nd.save lists) and the single-array pickling format:
// arbitrary bytes give arrays whose every byte can be read back, or an error with a message.
#include <mxnet/c_api.h>

#include "fuzz_util.h"

namespace {

// Reads every stored byte through a round trip, so ASan sees any storage the loader got wrong.
void RoundTrip(NDArrayHandle array) {
  size_t size = 0;
  const char* bytes = nullptr;
  if (MXNDArraySaveRawBytes(array, &size, &bytes) != 0) return;
  NDArrayHandle copy = nullptr;
  if (MXNDArrayLoadFromRawBytes(bytes, size, &copy) != 0) abort();  // our own output must load
  MXNDArrayFree(copy);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint32_t num_arrays = 0, num_names = 0;
  NDArrayHandle* arrays = nullptr;
  const char** names = nullptr;
  int rc = MXNDArrayLoadFromBuffer(data, size, &num_arrays, &arrays, &num_names, &names);
  ExpectMessageOnFailure(rc, MXGetLastError);
  if (rc == 0) {
    if (num_names != 0 && num_names != num_arrays) abort();
    for (uint32_t i = 0; i < num_arrays; ++i) {
      RoundTrip(arrays[i]);
      MXNDArrayFree(arrays[i]);
    }
  }
  NDArrayHandle single = nullptr;
  rc = MXNDArrayLoadFromRawBytes(data, size, &single);
  ExpectMessageOnFailure(rc, MXGetLastError);
  if (rc == 0) {
    RoundTrip(single);
    MXNDArrayFree(single);
  }
  return 0;
}
