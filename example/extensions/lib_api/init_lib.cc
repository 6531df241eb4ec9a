/*!
 * \file init_lib.cc
 * \brief The smallest extension library: no operators, only initialize. Loading it checks
 *        the library interface and MXNet's version.
 *
 * Build: g++ -shared -fPIC -std=c++17 init_lib.cc ../../../src/lib_api.cc -o libinit_lib.so \
 *            -I ../../../include
 */
#include <iostream>

#include "mxnet/lib_api.h"

using namespace mxnet::ext;

MXReturnValue initialize(int version) {
  if (version >= 10900) {
    std::cout << "MXNet version " << version << " supported" << std::endl;
    return MX_SUCCESS;
  } else {
    MX_ERROR_MSG << "MXNet version " << version << " not supported";
    return MX_FAIL;
  }
}
