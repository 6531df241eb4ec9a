/*!
 * \file extension_library.h
 * \brief Loading operator libraries at run time (MXLoadLib, mx.library.load) and the adapters
 *        that make their operators ordinary registry operators.
 *
 *   mxnet::ext_loader::LoadExtensionLibrary("/abs/path/libgemm_lib.so", true);
 *   nnvm::Op::Get("my_gemm");   // now registered: FInferShape, FInferType, FCompute<cpu>, ...
 *
 * A library talks to us only through the C table of include/mxnet/lib_api.h (MXExtLibrary).
 * Every call that fails raises a dmlc::Error naming the operator and the call, followed by the
 * library's messages ("Extension Traceback"), which are then cleared in the library.
 */
#ifndef MXNET_EXTENSION_EXTENSION_LIBRARY_H_
#define MXNET_EXTENSION_EXTENSION_LIBRARY_H_

#define MXNET_EXT_C_ABI_ONLY
#include <mxnet/lib_api.h>
#undef MXNET_EXT_C_ABI_ONLY

#include <string>
#include <unordered_map>
#include <vector>

namespace mxnet {
namespace ext_loader {

/*! \brief A loaded library (never unloaded: its code backs registered operators). */
struct ExtLibrary {
  std::string path;
  void* handle{nullptr};
  const MXExtLibrary* api{nullptr};

  /*!
   * \brief The library's pending messages of this thread, as "\nExtension Traceback:\n\t[i] msg"
   *        lines ("" if none); clears them in the library.
   */
  std::string TakeMessages() const;
};

/*! \brief One operator of a library, as registered in the nnvm registry. */
struct ExtOp {
  const ExtLibrary* lib{nullptr};
  std::string name;
  MXExtOpInfo info{};
  /*! \brief Stateful (createOpState) rather than stateless (forward). */
  bool stateful{false};
};

/*! \brief The operator counts parseAttrs returned; stored in NodeAttrs::parsed. */
struct ExtParsed {
  int32_t num_in{0};
  int32_t num_out{0};
};

/*!
 * \brief Load the library at `path` (absolute or relative to the working directory): check the
 *        interface version, call initialize, validate every operator, then register them all.
 *        Loading a library again is harmless (its operators are already registered).
 *        Throws dmlc::Error (nothing registered) on any failure.
 */
void LoadExtensionLibrary(const std::string& path, bool verbose);

/*! \brief Names of the operators registered from libraries so far (forward ops only). */
std::vector<std::string> ListExtensionOps();

/*! \brief Register `op` (and `_backward_<name>` when it has a gradient) in the registry. */
void RegisterOp(const ExtOp* op);

}  // namespace ext_loader
}  // namespace mxnet

#endif  // MXNET_EXTENSION_EXTENSION_LIBRARY_H_
