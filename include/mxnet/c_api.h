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
/*! \brief Free and total bytes of GPU `dev` (MXNetError when it does not exist). */
MXNET_DLL int MXGetGPUMemoryInformation64(int dev, uint64_t* free_mem, uint64_t* total_mem);
/*! \brief Deprecated: as MXGetGPUMemoryInformation64, truncated to int. */
MXNET_DLL int MXGetGPUMemoryInformation(int dev, int* free_mem, int* total_mem);
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
/*!
 * \brief Names of the operators with a kernel for a device type (1 cpu, 2 gpu): FCompute,
 *        FComputeEx or FStatefulCompute registered for it. Not in MXNet 1.x.
 */
MXNET_DLL int MXListOperatorsWithKernel(int dev_type, uint32_t* out_size, const char*** out_array);
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

/* ---------------------------------------------------------------- autograd */

#ifndef MXNET_CALLBACK_LIST_DEFINED
#define MXNET_CALLBACK_LIST_DEFINED
/*! \brief A list of frontend callbacks with one context pointer each. */
struct MXCallbackList {
  int num_callbacks;
  int (**callbacks)(void);
  void** contexts;
};
#endif
/*! \brief Indices of the callbacks of MXCustomFunctionRecord. */
enum CustomFunctionCallbacks { kCustomFunctionBackward, kCustomFunctionDelete };

/*!
 * \brief Attach gradient buffers: var_handles[i] becomes an autograd variable whose gradient is
 *        written to grad_handles[i] with request reqs_array[i] (0 null, 1 write, 3 add).
 */
MXNET_DLL int MXAutogradMarkVariables(uint32_t num_var, NDArrayHandle* var_handles,
                                      uint32_t* reqs_array, NDArrayHandle* grad_handles);
/*! \brief Backward with ones as head gradients, is_train=1, no retain. */
MXNET_DLL int MXAutogradComputeGradient(uint32_t num_output, NDArrayHandle* output_handles);
/*! \brief Backward (ograd_handles NULL or entries NULL: ones), is_train=1. */
MXNET_DLL int MXAutogradBackward(uint32_t num_output, NDArrayHandle* output_handles,
                                 NDArrayHandle* ograd_handles, int retain_graph);
/*!
 * \brief Backward from heads. num_variables == 0: gradients go to the marked variables'
 *        buffers. Otherwise the gradients of var_handles are returned as NEW handles in a TL
 *        array (*grad_handles) with their storage types (*grad_stypes, TL).
 */
MXNET_DLL int MXAutogradBackwardEx(uint32_t num_output, NDArrayHandle* output_handles,
                                   NDArrayHandle* ograd_handles, uint32_t num_variables,
                                   NDArrayHandle* var_handles, int retain_graph,
                                   int create_graph, int is_train, NDArrayHandle** grad_handles,
                                   int** grad_stypes);
/*! \brief NEW symbol of the recorded history of an array. */
MXNET_DLL int MXAutogradGetSymbol(NDArrayHandle handle, SymbolHandle* out);
/*! \brief The "fresh gradient" flag of a marked variable. */
MXNET_DLL int MXNDArraySetGradState(NDArrayHandle handle, int state);
MXNET_DLL int MXNDArrayGetGradState(NDArrayHandle handle, int* out);
/*! \brief Record a call of an autograd.Function (autograd must be recording). */
MXNET_DLL int MXCustomFunctionRecord(int num_inputs, NDArrayHandle* inputs, int num_outputs,
                                     NDArrayHandle* outputs, struct MXCallbackList* callbacks);
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
/*! \brief Pull the rows row_ids[i] of row_sparse stored values into row_sparse vals[i]. */
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
/* ---------------------------------------------------------------- symbol and executor */
/* Symbols: handles are NEW (free with MXSymbolFree); strings and lists are TL. Shapes use the
 * legacy convention: an unknown shape has ndim 0, an unknown dim is 0. */

