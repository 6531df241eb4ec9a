/*!
 * \file common/random_generator.h
 * \brief mxnet::common::random::RandGenerator (per-thread generator states for sampling
 *        kernels). Defined in the public header <mxnet/random_generator.h>, because
 *        Resource::get_parallel_random returns it; this path is kept for operator code.
 */
#ifndef MXNET_COMMON_RANDOM_GENERATOR_H_
#define MXNET_COMMON_RANDOM_GENERATOR_H_

#include <mxnet/random_generator.h>

#endif  // MXNET_COMMON_RANDOM_GENERATOR_H_
