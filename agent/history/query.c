/* The history's queries (history.h): the regressions by fingerprint, the
 * runs, and what one fingerprint was before. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"

/* Which runs a query covers: one scenario (NULL: all), since a time
 * (NULL: all). */
#define WHERE_RUNS                                                             \
  "(CAST($1 AS TEXT) IS NULL OR r.scenario = $1) AND (CAST($2 AS TEXT) IS "    \
  "NULL OR r.recorded_at >= $2)"

static cJSON *num_or_null(const char *s) {
  return s ? cJSON_CreateNumber(strtod(s, NULL)) : cJSON_CreateNull();
}

static cJSON *str_or_null(const char *s) {
  return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* One regression being gathered from its rows. */
struct greg {
  cJSON *o, *deltas;
  long long last_run;
  int open;
};

static int greg_cmp(const void *a, const void *b) {
  const struct greg *x = a, *y = b;
  if (x->open != y->open) return y->open - x->open; /* open first */
  return (x->last_run < y->last_run) - (x->last_run > y->last_run);
}

/* Columns of the causes query, and of the regressions'. */
enum { Q_FP, Q_RUN, Q_AT, Q_DELTA, Q_UNIT };
enum { G_FP, G_SCN, G_KIND, G_NAME, G_FILE, G_TOP, G_ISSUE };

/* Regression row k of g, for a fingerprint's first cause row i of r. */
static struct greg greg_new(const struct agent_rows *g, size_t k,
                            const struct agent_rows *r, size_t i) {
#define G(c) agent_rows_get(g, k, c)
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "fingerprint", G(G_FP));
  cJSON_AddStringToObject(o, "scenario", G(G_SCN));
  cJSON_AddStringToObject(o, "kind", G(G_KIND));
  cJSON_AddStringToObject(o, "function", G(G_NAME));
  cJSON_AddItemToObject(o, "file", str_or_null(G(G_FILE)));
  cJSON_AddItemToObject(o, "top", str_or_null(G(G_TOP)));
  cJSON_AddItemToObject(o, "unit", str_or_null(agent_rows_get(r, i, Q_UNIT)));
  cJSON_AddStringToObject(o, "first_seen", agent_rows_get(r, i, Q_AT));
  cJSON_AddItemToObject(o, "issue", str_or_null(G(G_ISSUE)));
#undef G
  return (struct greg){.o = o, .deltas = cJSON_CreateArray()};
}

/* The regressions table's rows in strcmp order of fingerprint (whatever
 * the database's collation), for bsearch. */
static const struct agent_rows *sort_rows;
static int row_cmp(const void *a, const void *b) {
  return strcmp(agent_rows_get(sort_rows, *(const size_t *)a, G_FP),
                agent_rows_get(sort_rows, *(const size_t *)b, G_FP));
}
static size_t *row_index(const struct agent_rows *g) {
  size_t *ix = zc_xmalloc((g->n + 1) * sizeof *ix);
  for (size_t i = 0; i < g->n; i++)
    ix[i] = i;
  sort_rows = g;
  if (g->n) qsort(ix, g->n, sizeof *ix, row_cmp);
  return ix;
}
static long find_row(const struct agent_rows *g, const size_t *ix,
                     const char *fp) {
  size_t lo = 0, hi = g->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(agent_rows_get(g, ix[mid], G_FP), fp);
    if (!c) return (long)ix[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* Each scenario's recovery point, asked once. */
struct scn_from {
  const char *scn;
  long long from;
};
static long long from_of(struct agent_db *db, struct scn_from **v, size_t *n,
                         const char *scn, unsigned k) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i].scn, scn)) return (*v)[i].from;
  *v = zc_xreallocarray(*v, *n + 1, sizeof **v);
  (*v)[*n] = (struct scn_from){scn, agent_hist_recent_from(db, scn, k)};
  return (*v)[(*n)++].from;
}

