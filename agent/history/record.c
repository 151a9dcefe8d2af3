/* The history (history.h): fingerprints, and recording a run from its
 * report.json with each cause's history added to it. */
#define _GNU_SOURCE /* realpath */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ana.h"
#include "histdb.h"
#include "history.h"
#include "zc-out.h"

/* ---- fingerprints ---- */

static void fnv(uint64_t *h, const char *s) {
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    *h ^= *p;
    *h *= 0x100000001b3ULL;
  }
  *h ^= '\n';
  *h *= 0x100000001b3ULL;
}

/* A field of "zamcap-fp/2": its length in decimal, a colon, its bytes. */
static void fnv_len(uint64_t *h, const char *s) {
  char n[32];
  snprintf(n, sizeof n, "%zu:", s ? strlen(s) : 0);
  for (const char *p = n; *p; p++) {
    *h ^= (unsigned char)*p;
    *h *= 0x100000001b3ULL;
  }
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    *h ^= *p;
    *h *= 0x100000001b3ULL;
  }
}

void agent_history_fingerprint(const char *kind, const char *scenario,
                               const char *top, const char *name,
                               const char *file, char out[17]) {
  char comp[1024] = "";
  if (file) ana_component(file, strlen(file), comp, sizeof comp);
  const char *f[] = {kind, scenario, top, name, comp};
  /* Fields ended by a newline, which a page may put in a name: then two
   * causes could share one string (issue 38). Such fields are spelled
   * with their lengths under "zamcap-fp/2", which no "zamcap-fp/1" string
   * equals; every other fingerprint stays as it was, so that histories
   * keep their regressions and issues. */
  int nl = 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(f); i++)
    nl |= f[i] && strchr(f[i], '\n') != NULL;
  uint64_t h = 0xcbf29ce484222325ULL;
  fnv(&h, nl ? "zamcap-fp/2" : "zamcap-fp/1");
  for (size_t i = 0; i < ZC_ARRAY_LEN(f); i++)
    if (nl)
      fnv_len(&h, f[i]);
    else
      fnv(&h, f[i]);
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* ---- a report's causes ---- */

/* A cause as the history keeps it. */
struct hcause {
  const cJSON *j;   /* in report.json */
  const char *kind; /* "time", "allocation", "spread-out" */
  const char *unit; /* "ms", "KB" */
  int rank;
  const char *top; /* the top-level function of its path, or "" */
  char fp[17];
};

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The first of two keys that is there: delta_ms, else delta_kb. */
static const cJSON *jeither(const cJSON *o, const char *a, const char *b) {
  const cJSON *v = jget(o, a);
  return v ? v : jget(o, b);
}

/* A number as a parameter: NULL for null or absent. */
static const char *num(const cJSON *v, char buf[40]) {
  if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? "1" : "0";
  if (!cJSON_IsNumber(v)) return NULL;
  snprintf(buf, 40, "%.17g", v->valuedouble);
  return buf;
}

/* histdb.h */
void agent_hist_scenario_key(const cJSON *inputs, char *out, size_t cap) {
  const char *t = jstr(inputs, "title"), *f = jstr(inputs, "scenario");
  if (t && t[0]) {
    snprintf(out, cap, "%s", t);
    return;
  }
  const char *base = f ? strrchr(f, '/') : NULL;
  base = base ? base + 1 : f ? f : "";
  size_t n = strlen(base);
  if (n > 5 && !strcmp(base + n - 5, ".json")) n -= 5;
  snprintf(out, cap, "%.*s", (int)n, base);
}

/* The causes of one array of a report: kind 0 regression_causes, 1
 * spread_causes, 2 unexplained_causes (an end-to-end or web-vitals figure
 * that got slower with no function named: known by its metric and step). */
