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
# Versions (each checked here, so an old kit builds the host backend and says
# why rather than failing to compile): CUDA >= 12.5
# (cudaGetDriverEntryPointByVersion, CUDA runtime API 12.5), NCCL >= 2.14
# (ncclCommInitRankConfig and ncclCommFinalize, NCCL 2.14 release notes); an
# older NCCL is left out as a missing one is. CB_TEST_CUDA_VERSION and
# CB_TEST_NCCL_VERSION stand in for the found versions (the tests simulate an
# old kit with them). The CUDA runtime is the shared one (both libcudart.so
# and libcudart_static.a were linked before), device code is C++17, and the
# binaries carry an RPATH to the CUDA runtime's and NCCL's folders (the
# toolkit's folder is implicit to nvcc, so CMake added none).
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

set(cb_cuda_version ${CUDAToolkit_VERSION})
if(CB_TEST_CUDA_VERSION)
  set(cb_cuda_version ${CB_TEST_CUDA_VERSION})
endif()
if(cb_cuda_version VERSION_LESS 12.5)
  cb_without_cuda("CUDA ${cb_cuda_version} is older than 12.5, which the cuda backend needs (cudaGetDriverEntryPointByVersion)")
endif()

# sm_80 and sm_90 machine code plus sm_90 PTX for newer GPUs
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual")
endif()
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
enable_language(CUDA)
set(CB_HAVE_CUDA ON)
set(CB_CUDA_RPATH ${CUDAToolkit_LIBRARY_DIR})

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
set(nccl_why "CB_WITH_NCCL=${CB_WITH_NCCL}; set NCCL_HOME to find it")
if(CB_HAVE_NCCL)
  file(STRINGS ${NCCL_INCLUDE_DIR}/nccl.h cb_nccl_defs REGEX "^#define NCCL_(MAJOR|MINOR) +[0-9]+")
  string(REGEX REPLACE ".*NCCL_MAJOR +([0-9]+).*" "\\1" cb_nccl_major "${cb_nccl_defs}")
  string(REGEX REPLACE ".*NCCL_MINOR +([0-9]+).*" "\\1" cb_nccl_minor "${cb_nccl_defs}")
  set(cb_nccl_version "${cb_nccl_major}.${cb_nccl_minor}")
  if(CB_TEST_NCCL_VERSION)
    set(cb_nccl_version ${CB_TEST_NCCL_VERSION})
  endif()
  if(cb_nccl_version VERSION_LESS 2.14)
    set(CB_HAVE_NCCL OFF)
    set(nccl_why "NCCL ${cb_nccl_version} at ${NCCL_INCLUDE_DIR} is older than 2.14, which collbench needs (ncclCommInitRankConfig, ncclCommFinalize)")
  endif()
endif()
if(CB_HAVE_NCCL)
  set(nccl_text "NCCL ${cb_nccl_version} ${NCCL_LIBRARY}")
  get_filename_component(cb_nccl_dir ${NCCL_LIBRARY} DIRECTORY)
  list(APPEND CB_CUDA_RPATH ${cb_nccl_dir})
else()
  set(nccl_text "without NCCL (${nccl_why})")
endif()
message(STATUS "collbench: cuda backend on (CUDA ${CUDAToolkit_VERSION}, ${nccl_text}, "
               "architectures ${CMAKE_CUDA_ARCHITECTURES})")