MXNET_DLL int MXSymbolCreateVariable(const char* name, SymbolHandle* out);
/*! \brief NEW un-composed op node; hidden keys (lr_mult, ctx_group, ...) become __key__. */
MXNET_DLL int MXSymbolCreateAtomicSymbol(AtomicSymbolCreator creator, uint32_t num_param,
                                         const char** keys, const char** vals, SymbolHandle* out);
MXNET_DLL int MXSymbolCreateGroup(uint32_t num_symbols, SymbolHandle* symbols, SymbolHandle* out);
/*! \brief Bind inputs of sym IN PLACE (keys NULL: positional). */
MXNET_DLL int MXSymbolCompose(SymbolHandle sym, const char* name, uint32_t num_args,
                              const char** keys, SymbolHandle* args);
MXNET_DLL int NNSymbolCompose(SymbolHandle sym, const char* name, nn_uint num_args,
                              const char** keys, SymbolHandle* args);
MXNET_DLL int MXSymbolCopy(SymbolHandle symbol, SymbolHandle* out);
MXNET_DLL int MXShallowCopySymbol(SymbolHandle src, SymbolHandle* out);
MXNET_DLL int MXSymbolFree(SymbolHandle symbol);
MXNET_DLL int NNSymbolFree(SymbolHandle symbol);
MXNET_DLL int MXSymbolPrint(SymbolHandle symbol, const char** out_str);
MXNET_DLL int MXSymbolGetName(SymbolHandle symbol, const char** out, int* success);
MXNET_DLL int MXSymbolGetAttr(SymbolHandle symbol, const char* key, const char** out,
                              int* success);
MXNET_DLL int MXSymbolSetAttr(SymbolHandle symbol, const char* key, const char* value);
/*! \brief 2*out_size strings "<node>$<key>", value (recursive). */
MXNET_DLL int MXSymbolListAttr(SymbolHandle symbol, uint32_t* out_size, const char*** out);
MXNET_DLL int MXSymbolListAttrShallow(SymbolHandle symbol, uint32_t* out_size, const char*** out);
MXNET_DLL int MXSymbolListArguments(SymbolHandle symbol, uint32_t* out_size,
                                    const char*** out_str_array);
MXNET_DLL int MXSymbolListOutputs(SymbolHandle symbol, uint32_t* out_size,
                                  const char*** out_str_array);
MXNET_DLL int MXSymbolListAuxiliaryStates(SymbolHandle symbol, uint32_t* out_size,
                                          const char*** out_str_array);
/*! \brief option: 0 all inputs, 1 arguments, 2 auxiliary states. */
MXNET_DLL int NNSymbolListInputNames(SymbolHandle symbol, int option, nn_uint* out_size,
                                     const char*** out_str_array);
MXNET_DLL int MXSymbolGetNumOutputs(SymbolHandle symbol, uint32_t* output_count);
MXNET_DLL int NNSymbolGetNumOutputs(SymbolHandle symbol, nn_uint* output_count);
MXNET_DLL int MXSymbolGetInternals(SymbolHandle symbol, SymbolHandle* out);
MXNET_DLL int MXSymbolGetChildren(SymbolHandle symbol, SymbolHandle* out);
MXNET_DLL int MXSymbolGetOutput(SymbolHandle symbol, uint32_t index, SymbolHandle* out);
/*! \brief NEW handles (TL array) of every input variable. */
MXNET_DLL int MXSymbolGetInputSymbols(SymbolHandle sym, SymbolHandle** inputs, int* input_size);
MXNET_DLL int MXSymbolSaveToJSON(SymbolHandle symbol, const char** out_json);
/*!
 * \brief A copy of the symbol whose nodes read past amp_cast / amp_multicast nodes (casts that
 *        are outputs of the symbol stay), as mx.model.save_checkpoint(remove_amp_cast=True)
 *        saves it. NEW.
 */