/* The rows of one fingerprint, i to j, into its regression. */
static void greg_fill(struct greg *g, const struct agent_rows *r, size_t i,
                      size_t j, long long from) {
  long long prev = -1;
  for (size_t k = i; k < j; k++) {
    long long run = strtoll(agent_rows_get(r, k, Q_RUN), NULL, 10);
    if (run == prev) continue; /* a function twice in one run: once */
    prev = run;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "run", (double)run);
    cJSON_AddStringToObject(d, "at", agent_rows_get(r, k, Q_AT));
    cJSON_AddItemToObject(d, "delta",
                          num_or_null(agent_rows_get(r, k, Q_DELTA)));
    cJSON_AddItemToArray(g->deltas, d);
    g->last_run = run;
  }
  g->open = g->last_run >= from;
  cJSON_AddStringToObject(g->o, "last_seen", agent_rows_get(r, j - 1, Q_AT));
  cJSON_AddNumberToObject(g->o, "nights", cJSON_GetArraySize(g->deltas));
  cJSON_AddStringToObject(g->o, "state", g->open ? "open" : "recovered");
  cJSON_AddItemToObject(g->o, "deltas", g->deltas);
}

/* The regressions of the causes rows r (grouped by fingerprint, by run
 * within one) and the regressions table's rows g. */
static cJSON *regressions(struct agent_db *db, const struct agent_rows *r,
                          const struct agent_rows *g, unsigned recover_after) {
  struct greg *v = NULL;
  size_t n = 0, nf = 0, *ix = row_index(g);
  struct scn_from *froms = NULL;
  for (size_t i = 0, j; i < r->n; i = j) {
    const char *fp = agent_rows_get(r, i, Q_FP);
    for (j = i + 1; j < r->n && !strcmp(agent_rows_get(r, j, Q_FP), fp); j++)
      ;
    long k = find_row(g, ix, fp);
    if (k < 0) continue; /* recorded since the first query */
    long long from = from_of(
        db, &froms, &nf, agent_rows_get(g, (size_t)k, G_SCN), recover_after);
    v = zc_xreallocarray(v, n + 1, sizeof *v);
    v[n] = greg_new(g, (size_t)k, r, i);
    greg_fill(&v[n++], r, i, j, from);
  }
  free(froms);
  free(ix);
  if (n) qsort(v, n, sizeof *v, greg_cmp);
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++)
    cJSON_AddItemToArray(arr, v[i].o);
  free(v);
  return arr;
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

enum zc_err agent_history_query(struct agent_history *h, const char *scenario,
                                double since_days, unsigned recover_after,
                                struct cJSON **out) {
  *out = NULL;
  char since[32];
  const char *p[] = {scenario, since_iso(since_days, since)};
  struct agent_rows runs, rows, regs;
  enum zc_err e = agent_db_run(
      h->db, "SELECT count(*) FROM runs r WHERE " WHERE_RUNS, 2, p, &runs);
  if (e) return e;
  /* The regressions' own columns once each, not once per night. */
  e = agent_db_run(h->db,
                   "SELECT fingerprint, scenario, kind, name, file, top, "
                   "issue FROM regressions",
                   0, NULL, &regs);
  if (e) {
    agent_rows_free(&runs);
    return e;
  }
  e = agent_db_run(h->db,
                   "SELECT c.fingerprint, c.run_id, r.recorded_at, c.delta, "
                   "c.unit FROM causes c JOIN runs r ON r.id = c.run_id "
                   "WHERE " WHERE_RUNS " ORDER BY c.fingerprint, c.run_id",
                   2, p, &rows);
  if (e) {
    agent_rows_free(&runs);
    agent_rows_free(&regs);
    return e;
  }
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "schema", "zamcap-history/1");
  cJSON_AddItemToObject(doc, "scenario", str_or_null(scenario));
  cJSON_AddItemToObject(doc, "since", str_or_null(p[1]));
  cJSON_AddNumberToObject(doc, "recover_after", recover_after);
  cJSON_AddItemToObject(doc, "runs", num_or_null(agent_rows_get(&runs, 0, 0)));
  cJSON_AddItemToObject(doc, "regressions",
                        regressions(h->db, &rows, &regs, recover_after));
  agent_rows_free(&runs);
  agent_rows_free(&regs);
  agent_rows_free(&rows);
  *out = doc;
  return ZC_OK;
}

