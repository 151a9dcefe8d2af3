/* --memory in headless Chromium, on tests/agent/memapp: its new build
 * copies each record 12 times in cloneRecords (the old one once),
 * and the allocation comparison names that function, and nothing else;
 * an A/A names none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ana.h"
#include "test.h"

/* zamcap on memapp with --memory; the parsed report.json, or NULL. */
static cJSON *run(const char *oldb, const char *newb, const char *out) {
  char *log = NULL;
  int rc = zt_run_zamcap(
      &log,
      "'%s' --old '%s' --new '%s' --pairs 3 --memory --format json,html,md "
      "--out '%s'",
      zt_agent_app("memapp", "memapp.json"), zt_agent_app("memapp", oldb),
      zt_agent_app("memapp", newb), out);
  /* the exit code is the time comparison's (allocation causes do not set
   * it): memapp's time barely moves, and three pairs may leave its
   * end-to-end figure undecided (5, issue 34) */
  ZT_TRUE(rc == 0 || rc == 1 || rc == 5);
  ZT_HAS(log, "memory: 3 pairs");
  free(log);
  return zt_json("%s/report.json", out);
}

static void test_names_function(void) {
  const char *out = zt_tmp("mem");
  cJSON *doc = run("old", "new", out);
  if (!doc) return;
  const cJSON *a = cJSON_GetObjectItem(doc, "allocation");
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(a, "unit")), "KB");
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(a, "pairs")), 3);
  /* report.html's flame graph in KB: cloneRecords a cause there too */
  const cJSON *fl = cJSON_GetObjectItem(a, "flame");
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(fl, "unit")), "KB");
  const cJSON *names = cJSON_GetObjectItem(fl, "names"), *x;
  int k = 0, cause = 0;
  cJSON_ArrayForEach(x, cJSON_GetObjectItem(fl, "name")) {
    const char *nm =
        cJSON_GetStringValue(cJSON_GetArrayItem(names, (int)x->valuedouble));
    double flag = cJSON_GetNumberValue(
        cJSON_GetArrayItem(cJSON_GetObjectItem(fl, "flag"), k++));
    if (nm && !strcmp(nm, "cloneRecords") && ((int)flag & 2)) cause++;
  }
  ZT_INT(cause, 1);
  const cJSON *rc = cJSON_GetObjectItem(a, "regression_causes");
  if (ZT_INT(cJSON_GetArraySize(rc), 1)) {
    const cJSON *c = cJSON_GetArrayItem(rc, 0);
    ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")),
           "cloneRecords");
    /* 12 copies of each record against 1: several times the old build's
     * bytes in every pair, whatever the sampling's estimate in KB */
    ZT_TRUE(zt_jnum(c, "new_kb") > 4 * zt_jnum(c, "old_kb"));
    const cJSON *d;
    int more = 0;
    cJSON_ArrayForEach(d, zt_jget(c, "delta_kb_per_pair")) more +=
        d->valuedouble > 0;
    ZT_INT(more, 3);
  }
  /* The retained rows beside the time rows. */
  const cJSON *m, *e2e = cJSON_GetObjectItem(doc, "end_to_end");
  int found = 0;
  cJSON_ArrayForEach(m, cJSON_GetObjectItem(e2e, "metrics")) {
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(m, "name"));
    found += n && (!strcmp(n, "js_heap_used_kb") || !strcmp(n, "dom_nodes") ||
                   !strcmp(n, "event_listeners"));
  }
  ZT_INT(found, 3);
  cJSON_Delete(doc);
  /* Each run's profile and the merged ones read as timelines of bytes. */
  static const char *const files[] = {"traces/old-mem-1.heapprofile",
                                      "traces/new-mem-3.heapprofile",
                                      "old.heapprofile", "new.heapprofile"};
  struct ana_ctx *ctx = ana_ctx_new();
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", out, files[i]);
    struct ana_timeline *tl = NULL;
    if (ZT_INT(ana_load(ctx, p, &tl), ZC_OK)) {
      ZT_TRUE(tl->unit == ANA_UNIT_BYTES && tl->samples > 0);
      /* each says how it was sampled: 32 KiB, --memory-interval's default */
      ZT_NEAR(tl->sample_bytes, 32768, 0);
    }
    ana_timeline_free(tl);
  }
  ana_ctx_free(ctx);
  char p[4200];
  snprintf(p, sizeof p, "%s/report.html", out);
  char *html = zt_read(p);
  ZT_HAS(html, "id=\"allocation\"");
  ZT_HAS(html, "<div id=\"alloc-flame\" class=\"flame\">");
  ZT_HAS(html, "cloneRecords");
  free(html);
  snprintf(p, sizeof p, "%s/summary.md", out);
  char *md = zt_read(p);
  ZT_HAS(md, "Allocation: 1 allocation regression-cause");
  free(md);
}

static void test_aa(void) {
  cJSON *doc = run("old", "old", zt_tmp("mem-aa"));
  if (!doc) return;
  const cJSON *a = cJSON_GetObjectItem(doc, "allocation");
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(a, "regression_causes")), 0);
  cJSON_Delete(doc);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"names_function", test_names_function},
      {"aa", test_aa},
  };
  return ZT_RUN(cases, argc, argv);
}
