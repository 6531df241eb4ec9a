// NDArray save/load in MXNet 1.x's binary format (API.md §1.4).
//
// list   := u64 0x112 | u64 0 | u64 N | N x array | u64 K | K x (u64 len, bytes)
// array  := u32 magic | i32 stype | [storage shape if sparse] | shape | (stop if none)
//           | i32 dev_type | i32 dev_id | i32 dtype | [per aux: i32 aux dtype, aux shape]
//           | raw data (storage shape) | [raw aux data]
// shape  := i32 ndim | ndim x i64          (legacy V0: u32 ndim | ndim x u32, no magic/stype)
#include <mxnet/ndarray.h>

#include <cstring>
#include <istream>
#include <limits>
#include <sstream>
#include <ostream>

#include "../common/utf8.h"

namespace mxnet {
namespace c_api {
// Whether the front end switched NumPy shape semantics on (defined in src/c_api/c_api.cc):
// the saved format follows it, as MXNet 1.9.1's does.
bool IsNumpyShape();
}  // namespace c_api

namespace {

constexpr uint64_t kListMagic = 0x112;
constexpr uint32_t kMagicV1 = 0xF993FAC8;
constexpr uint32_t kMagicV2 = 0xF993FAC9;
constexpr uint32_t kMagicV3 = 0xF993FACA;
constexpr int kMaxNDim = 32;

template <typename T>
void WritePod(std::ostream* s, const T& v) {
  s->write(reinterpret_cast<const char*>(&v), sizeof(T));
}

/*! \brief Reads from a stream, turning every short read into a clear "truncated" error. */
class Reader {
 public:
  explicit Reader(std::istream* s) : s_(s) {
    // Bytes left, when the stream can tell: bounds every size read from a header.
    const auto pos = s_->tellg();
    if (pos != std::streampos(-1)) {
      s_->seekg(0, std::ios::end);
      const auto end = s_->tellg();
      s_->seekg(pos);
      if (end != std::streampos(-1)) remaining_limit_ = static_cast<uint64_t>(end - pos);
    }
    s_->clear();
  }

  template <typename T>
  T Pod(const char* what) {
    T v;
    Bytes(&v, sizeof(T), what);
    return v;
  }

  void Bytes(void* dst, uint64_t n, const char* what) {
    if (n > Remaining()) Truncated(what, n);
    s_->read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
    if (static_cast<uint64_t>(s_->gcount()) != n) Truncated(what, n);
    consumed_ += n;
  }

  uint64_t Remaining() const {
    return remaining_limit_ == kUnknown ? kUnknown : remaining_limit_ - consumed_;
  }

 private:
  [[noreturn]] void Truncated(const char* what, uint64_t n) {
    throw dmlc::Error(std::string("Invalid NDArray file format: truncated while reading ") +
                      what + " (" + std::to_string(n) + " bytes needed)");
  }
  static constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();
  std::istream* s_;
  uint64_t remaining_limit_{kUnknown};
  uint64_t consumed_{0};
};

[[noreturn]] void Corrupt(const std::string& why) {
  throw dmlc::Error("Invalid NDArray file format: " + why);
}

TShape ReadShape(Reader* r, bool legacy_u32, uint32_t legacy_ndim) {
  int64_t ndim = legacy_u32 ? static_cast<int64_t>(legacy_ndim) : r->Pod<int32_t>("ndim");
  if (ndim < -1 || ndim > kMaxNDim) {
    Corrupt("ndim " + std::to_string(ndim) + " out of range [-1, " + std::to_string(kMaxNDim) +
            "]");
  }
  if (ndim == -1) return TShape();
  TShape shape(static_cast<int>(ndim), 0);
  for (int i = 0; i < ndim; ++i) {
    const int64_t d = legacy_u32 ? r->Pod<uint32_t>("dimension") : r->Pod<int64_t>("dimension");
    if (d < 0) Corrupt("negative dimension " + std::to_string(d));
    shape[i] = d;
  }
  return shape;
}


void WriteShape(std::ostream* strm, const TShape& shape) {
  WritePod<int32_t>(strm, static_cast<int32_t>(shape.ndim()));
  for (int i = 0; i < shape.ndim(); ++i) WritePod<int64_t>(strm, shape[i]);
}

void WriteRaw(std::ostream* strm, const NDArray& dense) {
  const size_t bytes = dense.Size() * mshadow::mshadow_sizeof(dense.dtype());
  if (bytes != 0) strm->write(static_cast<const char*>(dense.data().dptr_), bytes);
}

uint64_t CheckedBytes(const TShape& shape, size_t elem, const Reader& r) {
  uint64_t count = 1;
  for (int i = 0; i < shape.ndim(); ++i) {
    const uint64_t d = static_cast<uint64_t>(shape[i]);
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / d) Corrupt("shape overflows");
    count *= d;
  }
  if (count != 0 && elem > std::numeric_limits<uint64_t>::max() / count) Corrupt("size overflows");
  const uint64_t bytes = count * elem;
  if (bytes > r.Remaining()) {
    std::ostringstream os;
    os << shape;
    Corrupt("the header promises " + std::to_string(bytes) + " data bytes for shape " +
            os.str() + ", only " + std::to_string(r.Remaining()) + " remain");
  }
  return bytes;
}

}  // namespace