enum zc_err agent_history_runs(struct agent_history *h, const char *scenario,
                               double since_days, struct cJSON **out) {
  *out = NULL;
  char since[32];
  const char *p[] = {scenario, since_iso(since_days, since)};
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT r.id, r.recorded_at, r.scenario, r.host, r.old_label, "
      "r.new_label, r.verdict, r.exit_code, r.causes, r.report_dir FROM runs "
      "r WHERE " WHERE_RUNS " ORDER BY r.id DESC",
      2, p, &r);
  if (e) return e;
  static const char *const key[] = {
      "id",        "at",      "scenario",  "host",   "old_label",
      "new_label", "verdict", "exit_code", "causes", "report_dir"};
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < r.n; i++) {
    cJSON *o = cJSON_CreateObject();
    for (size_t j = 0; j < ZC_ARRAY_LEN(key) && j < r.cols; j++) {
      const char *v = agent_rows_get(&r, i, j);
      int number = j == 0 || j == 7 || j == 8;
      cJSON_AddItemToObject(o, key[j],
                            number ? num_or_null(v) : str_or_null(v));
    }
    cJSON_AddItemToArray(arr, o);
  }
  agent_rows_free(&r);
  *out = arr;
  return ZC_OK;
}

/* The recent list of a cause: per run of recent (newest first), its Δ
 * from mine (run, Δ pairs sorted by run) or null. */
static cJSON *recent_list(const struct agent_rows *recent,
                          const struct agent_rows *mine) {
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = recent->n; i-- > 0;) {
    const char *run = agent_rows_get(recent, i, 0);
    const char *d = NULL;
    for (size_t k = 0; k < mine->n && !d; k++)
      if (!strcmp(agent_rows_get(mine, k, 0), run))
        d = agent_rows_get(mine, k, 2);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "at", agent_rows_get(recent, i, 1));
    cJSON_AddItemToObject(o, "delta", num_or_null(d));
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

enum zc_err agent_history_seen(struct agent_history *h, const char *scenario,
                               const char *fingerprint, unsigned last,
                               struct cJSON **out) {
  *out = NULL;
  char lim[24];
  snprintf(lim, sizeof lim, "%u", last);
  const char *p[] = {fingerprint}, *q[] = {scenario, lim};
  struct agent_rows mine, recent;
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT DISTINCT c.run_id, r.recorded_at, c.delta FROM causes c JOIN "
      "runs r ON r.id = c.run_id WHERE c.fingerprint = $1 ORDER BY c.run_id",
      1, p, &mine);
  if (e) return e;
  e = agent_db_run(h->db,
                   "SELECT id, recorded_at FROM runs WHERE scenario = $1 "
                   "ORDER BY id DESC LIMIT $2",
                   2, q, &recent);
  if (e) {
    agent_rows_free(&mine);
    return e;
  }
  /* distinct runs: a function twice in one run counts once */
  double nights = 0;
  for (size_t k = 0; k < mine.n; k++)
    nights += !k || strcmp(agent_rows_get(&mine, k, 0),
                           agent_rows_get(&mine, k - 1, 0));
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "fingerprint", fingerprint);
  cJSON_AddNumberToObject(o, "nights", nights);
  cJSON_AddItemToObject(o, "first_seen",
                        str_or_null(agent_rows_get(&mine, 0, 1)));
  cJSON_AddItemToObject(o, "last_seen",
                        str_or_null(agent_rows_get(&mine, mine.n - 1, 1)));
  cJSON_AddItemToObject(o, "recent", recent_list(&recent, &mine));
  agent_rows_free(&mine);
  agent_rows_free(&recent);
  *out = o;
  return ZC_OK;
}
