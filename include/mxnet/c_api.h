/*!
 * \file mxnet/c_api.h
 * \brief The flat C API of libmxnet, with MXNet 1.9.1's names and signatures.
 *
 * Every function returns 0 on success and -1 on failure (except the error-text functions
 * MXGetLastError, MXGetLastErrorType, NNGetLastError, NNAPISetLastError, MXAPISetLastError); on
 * failure MXGetLastError() gives "<ErrorType>: <message>" for the calling thread, and
 * MXGetLastErrorType() the type alone. Nothing throws across this boundary.
 *
 *   NDArrayHandle h;
 *   int64_t shape[2] = {2, 3};
 *   if (MXNDArrayCreateEx64(shape, 2, 1, 0, 0, 0, &h) != 0) puts(MXGetLastError());
 *   MXNDArrayFree(h);
 *
 * Every function is documented in one format, a comment right above it:
 *
 *   /\*! \brief What the function does.
 *    *  Ownership: who owns each pointer it takes or gives back.
 *    *  \return 0 on success, -1 on failure (MXGetLastError). *\/
 *
 * (tests/python/unittest/test_c_api_docs.py checks every MXNET_DLL function for it.) Words of the
 * Ownership line:
 *   borrowed, read during the call, written during the call: the library uses the pointer only
 *     during the call; the caller owns it before and after. "copied": the library keeps a copy.
 *   NEW (F): allocated for the caller, who owns it and releases it with F.
 *   TL: points into a per-thread buffer of the library, valid until the next C API call on the
 *     same thread; copy what you need at once. Entries of a TL array are owned as said there.
 *   STATIC: owned by the library, valid for the life of the process.
 *   kept: the library holds on to the pointer after the call (as said there).
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
typedef void* RtcHandle;
typedef void* CudaModuleHandle;
typedef void* CudaKernelHandle;

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

/*! \brief The calling thread's last error text, "<ErrorType>: <message>" (not cleared by later
 *  successful calls).
 *  Ownership: the text belongs to the library, per thread; valid until the next failing call on
 *  this thread.
 *  \return the text; cannot fail. */
MXNET_DLL const char* MXGetLastError();
/*! \brief Same as MXGetLastError (the NNVM name the Python frontend calls).
 *  Ownership: as MXGetLastError.
 *  \return the text; cannot fail. */
MXNET_DLL const char* NNGetLastError();
/*! \brief The type of the calling thread's last error: "ValueError", "TypeError", "IndexError",
 *  "NotImplementedError", "MemoryError", "AttributeError", "InternalError" or "MXNetError" (a
 *  frontend error set with a "<Type>: " prefix keeps its type). Not in MXNet 1.x: frontends map
 *  it to their exception classes instead of parsing the text.
 *  Ownership: the text belongs to the library, per thread; valid until the next failing call on
 *  this thread.
 *  \return the type name; cannot fail. */
MXNET_DLL const char* MXGetLastErrorType();
/*! \brief Sets the calling thread's last error text (NULL sets an empty text).
 *  Ownership: msg borrowed (copied).
 *  \return nothing; cannot fail. */
MXNET_DLL void NNAPISetLastError(const char* msg);
/*! \brief The version as major*10000 + minor*100 + patch: 10901 for MXNet 1.9.1.
 *  Ownership: out borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXGetVersion(int* out);
/*! \brief The compile-time features of this build (CUDA, OPENMP, MKLDNN, INT64_TENSOR_SIZE, ...)
 *  and whether each is enabled.
 *  Ownership: *libFeature STATIC array of *size entries; size borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXLibInfoFeatures(const struct LibFeature** libFeature, size_t* size);

/*! \brief Stops the engine's workers after the pending work finished and stops custom-operator
 *  callbacks (Python's atexit hook).
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNotifyShutdown();
/*! \brief Reseeds every random generator on every device.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRandomSeed(int seed);
/*! \brief Reseeds the random generators of one device (dev_type 1 cpu, 2 gpu).
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRandomSeedContext(int seed, int dev_type, int dev_id);
/*! \brief Sets the OpenMP thread count of kernels (thread_num >= 1).
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetNumOMPThreads(int thread_num);
/*! \brief Sets this thread's imperative bulk size (operators pushed as one engine operation) and
 *  gives the previous one.
 *  Ownership: prev_bulk_size borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXEngineSetBulkSize(int bulk_size, int* prev_bulk_size);
/*! \brief The number of visible GPUs (0 in a build without CUDA).
 *  Ownership: out borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXGetGPUCount(int* out);
/*! \brief Free and total bytes of GPU `dev`; fails when the GPU does not exist.
 *  Ownership: free_mem, total_mem borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXGetGPUMemoryInformation64(int dev, uint64_t* free_mem, uint64_t* total_mem);
/*! \brief Deprecated: MXGetGPUMemoryInformation64 truncated to int (wrong above 2 GiB).
 *  Ownership: free_mem, total_mem borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXGetGPUMemoryInformation(int dev, int* free_mem, int* total_mem);
/*! \brief Releases the pooled (cached, unused) memory of one device to the system.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXStorageEmptyCache(int dev_type, int dev_id);
/*! \brief The legacy NDArray-function registry; empty in this build (*out_size 0, *out_array NULL).
 *  Ownership: out_size, out_array borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXListFunctions(uint32_t* out_size, FunctionHandle** out_array);
/*! \brief The TVM-style global function registry; empty in this build (*out_size 0, *out_array
 *  NULL).
 *  Ownership: out_size, out_array borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNetFuncListGlobalNames(int* out_size, const char*** out_array);
/*! \brief 1 unless $DMLC_ROLE names another role (server, scheduler), else 0.
 *  Ownership: ret borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreIsWorkerNode(int* ret);
/*! \brief The NumPy-shape mode the frontend set (0 off, 1 on for this thread, 2 on for every
 *  thread); it changes how a none array's shape is reported.
 *  Ownership: curr borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXIsNumpyShape(int* curr);
/*! \brief Sets the NumPy-shape mode (0 off, 1 this thread, 2 every thread) and gives the previous
 *  one.
 *  Ownership: prev borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetIsNumpyShape(int is_np_shape, int* prev);

/* ---------------------------------------------------------------- NDArray */

