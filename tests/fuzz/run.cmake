# One fuzz test (CMakeLists.txt here): FUZZER runs for SECONDS on a fresh
# scratch corpus (where its new inputs go) plus the committed CORPUS (read
# only). A crash, leak, timeout or broken invariant fails the test; the
# input is then in WORK/fuzz-artifacts/NAME-*.
set(scratch ${WORK}/fuzz-corpus/${NAME})
file(REMOVE_RECURSE ${scratch})
file(MAKE_DIRECTORY ${scratch} ${WORK}/fuzz-artifacts)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=1024
          -timeout=10 -dict=${DICT} -print_final_stats=1
          -artifact_prefix=${WORK}/fuzz-artifacts/${NAME}-
          ${scratch} ${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz_${NAME} failed (${rc}); the input that did it "
          "is in ${WORK}/fuzz-artifacts/: rerun it with ${FUZZER} FILE")
endif()
