# SonolinkHelpers.cmake: the two helpers every folder's CMakeLists.txt uses.
#
#   sonolink_add_library(NAME <module> [SOURCES ...] [PUBLIC_DEPS ...] [PRIVATE_DEPS ...] [QT])
#     -> target sonolink_<module>, alias sonolink::<module>; include/ is public, src/ private.
#        Without QT the target refuses to link any Qt library (core and transport stay Qt-free).
#   sonolink_add_test(NAME <name> SOURCES ... DEPS ... LABELS ... [QTEST])
#     -> a GoogleTest binary whose tests CTest discovers (or one QtTest binary with QTEST).

include_guard(GLOBAL)

function(sonolink_add_library)
  cmake_parse_arguments(ARG "QT;INTERFACE" "NAME" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target sonolink_${ARG_NAME})
  if(ARG_INTERFACE)
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(${target} INTERFACE ${ARG_PUBLIC_DEPS})
  else()
    add_library(${target} ${ARG_SOURCES})
    target_include_directories(${target}
      PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
      PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    sonolink_set_warnings(${target})
  endif()
  add_library(sonolink::${ARG_NAME} ALIAS ${target})
  if(NOT ARG_QT)
    foreach(dep IN LISTS ARG_PUBLIC_DEPS ARG_PRIVATE_DEPS)
      if(dep MATCHES "^Qt[0-9]*::|^Qwt::")
        message(FATAL_ERROR "${target} links ${dep}: only GUI targets (QT) may use Qt or Qwt")
      endif()
    endforeach()
  endif()
endfunction()

function(sonolink_add_test)
  cmake_parse_arguments(ARG "QTEST;SUPPORT" "NAME" "SOURCES;DEPS;LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  sonolink_set_warnings(${ARG_NAME})
  if(ARG_SUPPORT)  # the tests' shared helpers (tests/support)
    target_include_directories(${ARG_NAME} PRIVATE ${SONOLINK_TEST_SUPPORT})
  endif()
  if(ARG_QTEST)
    target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} Qt6::Test)
    set_target_properties(${ARG_NAME} PROPERTIES AUTOMOC ON)
    # Each in its own folder: the engine's relative data folders (the DICOM queue, held by a
    # lock) are not shared by the GUI tests that run at once.
    file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.work)
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME} WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.work)
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}"
      ENVIRONMENT "QT_QPA_PLATFORM=offscreen;${ARG_ENVIRONMENT}")
  else()
    target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gmock GTest::gtest_main)
    gtest_discover_tests(${ARG_NAME}
      PROPERTIES LABELS "${ARG_LABELS}" ENVIRONMENT "${ARG_ENVIRONMENT}"
      DISCOVERY_TIMEOUT 30)
  endif()
endfunction()
