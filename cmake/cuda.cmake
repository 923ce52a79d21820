# The cuda backend (CUDA IPC ps/ring and NCCL) is an optional part: compiled
# when CB_WITH_CUDA is on and both the CUDA toolkit and NCCL are found, left
# out otherwise (the host-only build is tested in CI with CB_WITH_CUDA=OFF).
# NCCL is looked up under NCCL_HOME (CMake or environment variable), then in
# the CUDA toolkit; a Python wheel's lib/libnccl.so.2 is accepted as is.
set(CB_HAVE_CUDA OFF)
if(NOT CB_WITH_CUDA)
  message(STATUS "collbench: cuda backend disabled (CB_WITH_CUDA=OFF)")
  return()
endif()

include(CheckLanguage)
check_language(CUDA)
find_package(CUDAToolkit QUIET)
if(NOT CMAKE_CUDA_COMPILER OR NOT CUDAToolkit_FOUND)
  message(STATUS "collbench: no CUDA toolkit found; building the host backend only")
  return()
endif()

if(NOT NCCL_HOME AND DEFINED ENV{NCCL_HOME})
  set(NCCL_HOME $ENV{NCCL_HOME})
endif()
find_path(NCCL_INCLUDE_DIR nccl.h
  HINTS ${NCCL_HOME}/include ${NCCL_HOME} ${CUDAToolkit_INCLUDE_DIRS})
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2
  HINTS ${NCCL_HOME}/lib ${NCCL_HOME}/lib64 ${NCCL_HOME} ${CUDAToolkit_LIBRARY_DIR})
if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
  message(STATUS "collbench: CUDA found but NCCL not (set NCCL_HOME); building the host backend only")
  return()
endif()

# sm_80 and sm_90 machine code plus sm_90 PTX for newer GPUs
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual")
endif()
enable_language(CUDA)
set(CB_HAVE_CUDA ON)
message(STATUS "collbench: cuda backend on (CUDA ${CUDAToolkit_VERSION}, NCCL ${NCCL_LIBRARY}, "
               "architectures ${CMAKE_CUDA_ARCHITECTURES})")

target_sources(cb_collectives PRIVATE
  collectives/cb_backend_cuda.c
  collectives/cb_cuda_ipc.c
  collectives/cb_cuda_sync.c
  collectives/cb_cuda_util.c
  collectives/cb_cuda_kernels.cu
  collectives/cb_algo_nccl.c)
# the target predates enable_language(CUDA): give it the architectures itself
set_property(TARGET cb_collectives PROPERTY CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES})
target_compile_definitions(cb_collectives PUBLIC CB_HAVE_CUDA CB_HAVE_NCCL)
target_include_directories(cb_collectives PUBLIC ${NCCL_INCLUDE_DIR})
target_link_libraries(cb_collectives PUBLIC CUDA::cudart ${NCCL_LIBRARY})