MXNET_DLL int MXSymbolRemoveAmpCast(SymbolHandle sym_handle, SymbolHandle* ret_sym_handle);
MXNET_DLL int MXSymbolCreateFromJSON(const char* json, SymbolHandle* out);
MXNET_DLL int MXSymbolSaveToFile(SymbolHandle symbol, const char* fname);
MXNET_DLL int MXSymbolCreateFromFile(const char* fname, SymbolHandle* out);
/*! \brief Always fails (not implemented in MXNet 1.x either). */
MXNET_DLL int MXSymbolGrad(SymbolHandle sym, uint32_t num_wrt, const char** wrt, SymbolHandle* out);
/*! \brief Known shapes in CSR form (keys NULL: positional); results TL; complete=1 when all known. */
MXNET_DLL int MXSymbolInferShape(SymbolHandle sym, uint32_t num_args, const char** keys,
                                 const uint32_t* arg_ind_ptr, const uint32_t* arg_shape_data,
                                 uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
                                 const uint32_t*** in_shape_data, uint32_t* out_shape_size,
                                 const uint32_t** out_shape_ndim, const uint32_t*** out_shape_data,
                                 uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
                                 const uint32_t*** aux_shape_data, int* complete);
MXNET_DLL int MXSymbolInferShapePartial(
    SymbolHandle sym, uint32_t num_args, const char** keys, const uint32_t* arg_ind_ptr,
    const uint32_t* arg_shape_data, uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
    const uint32_t*** in_shape_data, uint32_t* out_shape_size, const uint32_t** out_shape_ndim,
    const uint32_t*** out_shape_data, uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
    const uint32_t*** aux_shape_data, int* complete);
MXNET_DLL int MXSymbolInferShapeEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                   const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                                   uint32_t* in_shape_size, const int** in_shape_ndim,
                                   const int*** in_shape_data, uint32_t* out_shape_size,
                                   const int** out_shape_ndim, const int*** out_shape_data,
                                   uint32_t* aux_shape_size, const int** aux_shape_ndim,
                                   const int*** aux_shape_data, int* complete);
MXNET_DLL int MXSymbolInferShapePartialEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                          const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                                          uint32_t* in_shape_size, const int** in_shape_ndim,
                                          const int*** in_shape_data, uint32_t* out_shape_size,
                                          const int** out_shape_ndim, const int*** out_shape_data,
                                          uint32_t* aux_shape_size, const int** aux_shape_ndim,
                                          const int*** aux_shape_data, int* complete);
MXNET_DLL int MXSymbolInferShapeEx64(SymbolHandle sym, uint32_t num_args, const char** keys,
                                     const int64_t* arg_ind_ptr, const int64_t* arg_shape_data,
                                     size_t* in_shape_size, const int** in_shape_ndim,
                                     const int64_t*** in_shape_data, size_t* out_shape_size,
                                     const int** out_shape_ndim, const int64_t*** out_shape_data,
                                     size_t* aux_shape_size, const int** aux_shape_ndim,
                                     const int64_t*** aux_shape_data, int* complete);
MXNET_DLL int MXSymbolInferShapePartialEx64(
    SymbolHandle sym, uint32_t num_args, const char** keys, const int64_t* arg_ind_ptr,
    const int64_t* arg_shape_data, size_t* in_shape_size, const int** in_shape_ndim,
    const int64_t*** in_shape_data, size_t* out_shape_size, const int** out_shape_ndim,
    const int64_t*** out_shape_data, size_t* aux_shape_size, const int** aux_shape_ndim,
    const int64_t*** aux_shape_data, int* complete);
/*! \brief dtype codes (-1 unknown); the Partial variant always reports complete=1. */
MXNET_DLL int MXSymbolInferType(SymbolHandle sym, uint32_t num_args, const char** keys,
                                const int* arg_type_data, uint32_t* in_type_size,
                                const int** in_type_data, uint32_t* out_type_size,
                                const int** out_type_data, uint32_t* aux_type_size,
                                const int** aux_type_data, int* complete);
