/*!
 * \file dmlc/any.h
 * \brief dmlc::any is std::any; dmlc::get<T> is a checked any_cast returning a reference.
 *
 *   dmlc::any a = MyParam();
 *   const MyParam& p = dmlc::get<MyParam>(a);   // throws dmlc::TypeError on a type mismatch
 */
#ifndef DMLC_ANY_H_
#define DMLC_ANY_H_

#include <dmlc/logging.h>

#include <any>
#include <typeinfo>

namespace dmlc {

using any = std::any;

namespace detail {
[[noreturn]] inline void ThrowBadAnyCast(const std::type_info& held, const std::type_info& want) {
  MX_THROW(TypeError) << "bad any cast: requested " << want.name() << " but the value holds "
                      << (held == typeid(void) ? "nothing" : held.name());
  throw TypeError("bad any cast");  // not reached: MX_THROW throws
}
}  // namespace detail

/*! \brief Reference to the T held by `src`; throws TypeError if it holds something else. */
template <typename T>
inline T& get(any& src) {  // NOLINT(runtime/references)
  T* p = std::any_cast<T>(&src);
  if (p == nullptr) detail::ThrowBadAnyCast(src.type(), typeid(T));
  return *p;
}
template <typename T>
inline const T& get(const any& src) {
  const T* p = std::any_cast<T>(&src);
  if (p == nullptr) detail::ThrowBadAnyCast(src.type(), typeid(T));
  return *p;
}

}  // namespace dmlc

#endif  // DMLC_ANY_H_
