/* Fuzzes trace ingest (analysis/trace/): the input is a trace file, a
 * bare event array or {"traceEvents": [...]}, plain or gzip, as zamcap
 * compare reads it; then the timeline's invariants (fuzz_trace.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_trace(fuzz_file(data, size), size);
  return 0;
}