MXNET_DLL int MXSymbolInferTypePartial(SymbolHandle sym, uint32_t num_args, const char** keys,
                                       const int* arg_type_data, uint32_t* in_type_size,
                                       const int** in_type_data, uint32_t* out_type_size,
                                       const int** out_type_data, uint32_t* aux_type_size,
                                       const int** aux_type_data, int* complete);

/* Executors: NEW handles (free with MXExecutorFree). grad_req codes: 0 null, 1 write, 3 add. */
MXNET_DLL int MXExecutorBindEX(SymbolHandle symbol_handle, int dev_type, int dev_id,
                               uint32_t num_map_keys, const char** map_keys,
                               const int* map_dev_types, const int* map_dev_ids, uint32_t len,
                               NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                               uint32_t* grad_req_type, uint32_t aux_states_len,
                               NDArrayHandle* aux_states, ExecutorHandle shared_exec,
                               ExecutorHandle* out);
MXNET_DLL int MXExecutorBindX(SymbolHandle symbol_handle, int dev_type, int dev_id,
                              uint32_t num_map_keys, const char** map_keys,
                              const int* map_dev_types, const int* map_dev_ids, uint32_t len,
                              NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                              uint32_t* grad_req_type, uint32_t aux_states_len,
                              NDArrayHandle* aux_states, ExecutorHandle* out);
MXNET_DLL int MXExecutorBind(SymbolHandle symbol_handle, int dev_type, int dev_id, uint32_t len,
                             NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                             uint32_t* grad_req_type, uint32_t aux_states_len,
                             NDArrayHandle* aux_states, ExecutorHandle* out);
/*! \brief Infer, allocate and bind; returned arrays are TL arrays of NEW handles. */
MXNET_DLL int MXExecutorSimpleBindEx(
    SymbolHandle symbol_handle, int dev_type, int dev_id, const uint32_t num_g2c_keys,
    const char** g2c_keys, const int* g2c_dev_types, const int* g2c_dev_ids,
    const uint32_t provided_grad_req_list_len, const char** provided_grad_req_names,
    const char** provided_grad_req_types, const uint32_t num_provided_arg_shapes,
    const char** provided_arg_shape_names, const int* provided_arg_shape_data,
    const uint32_t* provided_arg_shape_idx, const uint32_t num_provided_arg_dtypes,
    const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
    const uint32_t num_provided_arg_stypes, const char** provided_arg_stype_names,
    const int* provided_arg_stypes, const uint32_t num_shared_arg_names,
    const char** shared_arg_name_list, int* shared_buffer_len,
    const char** shared_buffer_name_list, NDArrayHandle* shared_buffer_handle_list,
    const char*** updated_shared_buffer_name_list,
    NDArrayHandle** updated_shared_buffer_handle_list, uint32_t* num_in_args,
    NDArrayHandle** in_args, NDArrayHandle** arg_grads, uint32_t* num_aux_states,
    NDArrayHandle** aux_states, ExecutorHandle shared_exec_handle, ExecutorHandle* out);
MXNET_DLL int MXExecutorSimpleBindEx64(
    SymbolHandle symbol_handle, int dev_type, int dev_id, const uint32_t num_g2c_keys,
    const char** g2c_keys, const int* g2c_dev_types, const int* g2c_dev_ids,
    const uint32_t provided_grad_req_list_len, const char** provided_grad_req_names,
    const char** provided_grad_req_types, const uint32_t num_provided_arg_shapes,
    const char** provided_arg_shape_names, const int64_t* provided_arg_shape_data,
    const uint32_t* provided_arg_shape_idx, const uint32_t num_provided_arg_dtypes,
    const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
    const uint32_t num_provided_arg_stypes, const char** provided_arg_stype_names,
    const int* provided_arg_stypes, const uint32_t num_shared_arg_names,
    const char** shared_arg_name_list, int* shared_buffer_len,
    const char** shared_buffer_name_list, NDArrayHandle* shared_buffer_handle_list,
    const char*** updated_shared_buffer_name_list,
    NDArrayHandle** updated_shared_buffer_handle_list, uint32_t* num_in_args,
    NDArrayHandle** in_args, NDArrayHandle** arg_grads, uint32_t* num_aux_states,
    NDArrayHandle** aux_states, ExecutorHandle shared_exec_handle, ExecutorHandle* out);
