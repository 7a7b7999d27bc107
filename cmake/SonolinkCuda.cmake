# SonolinkCuda.cmake: CUDA is optional (SONOLINK_ENABLE_CUDA = AUTO/ON/OFF). nvcc is taken
# from CMAKE_CUDA_COMPILER, CUDACXX, PATH or /usr/local/cuda. Architectures are explicit
# (never "native": build machines have nvcc but no GPU). Without nvcc everything but the
# CUDA module is configured, and configure says so plainly.

include_guard(GLOBAL)
set(SONOLINK_ENABLE_CUDA AUTO CACHE STRING "Build the CUDA beamformer module (ON, OFF, AUTO)")
set_property(CACHE SONOLINK_ENABLE_CUDA PROPERTY STRINGS ON OFF AUTO)
# 90: H100/H200 (the deployed GPU); 89: Ada workstation cards (RTX 4000/6000 Ada, L4, L40).
set(SONOLINK_CUDA_ARCHITECTURES "89;90" CACHE STRING "CUDA architectures to build for")
set(SONOLINK_HAVE_CUDA OFF)

if(NOT SONOLINK_ENABLE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    find_program(_sonolink_nvcc nvcc HINTS /usr/local/cuda/bin)
    if(_sonolink_nvcc)
      set(CMAKE_CUDA_COMPILER "${_sonolink_nvcc}" CACHE FILEPATH "CUDA compiler")
    endif()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${SONOLINK_CUDA_ARCHITECTURES}")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # CMake 3.25 predates nvcc 13 and does not list its C++20 dialect: teach it.
    if(NOT CMAKE_CUDA20_COMPILE_FEATURES)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    # Static runtime: executables load on machines without libcudart; no driver or device
    # becomes an ordinary Unavailable result at probe time.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    find_package(CUDAToolkit REQUIRED)
    set(SONOLINK_HAVE_CUDA ON)
    message(STATUS "SonoLink: CUDA module ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
                   "architectures ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(SONOLINK_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "SONOLINK_ENABLE_CUDA=ON but nvcc was not found (PATH, CUDACXX, /usr/local/cuda)")
  else()
    message(WARNING "SonoLink: nvcc not found (PATH, CUDACXX, /usr/local/cuda): building WITHOUT the "
                    "CUDA module; the CPU beamformer will be used.")
  endif()
endif()
