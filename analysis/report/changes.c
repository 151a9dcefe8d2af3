/* A release's changes, ranked by their impact sets (zam/changes.c), in
 * report.json, on the terminal and in summary.md: the first few ranked,
 * with their interval and whether it lies above 0, and how many changes
 * were not reached. Text from the repository is escaped for where it
 * goes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"

enum { SHOWN = 5 };

void ana__changes_doc(struct ana_cmp *c, struct cJSON *doc) {
  cJSON *a = ana_cmp_changes_json(c);
  if (!a) return;
  cJSON_AddItemToObject(doc, "changes", a);
  cJSON_AddStringToObject(doc, "changes_range", ana__changes_range(c));
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* "+120.3 ms (95 % CI +101.0 to +139.6)" */
static void delta_words(const cJSON *o, char *out, size_t cap) {
  const cJSON *ci = cJSON_GetObjectItemCaseSensitive(o, "ci95");
  double d = jnum(o, "delta_ms");
  if (cJSON_GetArraySize(ci) == 2)
    snprintf(out, cap, "%+.1f ms (95 %% CI %+.1f to %+.1f)", d,
             cJSON_GetArrayItem(ci, 0)->valuedouble,
             cJSON_GetArrayItem(ci, 1)->valuedouble);
  else
    snprintf(out, cap, "%+.1f ms (one pair, no interval)", d);
}

/* How many changes have each status. */
static void tally(const cJSON *a, unsigned *ranked, unsigned *unreached,
                  unsigned *outside) {
  const cJSON *o;
  *ranked = *unreached = *outside = 0;
  cJSON_ArrayForEach(o, a) {
    const char *s = jstr(o, "status");
    *ranked += !strcmp(s, "ranked");
    *unreached += !strcmp(s, "not reached");
    *outside += !strcmp(s, "outside functions");
  }
}

void ana__changes_text(const struct ana_cmp *c, FILE *f) {
  cJSON *a = ana_cmp_changes_json(c);
  if (!a) return;
  unsigned r, u, o;
  tally(a, &r, &u, &o);
  fputs("changes ", f);
  zc_term_put(f, ana__changes_range(c), SIZE_MAX);
  fprintf(f,
          ", by their impact set's time (%u ranked, %u not reached, %u "
          "outside functions):\n",
          r, u, o);
  for (unsigned i = 0; i < r && i < SHOWN; i++) {
    const cJSON *x = cJSON_GetArrayItem(a, (int)i);
    char d[128];
    delta_words(x, d, sizeof d);
    fprintf(f, "  %u. ", i + 1);
    zc_term_put(f, jstr(x, "function"), SIZE_MAX);
    fputs(" (", f);
    zc_term_put(f, jstr(x, "file"), SIZE_MAX);
    fprintf(f, ":%d)  %s%s\n", (int)jnum(x, "line"), d,
            cJSON_IsTrue(cJSON_GetObjectItem(x, "significant")) ? "  *" : "");
  }
  cJSON_Delete(a);
}

void ana__changes_md(const struct ana_cmp *c, FILE *f) {
  cJSON *a = ana_cmp_changes_json(c);
  if (!a) return;
  unsigned r, u, o;
  tally(a, &r, &u, &o);
  fputs("\n**Changes ", f);
  ana_md_code(f, ana__changes_range(c));
  fprintf(f,
          " by their impact set's time** (%u ranked, %u not reached, %u "
          "outside functions)\n\n",
          r, u, o);
  if (r)
    fputs("| # | function | file:line | Δ | impact set |\n"
          "|---|---|---|---|---|\n",
          f);
  for (unsigned i = 0; i < r && i < SHOWN; i++) {
    const cJSON *x = cJSON_GetArrayItem(a, (int)i);
    char d[128];
    delta_words(x, d, sizeof d);
    fprintf(f, "| %u | ", i + 1);
    ana_md_code(f, jstr(x, "function"));
    fputs(" | ", f);
    ana_md_code(f, jstr(x, "file"));
    fprintf(f, ":%d | %s%s | %d functions |\n", (int)jnum(x, "line"), d,
            cJSON_IsTrue(cJSON_GetObjectItem(x, "significant")) ? " ✱" : "",
            (int)jnum(x, "impact_set"));
  }
  cJSON_Delete(a);
}
