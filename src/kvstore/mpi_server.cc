/*!
 * \file mpi_server.cc
 * \brief dist_async on MPI: the values live on the server processes (DMLC_ROLE=server), which
 *        apply each push as it arrives with the updater the workers' optimizer command set
 *        there. The workers' requests (init, push, pull, row_sparse_pull, commands) and the
 *        server loop; messages are point-to-point on MPI_COMM_WORLD (mpi_job.h's tags).
 */
#include "./collective.h"

#if MXNET_USE_MPI
#include <dmlc/logging.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "./mpi_collective.h"

namespace mxnet {
namespace kvstore {
namespace mpi {

namespace {

// A request: [dtype, ndim, key length, flags, shape...] as int64, the key, then the payload:
//   dense value:              its bytes (init, push; none for a pull),
//   kCompressed (push):       a float threshold and the 2-bit codes,
//   kRowSparse (init, push):  int64 row count, the int64 row ids, the rows' bytes,
//   kRows (pull):             int64 row count and the int64 row ids wanted.
enum Flags : int64_t { kCompressed = 1, kRowSparse = 2, kRows = 4 };
struct Part {
  const void* data;
  size_t bytes;
};


std::vector<char> Encode(const std::string& key, const TShape& shape, int dtype,
                         int64_t flags, std::initializer_list<Part> parts) {
  std::vector<int64_t> head = {dtype, shape.ndim(), static_cast<int64_t>(key.size()), flags};
  for (int i = 0; i < shape.ndim(); ++i) head.push_back(shape[i]);
  size_t bytes = head.size() * sizeof(int64_t) + key.size();
  for (const Part& p : parts) bytes += p.bytes;
  std::vector<char> msg(bytes);
  char* out = msg.data();
  std::memcpy(out, head.data(), head.size() * sizeof(int64_t));
  out += head.size() * sizeof(int64_t);
  std::memcpy(out, key.data(), key.size());
  out += key.size();
  for (const Part& p : parts) {
    if (p.bytes != 0) std::memcpy(out, p.data, p.bytes);
    out += p.bytes;
  }
  return msg;
}

std::vector<char> EncodeDense(const std::string& key, const NDArray& value) {
  return Encode(key, value.shape(), value.dtype(), 0,
                {{value.Size() ? value.data().dptr_ : nullptr,
                  value.Size() * mshadow::mshadow_sizeof(value.dtype())}});
}

/*! \brief A row_sparse value (already readable) as its row ids and rows. */
std::vector<char> EncodeRowSparse(const std::string& key, const NDArray& value) {
  const std::vector<int64_t> rows = SparseAuxAsInt64(value, 0);
  const int64_t nrows = static_cast<int64_t>(rows.size());
  const NDArray& data = value.sparse_data();
  return Encode(key, value.shape(), value.dtype(), kRowSparse,
                {{&nrows, sizeof(int64_t)},
                 {rows.data(), rows.size() * sizeof(int64_t)},
                 {data.Size() ? data.data().dptr_ : nullptr,
                  data.Size() * mshadow::mshadow_sizeof(value.dtype())}});
}

/*! \brief Reads `count` int64 row ids at data (after a count); checks them against shape. */
std::vector<int64_t> ParseRows(const std::string& key, const TShape& shape,
                               const char* data, size_t bytes, int64_t* nrows) {
  if (bytes < sizeof(int64_t)) {
    MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request";
  }
  std::memcpy(nrows, data, sizeof(int64_t));
  if (*nrows < 0 || static_cast<size_t>(*nrows) > (bytes - sizeof(int64_t)) / sizeof(int64_t)) {
    MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request";
  }
  std::vector<int64_t> rows(static_cast<size_t>(*nrows));
  if (*nrows != 0) {
    std::memcpy(rows.data(), data + sizeof(int64_t), rows.size() * sizeof(int64_t));
  }
  for (int64_t r : rows) {
    if (r < 0 || shape.ndim() == 0 || r >= shape[0]) {
      MX_THROW(dmlc::ValueError) << "key " << key << " has " << (shape.ndim() ? shape[0] : 0)
                                 << " rows; row id " << r << " is out of range";
    }
  }
  return rows;
}

/*! \brief The row_sparse value of a kRowSparse payload. */
NDArray DecodeRowSparse(const std::string& key, const TShape& shape, int dtype,
                        const char* data, size_t bytes) {
  int64_t nrows = 0;
  const std::vector<int64_t> rows = ParseRows(key, shape, data, bytes, &nrows);
  const size_t head = sizeof(int64_t) * (1 + rows.size());
  TShape data_shape = shape;
  data_shape[0] = nrows;
  NDArray values(data_shape, Context::CPU(), false, dtype);
  if (bytes - head != values.Size() * mshadow::mshadow_sizeof(dtype)) {
    MX_THROW(dmlc::ValueError) << "key " << key << ": a malformed row_sparse request of "
                               << bytes << " bytes for " << nrows << " rows";
  }
  if (values.Size() != 0) std::memcpy(values.data().dptr_, data + head, bytes - head);
  NDArray aux(TShape(1, nrows), Context::CPU(), false, mshadow::kInt64);
  if (nrows != 0) std::copy(rows.begin(), rows.end(), aux.data().dptr<int64_t>());
  NDArray out(kRowSparseStorage, shape, Context::CPU(), dtype);
  out.SetSparseParts(values, {aux});
  return out;
}

/*! \brief The rows `rows` of the (readable) stored value, densely; absent rows are zero. */
std::vector<char> ReadRows(const NDArray& stored, const std::vector<int64_t>& rows) {
  const size_t row_bytes =
      MpiCollective::RowLength(stored.shape()) * mshadow::mshadow_sizeof(stored.dtype());
  std::vector<char> out(rows.size() * row_bytes, 0);
  if (row_bytes == 0) return out;
  if (stored.storage_type() != kRowSparseStorage) {
    const char* p = static_cast<const char*>(stored.data().dptr_);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::memcpy(out.data() + i * row_bytes, p + rows[i] * row_bytes, row_bytes);
    }
    return out;
  }
  const std::vector<int64_t> have = SparseAuxAsInt64(stored, 0);
  if (have.empty()) return out;
  const char* p = static_cast<const char*>(stored.sparse_data().data().dptr_);
  for (size_t i = 0; i < rows.size(); ++i) {
    auto it = std::lower_bound(have.begin(), have.end(), rows[i]);
    if (it != have.end() && *it == rows[i]) {
      std::memcpy(out.data() + i * row_bytes, p + (it - have.begin()) * row_bytes, row_bytes);
    }
  }
  return out;
}

/*! \brief Server side: answers one init, push or pull; throws what the worker should see. */
std::vector<char> Serve(int tag, const std::vector<char>& msg,
                        std::unordered_map<std::string, NDArray>* values,
                        const Collective::ServerUpdater& apply) {
  const int64_t* head = reinterpret_cast<const int64_t*>(msg.data());
  const int dtype = static_cast<int>(head[0]);
  const int ndim = static_cast<int>(head[1]);
  const size_t key_len = static_cast<size_t>(head[2]);
  const int64_t flags = head[3];
  TShape shape(ndim, 0);
  for (int i = 0; i < ndim; ++i) shape[i] = head[4 + i];
  const size_t offset = (4 + ndim) * sizeof(int64_t);
  const std::string key(msg.data() + offset, key_len);
  const char* data = msg.data() + offset + key_len;
  const size_t bytes = msg.size() - offset - key_len;
  if ((flags & (kRowSparse | kRows)) && ndim < 1) {
    MX_THROW(dmlc::ValueError) << "key " << key << ": row_sparse values need at least 1 "
                               << "dimension";
  }
  if (tag == kTagInit) {
    if (flags & kRowSparse) {
      (*values)[key] = DecodeRowSparse(key, shape, dtype, data, bytes);
      return {};
    }
    NDArray stored(shape, Context::CPU(), false, dtype);
    if (bytes != stored.Size() * mshadow::mshadow_sizeof(dtype)) {
      MX_THROW(dmlc::ValueError) << "init of key " << key << ": a malformed request of "
                                 << bytes << " bytes";
    }
    if (bytes != 0) std::memcpy(stored.data().dptr_, data, bytes);
    (*values)[key] = stored;
    return {};
  }
  auto it = values->find(key);
  if (it == values->end()) {
    MX_THROW(dmlc::ValueError) << "key " << key << " has not been initialized (call init "
                               << "first)";
  }
  NDArray& stored = it->second;
  if (stored.shape() != shape || stored.dtype() != dtype) {
    MX_THROW(dmlc::ValueError) << "key " << key << " holds " << stored.shape() << " "
                               << mshadow::dtype_string(stored.dtype()) << ", the request has "
                               << shape << " " << mshadow::dtype_string(dtype);
  }
  if (tag == kTagPull) {
    stored.WaitToRead();
    if (flags & kRows) {
      int64_t nrows = 0;
      return ReadRows(stored, ParseRows(key, shape, data, bytes, &nrows));
    }
    if (stored.storage_type() == kRowSparseStorage) {  // the whole value, densely
      std::vector<int64_t> all(ndim ? static_cast<size_t>(shape[0]) : 0);
      for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
      return ReadRows(stored, all);
    }
    const char* p = static_cast<const char*>(stored.data().dptr_);
    return std::vector<char>(p, p + stored.Size() * mshadow::mshadow_sizeof(dtype));
  }
  if (flags & kRowSparse) {
    const NDArray recved = DecodeRowSparse(key, shape, dtype, data, bytes);
    apply(key, recved, &stored);  // e.g. a lazy update of the pushed rows only
    stored.WaitToRead();
    return {};
  }
  const bool compressed = (flags & kCompressed) != 0;
  NDArray recved(shape, Context::CPU(), false, dtype);
  const size_t n = recved.Size();
  const size_t expect = compressed ? sizeof(float) + (n + 15) / 16 * sizeof(uint32_t)
                                   : n * mshadow::mshadow_sizeof(dtype);
  if (bytes != expect || (compressed && dtype != mshadow::kFloat32)) {
    MX_THROW(dmlc::ValueError) << "push of key " << key << ": a malformed request of "
                               << bytes << " bytes (expected " << expect << ")";
  }
  if (compressed) {
    float t = 0;
    std::memcpy(&t, data, sizeof(float));
    std::vector<uint32_t> codes((n + 15) / 16);
    std::memcpy(codes.data(), data + sizeof(float), codes.size() * sizeof(uint32_t));
    float* out = recved.data().dptr<float>();
    std::fill(out, out + n, 0.f);
    MpiCollective::Dequantize(codes.data(), n, t, out);
  } else if (bytes != 0) {
    std::memcpy(recved.data().dptr_, data, bytes);
  }
  apply(key, recved, &stored);  // the push, applied as it arrives
  stored.WaitToRead();
  return {};
}

}  // namespace

void MpiCollective::SendCommandToServers(int head, const std::string& body) {
  std::lock_guard<std::mutex> lock(job_.mu);
  std::vector<char> msg(sizeof(int) + body.size());
  std::memcpy(msg.data(), &head, sizeof(int));
  std::memcpy(msg.data() + sizeof(int), body.data(), body.size());
  if (msg.size() > INT_MAX) MX_THROW(dmlc::ValueError) << "KVStore: command too large";
  for (int server : job_.servers) {
    // Synchronous: the server has taken the command before this returns, so it comes
    // before whatever another worker sends after a barrier with this one.
    CheckMPI(MPI_Ssend(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, server,
                       kTagCommand, MPI_COMM_WORLD), "sending a command to a server");
  }
}

void MpiCollective::ServerInit(const std::string& key, const NDArray& value) {
  RequireWorker("init");
  if (job_.rank == 0) {
    const bool sparse = value.storage_type() == kRowSparseStorage;
    if (!sparse) CheckDense("init", key, value, value);
    value.WaitToRead();
    std::lock_guard<std::mutex> lock(job_.mu);
    const Call call{kOpInit, key, int64_t(value.Size()), value.dtype(), value.storage_type()};
    Watched watched(job_, call, type_);
    Request(kTagInit, key, sparse ? EncodeRowSparse(key, value) : EncodeDense(key, value));
  }
  Barrier();  // the value is on its server before any worker pulls it
}

void MpiCollective::ServerPush(const std::string& key, const NDArray& merged) {
  RequireWorker("push");
  const bool sparse = merged.storage_type() == kRowSparseStorage;
  if (!sparse) CheckDense("push", key, merged, merged);
  merged.WaitToRead();
  std::lock_guard<std::mutex> lock(job_.mu);
  const Call call{kOpPush, key, int64_t(merged.Size()), merged.dtype(), merged.storage_type()};
  Watched watched(job_, call, type_);
  const bool compress = compression_threshold_ > 0 && merged.dtype() == mshadow::kFloat32;
  if (sparse) {
    if (compress) {
      // As MXNet 1.x: the 2-bit codes cover every element, which a row subset has not.
      MX_THROW(dmlc::NotImplementedError)
          << "KVStore " << type_ << " push of key " << key << ": gradient compression of "
          << "row_sparse values is not supported";
    }
    Request(kTagPush, key, EncodeRowSparse(key, merged));
    return;
  }
  if (compress) {
    // The 2-bit codes travel, preceded by the threshold; the server expands them.
    const std::vector<uint32_t> codes = Quantize(key, merged);
    Request(kTagPush, key,
            Encode(key, merged.shape(), merged.dtype(), kCompressed,
                   {{&compression_threshold_, sizeof(float)},
                    {codes.data(), codes.size() * sizeof(uint32_t)}}));
    return;
  }
  Request(kTagPush, key, EncodeDense(key, merged));
}

void MpiCollective::ServerPull(const std::string& key, const NDArray& dst) {
  RequireWorker("pull");
  CheckDense("pull", key, dst, dst);
  dst.WaitToWrite();
  std::lock_guard<std::mutex> lock(job_.mu);
  const Call call{kOpPull, key, int64_t(dst.Size()), dst.dtype(), kDefaultStorage};
  Watched watched(job_, call, type_);
  const std::vector<char> reply =
      Request(kTagPull, key, Encode(key, dst.shape(), dst.dtype(), 0, {}));
  const size_t bytes = dst.Size() * mshadow::mshadow_sizeof(dst.dtype());
  if (reply.size() != bytes) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " pull of key " << key << ": the "
                               << "server holds " << reply.size() << " bytes, the output has "
                               << bytes << " (" << dst.shape() << " "
                               << mshadow::dtype_string(dst.dtype()) << ")";
  }
  if (bytes != 0) std::memcpy(dst.data().dptr_, reply.data(), bytes);
}

void MpiCollective::ServerPullRows(const std::string& key, const TShape& shape,
                                   const std::vector<int64_t>& rows, const NDArray& dst) {
  RequireWorker("row_sparse_pull");
  TShape rows_shape = shape;
  if (rows_shape.ndim() >= 1) rows_shape[0] = static_cast<int64_t>(rows.size());
  if (dst.storage_type() != kDefaultStorage || dst.ctx().dev_mask() != cpu::kDevMask ||
      dst.shape() != rows_shape) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " row_sparse_pull of key " << key
                               << ": the rows' buffer must be a dense CPU array of shape "
                               << rows_shape << ", got " << dst.shape();
  }
  dst.WaitToWrite();
  std::lock_guard<std::mutex> lock(job_.mu);
  const Call call{kOpPull, key, int64_t(dst.Size()), dst.dtype(), kRowSparseStorage};
  Watched watched(job_, call, type_);
  const int64_t nrows = static_cast<int64_t>(rows.size());
  const std::vector<char> reply =
      Request(kTagPull, key,
              Encode(key, shape, dst.dtype(), kRows,
                     {{&nrows, sizeof(int64_t)}, {rows.data(), rows.size() * sizeof(int64_t)}}));
  const size_t bytes = dst.Size() * mshadow::mshadow_sizeof(dst.dtype());
  if (reply.size() != bytes) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " row_sparse_pull of key " << key
                               << ": the server sent " << reply.size() << " bytes for "
                               << nrows << " rows, expected " << bytes;
  }
  if (bytes != 0) std::memcpy(dst.data().dptr_, reply.data(), bytes);
}

