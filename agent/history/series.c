/* The history (history.h): what the dashboard draws. The scenarios and
 * their runs, each scenario's series (its end-to-end metrics and web
 * vitals, night by night, with their intervals) and its bisections. A
 * history at an older schema, which a reader may not migrate (read-only),
 * lacks the tables that came later: what they hold is then empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"

/* The runs a query covers: one scenario ($1), since a time ($2, NULL:
 * all). */
#define WHERE_SCN                                                              \
  "r.scenario = $1 AND (CAST($2 AS TEXT) IS NULL OR r.recorded_at >= $2)"

static cJSON *num_or_null(const char *s) {
  if (!s) return cJSON_CreateNull();
  double v = strtod(s, NULL);
  /* NaN and the infinities are no JSON: null */
  return v == v && v - v == 0 ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *str_or_null(const char *s) {
  return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* The since_days cut-off as the history spells times; NULL for none. */
static const char *since_iso(double since_days, char out[32]) {
  if (since_days <= 0) return NULL;
  time_t t = time(NULL) - (time_t)(since_days * 86400);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return out;
}

static int name_cmp(const void *a, const void *b) {
  const char *x = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)a, "scenario"));
  const char *y = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)b, "scenario"));
  return strcmp(x ? x : "", y ? y : "");
}

enum zc_err agent_history_scenarios(struct agent_history *h, double since_days,
                                    struct cJSON **out) {
  *out = NULL;
  char since[32];
  const char *p[] = {since_iso(since_days, since)};
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT scenario, count(*), min(recorded_at), max(recorded_at) FROM "
      "runs WHERE CAST($1 AS TEXT) IS NULL OR recorded_at >= $1 GROUP BY "
      "scenario",
      1, p, &r);
  if (e) return e;
  /* sorted here: the databases' collations differ */
  cJSON **v = zc_xcalloc(r.n + 1, sizeof *v);
  for (size_t i = 0; i < r.n; i++) {
    cJSON *o = v[i] = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scenario", agent_rows_get(&r, i, 0));
    cJSON_AddItemToObject(o, "runs", num_or_null(agent_rows_get(&r, i, 1)));
    cJSON_AddItemToObject(o, "first", str_or_null(agent_rows_get(&r, i, 2)));
    cJSON_AddItemToObject(o, "last", str_or_null(agent_rows_get(&r, i, 3)));
  }
  if (r.n) qsort(v, r.n, sizeof *v, name_cmp);
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < r.n; i++)
    cJSON_AddItemToArray(arr, v[i]);
  free(v);
  agent_rows_free(&r);
  *out = arr;
  return ZC_OK;
}

/* The runs' columns, and their keys in the document. */
static const char *const run_key[] = {
    "id",        "at",      "command",   "host",   "chrome",    "old_label",
    "new_label", "verdict", "exit_code", "causes", "report_dir"};
static int run_key_num(size_t j) {
  return j == 0 || j == 8 || j == 9;
}

static cJSON *runs_json(const struct agent_rows *r, long long **ids) {
  cJSON *arr = cJSON_CreateArray();
  *ids = zc_xcalloc(r->n + 1, sizeof **ids);
  for (size_t i = 0; i < r->n; i++) {
    cJSON *o = cJSON_CreateObject();
    for (size_t j = 0; j < ZC_ARRAY_LEN(run_key) && j < r->cols; j++) {
      const char *v = agent_rows_get(r, i, j);
      cJSON_AddItemToObject(o, run_key[j],
                            run_key_num(j) ? num_or_null(v) : str_or_null(v));
    }
    (*ids)[i] = strtoll(agent_rows_get(r, i, 0), NULL, 10);
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

/* The index of run id among the n ids (ascending), or -1. */
static long run_index(const long long *ids, size_t n, long long id) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ids[mid] == id) return (long)mid;
    if (ids[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* Columns of the series' rows: run, metric, unit, then the values. */
enum { S_RUN, S_METRIC, S_UNIT, S_OLD, S_NEW, S_DELTA, S_LO, S_HI, S_SIG };

/* The rows r (grouped by metric) as series of source, onto arr. */
static void add_series(cJSON *arr, const struct agent_rows *r,
                       const char *source, const long long *ids, size_t nids) {
  cJSON *pts = NULL;
  const char *cur = NULL;
  for (size_t i = 0; i < r->n; i++) {
    const char *m = agent_rows_get(r, i, S_METRIC);
    long k =
        run_index(ids, nids, strtoll(agent_rows_get(r, i, S_RUN), NULL, 10));
    if (k < 0 || !m) continue; /* recorded since the runs were read */
    if (!cur || strcmp(cur, m)) {
      cJSON *s = cJSON_CreateObject();
      cJSON_AddStringToObject(s, "metric", m);
      cJSON_AddStringToObject(s, "source", source);
      cJSON_AddItemToObject(s, "unit",
                            str_or_null(agent_rows_get(r, i, S_UNIT)));
      pts = cJSON_AddArrayToObject(s, "points");
      cJSON_AddItemToArray(arr, s);
      cur = m;
    }
    cJSON *pt = cJSON_CreateArray();
    cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)k));
    for (int c = S_OLD; c <= S_SIG; c++)
      cJSON_AddItemToArray(pt, num_or_null(agent_rows_get(r, i, (size_t)c)));
    cJSON_AddItemToArray(pts, pt);
  }
}

/* One table's rows of the scenario's runs, whole-run rows only. */
static enum zc_err series_rows(struct agent_db *db, const char *table,
                               const char *const *p, struct agent_rows *r) {
  char sql[1024];
  snprintf(sql, sizeof sql,
           "SELECT e.run_id, e.metric, e.unit, e.old_mean, e.new_mean, "
           "e.delta, e.ci_lo, e.ci_hi, e.significant FROM %s e JOIN runs r "
           "ON r.id = e.run_id WHERE " WHERE_SCN
           " AND e.step IS NULL ORDER BY e.metric, e.run_id",
           table);
  return agent_db_run(db, sql, 2, p, r);
}

enum zc_err agent_history_series(struct agent_history *h, const char *scenario,
                                 double since_days, struct cJSON **out) {
  *out = NULL;
  char since[32];
  const char *p[] = {scenario, since_iso(since_days, since)};
  struct agent_rows runs, e2e, vit = {0};
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT r.id, r.recorded_at, r.command, r.host, r.chrome, r.old_label, "
      "r.new_label, r.verdict, r.exit_code, r.causes, r.report_dir FROM runs "
      "r WHERE " WHERE_SCN " ORDER BY r.id",
      2, p, &runs);
  if (e) return e;
  e = series_rows(h->db, "end_to_end", p, &e2e);
  if (!e && agent_hist_schema(h->db) >= 3)
    e = series_rows(h->db, "vitals", p, &vit);
  if (e) {
    agent_rows_free(&runs);
    agent_rows_free(&e2e);
    return e;
  }
  long long *ids = NULL;
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "scenario", scenario);
  cJSON_AddItemToObject(doc, "runs", runs_json(&runs, &ids));
  cJSON *arr = cJSON_AddArrayToObject(doc, "series");
  add_series(arr, &e2e, "end_to_end", ids, runs.n);
  add_series(arr, &vit, "vitals", ids, runs.n);
  free(ids);
  agent_rows_free(&runs);
  agent_rows_free(&e2e);
  agent_rows_free(&vit);
  *out = doc;
  return ZC_OK;
}