void NDArray::Save(std::ostream* strm) const {
  if (is_sparse()) {
    // Parts are written from a consistent state: wait for pending writers first.
    WaitToRead();
    WritePod<uint32_t>(strm, kMagicV2);
    WritePod<int32_t>(strm, stype_);
    WriteShape(strm, storage_shape());
    WriteShape(strm, shape_);
    const Context c = ctx();
    WritePod<int32_t>(strm, static_cast<int32_t>(c.dev_type));
    WritePod<int32_t>(strm, c.dev_id);
    WritePod<int32_t>(strm, dtype_);
    for (size_t i = 0; i < num_aux(); ++i) {
      WritePod<int32_t>(strm, aux_type(i));
      WriteShape(strm, aux_shape(i));
    }
    WriteRaw(strm, sparse_data());
    for (size_t i = 0; i < num_aux(); ++i) WriteRaw(strm, sparse_aux(i));
    return;
  }
  // NumPy shape mode writes V3 (a none array is ndim -1, so ndim 0 is a 0-d array); a 0-d
  // array needs V3 in any mode (V2 would read back as a none array).
  const bool np_format = mxnet::c_api::IsNumpyShape() || (!is_none() && shape_.ndim() == 0);
  WritePod<uint32_t>(strm, np_format ? kMagicV3 : kMagicV2);
  WritePod<int32_t>(strm, kDefaultStorage);
  if (is_none()) {
    WritePod<int32_t>(strm, np_format ? -1 : 0);  // legacy mode: a none array is ndim 0
    return;
  }
  WritePod<int32_t>(strm, static_cast<int32_t>(shape_.ndim()));
  for (int i = 0; i < shape_.ndim(); ++i) WritePod<int64_t>(strm, shape_[i]);
  // Data is always written from a CPU copy; the saved context is the array's.
  WaitToRead();
  const Context c = ctx();
  WritePod<int32_t>(strm, static_cast<int32_t>(c.dev_type));
  WritePod<int32_t>(strm, c.dev_id);
  WritePod<int32_t>(strm, dtype_);
  const size_t bytes = Size() * mshadow::mshadow_sizeof(dtype_);
  if (bytes != 0) strm->write(static_cast<const char*>(data().dptr_), bytes);
}

void NDArray::Load(std::istream* strm) {
  Reader r(strm);
  const uint32_t magic = r.Pod<uint32_t>("magic");
  bool legacy_u32 = false;
  int32_t stype = kDefaultStorage;
  TShape storage_shape;
  if (magic == kMagicV2 || magic == kMagicV3) {
    stype = r.Pod<int32_t>("storage type");
    if (stype != kDefaultStorage && stype != kRowSparseStorage && stype != kCSRStorage) {
      Corrupt("unknown storage type " + std::to_string(stype));
    }
    if (stype != kDefaultStorage) storage_shape = ReadShape(&r, false, 0);
  } else if (magic != kMagicV1) {
    legacy_u32 = true;  // V0: the first word is the ndim, dims are uint32
  }
  TShape shape = ReadShape(&r, legacy_u32, magic);
  const bool none = magic == kMagicV3 ? !ndim_is_known(shape) : shape.ndim() <= 0;
  if (none) {
    *this = NDArray();
    return;
  }
  const int32_t dev_type = r.Pod<int32_t>("device type");
  const int32_t dev_id = r.Pod<int32_t>("device id");
  const int32_t dtype = r.Pod<int32_t>("dtype");
  if (dev_type != Context::kCPU && dev_type != Context::kGPU && dev_type != Context::kCPUPinned &&
      dev_type != Context::kCPUShared) {
    Corrupt("unknown device type " + std::to_string(dev_type));
  }
  if (dev_id < 0 || dev_id >= Context::kMaxDevID * 64) {
    Corrupt("device id " + std::to_string(dev_id) + " out of range");
  }
  const size_t elem = mshadow::mshadow_sizeof(dtype);
  if (elem == 0) Corrupt("unknown dtype code " + std::to_string(dtype));
  if (stype != kDefaultStorage) {
    const int naux = stype == kCSRStorage ? 2 : 1;
    std::vector<int> aux_types;
    std::vector<TShape> aux_shapes;
    for (int i = 0; i < naux; ++i) {
      aux_types.push_back(r.Pod<int32_t>("aux dtype"));
      if (mshadow::mshadow_sizeof(aux_types.back()) == 0) {
        Corrupt("unknown aux dtype code " + std::to_string(aux_types.back()));
      }
      aux_shapes.push_back(ReadShape(&r, false, 0));
    }
    if (storage_shape.ndim() < 1 || (stype == kCSRStorage && shape.ndim() != 2)) {
      Corrupt("bad sparse shapes");
    }
    // Check the promised sizes against the stream before allocating anything.
    uint64_t total = CheckedBytes(storage_shape, elem, r);
    for (int i = 0; i < naux; ++i) {
      total += CheckedBytes(aux_shapes[i], mshadow::mshadow_sizeof(aux_types[i]), r);
      if (total > r.Remaining()) Corrupt("sparse parts extend past the end of the stream");
    }
    NDArray arr(stype, shape, Context::CPU(), dtype, aux_types, aux_shapes, storage_shape);
    const uint64_t data_bytes = CheckedBytes(storage_shape, elem, r);
    if (data_bytes != 0) r.Bytes(arr.sparse_data().data().dptr_, data_bytes, "sparse data");
    for (int i = 0; i < naux; ++i) {
      const uint64_t b = CheckedBytes(aux_shapes[i], mshadow::mshadow_sizeof(aux_types[i]), r);
      if (b != 0) r.Bytes(arr.sparse_aux(i).data().dptr_, b, "sparse aux data");
    }
    *this = arr;
    return;
  }
  // Guard the allocation: the header must not promise more bytes than the stream holds.
  uint64_t count = 1;
  for (int i = 0; i < shape.ndim(); ++i) {
    const uint64_t d = static_cast<uint64_t>(shape[i]);
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / d) Corrupt("shape overflows");
    count *= d;
  }
  if (count != 0 && elem > std::numeric_limits<uint64_t>::max() / count) Corrupt("size overflows");
  const uint64_t bytes = count * elem;
  if (bytes > r.Remaining()) {
    Corrupt("the header promises " + std::to_string(bytes) + " data bytes for shape " +
            [&] { std::ostringstream os; os << shape; return os.str(); }() + ", only " +
            std::to_string(r.Remaining()) + " remain");
  }
  // Without a GPU build, arrays saved from a GPU load onto the CPU.
  Context ctx = Context::CPU();
  if (dev_type == Context::kCPUPinned || dev_type == Context::kCPUShared) ctx = Context::CPU();
  NDArray arr(shape, ctx, false, dtype);
  if (bytes != 0) r.Bytes(arr.data().dptr_, bytes, "array data");
  *this = arr;
}

