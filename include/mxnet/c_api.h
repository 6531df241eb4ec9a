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

#ifdef __cplusplus
}
#endif

#endif  // MXNET_C_API_H_