/*! \brief Creates a none array (no shape, no memory), the placeholder for operator outputs.
 *  Ownership: *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreateNone(NDArrayHandle* out);
/*! \brief Creates a float32 dense array of `shape` on device (dev_type, dev_id); delay_alloc != 0
 *  defers the memory to the first write.
 *  Ownership: shape read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreate(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                              int delay_alloc, NDArrayHandle* out);
/*! \brief MXNDArrayCreate with a dtype code (0 float32, 1 float64, 2 float16, 3 uint8, 4 int32, 5
 *  int8, 6 int64, 7 bool, ...).
 *  Ownership: shape read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreateEx(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                                int delay_alloc, int dtype, NDArrayHandle* out);
/*! \brief MXNDArrayCreateEx with 64-bit dimensions.
 *  Ownership: shape read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreateEx64(const int64_t* shape, int ndim, int dev_type, int dev_id,
                                  int delay_alloc, int dtype, NDArrayHandle* out);
/*! \brief Deletes the handle: a reference to the array's data, which goes with its last reference
 *  (views and pending operations hold their own).
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayFree(NDArrayHandle handle);
/*! \brief A second handle on the same data (no copy).
 *  Ownership: src borrowed; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXShallowCopyNDArray(NDArrayHandle src, NDArrayHandle* out);
/*! \brief Waits for pending work on the array, then copies `size` elements (the array's full size,
 *  its dtype) from host memory.
 *  Ownership: data read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySyncCopyFromCPU(NDArrayHandle handle, const void* data, size_t size);
/*! \brief Waits for pending writes (raising their error), then copies `size` elements (the array's
 *  full size) to host memory.
 *  Ownership: data written during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySyncCopyToCPU(NDArrayHandle handle, void* data, size_t size);
/*! \brief Copies the dense array src into handle_dst and waits: i = -1 into its (dense or sparse)
 *  data, i >= 0 into aux array i of a sparse array.
 *  Ownership: both handles borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySyncCopyFromNDArray(NDArrayHandle handle_dst, NDArrayHandle handle_src,
                                           int i);
/*! \brief Waits, then checks a sparse array's aux arrays: sizes and index ranges (full_check: also
 *  strictly increasing indices); dense arrays always pass.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySyncCheckFormat(NDArrayHandle handle, bool full_check);
/*! \brief Waits until the pending writes of the array are done; raises the error of a failed one.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayWaitToRead(NDArrayHandle handle);
/*! \brief Waits until the pending reads and writes of the array are done; raises the error of a
 *  failed one.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayWaitToWrite(NDArrayHandle handle);
/*! \brief Waits for all pending work; raises the first asynchronous error and clears all of them.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayWaitAll();
/*! \brief MXNDArrayWaitAll for at most timeout_ms milliseconds: *finished is 1 when everything
 *  completed (errors raised as MXNDArrayWaitAll does), 0 when work is still pending (nothing
 *  raised). Not in MXNet 1.x: the Python frontend waits in slices so Ctrl-C interrupts a wait.
 *  Ownership: *finished written.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayWaitAllFor(int timeout_ms, int* finished);
/*! \brief A view of rows [slice_begin, slice_end) along axis 0 (recorded as slice_axis under
 *  autograd).
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySlice(NDArrayHandle handle, uint32_t slice_begin, uint32_t slice_end,
                             NDArrayHandle* out);
/*! \brief MXNDArraySlice with 64-bit bounds.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySlice64(NDArrayHandle handle, int64_t slice_begin, int64_t slice_end,
                               NDArrayHandle* out);
/*! \brief A view of row idx with axis 0 dropped.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayAt(NDArrayHandle handle, uint32_t idx, NDArrayHandle* out);
/*! \brief MXNDArrayAt with a 64-bit index.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayAt64(NDArrayHandle handle, int64_t idx, NDArrayHandle* out);
/*! \brief A view with another shape of the same size; dims may use the Reshape codes 0 (keep) and
 *  -1 (infer).
 *  Ownership: dims read during the call; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayReshape(NDArrayHandle handle, int ndim, int* dims, NDArrayHandle* out);
/*! \brief A view with another shape; dims may use the Reshape codes 0, -1, -2, -3, -4, applied
 *  right to left when reverse.
 *  Ownership: dims read during the call; *out NEW (MXNDArrayFree), sharing the data.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayReshape64(NDArrayHandle handle, int ndim, dim_t* dims, bool reverse,
                                 NDArrayHandle* out);
/*! \brief The storage type: -1 undefined (none array), 0 dense, 1 row_sparse, 2 csr.
 *  Ownership: out_storage_type borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetStorageType(NDArrayHandle handle, int* out_storage_type);
/*! \brief The shape as 32-bit dims; a none array has ndim 0 (in NumPy-shape mode, use
 *  MXNDArrayGetShapeEx).
 *  Ownership: *out_pdata TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetShape(NDArrayHandle handle, uint32_t* out_dim, const uint32_t** out_pdata);
/*! \brief The shape as int dims; a none array has ndim 0 (-1 in NumPy-shape mode).
 *  Ownership: *out_pdata TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetShapeEx(NDArrayHandle handle, int* out_dim, const int** out_pdata);
/*! \brief The shape as 64-bit dims; a none array has ndim 0 (-1 in NumPy-shape mode).
 *  Ownership: *out_pdata TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetShapeEx64(NDArrayHandle handle, int* out_dim, const int64_t** out_pdata);
/*! \brief The raw data pointer (NULL for a none array), without waiting: call MXNDArrayWaitToRead
 *  first.
 *  Ownership: *out_pdata owned by the array; valid while it and its data live.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetData(NDArrayHandle handle, void** out_pdata);
/*! \brief The dtype code; -1 for a none array.
 *  Ownership: out_dtype borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetDType(NDArrayHandle handle, int* out_dtype);
/*! \brief The device (dev_type, dev_id) of the array; (0, 0) for a none array.
 *  Ownership: out_dev_type, out_dev_id borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetContext(NDArrayHandle handle, int* out_dev_type, int* out_dev_id);
/*! \brief Writes num_args arrays to fname in MXNet's NDArray-list format: named when keys is given,
 *  an unnamed list when keys is NULL.
 *  Ownership: fname, args, keys read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySave(const char* fname, uint32_t num_args, NDArrayHandle* args,
                            const char** keys);
/*! \brief Reads an NDArray-list file (MXNet 1.x format): the arrays and, for a named file, their
 *  names.
 *  Ownership: *out_arr TL array of NEW handles (the caller frees each with MXNDArrayFree);
 *  *out_names TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayLoad(const char* fname, uint32_t* out_size, NDArrayHandle** out_arr,
                            uint32_t* out_name_size, const char*** out_names);
/*! \brief MXNDArrayLoad from `size` bytes in memory.
 *  Ownership: ndarray_buffer read during the call; *out_arr TL array of NEW handles (MXNDArrayFree
 *  each); *out_names TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayLoadFromBuffer(const void* ndarray_buffer, size_t size,
                                      uint32_t* out_size, NDArrayHandle** out_arr,
                                      uint32_t* out_name_size, const char*** out_names);
/*! \brief One array in the single-array binary format (what pickling an NDArray stores).
 *  Ownership: *out_buf TL (*out_size bytes).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySaveRawBytes(NDArrayHandle handle, size_t* out_size, const char** out_buf);
/*! \brief An array from the bytes MXNDArraySaveRawBytes gives.
 *  Ownership: buf read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayLoadFromRawBytes(const void* buf, size_t size, NDArrayHandle* out);

/*! \brief Exports the array as a DLPack tensor sharing its memory (a none array is refused).
 *  Ownership: *out_dlpack NEW: it holds a reference to the data until its deleter is called (by the
 *  consumer, or with MXNDArrayCallDLPackDeleter).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayToDLPack(NDArrayHandle handle, DLManagedTensorHandle* out_dlpack);
/*! \brief An array over a C-contiguous DLPack tensor's memory (no copy).
 *  Ownership: *out_handle NEW (MXNDArrayFree). transient_handle = false: the array takes the tensor
 *  and calls its deleter when its data dies; true: the producer keeps it and must keep the memory
 *  alive.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayFromDLPackEx(DLManagedTensorHandle dlpack, const bool transient_handle,
                                    NDArrayHandle* out_handle);
/*! \brief MXNDArrayFromDLPackEx with transient_handle = false.
 *  Ownership: the array takes the tensor (its deleter is called when the data dies); *out_handle
 *  NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayFromDLPack(DLManagedTensorHandle dlpack, NDArrayHandle* out_handle);
/*! \brief Calls the deleter of a DLPack tensor (nothing when it or its deleter is NULL).
 *  Ownership: dlpack is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCallDLPackDeleter(DLManagedTensorHandle dlpack);
/*! \brief A reference to the same data cut from the autograd graph.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayDetach(NDArrayHandle handle, NDArrayHandle* out);
/*! \brief The gradient buffer attached by MXAutogradMarkVariables, or NULL when there is none.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree) sharing the buffer, or NULL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetGrad(NDArrayHandle handle, NDArrayHandle* out);

/* ---------------------------------------------------------------- operators */

