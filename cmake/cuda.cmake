# The CUDA variant's libraries and flags (included from CMakeLists.txt once the mxnet target
# exists, when MXNET_USE_CUDA is on), and the reuse of a CPU build's objects.

# The runtime is linked dynamically: a machine without a GPU or a driver still loads the
# library (cudaGetDeviceCount then reports no device).
target_link_libraries(mxnet PUBLIC CUDA::cudart)
# The include folders only this variant has; the object reuse below needs them.
get_target_property(MXNET_CUDA_ONLY_INCLUDES CUDA::cudart INTERFACE_INCLUDE_DIRECTORIES)

find_package(Python3 COMPONENTS Interpreter QUIET)

# A library of the toolkit when it has it (a full CUDA install), else of the PyPI wheels that
# tools/setup.sh installs: nvidia-cublas and nvidia-cusolver both unpack into
# site-packages/nvidia/cu13 (-DMXNET_CUBLAS_ROOT=<folder with include/ and lib/> overrides).
# nvidia-cusolver brings nvidia-cusparse and nvidia-nvjitlink; libcusolver finds them and cuBLAS
# beside itself through its $ORIGIN RPATH.
function(mxnet_link_cuda_library name toolkit_target header soname wheel)
  if(TARGET ${toolkit_target})
    target_link_libraries(mxnet PRIVATE ${toolkit_target})
    return()
  endif()
  if(NOT MXNET_CUBLAS_ROOT)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c
                      "import nvidia.cu13 as m; print(list(m.__path__)[0])"
                    OUTPUT_VARIABLE MXNET_CUBLAS_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET)
    set(MXNET_CUBLAS_ROOT ${MXNET_CUBLAS_ROOT} CACHE PATH "Folder of the cuBLAS/cuSOLVER wheels")
  endif()
  string(TOUPPER ${name} upper)
  find_path(MXNET_${upper}_INCLUDE ${header} HINTS ${MXNET_CUBLAS_ROOT}/include)
  find_library(MXNET_${upper}_LIB NAMES ${name} ${soname} HINTS ${MXNET_CUBLAS_ROOT}/lib)
  if(NOT MXNET_${upper}_INCLUDE OR NOT MXNET_${upper}_LIB)
    message(FATAL_ERROR "MXNET_USE_CUDA: ${name} not found in the CUDA toolkit nor in "
                        "'${MXNET_CUBLAS_ROOT}': pip install ${wheel} (tools/setup.sh does) or "
                        "set -DMXNET_CUBLAS_ROOT=<folder with include/ and lib/>")
  endif()
  target_include_directories(mxnet PRIVATE ${MXNET_${upper}_INCLUDE})
  target_link_libraries(mxnet PRIVATE ${MXNET_${upper}_LIB})
  set(MXNET_CUDA_ONLY_INCLUDES ${MXNET_CUDA_ONLY_INCLUDES} ${MXNET_${upper}_INCLUDE} PARENT_SCOPE)
  message(STATUS "${name}: ${MXNET_${upper}_LIB}")
endfunction()
mxnet_link_cuda_library(cublas CUDA::cublas cublas_v2.h libcublas.so.13 nvidia-cublas)
# cuSOLVER: the linalg factorizations on the GPU.
mxnet_link_cuda_library(cusolver CUDA::cusolver cusolverDn.h libcusolver.so.12 nvidia-cusolver)

