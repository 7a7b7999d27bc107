# SonolinkWarnings.cmake: one warning set for every target we build (-Wall -Wextra and a few
# more that catch real bugs); SONOLINK_WERROR turns them into errors (CI keeps them clean).

include_guard(GLOBAL)
option(SONOLINK_WERROR "Treat compiler warnings as errors" OFF)

function(sonolink_set_warnings target)
  set(flags -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
            -Wcast-align -Woverloaded-virtual
            -Wimplicit-fallthrough)
  if(SONOLINK_WERROR)
    list(APPEND flags -Werror)
  endif()
  # A unity batch includes each source: GCC then takes a class defined in a source, holding a
  # type of that source's anonymous namespace, for one defined in a header (a false alarm here).
  if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    list(APPEND flags -Wno-subobject-linkage)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${flags}>)
endfunction()