/*! \brief The names of all registered operators, aliases included.
 *  Ownership: *out_array TL array of STATIC strings.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXListAllOpNames(uint32_t* out_size, const char*** out_array);
/*! \brief The operators with a kernel for a device type (1 cpu, 2 gpu): FCompute, FComputeEx or
 *  FStatefulCompute registered for it. Not in MXNet 1.x.
 *  Ownership: *out_array TL array of STATIC strings.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXListOperatorsWithKernel(int dev_type, uint32_t* out_size, const char*** out_array);
/*! \brief Same as MXListAllOpNames (the NNVM name).
 *  Ownership: *out_array TL array of STATIC strings.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNListAllOpNames(nn_uint* out_size, const char*** out_array);
/*! \brief The operator named op_name (canonical name or alias); fails for an unknown name.
 *  Ownership: op_name read during the call; *op_out STATIC.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNGetOpHandle(const char* op_name, OpHandle* op_out);
/*! \brief One handle per operator (aliases collapsed), for MXSymbolGetAtomicSymbolInfo,
 *  MXImperativeInvoke and MXSymbolCreateAtomicSymbol.
 *  Ownership: *out_array TL array of STATIC handles.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListAtomicSymbolCreators(uint32_t* out_size, AtomicSymbolCreator** out_array);
/*! \brief The canonical name of an operator.
 *  Ownership: *name STATIC.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetAtomicSymbolName(AtomicSymbolCreator creator, const char** name);
/*! \brief An operator's canonical name, description, arguments (name, type string, description) and
 *  the name of its variable-argument count ("" if none); *return_type is set to NULL.
 *  Ownership: *name, *description, *key_var_num_args STATIC; *arg_names, *arg_type_infos,
 *  *arg_descriptions TL arrays of STATIC strings.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetAtomicSymbolInfo(AtomicSymbolCreator creator, const char** name,
                                          const char** description, uint32_t* num_args,
                                          const char*** arg_names, const char*** arg_type_infos,
                                          const char*** arg_descriptions,
                                          const char** key_var_num_args,
                                          const char** return_type DEFAULT(NULL));
/*! \brief MXImperativeInvokeEx without the output storage types.
 *  Ownership: as MXImperativeInvokeEx.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXImperativeInvoke(AtomicSymbolCreator creator, int num_inputs, NDArrayHandle* inputs,
                                 int* num_outputs, NDArrayHandle** outputs, int num_params,
                                 const char** param_keys, const char** param_vals);
/*! \brief Runs one operator eagerly (recorded when autograd records). *outputs == NULL: the visible
 *  outputs are allocated and returned; otherwise *num_outputs caller arrays receive them.
 *  Ownership: inputs, param_keys, param_vals read during the call; allocated *outputs: TL array of
 *  NEW handles (MXNDArrayFree each); *out_stypes TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXImperativeInvokeEx(AtomicSymbolCreator creator, int num_inputs,
                                   NDArrayHandle* inputs, int* num_outputs,
                                   NDArrayHandle** outputs, int num_params,
                                   const char** param_keys, const char** param_vals,
                                   const int** out_stypes);
/*! \brief Turns autograd recording on (1) or off (0) for this thread; gives the previous state.
 *  Ownership: prev borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradSetIsRecording(int is_recording, int* prev);
/*! \brief Sets this thread's train mode (1) or predict mode (0); gives the previous state.
 *  Ownership: prev borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradSetIsTraining(int is_training, int* prev);
/*! \brief Whether autograd records on this thread.
 *  Ownership: curr borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradIsRecording(bool* curr);
/*! \brief Whether this thread is in train mode.
 *  Ownership: curr borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
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

/*! \brief Makes var_handles[i] autograd variables whose gradients go to grad_handles[i] with
 *  request reqs_array[i] (0 null, 1 write, 3 add).
 *  Ownership: arrays borrowed; autograd keeps its own references to the variables and gradient
 *  buffers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradMarkVariables(uint32_t num_var, NDArrayHandle* var_handles,
                                      uint32_t* reqs_array, NDArrayHandle* grad_handles);
/*! \brief Backward from the outputs with ones as head gradients (train mode, graph not retained).
 *  Ownership: output_handles borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradComputeGradient(uint32_t num_output, NDArrayHandle* output_handles);
/*! \brief Backward from the outputs in train mode; ograd_handles NULL (or NULL entries) means ones.
 *  Ownership: all handles borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradBackward(uint32_t num_output, NDArrayHandle* output_handles,
                                 NDArrayHandle* ograd_handles, int retain_graph);
/*! \brief Backward from heads. num_variables == 0: gradients go to the marked variables' buffers;
 *  otherwise the gradients of var_handles are returned.
 *  Ownership: input handles borrowed; *grad_handles TL array of NEW handles (MXNDArrayFree each);
 *  *grad_stypes TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradBackwardEx(uint32_t num_output, NDArrayHandle* output_handles,
                                   NDArrayHandle* ograd_handles, uint32_t num_variables,
                                   NDArrayHandle* var_handles, int retain_graph,
                                   int create_graph, int is_train, NDArrayHandle** grad_handles,
                                   int** grad_stypes);
/*! \brief A symbol of the recorded computation that produced the array.
 *  Ownership: handle borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAutogradGetSymbol(NDArrayHandle handle, SymbolHandle* out);
/*! \brief Sets the "fresh gradient" flag of a marked variable (the Trainer's stale-gradient check).
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArraySetGradState(NDArrayHandle handle, int state);
/*! \brief The "fresh gradient" flag of a marked variable (1 or 0).
 *  Ownership: handle, out borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetGradState(NDArrayHandle handle, int* out);
/*! \brief Records a call of a Python autograd.Function (autograd must be recording): outputs
 *  computed from inputs, with kCustomFunctionBackward and kCustomFunctionDelete callbacks.
 *  Ownership: arrays borrowed; the callback and context pointers are copied and kept until the
 *  delete callback is called.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCustomFunctionRecord(int num_inputs, NDArrayHandle* inputs, int num_outputs,
                                     NDArrayHandle* outputs, struct MXCallbackList* callbacks);
/* ---- io: data iterators, RecordIO, KVStore (branch io) */
/*! \brief The registered data iterators (MNISTIter, CSVIter, ImageRecordIter, ...).
 *  Ownership: *out_array STATIC.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXListDataIters(uint32_t* out_size, DataIterCreator** out_array);
/*! \brief Creates an iterator from string parameters; it is ready for MXDataIterNext.
 *  Ownership: keys, vals read during the call; *out NEW (MXDataIterFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterCreateIter(DataIterCreator handle, uint32_t num_param, const char** keys,
                                   const char** vals, DataIterHandle* out);
/*! \brief An iterator's name, description and arguments (name, type string, description).
 *  Ownership: *name, *description STATIC; the argument arrays TL, of STATIC strings.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterGetIterInfo(DataIterCreator creator, const char** name,
                                    const char** description, uint32_t* num_args,
                                    const char*** arg_names, const char*** arg_type_infos,
                                    const char*** arg_descriptions);
/*! \brief Deletes an iterator.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterFree(DataIterHandle handle);
/*! \brief Moves to the next batch: *out 1, or 0 at the end of the epoch.
 *  Ownership: out borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterNext(DataIterHandle handle, int* out);
/*! \brief Rewinds the iterator to the start of the epoch.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterBeforeFirst(DataIterHandle handle);
/*! \brief The current batch's data.
 *  Ownership: *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterGetData(DataIterHandle handle, NDArrayHandle* out);
/*! \brief The current batch's label (an (N, 1) label is given as (N,)).
 *  Ownership: *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterGetLabel(DataIterHandle handle, NDArrayHandle* out);
/*! \brief The instance indices of the current batch.
 *  Ownership: *out_index owned by the iterator; valid until it moves or is freed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterGetIndex(DataIterHandle handle, uint64_t** out_index, uint64_t* out_size);
/*! \brief How many instances at the end of the current batch are padding.
 *  Ownership: pad borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDataIterGetPadNum(DataIterHandle handle, int* pad);

/*! \brief Opens a RecordIO file for writing.
 *  Ownership: uri read during the call; *out NEW (MXRecordIOWriterFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOWriterCreate(const char* uri, RecordIOHandle* out);
/*! \brief Flushes and closes the writer.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOWriterFree(RecordIOHandle handle);
/*! \brief Appends one record of `size` bytes (split into parts where it holds the magic number).
 *  Ownership: buf read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOWriterWriteRecord(RecordIOHandle handle, const char* buf, size_t size);
/*! \brief The writer's byte position (the offset of the next record).
 *  Ownership: pos borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOWriterTell(RecordIOHandle handle, size_t* pos);
/*! \brief Opens a RecordIO file for reading.
 *  Ownership: uri read during the call; *out NEW (MXRecordIOReaderFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOReaderCreate(const char* uri, RecordIOHandle* out);
/*! \brief Closes the reader.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOReaderFree(RecordIOHandle handle);
/*! \brief The next record; *buf NULL and *size 0 at the end of the file.
 *  Ownership: *buf owned by the reader; valid until its next call or until it is freed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOReaderReadRecord(RecordIOHandle handle, char const** buf, size_t* size);
/*! \brief Moves the reader to byte position pos (a record start, as given by Tell or an .idx file).
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOReaderSeek(RecordIOHandle handle, size_t pos);
/*! \brief The reader's byte position.
 *  Ownership: pos borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRecordIOReaderTell(RecordIOHandle handle, size_t* pos);

/*! \brief Updater callbacks: they own (must free) `recv` and `local`. */
typedef void(MXKVStoreUpdater)(int key, NDArrayHandle recv, NDArrayHandle local, void* handle);
typedef void(MXKVStoreStrUpdater)(const char* key, NDArrayHandle recv, NDArrayHandle local,
                                  void* handle);