MXNET_DLL int MXExecutorForward(ExecutorHandle handle, int is_train);
MXNET_DLL int MXExecutorBackward(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads);
MXNET_DLL int MXExecutorBackwardEx(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads,
                                   int is_train);
/*! \brief NEW handle per output on every call (TL array). */
MXNET_DLL int MXExecutorOutputs(ExecutorHandle handle, uint32_t* out_size, NDArrayHandle** out);
MXNET_DLL int MXExecutorFree(ExecutorHandle handle);
MXNET_DLL int MXExecutorPrint(ExecutorHandle handle, const char** out_str);
MXNET_DLL int MXExecutorGetOptimizedSymbol(ExecutorHandle handle, SymbolHandle* out);
/*! \brief Monitor: callback(name, NEW array handle, callback_handle) after each op is pushed. */
typedef void (*ExecutorMonitorCallback)(const char*, NDArrayHandle, void*);
MXNET_DLL int MXExecutorSetMonitorCallback(ExecutorHandle handle,
                                           ExecutorMonitorCallback callback,
                                           void* callback_handle);
MXNET_DLL int MXExecutorSetMonitorCallbackEX(ExecutorHandle handle,
                                             ExecutorMonitorCallback callback,
                                             void* callback_handle, bool monitor_all);
MXNET_DLL int MXExecutorReshapeEx(int partial_shaping, int allow_up_sizing, int dev_type,
                                  int dev_id, uint32_t num_map_keys, const char** map_keys,
                                  const int* map_dev_types, const int* map_dev_ids,
                                  const uint32_t num_provided_arg_shapes,
                                  const char** provided_arg_shape_names,
                                  const int* provided_arg_shape_data,
                                  const uint32_t* provided_arg_shape_idx, uint32_t* num_in_args,
                                  NDArrayHandle** in_args, NDArrayHandle** arg_grads,
                                  uint32_t* num_aux_states, NDArrayHandle** aux_states,
                                  ExecutorHandle shared_exec, ExecutorHandle* out);
/* ---------------------------------------------------------------- extension libraries */

/*!
 * \brief Load an operator library built against include/mxnet/lib_api.h: check its interface
 *        version, call its initialize, validate and register its operators (then callable
 *        through MXImperativeInvoke and symbols like built-in ones). Loading the same library
 *        again is harmless. On failure nothing is registered and the error names the cause
 *        (missing file, not a shared library, other interface version, invalid operator, name
 *        clash, initialize failing, with the library's own messages).
 * \param path path of the .so
 * \param verbose 1: log the number and names of the operators found
 */
MXNET_DLL int MXLoadLib(const char* path, unsigned verbose);

/* ---- custom operators (Python CustomOp, API.md §4.2) */
/*!
 * \brief A list of callbacks with their contexts (`int (*)(void)` entries are cast to the
 *        specific callback types below). Also used by custom autograd functions.
 */
#ifndef MXNET_CALLBACK_LIST_DEFINED
#define MXNET_CALLBACK_LIST_DEFINED
struct MXCallbackList {
  int num_callbacks;
  int (**callbacks)(void);
  void** contexts;
};
#endif
/*! \brief Indices of the callbacks an operator instance provides. */
enum CustomOpCallbacks { kCustomOpDelete, kCustomOpForward, kCustomOpBackward };
/*! \brief Indices of the callbacks a custom operator property provides. */
enum CustomOpPropCallbacks {
  kCustomOpPropDelete,
  kCustomOpPropListArguments,
  kCustomOpPropListOutputs,
  kCustomOpPropListAuxiliaryStates,
  kCustomOpPropInferShape,
  kCustomOpPropDeclareBackwardDependency,
  kCustomOpPropCreateOperator,
  kCustomOpPropInferType,
  kCustomOpPropInferStorageType,
  kCustomOpPropBackwardInferStorageType
};
/*!
 * \brief Forward/backward: `ptrs` are NEW NDArray handles (the callee frees them), `tags`
 *        say what each is (0 in_data, 1 out_data, 2 in_grad, 3 out_grad, 4 aux), `reqs` one
 *        OpReqType per written array. Return non-zero on success.
 */
