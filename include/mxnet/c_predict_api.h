/*!
 * \file mxnet/c_predict_api.h
 * \brief The predict API of MXNet 1.x: run a trained model (symbol JSON + .params bytes) for
 *        inference from C, with MXNet 1.9.1's names and signatures.
 *
 *   PredictorHandle pred;
 *   const char* keys[] = {"data"};
 *   mx_uint indptr[] = {0, 4}, shape[] = {1, 3, 224, 224};
 *   if (MXPredCreate(json, params, params_size, 1, 0, 1, keys, indptr, shape, &pred) != 0)
 *     puts(MXGetLastError());
 *   MXPredSetInput(pred, "data", image, 3 * 224 * 224);
 *   MXPredForward(pred);
 *   MXPredGetOutput(pred, 0, probabilities, 1000);
 *   MXPredFree(pred);
 *
 * Every function returns 0 on success and -1 on failure; MXGetLastError() then tells why. Each
 * is documented in the format of mxnet/c_api.h (\brief, Ownership, \return).
 * Parameters are the `arg:<name>` / `aux:<name>` entries of a file written by
 * mx.model.save_checkpoint or Module.save_params (other entries are ignored); arguments that are
 * neither inputs nor parameters (labels, for instance) are zero-filled with inferred shapes.
 */
#ifndef MXNET_C_PREDICT_API_H_
#define MXNET_C_PREDICT_API_H_

#include <mxnet/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* PredictorHandle;
typedef void* NDListHandle;
typedef void (*PredMonitorCallback)(const char*, NDArrayHandle, void*);

/*! \brief A predictor for symbol_json_str with the parameters in param_bytes (the arg:/aux: entries
 *  of a .params file), on device (dev_type, dev_id); input i is named input_keys[i], with shape
 *  input_shape_data[input_shape_indptr[i] .. input_shape_indptr[i + 1]).
 *  Ownership: the inputs read during the call (the parameters are copied); *out NEW (MXPredFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredCreate(const char* symbol_json_str, const void* param_bytes, int param_size,
                           int dev_type, int dev_id, mx_uint num_input_nodes,
                           const char** input_keys, const mx_uint* input_shape_indptr,
                           const mx_uint* input_shape_data, PredictorHandle* out);

/*! \brief MXPredCreate with the dtypes (type flags) of some arguments given by name.
 *  Ownership: the inputs read during the call (the parameters are copied); *out NEW (MXPredFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredCreateEx(const char* symbol_json_str, const void* param_bytes,
                             int param_size, int dev_type, int dev_id,
                             const mx_uint num_input_nodes, const char** input_keys,
                             const mx_uint* input_shape_indptr, const mx_uint* input_shape_data,
                             const mx_uint num_provided_arg_dtypes,
                             const char** provided_arg_dtype_names,
                             const int* provided_arg_dtypes, PredictorHandle* out);

/*! \brief MXPredCreate whose outputs are the internal outputs named in output_keys (an output's
 *  name, or a node name for its "<name>_output").
 *  Ownership: the inputs read during the call (the parameters are copied); *out NEW (MXPredFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredCreatePartialOut(const char* symbol_json_str, const void* param_bytes,
                                     int param_size, int dev_type, int dev_id,
                                     mx_uint num_input_nodes, const char** input_keys,
                                     const mx_uint* input_shape_indptr,
                                     const mx_uint* input_shape_data, mx_uint num_output_nodes,
                                     const char** output_keys, PredictorHandle* out);

/*! \brief num_threads predictors sharing one copy of the parameters, written to out[0 ..
 *  num_threads).
 *  Ownership: the inputs read during the call; out must have num_threads slots, each NEW
 *  (MXPredFree); on failure none is made.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredCreateMultiThread(const char* symbol_json_str, const void* param_bytes,
                                      int param_size, int dev_type, int dev_id,
                                      mx_uint num_input_nodes, const char** input_keys,
                                      const mx_uint* input_shape_indptr,
                                      const mx_uint* input_shape_data, int num_threads,
                                      PredictorHandle* out);

/*! \brief A new predictor for new input shapes, sharing the parameters of `handle`.
 *  Ownership: handle stays valid and owned by the caller; *out NEW (MXPredFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredReshape(mx_uint num_input_nodes, const char** input_keys,
                            const mx_uint* input_shape_indptr, const mx_uint* input_shape_data,
                            PredictorHandle handle, PredictorHandle* out);

/*! \brief The shape of output `index`.
 *  Ownership: *shape_data owned by the predictor; valid until its next call or until it is freed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredGetOutputShape(PredictorHandle handle, mx_uint index, mx_uint** shape_data,
                                   mx_uint* shape_ndim);

/*! \brief The dtype (type flag) of output `out_index`.
 *  Ownership: out_dtype borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredGetOutputType(PredictorHandle handle, mx_uint out_index, int* out_dtype);

/*! \brief Copies `size` floats (exactly the input's size) into input `key`.
 *  Ownership: key, data read during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredSetInput(PredictorHandle handle, const char* key, const mx_float* data,
                             mx_uint size);

/*! \brief Runs the whole forward pass (inference mode) and waits for it.
 *  Ownership: handle borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredForward(PredictorHandle handle);

/*! \brief Stepwise forward: step 0 runs the pass; *step_left is the number of steps left (always 0:
 *  the graph runs as one unit).
 *  Ownership: step_left borrowed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredPartialForward(PredictorHandle handle, int step, int* step_left);

/*! \brief Copies output `index` as floats into data; size must be the output's size.
 *  Ownership: data written during the call.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredGetOutput(PredictorHandle handle, mx_uint index, mx_float* data,
                              mx_uint size);

/*! \brief Deletes a predictor (shared parameters stay with the other predictors).
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredFree(PredictorHandle handle);

/*! \brief Calls callback(name, array, callback_handle) for each operator output (and inputs with
 *  monitor_all) during MXPredForward.
 *  Ownership: callback_handle kept by the predictor; each call passes a NEW handle, which the
 *  callback frees.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXPredSetMonitorCallback(PredictorHandle handle, PredMonitorCallback callback,
                                       void* callback_handle, bool monitor_all);

/*! \brief Loads an NDArray-list file (a mean image, for instance) from memory; *out_length entries.
 *  Ownership: nd_file_bytes read during the call; *out NEW (MXNDListFree).
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDListCreate(const char* nd_file_bytes, int nd_file_size, NDListHandle* out,
                             mx_uint* out_length);

/*! \brief Entry `index` of a list: its key ("" if unnamed), its data as floats and its shape.
 *  Ownership: *out_key, *out_data, *out_shape owned by the list; valid until it is freed.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDListGet(NDListHandle handle, mx_uint index, const char** out_key,
                          const mx_float** out_data, const mx_uint** out_shape,
                          mx_uint* out_ndim);

/*! \brief Deletes a list.
 *  Ownership: handle is invalid afterwards.
 *  \return 0 on success, -1 on failure (MXGetLastError). */
MXNET_DLL int MXNDListFree(NDListHandle handle);

#ifdef __cplusplus
}
#endif

#endif  // MXNET_C_PREDICT_API_H_