static void add_causes(const cJSON *arr, int spread, const char *scenario,
                       struct hcause **v, size_t *n) {
  const cJSON *c;
  int i = 0;
  cJSON_ArrayForEach(c, arr) {
    i++;
    if (!cJSON_IsObject(c) || !jstr(c, "name")) continue;
    *v = zc_xreallocarray(*v, *n + 1, sizeof **v);
    struct hcause *h = &(*v)[(*n)++];
    int kb = jget(c, "delta_kb") != NULL;
    const cJSON *rank = jget(c, "rank"), *path = jget(c, "path");
    int np = cJSON_GetArraySize(path);
    /* path[0] is the thread: the top-level function is the one below */
    const cJSON *top = np >= 2 ? cJSON_GetArrayItem(path, 1)
                       : np    ? cJSON_GetArrayItem(path, 0)
                               : NULL;
    *h = (struct hcause){
        .j = c,
        .kind = spread == 2 ? "end-to-end"
                : spread    ? "spread-out"
                : kb        ? "allocation"
                            : "time",
        .unit = kb ? "KB" : "ms",
        .rank = cJSON_IsNumber(rank) ? rank->valueint : i,
        .top = !spread && cJSON_IsString(top) ? top->valuestring : "",
    };
    if (spread == 2) { /* its metric stands where a path's top would */
      h->unit = jstr(c, "unit") ? jstr(c, "unit") : "";
      h->top = jstr(c, "metric") ? jstr(c, "metric") : "";
    }
    agent_history_fingerprint(h->kind, scenario, h->top, jstr(c, "name"),
                              jstr(c, "file"), h->fp);
  }
}

/* The causes of a report: regression-causes, then spread-out ones. */
static size_t report_causes(const cJSON *report, const char *scenario,
                            struct hcause **out) {
  *out = NULL;
  size_t n = 0;
  add_causes(jget(report, "regression_causes"), 0, scenario, out, &n);
  add_causes(jget(report, "spread_causes"), 1, scenario, out, &n);
  add_causes(jget(report, "unexplained_causes"), 2, scenario, out, &n);
  return n;
}

/* FNV-1a 64 of the scenario file's steps as cJSON prints them unformatted
 * (so that whitespace does not count); NULL when it cannot be read. */
static const char *steps_hash(const char *path, char out[17]) {
  char *txt = NULL;
  size_t len;
  if (!path || zc_read_file(path, 64u << 20, &txt, &len)) return NULL;
  cJSON *doc = cJSON_ParseWithLength(txt, len);
  free(txt);
  char *steps = doc ? cJSON_PrintUnformatted(jget(doc, "steps")) : NULL;
  cJSON_Delete(doc);
  if (!steps) return NULL;
  uint64_t h = 0xcbf29ce484222325ULL;
  fnv(&h, steps);
  free(steps);
  snprintf(out, 17, "%016llx", (unsigned long long)h);
  return out;
}

/* ---- recording a run ---- */