typedef void(MXKVStoreServerController)(int head, const char* body, void* controller_handle);
/*! \brief Creates a store of a type (local, device, nccl, dist_sync, dist_device_sync, dist_async,
 *  horovod, ...).
 *  Ownership: type read during the call; *out NEW (MXKVStoreFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreCreate(const char* type, KVStoreHandle* out);
/*! \brief Deletes the store.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreFree(KVStoreHandle handle);
/*! \brief Initialises int keys with values (copied into the store).
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreInit(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals);
/*! \brief MXKVStoreInit with string keys.
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreInitEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals);
/*! \brief Pushes values for int keys (several values for one key are summed); runs asynchronously
 *  on the engine.
 *  Ownership: keys, vals borrowed; the pending operations keep their own references to the arrays.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePush(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals, int priority);
/*! \brief MXKVStorePush with string keys.
 *  Ownership: keys, vals borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePushEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals, int priority);
/*! \brief Pulls the stored values of int keys into vals (asynchronously; wait on vals before
 *  reading).
 *  Ownership: keys, vals borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePull(KVStoreHandle handle, uint32_t num, const int* keys,
                            NDArrayHandle* vals, int priority);
/*! \brief MXKVStorePull with string keys.
 *  Ownership: keys, vals borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePullEx(KVStoreHandle handle, uint32_t num, const char** keys,
                              NDArrayHandle* vals, int priority);
/*! \brief MXKVStorePull; ignore_sparse = false also pulls row_sparse values (in full).
 *  Ownership: keys, vals borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePullWithSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                                      NDArrayHandle* vals, int priority, bool ignore_sparse);
/*! \brief MXKVStorePullWithSparse with string keys.
 *  Ownership: keys, vals borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePullWithSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                                        NDArrayHandle* vals, int priority, bool ignore_sparse);
/*! \brief Pulls the rows row_ids[i] of the row_sparse stored values into the row_sparse arrays
 *  vals[i].
 *  Ownership: keys, vals, row_ids borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePullRowSparse(KVStoreHandle handle, uint32_t num, const int* keys,
                                     NDArrayHandle* vals, const NDArrayHandle* row_ids,
                                     int priority);
/*! \brief MXKVStorePullRowSparse with string keys.
 *  Ownership: keys, vals, row_ids borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePullRowSparseEx(KVStoreHandle handle, uint32_t num, const char** keys,
                                       NDArrayHandle* vals, const NDArrayHandle* row_ids,
                                       int priority);
/*! \brief Pushes vals for vkeys and pulls the results into outs for okeys, as one operation.
 *  Ownership: keys and arrays borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePushPull(KVStoreHandle handle, mx_uint vnum, const int* vkeys,
                                mx_uint onum, const int* okeys, NDArrayHandle* vals,
                                NDArrayHandle* outs, int priority);
/*! \brief MXKVStorePushPull with string keys.
 *  Ownership: keys and arrays borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStorePushPullEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys,
                                  mx_uint onum, const char** okeys, NDArrayHandle* vals,
                                  NDArrayHandle* outs, int priority);
/*! \brief Initialises vkeys with vals and pulls them into outs for okeys.
 *  Ownership: keys and arrays borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreBroadcast(KVStoreHandle handle, mx_uint vnum, const int* vkeys,
                                 mx_uint onum, const int* okeys, NDArrayHandle* vals,
                                 NDArrayHandle* outs, int priority);
/*! \brief MXKVStoreBroadcast with string keys.
 *  Ownership: keys and arrays borrowed; the pending operations keep their own references.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreBroadcastEx(KVStoreHandle handle, mx_uint vnum, const char** vkeys,
                                   mx_uint onum, const char** okeys, NDArrayHandle* vals,
                                   NDArrayHandle* outs, int priority);
/*! \brief Sets the function that merges a pushed value into the stored one (int keys).
 *  Ownership: updater_handle kept by the store; each call passes NEW handles recv and local, which
 *  the updater frees.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreSetUpdater(KVStoreHandle handle, MXKVStoreUpdater updater,
                                  void* updater_handle);
/*! \brief MXKVStoreSetUpdater with an updater for int keys and one for string keys (either may be
 *  NULL).
 *  Ownership: updater_handle kept by the store; each call passes NEW handles recv and local, which
 *  the updater frees.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreSetUpdaterEx(KVStoreHandle handle, MXKVStoreUpdater updater,
                                    MXKVStoreStrUpdater str_updater, void* updater_handle);
/*! \brief The store's type string.
 *  Ownership: *type owned by the store; valid until it is freed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreGetType(KVStoreHandle handle, const char** type);
/*! \brief This worker's rank in the job (0 for a local store).
 *  Ownership: ret borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreGetRank(KVStoreHandle handle, int* ret);
/*! \brief The number of workers in the job (1 for a local store).
 *  Ownership: ret borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreGetGroupSize(KVStoreHandle handle, int* ret);
/* MXKVStoreIsWorkerNode is declared above (c_api.cc) */
/*! \brief 1 when $DMLC_ROLE is server, else 0.
 *  Ownership: ret borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreIsServerNode(int* ret);
/*! \brief 1 when $DMLC_ROLE is scheduler, else 0.
 *  Ownership: ret borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreIsSchedulerNode(int* ret);
/*! \brief Waits until every worker of the job reached the barrier.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreBarrier(KVStoreHandle handle);
/*! \brief Accepted for MXNet 1.x compatibility; has no effect here.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreSetBarrierBeforeExit(KVStoreHandle handle, const int barrier_before_exit);
/*! \brief The number of dead nodes: always 0 here.
 *  Ownership: number borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreGetNumDeadNode(KVStoreHandle handle, const int node_id, int* number,
                                      const int timeout_sec);
/*! \brief Sets gradient compression from string parameters (type, threshold).
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreSetGradientCompression(KVStoreHandle handle, uint32_t num_params,
                                              const char** keys, const char** vals);
/*! \brief Runs the server loop of a distributed store; controller(head, body, controller_handle)
 *  receives the workers' commands.
 *  Ownership: controller_handle kept while the loop runs; body valid during the callback only.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreRunServer(KVStoreHandle handle, MXKVStoreServerController controller,
                                 void* controller_handle);
/*! \brief Sends a command (an optimizer, for instance) to the servers of a distributed store.
 *  Ownership: cmd_body read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXKVStoreSendCommmandToServers(KVStoreHandle handle, int cmd_id,
                                             const char* cmd_body);
/*! \brief Sets the given environment variables (DMLC_* settings of a distributed job).
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXInitPSEnv(uint32_t num_vars, const char** keys, const char** vals);
/* ---------------------------------------------------------------- symbol and executor */
/* Symbols: handles are NEW (free with MXSymbolFree); strings and lists are TL. Shapes use the
 * legacy convention: an unknown shape has ndim 0, an unknown dim is 0. */

