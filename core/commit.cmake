# Writes OUT, a C file that defines zc_commit (core/zc.h): the git commit
# of SRC that zamcap is built from, "-dirty" after it when tracked files
# differ from it, or "unknown" outside a checkout of zamcap (a tarball,
# or no git). Run at every build (CMakeLists.txt, target zc_commit); OUT
# is rewritten only when the commit changes, so a build at the same
# commit recompiles nothing.
#
#   cmake -DSRC=DIR -DOUT=FILE [-DGIT=PATH] -P core/commit.cmake
set(commit unknown)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(src_real "${SRC}" REALPATH)
  if(rc EQUAL 0)
    get_filename_component(top "${top}" REALPATH)
  endif()
  # Only zamcap's own checkout counts: a tarball unpacked inside another
  # repository is not built from that repository's commit.
  if(rc EQUAL 0 AND top STREQUAL src_real)
    execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE head RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(commit ${head})
      # --no-optional-locks: a build must not take the index's lock from
      # a git command the developer runs meanwhile.
      execute_process(COMMAND ${GIT} --no-optional-locks -C ${SRC} status
                              --porcelain --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
      if(NOT rc EQUAL 0 OR NOT changes STREQUAL "")
        set(commit ${commit}-dirty)
      endif()
    endif()
  endif()
endif()
set(text "/* Written by core/commit.cmake at build time. */\n#include \"zc.h\"\n\nconst char zc_commit[] = \"${commit}\";\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
