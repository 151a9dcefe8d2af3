/* Fuzzes the sampling heap profile reader (analysis/trace/heap.c): the
 * input is a .heapprofile, plain or gzip, as zamcap compare reads it;
 * then a bytes timeline's checks and fuzz_trace.c's (its twin shows no
 * regression). */
#include <math.h>

#include "ana.h"
#include "fuzz.h"
#include "timeline.h"

void fuzz_heap_checks(const char *path) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  if (ana_load(c, path, &tl) == ZC_OK) {
    FUZZ_CHECK(tl->unit == ANA_UNIT_BYTES);
    for (uint32_t i = 0; i < tl->nnodes; i++)
      FUZZ_CHECK(tl->nodes[i].self >= 0 && tl->nodes[i].total >= 0);
    const struct ana_figures *f = &tl->fig;
    FUZZ_CHECK(!(f->heap_used_kb < 0) && !(f->dom_nodes < 0) &&
               !(f->listeners < 0));
    FUZZ_CHECK(isnan(f->heap_used_kb) || f->heap_used_kb <= 1e15 / 1024);
  } else {
    FUZZ_CHECK(tl == NULL && zc_errmsg()[0] != '\0');
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file_named(data, size, ".heapprofile");
  zc_verbosity = 0;
  fuzz_heap_checks(path);
  fuzz_trace(path, size);
  return 0;
}
