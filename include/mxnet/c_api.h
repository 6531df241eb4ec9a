/*!
 * \file mxnet/c_api.h
 * \brief The flat C API of libmxnet, with MXNet 1.9.1's names and signatures.
 *
 * Every function returns 0 on success and -1 on failure (except MXGetLastError); on failure
 * MXGetLastError() gives "<ErrorType>: <message>" for the calling thread. Nothing throws across
 * this boundary.
 *
 *   NDArrayHandle h;
 *   int64_t shape[2] = {2, 3};
 *   if (MXNDArrayCreateEx64(shape, 2, 1, 0, 0, 0, &h) != 0) puts(MXGetLastError());
 *   MXNDArrayFree(h);
 *
 * Ownership notes on each function: "TL" = pointer into a per-thread buffer valid until the next
 * call on this thread; "NEW" = caller owns it and releases it with the matching *Free.
 */
#ifndef MXNET_C_API_H_
#define MXNET_C_API_H_

#ifdef __cplusplus
#define DEFAULT(x) = x
#include <cstddef>
#include <cstdint>
extern "C" {
#else
#define DEFAULT(x)
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define MXNET_DLL __attribute__((visibility("default")))

typedef uint32_t mx_uint;
typedef float mx_float;
typedef int64_t dim_t;
typedef unsigned int nn_uint;

typedef void* NDArrayHandle;
typedef const void* FunctionHandle;
typedef void* AtomicSymbolCreator;
typedef void* OpHandle;
typedef void* SymbolHandle;
typedef void* AtomicSymbolHandle;
typedef void* ExecutorHandle;
typedef void* DataIterCreator;
typedef void* DataIterHandle;
typedef void* KVStoreHandle;
typedef void* RecordIOHandle;
typedef void* CachedOpHandle;
typedef void* DLManagedTensorHandle;
typedef const void* ContextHandle;
typedef const void* EngineFnPropertyHandle;
typedef void* EngineVarHandle;

/*! \brief A compile-time feature and whether this build has it. */
struct LibFeature {
  const char* name;
  bool enabled;
};

/*! \brief Engine functions pushed through the C API. */
typedef void (*EngineAsyncFunc)(void* run_ctx, void* on_complete, void* param);
typedef void (*EngineSyncFunc)(void* run_ctx, void* param);
typedef void (*EngineFuncParamDeleter)(void*);

/* ---------------------------------------------------------------- global */

/*! \brief The calling thread's last error text. STATIC per thread. */
MXNET_DLL const char* MXGetLastError();
/*! \brief Same as MXGetLastError (NNVM name, used by the Python frontend). */
MXNET_DLL const char* NNGetLastError();
/*! \brief Set the calling thread's last error text. */
MXNET_DLL void NNAPISetLastError(const char* msg);
/*! \brief MXNet version as major*10000 + minor*100 + patch (10901). */
MXNET_DLL int MXGetVersion(int* out);
/*! \brief STATIC array of compile-time features. */
MXNET_DLL int MXLibInfoFeatures(const struct LibFeature** libFeature, size_t* size);

/*! \brief Stop workers, mark engine shutdown and wait for pending work (Python's atexit). */
MXNET_DLL int MXNotifyShutdown();
/*! \brief Reseed every random generator on every device. */
MXNET_DLL int MXRandomSeed(int seed);
/*! \brief Reseed the random generators of one device. */
MXNET_DLL int MXRandomSeedContext(int seed, int dev_type, int dev_id);
/*! \brief Set the OpenMP thread count of kernels. */
MXNET_DLL int MXSetNumOMPThreads(int thread_num);
/*! \brief Set this thread's imperative bulk size; returns the previous one. */
MXNET_DLL int MXEngineSetBulkSize(int bulk_size, int* prev_bulk_size);
/*! \brief Number of visible GPUs (0 without CUDA). */
MXNET_DLL int MXGetGPUCount(int* out);
/*! \brief Release the pooled memory of a device. */
MXNET_DLL int MXStorageEmptyCache(int dev_type, int dev_id);
/*! \brief Legacy NDArray-function registry (empty here). TL array. */
MXNET_DLL int MXListFunctions(uint32_t* out_size, FunctionHandle** out_array);
/*! \brief TVM-style global function registry (empty here). */
MXNET_DLL int MXNetFuncListGlobalNames(int* out_size, const char*** out_array);
/*! \brief 1 unless DMLC_ROLE names a server or scheduler. */
MXNET_DLL int MXKVStoreIsWorkerNode(int* ret);
/*! \brief numpy-shape mode flag (always 0: legacy shape semantics). */
MXNET_DLL int MXIsNumpyShape(int* curr);
MXNET_DLL int MXSetIsNumpyShape(int is_np_shape, int* prev);

/* ---------------------------------------------------------------- NDArray */

/*! \brief NEW none array (output placeholder). */
MXNET_DLL int MXNDArrayCreateNone(NDArrayHandle* out);
/*! \brief NEW float32 array. delay_alloc != 0 defers memory to the first write. */
MXNET_DLL int MXNDArrayCreate(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                              int delay_alloc, NDArrayHandle* out);
/*! \brief NEW array of dtype code `dtype`. */
MXNET_DLL int MXNDArrayCreateEx(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                                int delay_alloc, int dtype, NDArrayHandle* out);
MXNET_DLL int MXNDArrayCreateEx64(const int64_t* shape, int ndim, int dev_type, int dev_id,
                                  int delay_alloc, int dtype, NDArrayHandle* out);
/*! \brief Delete the handle (a reference; memory goes when the last view goes). */
MXNET_DLL int MXNDArrayFree(NDArrayHandle handle);
/*! \brief NEW handle sharing data with src. */
MXNET_DLL int MXShallowCopyNDArray(NDArrayHandle src, NDArrayHandle* out);
/*! \brief Wait for pending work, then copy `size` ELEMENTS from host memory. */
MXNET_DLL int MXNDArraySyncCopyFromCPU(NDArrayHandle handle, const void* data, size_t size);
/*! \brief Wait for pending writes (rethrowing their error), then copy `size` elements out. */
MXNET_DLL int MXNDArraySyncCopyToCPU(NDArrayHandle handle, void* data, size_t size);
/*! \brief Copy src into dst (i must be -1: dense arrays). */
MXNET_DLL int MXNDArraySyncCopyFromNDArray(NDArrayHandle handle_dst, NDArrayHandle handle_src,
                                           int i);
MXNET_DLL int MXNDArraySyncCheckFormat(NDArrayHandle handle, bool full_check);
MXNET_DLL int MXNDArrayWaitToRead(NDArrayHandle handle);
MXNET_DLL int MXNDArrayWaitToWrite(NDArrayHandle handle);
/*! \brief Wait for all work; rethrow the first async error and clear all of them. */
MXNET_DLL int MXNDArrayWaitAll();
/*! \brief NEW view of rows [begin, end) along axis 0. */
MXNET_DLL int MXNDArraySlice(NDArrayHandle handle, uint32_t slice_begin, uint32_t slice_end,
                             NDArrayHandle* out);
MXNET_DLL int MXNDArraySlice64(NDArrayHandle handle, int64_t slice_begin, int64_t slice_end,
                               NDArrayHandle* out);
/*! \brief NEW view of row idx with axis 0 dropped. */
MXNET_DLL int MXNDArrayAt(NDArrayHandle handle, uint32_t idx, NDArrayHandle* out);
MXNET_DLL int MXNDArrayAt64(NDArrayHandle handle, int64_t idx, NDArrayHandle* out);
/*! \brief NEW view with a new shape (codes 0 and -1 only). */
MXNET_DLL int MXNDArrayReshape(NDArrayHandle handle, int ndim, int* dims, NDArrayHandle* out);
/*! \brief NEW view with a new shape; Reshape codes 0/-1/-2/-3/-4, reverse = right to left. */
MXNET_DLL int MXNDArrayReshape64(NDArrayHandle handle, int ndim, dim_t* dims, bool reverse,
                                 NDArrayHandle* out);
MXNET_DLL int MXNDArrayGetStorageType(NDArrayHandle handle, int* out_storage_type);
/*! \brief Shape (TL buffer); a none array has ndim 0. */
MXNET_DLL int MXNDArrayGetShape(NDArrayHandle handle, uint32_t* out_dim, const uint32_t** out_pdata);
MXNET_DLL int MXNDArrayGetShapeEx(NDArrayHandle handle, int* out_dim, const int** out_pdata);
MXNET_DLL int MXNDArrayGetShapeEx64(NDArrayHandle handle, int* out_dim, const int64_t** out_pdata);
/*! \brief Raw data pointer, no synchronisation (wait first). */
MXNET_DLL int MXNDArrayGetData(NDArrayHandle handle, void** out_pdata);
/*! \brief dtype code, -1 for a none array. */
MXNET_DLL int MXNDArrayGetDType(NDArrayHandle handle, int* out_dtype);
MXNET_DLL int MXNDArrayGetContext(NDArrayHandle handle, int* out_dev_type, int* out_dev_id);
/*! \brief Save arrays (keys NULL: unnamed list) in MXNet's format. */
MXNET_DLL int MXNDArraySave(const char* fname, uint32_t num_args, NDArrayHandle* args,
                            const char** keys);
/*! \brief Load a list file: handles NEW (caller frees), arrays and names TL. */
MXNET_DLL int MXNDArrayLoad(const char* fname, uint32_t* out_size, NDArrayHandle** out_arr,
                            uint32_t* out_name_size, const char*** out_names);
MXNET_DLL int MXNDArrayLoadFromBuffer(const void* ndarray_buffer, size_t size,
                                      uint32_t* out_size, NDArrayHandle** out_arr,
                                      uint32_t* out_name_size, const char*** out_names);
/*! \brief One array in the single-array format (TL bytes), for pickling. */
MXNET_DLL int MXNDArraySaveRawBytes(NDArrayHandle handle, size_t* out_size, const char** out_buf);
MXNET_DLL int MXNDArrayLoadFromRawBytes(const void* buf, size_t size, NDArrayHandle* out);

/*! \brief Export as a DLPack tensor sharing memory (the caller calls its deleter). */
MXNET_DLL int MXNDArrayToDLPack(NDArrayHandle handle, DLManagedTensorHandle* out_dlpack);
/*!
 * \brief NEW array over a DLPack tensor's memory. transient_handle: the producer keeps
 *        ownership (the deleter is not called when the array dies).
 */
MXNET_DLL int MXNDArrayFromDLPackEx(DLManagedTensorHandle dlpack, const bool transient_handle,
                                    NDArrayHandle* out_handle);
MXNET_DLL int MXNDArrayFromDLPack(DLManagedTensorHandle dlpack, NDArrayHandle* out_handle);
MXNET_DLL int MXNDArrayCallDLPackDeleter(DLManagedTensorHandle dlpack);
/*! \brief NEW reference to the same data, cut from the autograd graph. */
MXNET_DLL int MXNDArrayDetach(NDArrayHandle handle, NDArrayHandle* out);
/*! \brief NEW handle of the attached gradient buffer, or NULL if none. */
MXNET_DLL int MXNDArrayGetGrad(NDArrayHandle handle, NDArrayHandle* out);

/* ---------------------------------------------------------------- operators */

/*! \brief All operator names including aliases. TL array of STATIC strings. */
MXNET_DLL int MXListAllOpNames(uint32_t* out_size, const char*** out_array);
MXNET_DLL int NNListAllOpNames(nn_uint* out_size, const char*** out_array);
/*! \brief Handle of an operator by name or alias. STATIC. */
MXNET_DLL int NNGetOpHandle(const char* op_name, OpHandle* op_out);
/*! \brief Unique operators (aliases collapsed). TL array. */
MXNET_DLL int MXSymbolListAtomicSymbolCreators(uint32_t* out_size, AtomicSymbolCreator** out_array);
MXNET_DLL int MXSymbolGetAtomicSymbolName(AtomicSymbolCreator creator, const char** name);
/*! \brief Canonical name, description and arguments (TL arrays of STATIC strings). */
MXNET_DLL int MXSymbolGetAtomicSymbolInfo(AtomicSymbolCreator creator, const char** name,
                                          const char** description, uint32_t* num_args,
                                          const char*** arg_names, const char*** arg_type_infos,
                                          const char*** arg_descriptions,
                                          const char** key_var_num_args,
                                          const char** return_type DEFAULT(NULL));
/*!
 * \brief Run one operator eagerly. *outputs == NULL: the visible outputs are allocated and
 *        returned as NEW handles in a TL array; otherwise results go into the given arrays.
 */
MXNET_DLL int MXImperativeInvoke(AtomicSymbolCreator creator, int num_inputs, NDArrayHandle* inputs,
                                 int* num_outputs, NDArrayHandle** outputs, int num_params,
                                 const char** param_keys, const char** param_vals);
MXNET_DLL int MXImperativeInvokeEx(AtomicSymbolCreator creator, int num_inputs,
                                   NDArrayHandle* inputs, int* num_outputs,
                                   NDArrayHandle** outputs, int num_params,
                                   const char** param_keys, const char** param_vals,
                                   const int** out_stypes);
MXNET_DLL int MXAutogradSetIsRecording(int is_recording, int* prev);
MXNET_DLL int MXAutogradSetIsTraining(int is_training, int* prev);
MXNET_DLL int MXAutogradIsRecording(bool* curr);
MXNET_DLL int MXAutogradIsTraining(bool* curr);

/* ---- io: data iterators, RecordIO, KVStore (branch io) */
/*! \brief List the registered data iterators (MNISTIter, CSVIter); STATIC array. */
MXNET_DLL int MXListDataIters(uint32_t* out_size, DataIterCreator** out_array);
/*! \brief Create an iterator from string kwargs; it is ready for MXDataIterNext. */
MXNET_DLL int MXDataIterCreateIter(DataIterCreator handle, uint32_t num_param, const char** keys,
                                   const char** vals, DataIterHandle* out);
/*! \brief Name, description and arguments of an iterator (thread-local arrays). */
MXNET_DLL int MXDataIterGetIterInfo(DataIterCreator creator, const char** name,
                                    const char** description, uint32_t* num_args,
                                    const char*** arg_names, const char*** arg_type_infos,
                                    const char*** arg_descriptions);
MXNET_DLL int MXDataIterFree(DataIterHandle handle);
MXNET_DLL int MXDataIterNext(DataIterHandle handle, int* out);
MXNET_DLL int MXDataIterBeforeFirst(DataIterHandle handle);
/*! \brief New NDArray handles of the current batch's data / label (label (N,1) -> (N,)). */
MXNET_DLL int MXDataIterGetData(DataIterHandle handle, NDArrayHandle* out);
MXNET_DLL int MXDataIterGetLabel(DataIterHandle handle, NDArrayHandle* out);
/*! \brief Instance indices of the current batch (pointer owned by the iterator). */
MXNET_DLL int MXDataIterGetIndex(DataIterHandle handle, uint64_t** out_index, uint64_t* out_size);
MXNET_DLL int MXDataIterGetPadNum(DataIterHandle handle, int* pad);

MXNET_DLL int MXRecordIOWriterCreate(const char* uri, RecordIOHandle* out);
MXNET_DLL int MXRecordIOWriterFree(RecordIOHandle handle);
MXNET_DLL int MXRecordIOWriterWriteRecord(RecordIOHandle handle, const char* buf, size_t size);
MXNET_DLL int MXRecordIOWriterTell(RecordIOHandle handle, size_t* pos);
MXNET_DLL int MXRecordIOReaderCreate(const char* uri, RecordIOHandle* out);
MXNET_DLL int MXRecordIOReaderFree(RecordIOHandle handle);
/*! \brief Next record (buffer owned by the reader until the next call); NULL/0 at the end. */
MXNET_DLL int MXRecordIOReaderReadRecord(RecordIOHandle handle, char const** buf, size_t* size);
MXNET_DLL int MXRecordIOReaderSeek(RecordIOHandle handle, size_t pos);
MXNET_DLL int MXRecordIOReaderTell(RecordIOHandle handle, size_t* pos);

/*! \brief Updater callbacks: they own (must free) `recv` and `local`. */
typedef void(MXKVStoreUpdater)(int key, NDArrayHandle recv, NDArrayHandle local, void* handle);
typedef void(MXKVStoreStrUpdater)(const char* key, NDArrayHandle recv, NDArrayHandle local,
                                  void* handle);
typedef void(MXKVStoreServerController)(int head, const char* body, void* controller_handle);
MXNET_DLL int MXKVStoreCreate(const char* type, KVStoreHandle* out);
MXNET_DLL int MXKVStoreFree(KVStoreHandle handle);
MXNET_DLL int MXKVStoreInit(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals);
MXNET_DLL int MXKVStoreInitEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals);
MXNET_DLL int MXKVStorePush(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals, int priority);
MXNET_DLL int MXKVStorePushEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals, int priority);
MXNET_DLL int MXKVStorePull(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals, int priority);
MXNET_DLL int MXKVStorePullEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals, int priority);
MXNET_DLL int MXKVStorePullWithSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                                      NDArrayHandle* vals, int priority, bool ignore_sparse);
MXNET_DLL int MXKVStorePullWithSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                                        NDArrayHandle* vals, int priority, bool ignore_sparse);
/*! \brief row_sparse pulls: NotImplementedError (this build has dense storage only). */
MXNET_DLL int MXKVStorePullRowSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                                     NDArrayHandle* vals, const NDArrayHandle* row_ids,
                                     int priority);
