/*!
 * \file dmlc/type_traits.h
 * \brief type_name<T>(): the type names the parameter layer prints in docs and errors
 *        ("int", "float", "boolean", "int or None", ...), with the MXNet 1.x spellings.
 *
 *   dmlc::type_name<int64_t>();                 // "long"
 *   DMLC_DECLARE_TYPE_NAME(MyType, "mytype");   // at namespace dmlc scope
 */
#ifndef DMLC_TYPE_TRAITS_H_
#define DMLC_TYPE_TRAITS_H_

#include <dmlc/optional.h>

#include <cstdint>
#include <string>
#include <type_traits>

namespace dmlc {

/*! \brief Specialise (or use DMLC_DECLARE_TYPE_NAME) to name a type; the default is "". */
template <typename T>
struct type_name_helper {
  static std::string value() { return ""; }
};

template <typename T>
inline std::string type_name() {
  return type_name_helper<T>::value();
}

#define DMLC_DECLARE_TYPE_NAME(Type, Name)          \
  template <>                                        \
  struct type_name_helper<Type> {                    \
    static std::string value() { return Name; }      \
  }

DMLC_DECLARE_TYPE_NAME(float, "float");
DMLC_DECLARE_TYPE_NAME(double, "double");
DMLC_DECLARE_TYPE_NAME(int, "int");
DMLC_DECLARE_TYPE_NAME(int64_t, "long");
DMLC_DECLARE_TYPE_NAME(uint32_t, "int (non-negative)");
DMLC_DECLARE_TYPE_NAME(uint64_t, "long (non-negative)");
DMLC_DECLARE_TYPE_NAME(std::string, "string");
DMLC_DECLARE_TYPE_NAME(bool, "boolean");
DMLC_DECLARE_TYPE_NAME(void*, "ptr");
DMLC_DECLARE_TYPE_NAME(optional<int>, "int or None");
DMLC_DECLARE_TYPE_NAME(optional<int64_t>, "long or None");
DMLC_DECLARE_TYPE_NAME(optional<bool>, "boolean or None");
DMLC_DECLARE_TYPE_NAME(optional<float>, "float or None");
DMLC_DECLARE_TYPE_NAME(optional<double>, "double or None");

/*! \brief True for types copied as raw bytes in JSON/binary helpers. */
template <typename T>
struct is_pod : std::integral_constant<bool, std::is_trivial<T>::value &&
                                                 std::is_standard_layout<T>::value> {};

}  // namespace dmlc

#endif  // DMLC_TYPE_TRAITS_H_
