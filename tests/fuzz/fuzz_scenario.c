/* Fuzzes the scenario loader (scenarios/load.c): the input is a DevTools
 * Recorder JSON file. A scenario that loads must be one replay can run;
 * its navigate URLs are then mapped onto a few builds' base URLs. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scn.h"

/* added: steps zamcap added before step i (a navigate to the build's URL
 * for a flow that never navigates): the file's numbering skips them. */
static void check_step(const struct scn_scenario *s, size_t i, size_t added) {
  static const char *const bases[] = {"http://127.0.0.1:8000/",
                                      "http://h:1/a/b?q=1#f", "file:///x/y",
                                      "//h/p", ""};
  const struct scn_step *st = &s->steps[i];
  FUZZ_CHECK(st->index + added == i &&
             strcmp(scn_type_name(st->type), "?") != 0);
  for (size_t k = 0; k < st->nsel; k++) {
    FUZZ_CHECK(st->sel[k].n >= 1);
    for (size_t j = 0; j < st->sel[k].n; j++)
      FUZZ_CHECK(st->sel[k].part[j] && st->sel[k].part[j][0]);
  }
  switch (st->type) {
  case SCN_SET_VIEWPORT: FUZZ_CHECK(st->width && st->height); break;
  case SCN_NAVIGATE: FUZZ_CHECK(st->url && (st->url[0] || st->implicit)); break;
  case SCN_CHANGE: FUZZ_CHECK(st->value && st->nsel); break;
  case SCN_KEY_DOWN:
  case SCN_KEY_UP: FUZZ_CHECK(st->key && st->key[0]); break;
  case SCN_WAIT_EXPRESSION:
    FUZZ_CHECK(st->expression && st->expression[0]);
    break;
  case SCN_CLICK:
  case SCN_DOUBLE_CLICK:
  case SCN_HOVER:
  case SCN_WAIT_ELEMENT: FUZZ_CHECK(st->nsel >= 1); break;
  case SCN_SCROLL:
  case SCN_CLOSE: break;
  case SCN_EMULATE_NETWORK:
    FUZZ_CHECK(st->download >= -1 && st->upload >= -1 && st->latency >= 0);
    break;
  }
  if (st->type == SCN_WAIT_ELEMENT)
    FUZZ_CHECK(!strcmp(st->op, ">=") || !strcmp(st->op, "==") ||
               !strcmp(st->op, "<="));
  if (!st->url) return;
  for (size_t b = 0; b <= ZC_ARRAY_LEN(bases); b++) {
    /* The last base is the URL itself: bases come from the command line. */
    char *u =
        scn_map_url(s, st->url, b < ZC_ARRAY_LEN(bases) ? bases[b] : st->url);
    FUZZ_CHECK(u != NULL);
    free(u);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zc_verbosity = 0;
  struct scn_scenario *s = NULL;
  enum zc_err e = scn_load(fuzz_file(data, size), &s);
  if (e) {
    FUZZ_CHECK(e == ZC_E_USAGE && !s && zc_errmsg()[0]);
    return 0;
  }
  FUZZ_CHECK(s && s->n >= 1 && s->record_from < s->n);
  FUZZ_CHECK(s->path && s->title && s->origin);
  FUZZ_CHECK(s->timeout_ms >= 0);
  size_t added = 0;
  for (size_t i = 0; i < s->n; i++) {
    check_step(s, i, added);
    if (s->steps[i].implicit) {
      FUZZ_CHECK(s->steps[i].type == SCN_NAVIGATE && !added);
      added++;
    }
  }
  scn_free(s);
  return 0;
}