typedef int (*CustomOpFBFunc)(int size, void** ptrs, int* tags, const int* reqs,
                              const int is_train, void* state);
typedef int (*CustomOpDelFunc)(void* state);
/*! \brief *args = NULL-terminated array of names owned by the callee. */
typedef int (*CustomOpListFunc)(char*** args, void* state);
/*! \brief Fill all num_input shapes (inputs, outputs, aux) with callee-owned arrays. */
typedef int (*CustomOpInferShapeFunc)(int num_input, int* ndims, int** shapes, void* state);
typedef int (*CustomOpInferStorageTypeFunc)(int num_input, int* stypes, void* state);
typedef int (*CustomOpBackwardInferStorageTypeFunc)(int num_input, int* stypes, int* tags,
                                                    void* state);
typedef int (*CustomOpInferTypeFunc)(int num_input, int* types, void* state);
typedef int (*CustomOpBwdDepFunc)(const int* out_grad, const int* in_data, const int* out_data,
                                  int* num_deps, int** rdeps, void* state);
typedef int (*CustomOpCreateFunc)(const char* ctx, int num_inputs, unsigned** shapes,
                                  const int* ndims, const int* dtypes,
                                  struct MXCallbackList* ret, void* state);
/*! \brief Instantiate the property of op_type with string kwargs; fill ret (10 callbacks). */
typedef int (*CustomOpPropCreator)(const char* op_type, const int num_kwargs, const char** keys,
                                   const char** values, struct MXCallbackList* ret);
/*!
 * \brief Register (or replace) the custom operator op_type; used as Custom(op_type=...).
 *        The creator must stay valid for the life of the process.
 */
MXNET_DLL int MXCustomOpRegister(const char* op_type, CustomOpPropCreator creator);
/*! \brief Set the calling thread's last error (a callback reports its exception text). */
MXNET_DLL void MXAPISetLastError(const char* msg);

/* ---- profiler */
/*! \brief Handle of a profiler domain, task, frame, event or counter. */
typedef void* ProfileHandle;
/*! \brief Profiler settings as string key/values (see mxnet/profiler.h); the kvstore handle
 *         is for server-side profiling and must be NULL here. */
MXNET_DLL int MXSetProcessProfilerConfig(int num_params, const char* const* keys,
                                         const char* const* vals, KVStoreHandle kvstoreHandle);
MXNET_DLL int MXSetProfilerConfig(int num_params, const char* const* keys,
                                  const char* const* vals);
/*! \brief state: 1 run, 0 stop; profile_process: 0 worker (1 server is not supported). */
MXNET_DLL int MXSetProcessProfilerState(int state, int profile_process,
                                        KVStoreHandle kvStoreHandle);
MXNET_DLL int MXSetProfilerState(int state);
/*! \brief Write the Chrome tracing JSON to the configured file. */
MXNET_DLL int MXDumpProcessProfile(int finished, int profile_process, KVStoreHandle kvStoreHandle);
MXNET_DLL int MXDumpProfile(int finished);
/*! \brief *out_str (thread-local) = the aggregate statistics table. */
MXNET_DLL int MXAggregateProfileStatsPrint(const char** out_str, int reset);
/*! \brief format: 0 table, 1 json; sort_by: 0 total, 1 avg, 2 min, 3 max, 4 count. */
MXNET_DLL int MXAggregateProfileStatsPrintEx(const char** out_str, int reset, int format,
                                             int sort_by, int ascending);
