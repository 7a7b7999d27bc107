# FindQwt.cmake: Qwt 6.3 built for Qt 6. Looks in the distribution's locations (libqwt-qt6-dev)
# and in the fixed prefix where installer/build-qwt.sh installs it (SONOLINK_QWT_PREFIX).
# Defines Qwt_FOUND, Qwt_VERSION and the imported target Qwt::Qwt (links Qt6::Widgets).
set(SONOLINK_QWT_PREFIX "/opt/sonolink/qwt-6.3.0" CACHE PATH "Where install-deps.sh installs Qwt")
find_path(Qwt_INCLUDE_DIR NAMES qwt_plot.h
  HINTS ${SONOLINK_QWT_PREFIX}/include
  PATH_SUFFIXES qwt-qt6 qt6/qwt qwt6-qt6)
find_library(Qwt_LIBRARY NAMES qwt qwt-qt6
  HINTS ${SONOLINK_QWT_PREFIX}/lib)
if(Qwt_INCLUDE_DIR AND EXISTS "${Qwt_INCLUDE_DIR}/qwt_global.h")
  file(STRINGS "${Qwt_INCLUDE_DIR}/qwt_global.h" _qwt_ver REGEX "define QWT_VERSION_STR")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" Qwt_VERSION "${_qwt_ver}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Qwt REQUIRED_VARS Qwt_LIBRARY Qwt_INCLUDE_DIR
                                  VERSION_VAR Qwt_VERSION)
if(Qwt_FOUND AND Qwt_VERSION VERSION_LESS 6.2)
  message(STATUS "Qwt ${Qwt_VERSION} at ${Qwt_LIBRARY} is too old for Qt 6 (need >= 6.2)")
  set(Qwt_FOUND FALSE)
endif()
if(Qwt_FOUND AND NOT TARGET Qwt::Qwt)
  add_library(Qwt::Qwt UNKNOWN IMPORTED)
  set_target_properties(Qwt::Qwt PROPERTIES IMPORTED_LOCATION "${Qwt_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Qwt_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS QWT_DLL
    INTERFACE_LINK_LIBRARIES Qt6::Widgets)
endif()
mark_as_advanced(Qwt_INCLUDE_DIR Qwt_LIBRARY)
