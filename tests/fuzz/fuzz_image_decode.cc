// The image decoders behind _cvimdecode (JPEG, PNG): arbitrary bytes decode to an image whose
// every pixel can be read, or an error with a message. The first byte picks the flag.
#include <mxnet/c_api.h>

#include <cstdlib>
#include <vector>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static AtomicSymbolCreator imdecode = [] {
    OpHandle op = nullptr;
    if (NNGetOpHandle("_cvimdecode", &op) != 0) abort();
    return static_cast<AtomicSymbolCreator>(op);
  }();
  const char* flag = (data[0] & 1) ? "1" : "0";
  const char* to_rgb = (data[0] & 2) ? "1" : "0";
  ++data, --size;

  const int64_t shape[1] = {static_cast<int64_t>(size)};
  NDArrayHandle buffer = nullptr;
  if (MXNDArrayCreateEx64(shape, 1, 1, 0, 0, /*uint8*/ 3, &buffer) != 0) abort();
  if (size > 0 && MXNDArraySyncCopyFromCPU(buffer, data, size) != 0) abort();

  const char* keys[2] = {"flag", "to_rgb"};
  const char* vals[2] = {flag, to_rgb};
  int num_outputs = 0;
  NDArrayHandle* outputs = nullptr;
  int rc = MXImperativeInvoke(imdecode, 1, &buffer, &num_outputs, &outputs, 2, keys, vals);
  ExpectMessageOnFailure(rc, MXGetLastError);
  if (rc == 0) {
    NDArrayHandle image = outputs[0];
    int ndim = 0;
    const int64_t* dims = nullptr;
    rc = MXNDArrayWaitToRead(image);
    ExpectMessageOnFailure(rc, MXGetLastError);
    if (rc == 0 && MXNDArrayGetShapeEx64(image, &ndim, &dims) == 0 && ndim == 3) {
      size_t bytes = static_cast<size_t>(dims[0] * dims[1] * dims[2]);
      if (bytes <= (64u << 20)) {
        std::vector<uint8_t> pixels(bytes);
        if (MXNDArraySyncCopyToCPU(image, pixels.data(), bytes) != 0) abort();
      }
    }
    MXNDArrayFree(image);
  }
  MXNDArrayFree(buffer);
  return 0;
}