/* The run's row; *id gets its key. */
static enum zc_err insert_run(struct agent_db *db, const cJSON *report,
                              const struct agent_history_meta *m,
                              const char *scenario, size_t ncauses,
                              long long *id) {
  const cJSON *inp = m->inputs ? m->inputs : jget(report, "inputs");
  const cJSON *env =
      m->environment ? m->environment : jget(report, "environment");
  const cJSON *verdict = jget(report, "verdict");
  char at[32], hash[17], ec[40], pairs[40], nc[40];
  if (!m->recorded_at) agent_hist_iso(at, sizeof at, 0);
  snprintf(nc, sizeof nc, "%zu", ncauses);
  /* The options: the analysis' and the capture's, as report.json has
   * them. */
  cJSON *opts = cJSON_CreateObject();
  cJSON_AddItemToObject(opts, "analysis",
                        cJSON_Duplicate(jget(report, "options"), 1));
  if (inp) cJSON_AddItemToObject(opts, "inputs", cJSON_Duplicate(inp, 1));
  char *optstr = cJSON_PrintUnformatted(opts);
  cJSON_Delete(opts);
  /* The builds as given on the command line carry what the reports
   * mask (a URL's password, a token an --attach-header also sends):
   * the history gets them masked too. */
  const char *ob0 = m->old_build ? m->old_build : jstr(inp, "old"),
             *nb0 = m->new_build ? m->new_build : jstr(inp, "new");
  char *ob = ob0 ? zc_xstrdup(ob0) : NULL, *nb = nb0 ? zc_xstrdup(nb0) : NULL;
  zc_scrub(ob);
  zc_scrub(nb);
  if (optstr) zc_scrub(optstr);
  const char *p[] = {
      m->recorded_at ? m->recorded_at : at,
      m->command,
      scenario,
      jstr(inp, "scenario"),
      steps_hash(jstr(inp, "scenario"), hash),
      ob,
      nb,
      m->old_label,
      m->new_label,
      jstr(jget(env, "machine"), "host"),
      jstr(env, "chrome"),
      jstr(report, "zamcap_version"),
      optstr,
      jstr(verdict, "state"),
      num(jget(verdict, "exit_code"), ec),
      num(jget(verdict, "pairs"), pairs),
      nc,
      m->report_dir,
  };
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      db,
      "INSERT INTO runs (recorded_at, command, scenario, scenario_file, "
      "steps_hash, old_build, new_build, old_label, new_label, host, chrome, "
      "zamcap_version, options, verdict, exit_code, pairs, causes, "
      "report_dir) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, "
      "$12, $13, $14, $15, $16, $17, $18) RETURNING id",
      (int)ZC_ARRAY_LEN(p), p, &r);
  free(optstr);
  free(ob);
  free(nb);
  if (e) return e;
  *id = r.n ? strtoll(agent_rows_get(&r, 0, 0), NULL, 10) : 0;
  agent_rows_free(&r);
  return ZC_OK;
}

