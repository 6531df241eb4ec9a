// The text and idx readers behind CSVIter and MNISTIter (LibSVMIter is Python here, and
// tests/python/unittest/test_corrupt_files.py covers it): arbitrary files give batches whose data
// can be read, or an error with a message. The first byte picks the reader and its arguments.
#include <mxnet/c_api.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_util.h"

namespace {

DataIterCreator FindIter(const char* wanted) {
  uint32_t count = 0;
  DataIterCreator* creators = nullptr;
  if (MXListDataIters(&count, &creators) != 0) abort();
  for (uint32_t i = 0; i < count; ++i) {
    const char *name = nullptr, *desc = nullptr;
    uint32_t num_args = 0;
    const char **arg_names = nullptr, **arg_types = nullptr, **arg_descs = nullptr;
    if (MXDataIterGetIterInfo(creators[i], &name, &desc, &num_args, &arg_names, &arg_types,
                              &arg_descs) == 0 &&
        std::strcmp(name, wanted) == 0)
      return creators[i];
  }
  abort();
}

void Drain(DataIterCreator creator, uint32_t num, const char** keys, const char** vals) {
  DataIterHandle iter = nullptr;
  int rc = MXDataIterCreateIter(creator, num, keys, vals, &iter);
  ExpectMessageOnFailure(rc, MXGetLastError);
  if (rc != 0) return;
  for (int batch = 0; batch < 64; ++batch) {
    int more = 0;
    rc = MXDataIterNext(iter, &more);
    ExpectMessageOnFailure(rc, MXGetLastError);
    if (rc != 0 || !more) break;
    NDArrayHandle array = nullptr;
    if (MXDataIterGetData(iter, &array) == 0) {
      ExpectMessageOnFailure(MXNDArrayWaitToRead(array), MXGetLastError);
      MXNDArrayFree(array);
    }
    if (MXDataIterGetLabel(iter, &array) == 0) {
      ExpectMessageOnFailure(MXNDArrayWaitToRead(array), MXGetLastError);
      MXNDArrayFree(array);
    }
  }
  MXDataIterFree(iter);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static DataIterCreator csv = FindIter("CSVIter");
  static DataIterCreator mnist = FindIter("MNISTIter");
  int which = data[0] % 3;
  size_t split = size > 2 ? 2 + data[1] % (size - 1) : 2;  // MNIST: images, then labels
  if (split > size) split = size;
  MemoryFile first(data + 2, split - 2);
  MemoryFile second(data + split, size - split);
  if (which == 0) {
    const char* keys[] = {"data_csv", "data_shape", "label_csv", "batch_size"};
    const char* vals[] = {first.path(), "(3,)", second.path(), "2"};
    Drain(csv, 4, keys, vals);
  } else if (which == 1) {
    const char* keys[] = {"data_csv", "data_shape", "batch_size", "round_batch"};
    const char* vals[] = {first.path(), "(2,2)", "3", "0"};
    Drain(csv, 4, keys, vals);
  } else {
    const char* keys[] = {"image", "label", "batch_size", "flat", "silent"};
    const char* vals[] = {first.path(), second.path(), "2", "1", "1"};
    Drain(mnist, 5, keys, vals);
  }
  return 0;
}