void MpiCollective::RunServer(const std::function<void(int, const std::string&)>& controller,
                              const ServerUpdater& apply) {
  if (job_.is_worker) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": RunServer is for server "
                               << "processes (DMLC_ROLE=server); this process is a worker";
  }
  std::unordered_map<std::string, NDArray> values;  // this server's keys
  int stopped = 0;
  while (stopped < job_.num_workers_total) {
    MPI_Status status;
    int ready = 0;
    {
      std::lock_guard<std::mutex> lock(job_.mu);
      CheckMPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status),
               "server waiting for messages");
    }
    if (!ready) {  // idle servers must not take the workers' cores
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> msg(std::max(bytes, 1));
    CheckMPI(MPI_Recv(msg.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG,
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE), "server receiving");
    msg.resize(bytes);
    if (status.MPI_TAG == kTagStop) {
      ++stopped;
    } else if (status.MPI_TAG == kTagCommand && bytes >= static_cast<int>(sizeof(int))) {
      int head = 0;
      std::memcpy(&head, msg.data(), sizeof(int));
      controller(head, std::string(msg.data() + sizeof(int), bytes - sizeof(int)));
    } else if (status.MPI_TAG == kTagInit || status.MPI_TAG == kTagPush ||
               status.MPI_TAG == kTagPull) {
      std::vector<char> reply;
      int64_t ok = 1;
      try {
        reply = Serve(status.MPI_TAG, msg, &values, apply);
      } catch (const std::exception& e) {
        ok = 0;
        reply.assign(e.what(), e.what() + std::strlen(e.what()));
      }
      std::vector<char> out(sizeof(int64_t) + reply.size());
      std::memcpy(out.data(), &ok, sizeof(int64_t));
      if (!reply.empty()) std::memcpy(out.data() + sizeof(int64_t), reply.data(), reply.size());
      std::lock_guard<std::mutex> lock(job_.mu);
      CheckMPI(MPI_Send(out.data(), static_cast<int>(out.size()), MPI_BYTE, status.MPI_SOURCE,
                        kTagReply, MPI_COMM_WORLD), "server replying");
    }
  }
}