/* A cause's rows: its fingerprint's (once), its own, its pairs'. */
static enum zc_err insert_cause(struct agent_db *db, const char *run,
                                const char *scenario, const struct hcause *c) {
  const cJSON *j = c->j, *ci = jget(j, "ci95");
  char rank[24], line[40], o[40], n[40], d[40], lo[40], hi[40];
  snprintf(rank, sizeof rank, "%d", c->rank);
  const char *name = jstr(j, "name"), *file = jstr(j, "file");
  const char *g[] = {c->fp, scenario, c->kind, name, file, c->top};
  enum zc_err e = agent_db_run(
      db,
      "INSERT INTO regressions (fingerprint, scenario, kind, name, file, "
      "top) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (fingerprint) DO "
      "NOTHING",
      6, g, NULL);
  const char *p[] = {
      run,
      c->kind,
      rank,
      c->fp,
      name,
      file,
      jstr(j, "url"),
      num(jget(j, "line"), line),
      c->top,
      c->unit,
      num(jget(j, "old")
              ? jget(j, "old")
              : jeither(j, "old_ms",
                        jget(j, "old_kb") ? "old_kb" : "old_self_ms"),
          o),
      num(jget(j, "new")
              ? jget(j, "new")
              : jeither(j, "new_ms",
                        jget(j, "new_kb") ? "new_kb" : "new_self_ms"),
          n),
      num(jget(j, "delta") ? jget(j, "delta")
                           : jeither(j, "delta_ms", "delta_kb"),
          d),
      num(cJSON_GetArrayItem(ci, 0), lo),
      num(cJSON_GetArrayItem(ci, 1), hi),
  };
  if (!e)
    e = agent_db_run(db,
                     "INSERT INTO causes (run_id, kind, rank, fingerprint, "
                     "name, file, url, line, top, unit, old_value, "
                     "new_value, delta, ci_lo, ci_hi) VALUES ($1, $2, $3, "
                     "$4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                     (int)ZC_ARRAY_LEN(p), p, NULL);
  const cJSON *v;
  int k = 0;
  const cJSON *per = jget(j, "delta_per_pair");
  if (!per) per = jeither(j, "delta_ms_per_pair", "delta_kb_per_pair");
  cJSON_ArrayForEach(v, per) {
    char pair[24];
    snprintf(pair, sizeof pair, "%d", ++k);
    const char *q[] = {run, c->kind, rank, pair, num(v, d)};
    if (!e)
      e = agent_db_run(db,
                       "INSERT INTO cause_pairs (run_id, kind, rank, pair, "
                       "delta) VALUES ($1, $2, $3, $4, $5)",
                       5, q, NULL);
  }
  return e;
}

/* One end-to-end row: a metric (step NULL) or a step's figure. */
static enum zc_err insert_e2e(struct agent_db *db, const char *run,
                              const cJSON *r) {
  const cJSON *d = jget(r, "delta"), *ci = jget(d, "ci95");
  char st[40], om[40], nm[40], dm[40], lo[40], hi[40], pc[40], sg[40];
  const char *metric = jstr(r, "name") ? jstr(r, "name") : jstr(r, "type");
  const char *p[] = {run,
                     metric ? metric : "",
                     num(jget(r, "step"), st),
                     jstr(r, "unit"),
                     num(jget(jget(r, "old"), "mean"), om),
                     num(jget(jget(r, "new"), "mean"), nm),
                     num(jget(d, "mean"), dm),
                     num(cJSON_GetArrayItem(ci, 0), lo),
                     num(cJSON_GetArrayItem(ci, 1), hi),
                     num(jget(d, "pct"), pc),
                     num(jget(r, "significant"), sg)};
  return agent_db_run(db,
                      "INSERT INTO end_to_end (run_id, metric, step, unit, "
                      "old_mean, new_mean, delta, ci_lo, ci_hi, pct, "
                      "significant) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
                      "$9, $10, $11)",
                      (int)ZC_ARRAY_LEN(p), p, NULL);
}

/* One web vitals row (report.json's vitals[]): the whole run's (step
 * NULL) or a step's. */
static enum zc_err insert_vital(struct agent_db *db, const char *run,
                                const cJSON *r) {
  const cJSON *ci = jget(r, "ci95");
  char st[40], om[40], nm[40], dm[40], lo[40], hi[40], sg[40], pr[40];
  const char *metric = jstr(r, "metric");
  if (!metric) return ZC_OK; /* a row that names nothing */
  const char *p[] = {run,
                     metric,
                     num(jget(r, "step"), st),
                     jstr(r, "unit"),
                     num(jget(r, "old"), om),
                     num(jget(r, "new"), nm),
                     num(jget(r, "delta"), dm),
                     num(cJSON_GetArrayItem(ci, 0), lo),
                     num(cJSON_GetArrayItem(ci, 1), hi),
                     num(jget(r, "significant"), sg),
                     num(jget(r, "pairs"), pr)};
  return agent_db_run(db,
                      "INSERT INTO vitals (run_id, metric, step, unit, "
                      "old_mean, new_mean, delta, ci_lo, ci_hi, significant, "
                      "pairs) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                      "$10, $11)",
                      (int)ZC_ARRAY_LEN(p), p, NULL);
}

static enum zc_err add_locked(struct agent_db *db, const cJSON *report,
                              const struct agent_history_meta *m,
                              long long *id) {
  const cJSON *inp = m->inputs ? m->inputs : jget(report, "inputs");
  char scenario[512], run[24];
  agent_hist_scenario_key(inp, scenario, sizeof scenario);
  struct hcause *cs;
  size_t n = report_causes(report, scenario, &cs);
  enum zc_err e = insert_run(db, report, m, scenario, n, id);
  snprintf(run, sizeof run, "%lld", *id);
  for (size_t i = 0; !e && i < n; i++)
    e = insert_cause(db, run, scenario, &cs[i]);
  free(cs);
  const cJSON *e2e = jget(report, "end_to_end"), *r;
  cJSON_ArrayForEach(r, jget(e2e, "metrics")) {
    if (!e) e = insert_e2e(db, run, r);
  }
  cJSON_ArrayForEach(r, jget(e2e, "steps")) {
    if (!e) e = insert_e2e(db, run, r);
  }
  cJSON_ArrayForEach(r, jget(report, "vitals")) {
    if (!e && cJSON_IsObject(r)) e = insert_vital(db, run, r);
  }
  return e;
}

