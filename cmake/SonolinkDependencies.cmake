# SonolinkDependencies.cmake: finds every third-party dependency up front. Whatever is
# missing is reported together, with the Debian package that provides it, before any
# compiler runs (installer/install-deps.sh installs them all). Optional parts (CUDA, RDMA)
# are AUTO options: built when found, otherwise left out with a plain message.

include_guard(GLOBAL)
set(_sonolink_missing "")

# sonolink_require(<what> <debian-package> <find_package args...>)
macro(sonolink_require what package)
  find_package(${ARGN} QUIET)
  if(NOT ${ARGV2}_FOUND)
    list(APPEND _sonolink_missing "  ${what}: install the Debian package '${package}'")
  endif()
endmacro()

sonolink_require("tl-expected" libexpected-dev tl-expected)
sonolink_require("fmt" libfmt-dev fmt)
sonolink_require("spdlog" libspdlog-dev spdlog)
if(SONOLINK_GPU_CHECK_ONLY)
  sonolink_require("ISA-L" libisal-dev ISAL)
  sonolink_require("GoogleTest/GMock" "libgtest-dev libgmock-dev" GTest)
  sonolink_require("Google Benchmark" libbenchmark-dev benchmark)
  if(_sonolink_missing)
    list(JOIN _sonolink_missing "\n" _text)
    message(FATAL_ERROR "The GPU check build is missing:\n${_text}\n"
                        "tests/gpu/run-device-check.sh takes them from .devdeps (installer/gather-device-deps.sh).")
  endif()
  return()
endif()
sonolink_require("nlohmann-json" nlohmann-json3-dev nlohmann_json)
sonolink_require("CLI11" libcli11-dev CLI11)
sonolink_require("HDF5 (C library)" libhdf5-dev HDF5 COMPONENTS C)
sonolink_require("DCMTK" libdcmtk-dev DCMTK)
sonolink_require("Qt 6 (Core, Widgets, Test)" "qt6-base-dev" Qt6 COMPONENTS Core Widgets Test)
sonolink_require("Qwt 6.3 for Qt 6" "libqwt-qt6-dev, or run installer/install-deps.sh (builds it)" Qwt)
sonolink_require("ISA-L" libisal-dev ISAL)
sonolink_require("zlib" zlib1g-dev ZLIB)
if(SONOLINK_BUILD_TESTS)
  sonolink_require("GoogleTest/GMock" "libgtest-dev libgmock-dev" GTest)
  sonolink_require("Google Benchmark" libbenchmark-dev benchmark)
  # Test cross-checks use the distribution's Python, whose numpy, h5py and pydicom the
  # installer provides (a pyenv or venv python on PATH would not have them).
  if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python for the test cross-checks")
  endif()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(NOT Python3_FOUND)
    list(APPEND _sonolink_missing "  Python 3 (test cross-checks): install the Debian package 'python3'")
  endif()
endif()

if(_sonolink_missing)
  list(JOIN _sonolink_missing "\n" _text)
  message(FATAL_ERROR "SonoLink cannot be configured; missing dependencies:\n${_text}\n"
                      "Run installer/install-deps.sh to install everything at once.")
endif()

# --- RDMA (rdma-core): AUTO = build the verbs backend when libibverbs and librdmacm are found.
set(SONOLINK_ENABLE_RDMA AUTO CACHE STRING "Build the RDMA verbs link backend (ON, OFF, AUTO)")
set_property(CACHE SONOLINK_ENABLE_RDMA PROPERTY STRINGS ON OFF AUTO)
set(SONOLINK_HAVE_RDMA OFF)
if(NOT SONOLINK_ENABLE_RDMA STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IBVERBS QUIET IMPORTED_TARGET libibverbs)
    pkg_check_modules(RDMACM QUIET IMPORTED_TARGET librdmacm)
  endif()
  if(IBVERBS_FOUND AND RDMACM_FOUND)
    set(SONOLINK_HAVE_RDMA ON)
    message(STATUS "SonoLink: RDMA verbs backend ON (libibverbs ${IBVERBS_VERSION})")
  elseif(SONOLINK_ENABLE_RDMA STREQUAL "ON")
    message(FATAL_ERROR "SONOLINK_ENABLE_RDMA=ON but libibverbs/librdmacm were not found: "
                        "install the Debian packages 'libibverbs-dev librdmacm-dev'")
  else()
    message(STATUS "SonoLink: RDMA verbs backend OFF: libibverbs-dev/librdmacm-dev not found "
                   "(the simulated link still works)")
  endif()
endif()