# An optional NVIDIA library: a system install (the GPU machine's Debian packages put the
# headers in /usr/include/<arch>) or its PyPI wheel (site-packages/nvidia/<module>), which
# tools/setup.sh installs; -DMXNET_<NAME>_ROOT=<folder with include/ and lib/> overrides. Found:
# linked, MXNET_USE_<NAME>=1, and its include folder counted as CUDA-only. Not found: a warning
# saying what the build does without it, and MXNET_USE_<NAME>=0.
function(mxnet_link_optional_cuda_library name header module wheel without)
  string(TOUPPER ${name} upper)
  set(root ${MXNET_${upper}_ROOT})
  if(NOT root)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c
                      "import nvidia.${module} as m; print(list(m.__path__)[0])"
                    OUTPUT_VARIABLE root OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  find_path(MXNET_${upper}_INCLUDE ${header}
            HINTS ${root}/include ${CUDAToolkit_INCLUDE_DIRS}
                  /usr/include/${CMAKE_LIBRARY_ARCHITECTURE})
  find_library(MXNET_${upper}_LIB NAMES ${name} ${ARGN}
               HINTS ${root}/lib ${CUDAToolkit_LIBRARY_DIR} /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
  if(MXNET_${upper}_INCLUDE AND MXNET_${upper}_LIB)
    target_include_directories(mxnet PRIVATE ${MXNET_${upper}_INCLUDE})
    target_link_libraries(mxnet PRIVATE ${MXNET_${upper}_LIB})
    target_compile_definitions(mxnet PRIVATE MXNET_USE_${upper}=1)
    set(MXNET_CUDA_ONLY_INCLUDES ${MXNET_CUDA_ONLY_INCLUDES} ${MXNET_${upper}_INCLUDE}
        PARENT_SCOPE)
    message(STATUS "${name}: ${MXNET_${upper}_LIB}")
  else()
    message(WARNING "MXNET_USE_${upper}: ${name} not found (pip install ${wheel}, or set "
                    "-DMXNET_${upper}_ROOT=<folder with include/ and lib/>): ${without}")
    target_compile_definitions(mxnet PRIVATE MXNET_USE_${upper}=0)
  endif()
endfunction()
# cuDNN: Convolution, Deconvolution and Pooling on the GPU.
if(MXNET_USE_CUDNN)
  mxnet_link_optional_cuda_library(cudnn cudnn.h cudnn nvidia-cudnn-cu13
    "building without GPU convolutions (those operators say they have no GPU kernel)"
    libcudnn.so.9)
endif()
# NCCL: the 'nccl' KVStore and dist_device_sync's GPU all-reduce.
option(MXNET_USE_NCCL "NCCL for the GPU KVStores, when found" ON)
if(MXNET_USE_NCCL)
  mxnet_link_optional_cuda_library(nccl nccl.h nccl nvidia-nccl-cu13
    "the GPU KVStores sum through host memory ('nccl' says it needs NCCL)" libnccl.so.2)
endif()
# nvcc hands host flags through -Xcompiler; -Wall and the prefix map are GCC-only.
target_compile_options(mxnet PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr
                       -Xcompiler=-fopenmp -Xcompiler=-fPIC>)

# Objects from a CPU build of the same tree. Most .cc units read no CUDA build macro and so
# compile to the same object in both variants; tools/cuda_independent_objects.py names them from
# the CPU build's ninja deps log (what the compiler actually read, the precompiled header
# included). This build then links those objects and compiles only the .cu units and the .cc
# units that do read a CUDA macro (about a fifth). CI builds the CPU variant first and uses this.
set(MXNET_HOST_OBJECTS_DIR "" CACHE PATH
    "A built CPU build folder (Ninja, same options) whose CUDA-independent objects to link")
if(MXNET_HOST_OBJECTS_DIR)
  set(host ${MXNET_HOST_OBJECTS_DIR})
  if(NOT CMAKE_GENERATOR MATCHES "Ninja" OR NOT EXISTS ${host}/.ninja_deps)
    message(FATAL_ERROR "MXNET_HOST_OBJECTS_DIR: '${host}' is not a built Ninja build folder")
  endif()
  # Objects link together only when everything but CUDA was configured alike.
  set(same_options MXNET_USE_OPENMP MXNET_USE_BLAS MXNET_USE_ONEDNN MXNET_USE_MPI MXNET_USE_PCH
                   MXNET_SANITIZE MXNET_FUZZ CMAKE_CXX_COMPILER)
  load_cache(${host} READ_WITH_PREFIX HOST_ ${same_options} MXNET_USE_CUDA)
  if(HOST_MXNET_USE_CUDA)
    message(FATAL_ERROR "MXNET_HOST_OBJECTS_DIR: '${host}' is a CUDA build, not a CPU one")
  endif()
  foreach(option ${same_options})
    if(NOT "${HOST_${option}}" STREQUAL "${${option}}")
      message(FATAL_ERROR "MXNET_HOST_OBJECTS_DIR: '${host}' has ${option}="
                          "'${HOST_${option}}', this build '${${option}}'")
    endif()
  endforeach()
  list(JOIN MXNET_CUDA_ONLY_INCLUDES ";" cuda_includes)
  set(reuse_script ${PROJECT_SOURCE_DIR}/tools/cuda_independent_objects.py)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${reuse_script} ${host} ${PROJECT_SOURCE_DIR}
                          --cuda-includes "${cuda_includes}"
                  OUTPUT_VARIABLE reusable RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "MXNET_HOST_OBJECTS_DIR: ${reuse_script} failed")
  endif()
  set(reuse_list ${PROJECT_BINARY_DIR}/cuda_independent_objects.txt)
  file(WRITE ${reuse_list} "${reusable}")
  string(REPLACE "\n" ";" reusable "${reusable}")
  list(FILTER reusable EXCLUDE REGEX "^$")
  set(objects "")
  foreach(source ${reusable})
    # Kept in the target (IDEs, globbing) but not compiled here.
    set_source_files_properties(${PROJECT_SOURCE_DIR}/${source} PROPERTIES HEADER_FILE_ONLY ON)
    list(APPEND objects ${host}/CMakeFiles/mxnet.dir/${source}.o)
  endforeach()
  target_sources(mxnet PRIVATE ${objects})
  # Before anything here compiles: bring the CPU build's objects up to date, then check that
  # the set of CUDA-independent units is still the one configured (a header gained a CUDA test:
  # configure again rather than link an object built without it).
  add_custom_target(mxnet_host_objects
    COMMAND ${CMAKE_COMMAND} --build ${host} --target mxnet
    COMMAND ${Python3_EXECUTABLE} ${reuse_script} ${host} ${PROJECT_SOURCE_DIR}
            --cuda-includes "${cuda_includes}" --check ${reuse_list}
    COMMENT "CPU objects of ${host}" VERBATIM)
  add_dependencies(mxnet mxnet_host_objects)
  list(LENGTH reusable count)
  message(STATUS "Linking ${count} CUDA-independent objects of ${host}")
endif()
