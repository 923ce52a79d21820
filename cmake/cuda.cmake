# Finds the optional parts of collectives/runtime/ (called from the top level,
# where enable_language(CUDA) must be; collectives/CMakeLists.txt adds their
# sources):
#   cuda backend  (CUDA IPC ps/ring): when CB_WITH_CUDA is on and the CUDA
#                 toolkit is found (CB_HAVE_CUDA); else cb_cuda_stub.c
#                 takes its place (the host-only build is tested in CI with
#                 CB_WITH_CUDA=OFF);
#   nccl          (ncclAllReduce) and the p2p transport of GPU buffers
#                 (ncclSend/ncclRecv): with the cuda backend, when CB_WITH_NCCL
#                 is on and NCCL is found (CB_HAVE_NCCL, NCCL_INCLUDE_DIR,
#                 NCCL_LIBRARY); else stubs whose rows say "collbench was
#                 built without NCCL".
# Each optional part is a separate file that CMake compiles or replaces with
# a stub that keeps its name in the tables and says why it is missing (no #if
# in the sources). NCCL is looked up under NCCL_HOME (CMake or environment
# variable), then in the CUDA toolkit; a Python wheel's lib/libnccl.so.2 is
# accepted as is.
set(CB_HAVE_CUDA OFF)
set(CB_HAVE_NCCL OFF)

macro(cb_without_cuda why)
  message(STATUS "collbench: ${why}; building the host backend only")
  return()
endmacro()

if(NOT CB_WITH_CUDA)
  cb_without_cuda("cuda backend disabled (CB_WITH_CUDA=OFF)")
endif()

include(CheckLanguage)
check_language(CUDA)
find_package(CUDAToolkit QUIET)
if(NOT CMAKE_CUDA_COMPILER OR NOT CUDAToolkit_FOUND)
  cb_without_cuda("no CUDA toolkit found")
endif()

# sm_80 and sm_90 machine code plus sm_90 PTX for newer GPUs
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual")
endif()
enable_language(CUDA)
set(CB_HAVE_CUDA ON)

if(CB_WITH_NCCL)
  if(NOT NCCL_HOME AND DEFINED ENV{NCCL_HOME})
    set(NCCL_HOME $ENV{NCCL_HOME})
  endif()
  find_path(NCCL_INCLUDE_DIR nccl.h
    HINTS ${NCCL_HOME}/include ${NCCL_HOME} ${CUDAToolkit_INCLUDE_DIRS})
  find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2
    HINTS ${NCCL_HOME}/lib ${NCCL_HOME}/lib64 ${NCCL_HOME} ${CUDAToolkit_LIBRARY_DIR})
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(CB_HAVE_NCCL ON)
  endif()
endif()
if(CB_HAVE_NCCL)
  set(nccl_text "NCCL ${NCCL_LIBRARY}")
else()
  set(nccl_text "without NCCL (CB_WITH_NCCL=${CB_WITH_NCCL}; set NCCL_HOME to find it)")
endif()
message(STATUS "collbench: cuda backend on (CUDA ${CUDAToolkit_VERSION}, ${nccl_text}, "
               "architectures ${CMAKE_CUDA_ARCHITECTURES})")
