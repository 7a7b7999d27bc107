# SonolinkSanitizers.cmake: SONOLINK_SANITIZE = "" | address (ASan + UBSan) | thread (TSan) |
# fuzzer (clang: libFuzzer coverage with ASan + UBSan; tests/fuzz). Applied to every target (the
# presets asan, tsan and fuzz set it).
include_guard(GLOBAL)
set(SONOLINK_SANITIZE "" CACHE STRING "Sanitizers: address (ASan+UBSan), thread (TSan), or empty")
set_property(CACHE SONOLINK_SANITIZE PROPERTY STRINGS "" address thread fuzzer)
if(SONOLINK_SANITIZE STREQUAL "address")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=address,undefined)
elseif(SONOLINK_SANITIZE STREQUAL "thread")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=thread)
elseif(SONOLINK_SANITIZE STREQUAL "fuzzer")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SONOLINK_SANITIZE=fuzzer needs clang (the fuzz preset sets it)")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT SONOLINK_SANITIZE STREQUAL "")
  message(FATAL_ERROR "SONOLINK_SANITIZE='${SONOLINK_SANITIZE}': use address, thread, fuzzer or empty")
else()
  # What ships (the Debian package): relocations read-only and bound at start (dpkg-buildflags' link hardening).
  add_link_options(LINKER:-z,relro LINKER:-z,now)
endif()
