/* Ranking a change's functions (seed 003, PERFImpACT): of the functions
 * a commit's diff touched, which got slower, by their own (self) time
 * between the commit and its parent, with the interval over the pairs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "timeline.h"
#include "zam.h"

/* Whether component (a script's path, "/js/app.js") is file, or file
 * without the strip folder ("dist/js/app.js", strip "dist"). */
static int same_file(const char *component, const char *file,
                     const char *strip) {
  size_t cn = strlen(component);
  for (int pass = 0; pass < 2; pass++) {
    const char *f = file;
    if (pass) {
      size_t sn = strip ? strlen(strip) : 0;
      while (sn && strip[sn - 1] == '/')
        sn--;
      if (!sn || strncmp(file, strip, sn) || file[sn] != '/') continue;
      f = file + sn + 1;
    }
    size_t fn = strlen(f);
    if (fn && cn >= fn + 1 && !strcmp(component + cn - fn, f) &&
        component[cn - fn - 1] == '/')
      return 1;
  }
  return 0;
}

/* The row of the function holding hunk h, or of one starting inside it:
 * marks each in keep. */
static void mark(const struct ana_bu_row *rows, uint32_t n,
                 const struct ana_ctx *ctx, const struct ana_hunk *h,
                 const char *strip, uint8_t *keep) {
  int32_t best = -1;
  uint32_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    const struct ana_bu_row *r = &rows[i];
    if (r->kind != ANA_FUNC || r->line < 0) continue;
    if (!same_file(ana_str(ctx, r->component), h->file, strip)) continue;
    int32_t start = r->line + 1;
    if (start >= h->first && start <= h->last)
      keep[i] = 1;
    else if (start < h->first && start > best)
      best = start, at = i;
  }
  if (best >= 0) keep[at] = 1;
}

static cJSON *row_json(struct ana_cmp *c, const struct ana_bu_row *r) {
  double d[ANA_SPREAD_MAX_PAIRS];
  unsigned n = ana_bu_deltas(c->bu, r->key, d, ANA_SPREAD_MAX_PAIRS);
  struct ana_stat st;
  ana_stat(d, n, &st);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", ana_str(c->ctx, r->name));
  cJSON_AddStringToObject(o, "file", ana_str(c->ctx, r->component));
  cJSON_AddNumberToObject(o, "line", r->line + 1);
  cJSON_AddNumberToObject(o, "delta_ms", round(st.mean * 1000) / 1000);
  cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
  if (!isnan(st.lo)) {
    cJSON_AddItemToArray(ci, cJSON_CreateNumber(round(st.lo * 1000) / 1000));
    cJSON_AddItemToArray(ci, cJSON_CreateNumber(round(st.hi * 1000) / 1000));
  }
  return o;
}

struct cJSON *ana_cmp_rank_changes(struct ana_cmp *c, const struct ana_hunk *h,
                                   unsigned nh, const char *strip) {
  const struct ana_bu_row *rows;
  uint32_t n = ana_bu_rows(c->bu, &rows); /* largest Δ first */
  uint8_t *keep = zc_xcalloc((size_t)n + 1, 1);
  for (unsigned k = 0; k < nh; k++)
    mark(rows, n, c->ctx, &h[k], strip, keep);
  cJSON *arr = cJSON_CreateArray();
  for (uint32_t i = 0; i < n; i++)
    if (keep[i]) cJSON_AddItemToArray(arr, row_json(c, &rows[i]));
  free(keep);
  return arr;
}
