/*!
 * \file c_api_common.h
 * \brief The shim pattern of every C API function:
 *
 *   int MXFoo(Handle h, int* out) {
 *     API_BEGIN();
 *     *out = static_cast<Foo*>(h)->value();
 *     API_END();
 *   }
 *
 * API_END catches everything, stores "<ErrorType>: <message>" as the calling thread's last
 * error (the Python frontend maps ErrorType to an exception class) and returns -1.
 */
#ifndef MXNET_C_API_C_API_COMMON_H_
#define MXNET_C_API_C_API_COMMON_H_

#include <dmlc/logging.h>
#include <mxnet/profiler.h>

#include <string>
#include <vector>

namespace mxnet {
namespace c_api {

/*! \brief Store the error text for MXGetLastError on this thread. */
void SetLastError(const std::string& msg);
/*! \brief Store an exception as "<ErrorType>: <message>" for this thread. */
void SetLastErrorFromException(const std::exception& e);
/*! \brief Type name of the calling thread's last error ("ValueError", "MXNetError", ...). */
const char* LastErrorTypeCStr();
const char* LastErrorCStr();

/*! \brief Per-thread scratch buffers for returned strings/arrays (API.md "TL" ownership). */
struct ThreadLocalReturn {
  std::string ret_str;
  std::vector<std::string> ret_vec_str;
  std::vector<const char*> ret_vec_charp;
  std::vector<int64_t> ret_shape64;
  std::vector<int> ret_shape32;
  std::vector<uint32_t> ret_uint;
  std::vector<void*> ret_handles;
};
ThreadLocalReturn* GetThreadLocalReturn();

/*! \brief Whether the front end switched NumPy shape semantics on (MXSetIsNumpyShape). */
bool IsNumpyShape();

/*! \brief Name of the C function running on this thread (innermost API_BEGIN), or "". */
const char* CurrentFunction();
/*! \brief Makes `name` the current function for its lifetime (API_BEGIN declares one). */
class FunctionScope {
 public:
  explicit FunctionScope(const char* name);
  ~FunctionScope();
  FunctionScope(const FunctionScope&) = delete;
  FunctionScope& operator=(const FunctionScope&) = delete;

 private:
  const char* previous_;
};
/*! \brief Throws ValueError "<current function>: <what> is NULL". */
[[noreturn]] void ThrowNullHandle(const std::string& what);

/*! \brief `ptr`, or a ValueError "<function>: argument '<name>' is NULL". */
template <typename T>
T* NotNull(T* ptr, const char* function, const char* name) {
  if (ptr == nullptr) {
    throw dmlc::ValueError(std::string(function) + ": argument '" + name + "' is NULL");
  }
  return ptr;
}

/*! \brief `count` pointers at `array` (NULL only when count is 0), none of them NULL. */
template <typename T>
void NoNullIn(T* const* array, size_t count, const char* function, const char* name) {
  if (count == 0) return;
  NotNull(array, function, name);
  for (size_t i = 0; i < count; ++i) {
    if (array[i] == nullptr) {
      throw dmlc::ValueError(std::string(function) + ": " + name + "[" + std::to_string(i) +
                             "] is NULL");
    }
  }
}

}  // namespace c_api
}  // namespace mxnet

// The scope times the call for the profiler's MXNET_C_API category (profile_api); when the
// profiler is off it costs one relaxed atomic load.
// Argument checks inside a shim: the message names the C function and the argument.
#define API_NOT_NULL(ptr) ::mxnet::c_api::NotNull((ptr), __func__, #ptr)
#define API_NO_NULL_IN(array, count) ::mxnet::c_api::NoNullIn((array), (count), __func__, #array)

#define API_BEGIN()                                            \
  ::mxnet::profiler::APICallScope _api_call_scope_(__func__); \
  ::mxnet::c_api::FunctionScope _api_function_scope_(__func__); \
  try {
// A helper shared by several C functions: errors name the C function that called it, which
// declares API_FUNCTION_SCOPE() before the call.
#define API_BEGIN_HELPER()                                     \
  ::mxnet::profiler::APICallScope _api_call_scope_(__func__); \
  try {
#define API_FUNCTION_SCOPE() ::mxnet::c_api::FunctionScope _api_function_scope_(__func__)
#define API_END()                                                \
  }                                                              \
  catch (const std::exception& _except_) {                       \
    ::mxnet::c_api::SetLastErrorFromException(_except_);         \
    return -1;                                                   \
  }                                                              \
  catch (...) {                                                  \
    ::mxnet::c_api::SetLastError("MXNetError: unknown exception"); \
    return -1;                                                   \
  }                                                              \
  return 0;
/*! \brief Like API_END, running `Finalize` (cleanup on both paths) first. */
#define API_END_HANDLE_ERROR(Finalize)                           \
  }                                                              \
  catch (const std::exception& _except_) {                       \
    Finalize;                                                    \
    ::mxnet::c_api::SetLastErrorFromException(_except_);         \
    return -1;                                                   \
  }                                                              \
  catch (...) {                                                  \
    Finalize;                                                    \
    ::mxnet::c_api::SetLastError("MXNetError: unknown exception"); \
    return -1;                                                   \
  }                                                              \
  return 0;

#endif  // MXNET_C_API_C_API_COMMON_H_