/*! \brief Worker side: one request to the key's server; returns the reply's payload. */
std::vector<char> MpiCollective::Request(int tag, const std::string& key,
                                         const std::vector<char>& msg) {
  const int server = job_.servers[static_cast<size_t>(KeyHash(key)) % job_.servers.size()];
  if (msg.size() > INT_MAX) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << ": key " << key << " is larger than "
                               << "2 GiB, which one message to a server cannot carry";
  }
  CheckMPI(MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, server, tag,
                    MPI_COMM_WORLD), "sending to a server");
  MPI_Status status;
  CheckMPI(MPI_Probe(server, kTagReply, MPI_COMM_WORLD, &status), "waiting for a server");
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::vector<char> reply(std::max(bytes, 1));
  CheckMPI(MPI_Recv(reply.data(), bytes, MPI_BYTE, server, kTagReply, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE), "receiving from a server");
  int64_t ok = 0;
  std::memcpy(&ok, reply.data(), sizeof(int64_t));
  std::vector<char> payload(reply.begin() + sizeof(int64_t), reply.begin() + bytes);
  if (!ok) {
    MX_THROW(dmlc::ValueError) << "KVStore " << type_ << " server " << server << ": "
                               << std::string(payload.begin(), payload.end());
  }
  return payload;
}

}  // namespace mpi
}  // namespace kvstore
}  // namespace mxnet

#endif  // MXNET_USE_MPI
