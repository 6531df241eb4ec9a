/*!
 * \file c_api_io.cc
 * \brief C API shims for the data iterators and RecordIO.
 */
#include <mxnet/c_api.h>
#include <mxnet/io.h>

#include <string>
#include <utility>
#include <vector>

#include "../io/recordio.h"
#include "./c_api_common.h"

using mxnet::DataBatch;
using mxnet::DataIteratorReg;
using mxnet::IIterator;
using mxnet::NDArray;

namespace {

IIterator<DataBatch>* Iter(DataIterHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("DataIterHandle");
  return static_cast<IIterator<DataBatch>*>(h);
}

/*! \brief A RecordIO reader plus the buffer its last record is returned in. */
struct RecordIOReaderHandle {
  explicit RecordIOReaderHandle(const std::string& path) : reader(path) {}
  mxnet::io::RecordIOReader reader;
  std::string record;
};

}  // namespace

int MXListDataIters(uint32_t* out_size, DataIterCreator** out_array) {
  API_BEGIN();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_array);
  const auto& list = dmlc::Registry<DataIteratorReg>::List();
  *out_size = static_cast<uint32_t>(list.size());
  *out_array = reinterpret_cast<DataIterCreator*>(
      const_cast<DataIteratorReg**>(list.data()));
  API_END();
}

int MXDataIterGetIterInfo(DataIterCreator creator, const char** name, const char** description,
                          uint32_t* num_args, const char*** arg_names,
                          const char*** arg_type_infos, const char*** arg_descriptions) {
  API_BEGIN();
  if (creator == nullptr) mxnet::c_api::ThrowNullHandle("DataIterCreator");
  const DataIteratorReg* reg = static_cast<const DataIteratorReg*>(creator);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  const size_t n = reg->arguments.size();
  // ret_vec_charp holds names, then type infos, then descriptions (pointers into the registry).
  ret->ret_vec_charp.resize(3 * n);
  for (size_t i = 0; i < n; ++i) {
    ret->ret_vec_charp[i] = reg->arguments[i].name.c_str();
    ret->ret_vec_charp[n + i] = reg->arguments[i].type_info_str.c_str();
    ret->ret_vec_charp[2 * n + i] = reg->arguments[i].description.c_str();
  }
  *name = reg->name.c_str();
  *description = reg->description.c_str();
  *num_args = static_cast<uint32_t>(n);
  *arg_names = ret->ret_vec_charp.data();
  *arg_type_infos = ret->ret_vec_charp.data() + n;
  *arg_descriptions = ret->ret_vec_charp.data() + 2 * n;
  API_END();
}

int MXDataIterCreateIter(DataIterCreator handle, uint32_t num_param, const char** keys,
                         const char** vals, DataIterHandle* out) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("DataIterCreator");
  const DataIteratorReg* reg = static_cast<const DataIteratorReg*>(handle);
  std::vector<std::pair<std::string, std::string>> kwargs;
  for (uint32_t i = 0; i < num_param; ++i) kwargs.emplace_back(keys[i], vals[i]);
  *out = DataIteratorReg::Create(reg->name, kwargs);
  API_END();
}

int MXDataIterFree(DataIterHandle handle) {
  API_BEGIN();
  delete static_cast<IIterator<DataBatch>*>(handle);
  API_END();
}

int MXDataIterBeforeFirst(DataIterHandle handle) {
  API_BEGIN();
  Iter(handle)->BeforeFirst();
  API_END();
}

int MXDataIterNext(DataIterHandle handle, int* out) {
  API_BEGIN();
  *out = Iter(handle)->Next() ? 1 : 0;
  API_END();
}

int MXDataIterGetData(DataIterHandle handle, NDArrayHandle* out) {
  API_BEGIN();
  const DataBatch& batch = Iter(handle)->Value();
  CHECK(!batch.data.empty()) << "MXDataIterGetData: no current batch (call MXDataIterNext first)";
  *out = new NDArray(batch.data[0]);
  API_END();
}

int MXDataIterGetLabel(DataIterHandle handle, NDArrayHandle* out) {
  API_BEGIN();
  const DataBatch& batch = Iter(handle)->Value();
  CHECK_GE(batch.data.size(), 2U) << "MXDataIterGetLabel: the current batch has no label";
  const NDArray& label = batch.data[1];
  const mxnet::TShape& shape = label.shape();
  // As MXNet: a label of shape (N, 1, ...) is returned as 1-D (N,).
  if (shape.ndim() > 1 && shape[1] == 1) {
    *out = new NDArray(label.Reshape(mxnet::TShape({shape[0]})));
  } else {
    *out = new NDArray(label);
  }
  API_END();
}

int MXDataIterGetIndex(DataIterHandle handle, uint64_t** out_index, uint64_t* out_size) {
  API_BEGIN();
  const DataBatch& batch = Iter(handle)->Value();
  *out_index = const_cast<uint64_t*>(batch.index.data());
  *out_size = batch.index.size();
  API_END();
}

int MXDataIterGetPadNum(DataIterHandle handle, int* pad) {
  API_BEGIN();
  *pad = Iter(handle)->Value().num_batch_padd;
  API_END();
}

// ---- RecordIO

int MXRecordIOWriterCreate(const char* uri, RecordIOHandle* out) {
  API_BEGIN();
  API_NOT_NULL(uri);
  API_NOT_NULL(out);
  *out = new mxnet::io::RecordIOWriter(uri);
  API_END();
}

int MXRecordIOWriterFree(RecordIOHandle handle) {
  API_BEGIN();
  delete static_cast<mxnet::io::RecordIOWriter*>(handle);
  API_END();
}

int MXRecordIOWriterWriteRecord(RecordIOHandle handle, const char* buf, size_t size) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("RecordIOHandle");
  static_cast<mxnet::io::RecordIOWriter*>(handle)->WriteRecord(buf, size);
  API_END();
}

int MXRecordIOWriterTell(RecordIOHandle handle, size_t* pos) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("RecordIOHandle");
  *pos = static_cast<mxnet::io::RecordIOWriter*>(handle)->Tell();
  API_END();
}

int MXRecordIOReaderCreate(const char* uri, RecordIOHandle* out) {
  API_BEGIN();
  API_NOT_NULL(uri);
  API_NOT_NULL(out);
  *out = new RecordIOReaderHandle(uri);
  API_END();
}

int MXRecordIOReaderFree(RecordIOHandle handle) {
  API_BEGIN();
  delete static_cast<RecordIOReaderHandle*>(handle);
  API_END();
}

int MXRecordIOReaderReadRecord(RecordIOHandle handle, char const** buf, size_t* size) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("RecordIOHandle");
  auto* h = static_cast<RecordIOReaderHandle*>(handle);
  if (h->reader.NextRecord(&h->record)) {
    *buf = h->record.data();
    *size = h->record.size();
  } else {
    *buf = nullptr;
    *size = 0;
  }
  API_END();
}

int MXRecordIOReaderSeek(RecordIOHandle handle, size_t pos) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("RecordIOHandle");
  static_cast<RecordIOReaderHandle*>(handle)->reader.Seek(pos);
  API_END();
}

int MXRecordIOReaderTell(RecordIOHandle handle, size_t* pos) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("RecordIOHandle");
  *pos = static_cast<RecordIOReaderHandle*>(handle)->reader.Tell();
  API_END();
}
