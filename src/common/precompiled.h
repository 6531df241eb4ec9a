/*!
 * \file precompiled.h
 * \brief The headers nearly every unit of the library includes, compiled once per build
 *        (CMake's target_precompile_headers; -DMXNET_USE_PCH=OFF turns it off). Parsing them
 *        took about 2 s of each unit's time, a fifth of the CPU build and most of an unoptimized
 *        one. Only the runtime's public interfaces and the standard library belong here: every
 *        source still includes what it uses, and the build without it is the check.
 */
#ifndef MXNET_COMMON_PRECOMPILED_H_
#define MXNET_COMMON_PRECOMPILED_H_

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <dmlc/parameter.h>
#include <mxnet/base.h>
#include <mxnet/engine.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tensor_blob.h>
#include <nnvm/op.h>

#endif  // MXNET_COMMON_PRECOMPILED_H_