/*! \brief A variable (input) symbol named name.
 *  Ownership: name read during the call; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCreateVariable(const char* name, SymbolHandle* out);
/*! \brief An operator node with string parameters and no inputs yet (MXSymbolCompose adds them);
 *  hidden keys (lr_mult, ctx_group, ...) are stored as __key__.
 *  Ownership: keys, vals read during the call; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCreateAtomicSymbol(AtomicSymbolCreator creator, uint32_t num_param,
                                         const char** keys, const char** vals, SymbolHandle* out);
/*! \brief A symbol whose outputs are the outputs of all the given symbols.
 *  Ownership: symbols borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCreateGroup(uint32_t num_symbols, SymbolHandle* symbols, SymbolHandle* out);
/*! \brief Binds the inputs of an operator symbol in place, by position (keys NULL, or a NULL key)
 *  or by argument name; name names the node.
 *  Ownership: sym is modified; name, keys, args read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCompose(SymbolHandle sym, const char* name, uint32_t num_args,
                              const char** keys, SymbolHandle* args);
/*! \brief Same as MXSymbolCompose (the NNVM name).
 *  Ownership: as MXSymbolCompose.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNSymbolCompose(SymbolHandle sym, const char* name, nn_uint num_args,
                              const char** keys, SymbolHandle* args);
/*! \brief A deep copy of the symbol's graph.
 *  Ownership: symbol borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCopy(SymbolHandle symbol, SymbolHandle* out);
/*! \brief A second handle on the same graph (no copy).
 *  Ownership: src borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXShallowCopySymbol(SymbolHandle src, SymbolHandle* out);
/*! \brief Deletes the handle.
 *  Ownership: symbol is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolFree(SymbolHandle symbol);
/*! \brief Same as MXSymbolFree (the NNVM name).
 *  Ownership: symbol is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNSymbolFree(SymbolHandle symbol);
/*! \brief A readable description of the symbol's graph.
 *  Ownership: *out_str TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolPrint(SymbolHandle symbol, const char** out_str);
/*! \brief The name of a single-output symbol: *success 1 and the name, or 0 and NULL (a group has
 *  none).
 *  Ownership: *out TL or NULL; success borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetName(SymbolHandle symbol, const char** out, int* success);
/*! \brief The attribute `key` of the symbol's node: *success 1 and the value, or 0 and NULL.
 *  Ownership: key read during the call; *out TL or NULL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetAttr(SymbolHandle symbol, const char* key, const char** out,
                              int* success);
/*! \brief Sets the attribute `key` of the symbol's node (hidden keys such as lr_mult are stored as
 *  __key__).
 *  Ownership: key, value copied.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolSetAttr(SymbolHandle symbol, const char* key, const char* value);
/*! \brief The attributes of every node: 2 * *out_size strings, "<node>$<key>" and value in turn.
 *  Ownership: *out TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListAttr(SymbolHandle symbol, uint32_t* out_size, const char*** out);
/*! \brief The attributes of the symbol's own node: 2 * *out_size strings, key and value in turn.
 *  Ownership: *out TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListAttrShallow(SymbolHandle symbol, uint32_t* out_size, const char*** out);
/*! \brief The names of the arguments (inputs that are not auxiliary states), in order.
 *  Ownership: *out_str_array TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListArguments(SymbolHandle symbol, uint32_t* out_size,
                                    const char*** out_str_array);
/*! \brief The names of the outputs ("<node>_output", ...).
 *  Ownership: *out_str_array TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListOutputs(SymbolHandle symbol, uint32_t* out_size,
                                  const char*** out_str_array);
/*! \brief The names of the auxiliary states (BatchNorm's moving statistics, ...).
 *  Ownership: *out_str_array TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolListAuxiliaryStates(SymbolHandle symbol, uint32_t* out_size,
                                          const char*** out_str_array);
/*! \brief The input names: option 0 all inputs, 1 arguments, 2 auxiliary states.
 *  Ownership: *out_str_array TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNSymbolListInputNames(SymbolHandle symbol, int option, nn_uint* out_size,
                                     const char*** out_str_array);
/*! \brief The number of outputs.
 *  Ownership: output_count borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetNumOutputs(SymbolHandle symbol, uint32_t* output_count);
/*! \brief Same as MXSymbolGetNumOutputs (the NNVM name).
 *  Ownership: output_count borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int NNSymbolGetNumOutputs(SymbolHandle symbol, nn_uint* output_count);
/*! \brief A group of every node output of the graph (what get_internals() indexes).
 *  Ownership: symbol borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetInternals(SymbolHandle symbol, SymbolHandle* out);
/*! \brief A group of the inputs of the symbol's output nodes (empty for a variable).
 *  Ownership: symbol borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetChildren(SymbolHandle symbol, SymbolHandle* out);
/*! \brief The symbol of output `index`.
 *  Ownership: symbol borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetOutput(SymbolHandle symbol, uint32_t index, SymbolHandle* out);
/*! \brief One variable symbol per input of the graph.
 *  Ownership: *inputs TL array of NEW handles (MXSymbolFree each).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGetInputSymbols(SymbolHandle sym, SymbolHandle** inputs, int* input_size);
/*! \brief Cut a control-flow body out of its tracing graph: edges into the nodes of the
 *         subgraph named by the first output's __subgraph_name__ from nodes outside it are
 *         replaced by new variables (named after the outer outputs); returns the outer outputs.
 *  Ownership: sym borrowed (modified in place); *inputs TL array of NEW handles (MXSymbolFree each).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCutSubgraph(SymbolHandle sym, SymbolHandle** inputs, int* input_size);
/*! \brief The graph as MXNet's symbol JSON.
 *  Ownership: *out_json TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolSaveToJSON(SymbolHandle symbol, const char** out_json);
/*! \brief A copy of the symbol whose nodes read past amp_cast / amp_multicast nodes (casts that are
 *  outputs stay), as mx.model.save_checkpoint(remove_amp_cast=True) saves it.
 *  Ownership: sym_handle borrowed; *ret_sym_handle NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolRemoveAmpCast(SymbolHandle sym_handle, SymbolHandle* ret_sym_handle);
/*! \brief A symbol from MXNet symbol JSON.
 *  Ownership: json read during the call; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCreateFromJSON(const char* json, SymbolHandle* out);
/*! \brief Writes the symbol JSON to fname.
 *  Ownership: fname read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolSaveToFile(SymbolHandle symbol, const char* fname);
/*! \brief A symbol from a symbol JSON file.
 *  Ownership: fname read during the call; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolCreateFromFile(const char* fname, SymbolHandle* out);
/*! \brief Not implemented (as in MXNet 1.x): always fails with NotImplementedError.
 *  Ownership: nothing is written.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolGrad(SymbolHandle sym, uint32_t num_wrt, const char** wrt, SymbolHandle* out);
/*! \brief Infers all shapes from the known argument shapes (CSR form: arg_ind_ptr, arg_shape_data;
 *  keys NULL: positional). Unknown shapes have ndim 0, unknown dims 0; *complete 1 when everything
 *  is known.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShape(SymbolHandle sym, uint32_t num_args, const char** keys,
                                 const uint32_t* arg_ind_ptr, const uint32_t* arg_shape_data,
                                 uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
                                 const uint32_t*** in_shape_data, uint32_t* out_shape_size,
                                 const uint32_t** out_shape_ndim, const uint32_t*** out_shape_data,
                                 uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
                                 const uint32_t*** aux_shape_data, int* complete);
/*! \brief MXSymbolInferShape that reports *complete 1 even when some shapes stay unknown.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShapePartial(
    SymbolHandle sym, uint32_t num_args, const char** keys, const uint32_t* arg_ind_ptr,
    const uint32_t* arg_shape_data, uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
    const uint32_t*** in_shape_data, uint32_t* out_shape_size, const uint32_t** out_shape_ndim,
    const uint32_t*** out_shape_data, uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
    const uint32_t*** aux_shape_data, int* complete);
/*! \brief MXSymbolInferShape with int dims.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShapeEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                   const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                                   uint32_t* in_shape_size, const int** in_shape_ndim,
                                   const int*** in_shape_data, uint32_t* out_shape_size,
                                   const int** out_shape_ndim, const int*** out_shape_data,
                                   uint32_t* aux_shape_size, const int** aux_shape_ndim,
                                   const int*** aux_shape_data, int* complete);
/*! \brief MXSymbolInferShapePartial with int dims.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShapePartialEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                          const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                                          uint32_t* in_shape_size, const int** in_shape_ndim,
                                          const int*** in_shape_data, uint32_t* out_shape_size,
                                          const int** out_shape_ndim, const int*** out_shape_data,
                                          uint32_t* aux_shape_size, const int** aux_shape_ndim,
                                          const int*** aux_shape_data, int* complete);
/*! \brief MXSymbolInferShape with 64-bit dims and sizes.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShapeEx64(SymbolHandle sym, uint32_t num_args, const char** keys,
                                     const int64_t* arg_ind_ptr, const int64_t* arg_shape_data,
                                     size_t* in_shape_size, const int** in_shape_ndim,
                                     const int64_t*** in_shape_data, size_t* out_shape_size,
                                     const int** out_shape_ndim, const int64_t*** out_shape_data,
                                     size_t* aux_shape_size, const int** aux_shape_ndim,
                                     const int64_t*** aux_shape_data, int* complete);
/*! \brief MXSymbolInferShapePartial with 64-bit dims and sizes.
 *  Ownership: the inputs read during the call; the six result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferShapePartialEx64(
    SymbolHandle sym, uint32_t num_args, const char** keys, const int64_t* arg_ind_ptr,
    const int64_t* arg_shape_data, size_t* in_shape_size, const int** in_shape_ndim,
    const int64_t*** in_shape_data, size_t* out_shape_size, const int** out_shape_ndim,
    const int64_t*** out_shape_data, size_t* aux_shape_size, const int** aux_shape_ndim,
    const int64_t*** aux_shape_data, int* complete);
/*! \brief Infers all dtype codes from the known argument dtypes (-1 unknown); *complete 1 when
 *  everything is known.
 *  Ownership: keys, arg_type_data read during the call; the three result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferType(SymbolHandle sym, uint32_t num_args, const char** keys,
                                const int* arg_type_data, uint32_t* in_type_size,
                                const int** in_type_data, uint32_t* out_type_size,
                                const int** out_type_data, uint32_t* aux_type_size,
                                const int** aux_type_data, int* complete);
/*! \brief MXSymbolInferType that always reports *complete 1.
 *  Ownership: keys, arg_type_data read during the call; the three result arrays TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferTypePartial(SymbolHandle sym, uint32_t num_args, const char** keys,
                                       const int* arg_type_data, uint32_t* in_type_size,
                                       const int** in_type_data, uint32_t* out_type_size,
                                       const int** out_type_data, uint32_t* aux_type_size,
                                       const int** aux_type_data, int* complete);

/* Executors: NEW handles (free with MXExecutorFree). grad_req codes: 0 null, 1 write, 3 add. */
/*! \brief Binds the symbol to arrays: in_args (list_arguments order), arg_grad_store (NULL entries
 *  for no gradient), grad_req_type (0 null, 1 write, 3 add), aux_states; map_keys place ctx_group
 *  attributes on devices; shared_exec shares memory.
 *  Ownership: symbol and arrays borrowed (the executor keeps its own references to the arrays);
 *  *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorBindEX(SymbolHandle symbol_handle, int dev_type, int dev_id,
                               uint32_t num_map_keys, const char** map_keys,
                               const int* map_dev_types, const int* map_dev_ids, uint32_t len,
                               NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                               uint32_t* grad_req_type, uint32_t aux_states_len,
                               NDArrayHandle* aux_states, ExecutorHandle shared_exec,
                               ExecutorHandle* out);
/*! \brief MXExecutorBindEX without a shared executor.
 *  Ownership: symbol and arrays borrowed (the executor keeps its own references to the arrays);
 *  *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorBindX(SymbolHandle symbol_handle, int dev_type, int dev_id,
                              uint32_t num_map_keys, const char** map_keys,
                              const int* map_dev_types, const int* map_dev_ids, uint32_t len,
                              NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                              uint32_t* grad_req_type, uint32_t aux_states_len,
                              NDArrayHandle* aux_states, ExecutorHandle* out);
/*! \brief MXExecutorBindX without device groups.
 *  Ownership: symbol and arrays borrowed (the executor keeps its own references to the arrays);
 *  *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorBind(SymbolHandle symbol_handle, int dev_type, int dev_id, uint32_t len,
                             NDArrayHandle* in_args, NDArrayHandle* arg_grad_store,
                             uint32_t* grad_req_type, uint32_t aux_states_len,
                             NDArrayHandle* aux_states, ExecutorHandle* out);
/*! \brief Infers shapes, dtypes and storage types from the given ones, allocates every array
 *  (sharing with shared_arg_name_list, the shared buffer and shared_exec_handle where given) and
 *  binds.
 *  Ownership: the inputs read during the call; *in_args, *arg_grads (NULL entries for no gradient),
 *  *aux_states and *updated_shared_buffer_handle_list TL arrays of NEW handles (MXNDArrayFree
 *  each); *updated_shared_buffer_name_list TL; *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
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
/*! \brief MXExecutorSimpleBindEx with 64-bit shape data.
 *  Ownership: the inputs read during the call; *in_args, *arg_grads (NULL entries for no gradient),
 *  *aux_states and *updated_shared_buffer_handle_list TL arrays of NEW handles (MXNDArrayFree
 *  each); *updated_shared_buffer_name_list TL; *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
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
/*! \brief Runs the forward pass (is_train 1: training mode, keeps what backward needs).
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorForward(ExecutorHandle handle, int is_train);
/*! \brief MXExecutorBackwardEx in train mode.
 *  Ownership: head_grads borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorBackward(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads);
/*! \brief Runs the backward pass with head gradients (len 0 or NULL entries: none given, as for
 *  loss outputs), writing the gradient arrays by their requests; is_train as in the forward pass.
 *  Ownership: head_grads borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorBackwardEx(ExecutorHandle handle, uint32_t len, NDArrayHandle* head_grads,
                                   int is_train);
/*! \brief The output arrays (new handles on every call).
 *  Ownership: *out TL array of NEW handles (MXNDArrayFree each), sharing the executor's outputs.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorOutputs(ExecutorHandle handle, uint32_t* out_size, NDArrayHandle** out);
/*! \brief Deletes the executor (arrays it shares stay with their other owners).
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorFree(ExecutorHandle handle);
/*! \brief A readable description of the bound graph.
 *  Ownership: *out_str TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorPrint(ExecutorHandle handle, const char** out_str);
/*! \brief A copy of the symbol the executor runs.
 *  Ownership: handle borrowed; *out NEW (MXSymbolFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorGetOptimizedSymbol(ExecutorHandle handle, SymbolHandle* out);
/*! \brief Monitor: callback(name, NEW array handle, callback_handle) after each op is pushed. */
typedef void (*ExecutorMonitorCallback)(const char*, NDArrayHandle, void*);
/*! \brief MXExecutorSetMonitorCallbackEX with monitor_all = false.
 *  Ownership: as MXExecutorSetMonitorCallbackEX.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorSetMonitorCallback(ExecutorHandle handle,
                                           ExecutorMonitorCallback callback,
                                           void* callback_handle);
/*! \brief Calls callback(name, array, callback_handle) for each operator output (and inputs with
 *  monitor_all) in later passes; NULL removes it.
 *  Ownership: callback_handle kept by the executor; each call passes a NEW handle, which the
 *  callback frees.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXExecutorSetMonitorCallbackEX(ExecutorHandle handle,
                                             ExecutorMonitorCallback callback,
                                             void* callback_handle, bool monitor_all);
/*! \brief A new executor for new input shapes, sharing memory with shared_exec (partial_shaping:
 *  other arguments may change shape; allow_up_sizing: arrays may grow).
 *  Ownership: the inputs read during the call; *in_args, *arg_grads, *aux_states TL arrays of NEW
 *  handles (MXNDArrayFree each); *out NEW (MXExecutorFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
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

/*! \brief Loads an operator library built against include/mxnet/lib_api.h: checks its interface
 *  version, calls its initialize, validates and registers its operators (then usable like built-in
 *  ones); loading it again is harmless. On failure nothing is registered and the error names the
 *  cause. verbose 1 logs the operators found.
 *  Ownership: path read during the call; the library stays loaded for the life of the process.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
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
/*! \brief Registers (or replaces) the Python custom operator op_type, used as Custom(op_type=...).
 *  Ownership: op_type copied; creator must stay valid for the life of the process.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCustomOpRegister(const char* op_type, CustomOpPropCreator creator);
/*! \brief Sets the calling thread's last error text (a callback reports its exception); NULL sets
 *  an empty text.
 *  Ownership: msg borrowed (copied).
 *  \return nothing; cannot fail. */
