/* Fuzzes the .cpuprofile reader (analysis/trace/: scan.c's top-level
 * object path, profile.c): the same checks as fuzz_ingest with a corpus of
 * Profiler.stop results. Inputs that are not an object are no .cpuprofile:
 * rejected, so that the corpus stays on this format. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t'))
    i++;
  if (i == size || data[i] != '{') return -1;
  fuzz_trace(fuzz_file(data, size), size);
  return 0;
}