MXNET_DLL int MXKVStorePullRowSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                                       NDArrayHandle* vals, const NDArrayHandle* row_ids,
                                       int priority);
MXNET_DLL int MXKVStorePushPull(KVStoreHandle handle, mx_uint vnum, const int* vkeys,
                                mx_uint onum, const int* okeys, NDArrayHandle* vals,
                                NDArrayHandle* outs, int priority);
MXNET_DLL int MXKVStorePushPullEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys,
                                  mx_uint onum, const char** okeys, NDArrayHandle* vals,
                                  NDArrayHandle* outs, int priority);
MXNET_DLL int MXKVStoreBroadcast(KVStoreHandle handle, mx_uint vnum, const int* vkeys,
                                 mx_uint onum, const int* okeys, NDArrayHandle* vals,
                                 NDArrayHandle* outs, int priority);
MXNET_DLL int MXKVStoreBroadcastEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys,
                                   mx_uint onum, const char** okeys, NDArrayHandle* vals,
                                   NDArrayHandle* outs, int priority);
MXNET_DLL int MXKVStoreSetUpdater(KVStoreHandle handle, MXKVStoreUpdater updater,
                                  void* updater_handle);
MXNET_DLL int MXKVStoreSetUpdaterEx(KVStoreHandle handle, MXKVStoreUpdater updater,
                                    MXKVStoreStrUpdater str_updater, void* updater_handle);