void NDArray::Save(std::ostream* strm, const std::vector<NDArray>& data,
                   const std::vector<std::string>& names) {
  if (!names.empty() && names.size() != data.size()) {
    MX_THROW(ValueError) << "NDArray::Save: " << data.size() << " arrays but " << names.size()
                         << " names";
  }
  WritePod<uint64_t>(strm, kListMagic);
  WritePod<uint64_t>(strm, 0);
  WritePod<uint64_t>(strm, data.size());
  for (const NDArray& arr : data) arr.Save(strm);
  WritePod<uint64_t>(strm, names.size());
  for (const std::string& name : names) {
    WritePod<uint64_t>(strm, name.size());
    strm->write(name.data(), name.size());
  }
}

void NDArray::Load(std::istream* strm, std::vector<NDArray>* data,
                   std::vector<std::string>* names) {
  Reader r(strm);
  const uint64_t magic = r.Pod<uint64_t>("list header");
  if (magic != kListMagic) {
    Corrupt("bad list magic 0x" + [&] { std::ostringstream os; os << std::hex << magic; return os.str(); }() +
            " (expected 0x112): not an NDArray file");
  }
  r.Pod<uint64_t>("reserved word");
  const uint64_t count = r.Pod<uint64_t>("array count");
  // Each array takes at least 12 bytes: a corrupt count must not trigger a huge reserve.
  if (count > r.Remaining() / 12) {
    Corrupt("array count " + std::to_string(count) + " exceeds what the file can hold");
  }
  data->clear();
  data->reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    NDArray arr;
    arr.Load(strm);
    data->push_back(arr);
  }
  Reader tail(strm);
  const uint64_t nnames = tail.Pod<uint64_t>("name count");
  if (nnames != 0 && nnames != count) {
    Corrupt("name count " + std::to_string(nnames) + " differs from array count " +
            std::to_string(count));
  }
  names->clear();
  for (uint64_t i = 0; i < nnames; ++i) {
    const uint64_t len = tail.Pod<uint64_t>("name length");
    if (len > tail.Remaining()) Corrupt("name length " + std::to_string(len) + " past the end");
    std::string name(len, '\0');
    tail.Bytes(&name[0], len, "name");
    const size_t bad = common::FindInvalidUtf8(name);
    if (bad != std::string::npos) {
      Corrupt("array name " + std::to_string(i) + " is not UTF-8 (byte " + std::to_string(bad) +
              ")");
    }
    names->push_back(std::move(name));
  }
  if (strm->peek() != std::char_traits<char>::eof()) {
    Corrupt("unexpected bytes after the last array name (a file written by NDArray save ends "
            "there)");
  }
}

}  // namespace mxnet