enum zc_err agent_history_add(struct agent_history *h,
                              const struct cJSON *report,
                              const struct agent_history_meta *m,
                              long long *run_id) {
  long long id = 0;
  enum zc_err e = agent_db_begin(h->db);
  if (!e) e = add_locked(h->db, report, m, &id);
  if (!e) e = agent_db_commit(h->db);
  if (e) agent_db_rollback(h->db);
  if (run_id) *run_id = e ? 0 : id;
  return e;
}

/* ---- after a comparison's reports ---- */

/* Each cause's `history` into the report; returns whether one was seen on
 * an earlier run. */
static int annotate(struct agent_history *h, cJSON *report,
                    const struct agent_history_meta *m) {
  const cJSON *inp = m->inputs ? m->inputs : jget(report, "inputs");
  char scenario[512];
  agent_hist_scenario_key(inp, scenario, sizeof scenario);
  struct hcause *cs;
  size_t n = report_causes(report, scenario, &cs);
  int before = 0;
  for (size_t i = 0; i < n; i++) {
    cJSON *seen = NULL;
    if (agent_history_seen(h, scenario, cs[i].fp, 30, &seen)) break;
    before |= cJSON_GetNumberValue(jget(seen, "nights")) > 1;
    cJSON_AddItemToObject((cJSON *)cs[i].j, "history", seen);
  }
  free(cs);
  return before;
}

/* Reads out/report.json; NULL (and a warning) when it cannot be had. */
static cJSON *read_report(const char *dir) {
  char path[4200], *txt = NULL;
  size_t len;
  snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, dir);
  if (zc_read_file(path, 512u << 20, &txt, &len)) return NULL;
  cJSON *doc = cJSON_ParseWithLength(txt, len);
  free(txt);
  return doc;
}

/* Records doc in the history spec; then each cause's history into doc.
 * Returns 1 when doc changed, and sets *before when a cause was seen on
 * an earlier run. */
static int record_doc(const char *spec, cJSON *doc,
                      const struct agent_history_meta *m, int *before,
                      long long *run_id) {
  struct agent_history *h = NULL;
  long long id = 0;
  enum zc_err e = agent_history_open(spec, &h);
  if (!e) e = agent_history_add(h, doc, m, &id);
  if (e) {
    zc_log(0,
           "warning: %s; this run is not in the history (its reports are in "
           "%s/, its exit code is the verdict's)",
           zc_errmsg(), m->report_dir);
    agent_history_close(h);
    return 0;
  }
  char *name = zc_xstrdup(spec);
  zc_scrub(name);
  zc_log(2, "recorded as run %lld in the history %s", id, name);
  *run_id = id;
  free(name);
  *before = annotate(h, doc, m);
  agent_history_close(h);
  return 1;
}

long long agent_history_record(const char *spec, const char *out,
                               const char *from,
                               const struct agent_history_meta *given, int html,
                               int keep_json) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, out);
  cJSON *doc = read_report(out), *src = from ? read_report(from) : NULL;
  if (!doc) {
    zc_log(0, "warning: %s: cannot be read; this run is not in the history",
           path);
    cJSON_Delete(src);
    return 0;
  }
  char *dir = realpath(out, NULL);
  struct agent_history_meta m = *given;
  m.report_dir = dir ? dir : out;
  m.inputs = jget(doc, "inputs") ? NULL : jget(src, "inputs");
  m.environment = jget(doc, "environment") ? NULL : jget(src, "environment");
  int before = 0;
  long long id = 0;
  if (record_doc(spec, doc, &m, &before, &id)) {
    if (ana_write_json(doc, path))
      zc_log(0, "warning: %s", zc_errmsg());
    else if (before && html && ana_write_html_from(out))
      zc_log(0, "warning: %s", zc_errmsg());
  }
  if (!keep_json) unlink(path);
  free(dir);
  cJSON_Delete(doc);
  cJSON_Delete(src);
  return id;
}