MXNET_DLL int MXKVStoreGetType(KVStoreHandle handle, const char** type);
MXNET_DLL int MXKVStoreGetRank(KVStoreHandle handle, int* ret);
MXNET_DLL int MXKVStoreGetGroupSize(KVStoreHandle handle, int* ret);
/* MXKVStoreIsWorkerNode is declared above (c_api.cc) */
MXNET_DLL int MXKVStoreIsServerNode(int* ret);
MXNET_DLL int MXKVStoreIsSchedulerNode(int* ret);
MXNET_DLL int MXKVStoreBarrier(KVStoreHandle handle);
MXNET_DLL int MXKVStoreSetBarrierBeforeExit(KVStoreHandle handle, const int barrier_before_exit);
MXNET_DLL int MXKVStoreGetNumDeadNode(KVStoreHandle handle, const int node_id, int* number,
                                      const int timeout_sec);
MXNET_DLL int MXKVStoreSetGradientCompression(KVStoreHandle handle, uint32_t num_params,
                                              const char** keys, const char** vals);
MXNET_DLL int MXKVStoreRunServer(KVStoreHandle handle, MXKVStoreServerController controller,
                                 void* controller_handle);
MXNET_DLL int MXKVStoreSendCommmandToServers(KVStoreHandle handle, int cmd_id,
                                             const char* cmd_body);
MXNET_DLL int MXInitPSEnv(uint32_t num_vars, const char** keys, const char** vals);

#ifdef __cplusplus
}
#endif

#endif  // MXNET_C_API_H_