MXNET_DLL int MXProcessProfilePause(int paused, int profile_process, KVStoreHandle kvStoreHandle);
MXNET_DLL int MXProfilePause(int paused);
MXNET_DLL int MXProfileCreateDomain(const char* domain, ProfileHandle* out);
MXNET_DLL int MXProfileCreateTask(ProfileHandle domain, const char* task_name, ProfileHandle* out);
MXNET_DLL int MXProfileCreateFrame(ProfileHandle domain, const char* frame_name,
                                   ProfileHandle* out);
MXNET_DLL int MXProfileCreateEvent(const char* event_name, ProfileHandle* out);
MXNET_DLL int MXProfileCreateCounter(ProfileHandle domain, const char* counter_name,
                                     ProfileHandle* out);
MXNET_DLL int MXProfileDestroyHandle(ProfileHandle frame_handle);
MXNET_DLL int MXProfileDurationStart(ProfileHandle duration_handle);
MXNET_DLL int MXProfileDurationStop(ProfileHandle duration_handle);
MXNET_DLL int MXProfileSetCounter(ProfileHandle counter_handle, uint64_t value);
MXNET_DLL int MXProfileAdjustCounter(ProfileHandle counter_handle, int64_t value);
/*! \brief scope: "global", "process", "thread", "task" or "marker". */
MXNET_DLL int MXProfileSetMarker(ProfileHandle domain, const char* instant_marker_name,
                                 const char* scope);
/*! \brief Environment variables of the process (c_api_test.h in 1.9.1; mx.util.getenv/setenv).
 *         *value is NULL when the variable is unset; setting NULL unsets it. */
MXNET_DLL int MXGetEnv(const char* name, const char** value);
MXNET_DLL int MXSetEnv(const char* name, const char* value);
/* ---- cached op (CachedOp, the engine of Gluon's hybridize; branch cachedop) */
/*! \brief Monitor hook of a cached op: (node output name, operator name, array). */
typedef void (*CachedOpMonitorCallback)(const char* node_name, const char* op_name,
                                        NDArrayHandle arr);
/*! \brief MXCreateCachedOpEx without flags. */
MXNET_DLL int MXCreateCachedOp(SymbolHandle handle, CachedOpHandle* out);
/*!
 * \brief Create a cached op from a symbol. Flags (strings): static_alloc, static_shape,
 *        inline_limit, forward_bulk_size, backward_bulk_size, data_indices, param_indices,
 *        subgraph, is_dynamic; an unknown name is an error.
 */
MXNET_DLL int MXCreateCachedOpEx(SymbolHandle handle, int num_flags, const char** keys,
                                 const char** vals, CachedOpHandle* out);
/*! \brief MXCreateCachedOpEx; thread_safe is accepted (the op locks its cache itself). */
MXNET_DLL int MXCreateCachedOpEX(SymbolHandle handle, int num_flags, const char** keys,
                                 const char** vals, CachedOpHandle* out,
                                 bool thread_safe DEFAULT(false));
MXNET_DLL int MXFreeCachedOp(CachedOpHandle handle);
/*! \brief MXInvokeCachedOpEx without output storage types. */
MXNET_DLL int MXInvokeCachedOp(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                               int* num_outputs, NDArrayHandle** outputs);
/*!
 * \brief Run the cached op on inputs in list_inputs order. *outputs NULL: new output handles
 *        are returned in a thread-local array; otherwise *num_outputs caller arrays (the op's
 *        full output count) are written.
 */
MXNET_DLL int MXInvokeCachedOpEx(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                                 int* num_outputs, NDArrayHandle** outputs,
                                 const int** out_stypes);
/*! \brief Call `callback` after every operator of later calls (inputs too with monitor_all). */
MXNET_DLL int MXCachedOpRegisterOpHook(CachedOpHandle handle, CachedOpMonitorCallback callback,
                                       bool monitor_all);

/* ---- sparse NDArrays (src/c_api/c_api_sparse.cc) */
/*!
 * \brief Create a sparse array (storage_type 1 row_sparse, 2 csr). aux_shape holds the aux
 *        shapes' dimensions back to back (aux_ndims[i] each).
 */