MXNET_DLL void MXAPISetLastError(const char* msg);

/* ---- profiler */
/*! \brief Handle of a profiler domain, task, frame, event or counter. */
typedef void* ProfileHandle;
/*! \brief Sets profiler options from string key/values (filename, profile_all, profile_symbolic,
 *  aggregate_stats, ...); kvstoreHandle must be NULL (no server-side profiling).
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetProcessProfilerConfig(int num_params, const char* const* keys,
                                         const char* const* vals, KVStoreHandle kvstoreHandle);
/*! \brief MXSetProcessProfilerConfig for this process.
 *  Ownership: keys, vals read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetProfilerConfig(int num_params, const char* const* keys,
                                  const char* const* vals);
/*! \brief Starts (state 1) or stops (0) the profiler; profile_process must be 0 (the worker).
 *  Ownership: kvStoreHandle must be NULL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetProcessProfilerState(int state, int profile_process,
                                        KVStoreHandle kvStoreHandle);
/*! \brief MXSetProcessProfilerState for this process.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetProfilerState(int state);
/*! \brief Writes the Chrome-tracing JSON of the recorded events to the configured file (finished:
 *  last dump of the run).
 *  Ownership: kvStoreHandle must be NULL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDumpProcessProfile(int finished, int profile_process, KVStoreHandle kvStoreHandle);
/*! \brief MXDumpProcessProfile for this process.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXDumpProfile(int finished);
/*! \brief MXAggregateProfileStatsPrintEx as a table sorted by total time.
 *  Ownership: *out_str TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAggregateProfileStatsPrint(const char** out_str, int reset);
/*! \brief The aggregate statistics: format 0 table, 1 JSON; sort_by 0 total, 1 avg, 2 min, 3 max, 4
 *  count; reset clears them.
 *  Ownership: *out_str TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXAggregateProfileStatsPrintEx(const char** out_str, int reset, int format,
                                             int sort_by, int ascending);
/*! \brief Pauses (1) or resumes (0) recording; profile_process must be 0.
 *  Ownership: kvStoreHandle must be NULL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProcessProfilePause(int paused, int profile_process, KVStoreHandle kvStoreHandle);
/*! \brief MXProcessProfilePause for this process.
 *  Ownership: no pointers.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfilePause(int paused);
/*! \brief A profiler domain (a category of user objects).
 *  Ownership: domain copied; *out NEW (MXProfileDestroyHandle).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileCreateDomain(const char* domain, ProfileHandle* out);
/*! \brief A task (a timed duration) in a domain.
 *  Ownership: task_name copied; *out NEW (MXProfileDestroyHandle).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileCreateTask(ProfileHandle domain, const char* task_name, ProfileHandle* out);
/*! \brief A frame (a timed duration) in a domain.
 *  Ownership: frame_name copied; *out NEW (MXProfileDestroyHandle).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileCreateFrame(ProfileHandle domain, const char* frame_name,
                                   ProfileHandle* out);
/*! \brief An event (a timed duration).
 *  Ownership: event_name copied; *out NEW (MXProfileDestroyHandle).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileCreateEvent(const char* event_name, ProfileHandle* out);
/*! \brief A counter in a domain.
 *  Ownership: counter_name copied; *out NEW (MXProfileDestroyHandle).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileCreateCounter(ProfileHandle domain, const char* counter_name,
                                     ProfileHandle* out);
/*! \brief Deletes a domain, task, frame, event or counter.
 *  Ownership: frame_handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileDestroyHandle(ProfileHandle frame_handle);
/*! \brief Starts timing a task, frame or event.
 *  Ownership: duration_handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileDurationStart(ProfileHandle duration_handle);
/*! \brief Stops timing a task, frame or event and records the duration.
 *  Ownership: duration_handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileDurationStop(ProfileHandle duration_handle);
/*! \brief Sets a counter's value (recorded).
 *  Ownership: counter_handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileSetCounter(ProfileHandle counter_handle, uint64_t value);
/*! \brief Adds value (may be negative) to a counter (recorded).
 *  Ownership: counter_handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileAdjustCounter(ProfileHandle counter_handle, int64_t value);
/*! \brief Records an instant marker in a domain; scope "global", "process", "thread", "task" or
 *  "marker".
 *  Ownership: instant_marker_name, scope read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXProfileSetMarker(ProfileHandle domain, const char* instant_marker_name,
                                 const char* scope);
/*! \brief The value of an environment variable of the process, or NULL when it is unset
 *  (c_api_test.h in 1.9.1; mx.util.getenv).
 *  Ownership: name read during the call; *value owned by the environment, valid until the variable
 *  changes.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXGetEnv(const char* name, const char** value);
/*! \brief Sets an environment variable of the process; value NULL unsets it.
 *  Ownership: name, value copied.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSetEnv(const char* name, const char* value);
/* ---- cached op (CachedOp, the engine of Gluon's hybridize; branch cachedop) */
/*! \brief Monitor hook of a cached op: (node output name, operator name, array). */
typedef void (*CachedOpMonitorCallback)(const char* node_name, const char* op_name,
                                        NDArrayHandle arr);
