# Embeds files into the binary as C byte arrays, at build time (run by
# CMakeLists.txt's add_custom_command, so that a change to an embedded file
# makes the C source anew and rebuilds it):
#
#   cmake -DOUT=assets.c -DHEADER=report/html-int.h -P embed.cmake \
#         SYMBOL FILE [SYMBOL FILE ...]
#
# For each pair, OUT defines `const unsigned char SYMBOL[]` with FILE's
# bytes (no terminating NUL) and `const size_t SYMBOL_len`, as HEADER
# declares them. Pure CMake: no xxd.
if(NOT OUT OR NOT HEADER)
  message(FATAL_ERROR "embed.cmake: -DOUT=... and -DHEADER=... are needed")
endif()

# The arguments after the script's name, as SYMBOL FILE pairs.
set(args)
set(start 0)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(start AND i GREATER_EQUAL start)
    list(APPEND args "${CMAKE_ARGV${i}}")
  elseif(NOT start AND CMAKE_ARGV${i} STREQUAL "-P")
    math(EXPR start "${i} + 2")
  endif()
endforeach()
list(LENGTH args n)
math(EXPR odd "${n} % 2")
if(n EQUAL 0 OR odd)
  message(FATAL_ERROR "embed.cmake: give SYMBOL FILE pairs")
endif()

set(c "/* Generated at build time by analysis/report/embed.cmake: edit the\n")
string(APPEND c " * embedded files, not this. */\n#include <stddef.h>\n\n")
string(APPEND c "#include \"${HEADER}\"\n")
math(EXPR npairs "${n} / 2 - 1")
foreach(k RANGE ${npairs})
  math(EXPR si "2 * ${k}")
  math(EXPR fi "2 * ${k} + 1")
  list(GET args ${si} sym)
  list(GET args ${fi} file)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" len)
  math(EXPR len "${len} / 2")
  if(len EQUAL 0)
    message(FATAL_ERROR "embed.cmake: ${file} is empty")
  endif()
  # 12 bytes a line: "0x2f, 0x2a, ..." (CMake's regex has no {n})
  string(REGEX REPLACE "(........................)" "\\1\n" bytes "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1, " bytes "${bytes}")
  string(REGEX REPLACE "[, \n]+$" "" bytes "${bytes}")
  string(REPLACE ", \n" ",\n  " bytes "${bytes}")
  get_filename_component(name "${file}" NAME)
  string(APPEND c "\n/* ${name}, ${len} bytes */\n"
         "const unsigned char ${sym}[] = {\n  ${bytes}};\n"
         "const size_t ${sym}_len = sizeof ${sym};\n")
endforeach()

file(WRITE "${OUT}" "${c}")