MXNET_DLL int MXNDArrayCreateSparseEx(int storage_type, const uint32_t* shape, uint32_t ndim,
                                      int dev_type, int dev_id, int delay_alloc, int dtype,
                                      uint32_t num_aux, int* aux_type, uint32_t* aux_ndims,
                                      const uint32_t* aux_shape, NDArrayHandle* out);
MXNET_DLL int MXNDArrayCreateSparseEx64(int storage_type, const int64_t* shape, int ndim,
                                        int dev_type, int dev_id, int delay_alloc, int dtype,
                                        uint32_t num_aux, int* aux_type, int* aux_ndims,
                                        const int64_t* aux_shape, NDArrayHandle* out);
/*! \brief dtype of aux array i (csr: 0 indptr, 1 indices; row_sparse: 0 indices). */
MXNET_DLL int MXNDArrayGetAuxType(NDArrayHandle handle, uint32_t i, int* out_type);
MXNET_DLL int MXNDArrayGetAuxType64(NDArrayHandle handle, int64_t i, int* out_type);
/*! \brief A dense copy of aux array i. */
MXNET_DLL int MXNDArrayGetAuxNDArray(NDArrayHandle handle, uint32_t i, NDArrayHandle* out);
MXNET_DLL int MXNDArrayGetAuxNDArray64(NDArrayHandle handle, int64_t i, NDArrayHandle* out);
/*! \brief A dense copy of the stored values. */
MXNET_DLL int MXNDArrayGetDataNDArray(NDArrayHandle handle, NDArrayHandle* out);

/* ---- image codec (src/c_api/c_api_image.cc) */
/*!
 * \brief Encode an (height, width, channels) uint8 image as JPEG or PNG (recordio.pack_img).
 * \param is_rgb 1: the colour channels are RGB; 0: BGR (OpenCV's order).
 * \param ext ".jpg", ".jpeg" or ".png".
 * \param quality JPEG quality 1..100, or PNG compression level (clamped to 0..9).
 * \param out_buf, out_size the encoded bytes, valid until the next call on this thread.
 */
MXNET_DLL int MXImageEncode(const void* img, int height, int width, int channels, int is_rgb,
                            const char* ext, int quality, const char** out_buf, size_t* out_size);
/*!
 * \brief Decode JPEG/PNG bytes (recordio.unpack_img). flag: 0 grey, > 0 colour, < 0 as stored
 *        (grey or colour, alpha dropped). out_pixels is valid until the next call on this thread.
 */
MXNET_DLL int MXImageDecode(const void* buf, size_t size, int flag, int to_rgb,
                            const unsigned char** out_pixels, int* height, int* width,
                            int* channels);
/* ---- symbolic sparse storage (src/c_api/c_api_sparse_symbolic.cc) */
/*!
 * \brief Storage-type inference of a symbol's forward graph. keys/stypes name known argument
 *        storage types (0 default, 1 row_sparse, 2 csr); others come from the variables'
 *        stype attribute, else default. Results (list_arguments, outputs, auxiliary states
 *        order) stay valid until the next call on this thread.
 */
MXNET_DLL int MXSymbolInferStorageTypeEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                         const int* stypes, uint32_t* in_size,
                                         const int** in_stypes, uint32_t* out_size,
                                         const int** out_stypes, uint32_t* aux_size,
                                         const int** aux_stypes);
/*!
 * \brief Storage types of the gradient arrays simple_bind would make (one per argument, -1
 *        where grad_reqs[i] is 0 = null; grad_reqs as MXExecutorBindEX's codes).
 */
MXNET_DLL int MXSymbolInferGradStorageType(SymbolHandle sym, uint32_t num_args, const char** keys,
                                           const int* stypes, uint32_t num_reqs,
                                           const uint32_t* grad_reqs, uint32_t* out_size,
                                           const int** grad_stypes);

#ifdef __cplusplus
}
#endif

#endif  // MXNET_C_API_H_