/*! \brief MXCreateCachedOpEx without flags.
 *  Ownership: handle borrowed (the op copies the graph); *out NEW (MXFreeCachedOp).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCreateCachedOp(SymbolHandle handle, CachedOpHandle* out);
/*! \brief A cached op (Gluon's hybridize engine) running a symbol; flags as strings: static_alloc,
 *  static_shape, inline_limit, forward_bulk_size, backward_bulk_size, data_indices, param_indices,
 *  subgraph, is_dynamic (an unknown name is an error).
 *  Ownership: handle borrowed (the op copies the graph); keys, vals read during the call; *out NEW
 *  (MXFreeCachedOp).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCreateCachedOpEx(SymbolHandle handle, int num_flags, const char** keys,
                                 const char** vals, CachedOpHandle* out);
/*! \brief MXCreateCachedOpEx; thread_safe is accepted (the op locks its cache in every case).
 *  Ownership: as MXCreateCachedOpEx.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCreateCachedOpEX(SymbolHandle handle, int num_flags, const char** keys,
                                 const char** vals, CachedOpHandle* out,
                                 bool thread_safe DEFAULT(false));
/*! \brief Deletes a cached op.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXFreeCachedOp(CachedOpHandle handle);
/*! \brief MXInvokeCachedOpEx without the output storage types.
 *  Ownership: as MXInvokeCachedOpEx.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXInvokeCachedOp(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                               int* num_outputs, NDArrayHandle** outputs);
/*! \brief Runs the cached op on inputs in list_inputs order (recorded as one node under autograd).
 *  *outputs NULL: new outputs are returned; otherwise *num_outputs caller arrays (all of the op's
 *  outputs) are written.
 *  Ownership: inputs borrowed; allocated *outputs: TL array of NEW handles (MXNDArrayFree each);
 *  *out_stypes TL.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXInvokeCachedOpEx(CachedOpHandle handle, int num_inputs, NDArrayHandle* inputs,
                                 int* num_outputs, NDArrayHandle** outputs,
                                 const int** out_stypes);
/*! \brief Calls callback(node output name, operator name, array) after every operator of later runs
 *  (inputs too with monitor_all).
 *  Ownership: each call passes a NEW handle, which the callback frees; the strings are valid during
 *  the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXCachedOpRegisterOpHook(CachedOpHandle handle, CachedOpMonitorCallback callback,
                                       bool monitor_all);

/* ---- CUDA runtime compilation, mx.rtc (src/c_api/c_api_rtc.cc); CPU-only builds fail */
/*! \brief The pre-1.0 runtime-compilation API, removed in MXNet 1.x: always fails, pointing to
 *  MXRtcCudaModuleCreate.
 *  Ownership: nothing is kept.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCreate(char* name, uint32_t num_input, uint32_t num_output, char** input_names,
                          char** output_names, NDArrayHandle* inputs, NDArrayHandle* outputs,
                          char* kernel, RtcHandle* out);
/*! \brief The pre-1.0 runtime-compilation API, removed in MXNet 1.x: always fails.
 *  Ownership: nothing is kept.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcPush(RtcHandle handle, uint32_t num_input, uint32_t num_output,
                        NDArrayHandle* inputs, NDArrayHandle* outputs, uint32_t gridDimX,
                        uint32_t gridDimY, uint32_t gridDimZ, uint32_t blockDimX,
                        uint32_t blockDimY, uint32_t blockDimZ);
/*! \brief The pre-1.0 runtime-compilation API, removed in MXNet 1.x: always fails.
 *  Ownership: nothing is kept.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcFree(RtcHandle handle);
/*! \brief Compiles CUDA C++ `source` with NVRTC and num_options `options`; `exports` name C++
 *  kernels (templates, overloads) to be looked up by those names.
 *  Ownership: strings read during the call; *out NEW (MXRtcCudaModuleFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCudaModuleCreate(const char* source, int num_options, const char** options,
                                    int num_exports, const char** exports,
                                    CudaModuleHandle* out);
/*! \brief Frees a module (its kernels keep it loaded until they are freed too).
 *  Ownership: handle consumed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCudaModuleFree(CudaModuleHandle handle);
/*! \brief The kernel `name` of a module with num_args parameters: per parameter, is_ndarray
 *  (a pointer, passed as an NDArray), is_const (read only) and arg_types (its dtype code).
 *  Ownership: arrays read during the call; *out NEW (MXRtcCudaKernelFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCudaKernelCreate(CudaModuleHandle handle, const char* name, int num_args,
                                    int* is_ndarray, int* is_const, int* arg_types,
                                    CudaKernelHandle* out);
/*! \brief Frees a kernel.
 *  Ownership: handle consumed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCudaKernelFree(CudaKernelHandle handle);
/*! \brief Launches the kernel on gpu(dev_id) through the engine: args[i] is an NDArrayHandle for
 *  pointer parameters and a pointer to the value for scalars.
 *  Ownership: args read during the call (the arrays are kept until the kernel ran).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXRtcCudaKernelCall(CudaKernelHandle handle, int dev_id, void** args,
                                  uint32_t grid_dim_x, uint32_t grid_dim_y, uint32_t grid_dim_z,
                                  uint32_t block_dim_x, uint32_t block_dim_y,
                                  uint32_t block_dim_z, uint32_t shared_mem);

/* ---- sparse NDArrays (src/c_api/c_api_sparse.cc) */
/*! \brief Creates a sparse array (storage_type 1 row_sparse, 2 csr) with num_aux aux arrays of
 *  types aux_type; aux_shape holds their dims back to back (aux_ndims[i] each).
 *  Ownership: shape, aux arrays read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreateSparseEx(int storage_type, const uint32_t* shape, uint32_t ndim,
                                      int dev_type, int dev_id, int delay_alloc, int dtype,
                                      uint32_t num_aux, int* aux_type, uint32_t* aux_ndims,
                                      const uint32_t* aux_shape, NDArrayHandle* out);
/*! \brief MXNDArrayCreateSparseEx with 64-bit dims.
 *  Ownership: shape, aux arrays read during the call; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayCreateSparseEx64(int storage_type, const int64_t* shape, int ndim,
                                        int dev_type, int dev_id, int delay_alloc, int dtype,
                                        uint32_t num_aux, int* aux_type, int* aux_ndims,
                                        const int64_t* aux_shape, NDArrayHandle* out);
/*! \brief The dtype code of aux array i (csr: 0 indptr, 1 indices; row_sparse: 0 indices).
 *  Ownership: out_type borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetAuxType(NDArrayHandle handle, uint32_t i, int* out_type);
/*! \brief MXNDArrayGetAuxType with a 64-bit index.
 *  Ownership: out_type borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetAuxType64(NDArrayHandle handle, int64_t i, int* out_type);
/*! \brief Aux array i of a sparse array as a dense array.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetAuxNDArray(NDArrayHandle handle, uint32_t i, NDArrayHandle* out);
/*! \brief MXNDArrayGetAuxNDArray with a 64-bit index.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetAuxNDArray64(NDArrayHandle handle, int64_t i, NDArrayHandle* out);
/*! \brief The stored values of a sparse array as a dense array.
 *  Ownership: handle borrowed; *out NEW (MXNDArrayFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDArrayGetDataNDArray(NDArrayHandle handle, NDArrayHandle* out);

/* ---- image codec (src/c_api/c_api_image.cc) */
/*! \brief Encodes a (height, width, channels) uint8 image as JPEG or PNG (recordio.pack_img):
 *  is_rgb 1 RGB, 0 BGR; ext ".jpg", ".jpeg" or ".png"; quality JPEG 1..100 or PNG level (clamped to
 *  0..9).
 *  Ownership: img read during the call; *out_buf (*out_size bytes) valid until the next
 *  MXImageEncode on this thread.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXImageEncode(const void* img, int height, int width, int channels, int is_rgb,
                            const char* ext, int quality, const char** out_buf, size_t* out_size);
/*! \brief Decodes JPEG or PNG bytes (recordio.unpack_img): flag 0 grey, > 0 colour, < 0 as stored
 *  (alpha dropped); to_rgb 1 RGB order, 0 BGR.
 *  Ownership: buf read during the call; *out_pixels valid until the next MXImageDecode on this
 *  thread.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXImageDecode(const void* buf, size_t size, int flag, int to_rgb,
                            const unsigned char** out_pixels, int* height, int* width,
                            int* channels);
/* ---- symbolic sparse storage (src/c_api/c_api_sparse_symbolic.cc) */
/*! \brief Storage-type inference of a symbol's forward graph from known argument storage types (0
 *  default, 1 row_sparse, 2 csr; others from the variables' stype attribute, else default), in
 *  list_arguments, outputs and auxiliary-state order.
 *  Ownership: keys, stypes read during the call; the three result arrays valid until the next call
 *  of it on this thread.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferStorageTypeEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                         const int* stypes, uint32_t* in_size,
                                         const int** in_stypes, uint32_t* out_size,
                                         const int** out_stypes, uint32_t* aux_size,
                                         const int** aux_stypes);
/*! \brief The storage types of the gradient arrays simple_bind would make: one per argument, -1
 *  where grad_reqs[i] is 0 (null).
 *  Ownership: the inputs read during the call; *grad_stypes valid until the next call of it on this
 *  thread.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXSymbolInferGradStorageType(SymbolHandle sym, uint32_t num_args, const char** keys,
                                           const int* stypes, uint32_t num_reqs,
                                           const uint32_t* grad_reqs, uint32_t* out_size,
                                           const int** grad_stypes);

#ifdef __cplusplus
}
#endif

#endif  // MXNET_C_API_H_
