/* The history (history.h): bisections. zamcap bisect's report.json
 * (schema zamcap-bisect/1) is recorded as one row for the bisection (its
 * ends, its verdict, its folder) and one per cause: the culprit build, its
 * commit and the build before it, the Δ the verification measured, and
 * the cause's fingerprint, so that a regression of the nights can name
 * the commit that made it; or, for a cause that stayed undecided, its last
 * good and first bad build and why. Read back for the dashboard. */
#define _GNU_SOURCE /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"
#include "zc-out.h"

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A number as a parameter: NULL for null, absent or not finite. */
static const char *num(const cJSON *v, char buf[40]) {
  if (!cJSON_IsNumber(v) || v->valuedouble != v->valuedouble ||
      v->valuedouble - v->valuedouble != 0)
    return NULL;
  snprintf(buf, 40, "%.17g", v->valuedouble);
  return buf;
}

/* A copy of s with the registered secrets masked (NULL for NULL). */
static char *scrubbed(const char *s) {
  char *c = s ? zc_xstrdup(s) : NULL;
  if (c) zc_scrub(c);
  return c;
}

/* Build k's name (its short commit, or the folder or URL as given). */
static const char *build_name(const cJSON *doc, const cJSON *k) {
  if (!cJSON_IsNumber(k)) return NULL;
  return jstr(cJSON_GetArrayItem(jget(doc, "builds"), k->valueint), "build");
}

/* A bisected cause's fingerprint, as the runs' causes have it: a path's
 * ("time", its top-level function under the thread), a spread-out
 * function's; none for the scenario's time. */
static const char *cause_fp(const cJSON *c, const char *scenario,
                            char out[17]) {
  const char *kind = jstr(c, "kind"), *name = jstr(c, "name");
  if (!kind || !name) return NULL;
  if (!strcmp(kind, "self")) {
    agent_history_fingerprint("spread-out", scenario, "", name, jstr(c, "url"),
                              out);
    return out;
  }
  if (strcmp(kind, "path")) return NULL;
  const cJSON *path = jget(c, "path");
  int np = cJSON_GetArraySize(path);
  const cJSON *top = cJSON_GetArrayItem(path, np >= 2 ? 1 : 0);
  agent_history_fingerprint("time", scenario,
                            cJSON_IsString(top) ? top->valuestring : "", name,
                            jstr(c, "url"), out);
  return out;
}

/* What a cause row says of a culprit, or of an undecided range. */
struct brow {
  const char *state, *build, *commit, *previous, *why;
  const cJSON *cause, *delta, *ci, *pairs, *changed;
};

static enum zc_err insert_cause(struct agent_db *db, const char *id, int rank,
                                const char *scenario, const struct brow *b) {
  char rk[24], line[40], d[40], lo[40], hi[40], pr[40], fp[17];
  snprintf(rk, sizeof rk, "%d", rank);
  /* the culprit's ten first changed functions, as report.json has them */
  cJSON *ch = cJSON_CreateArray();
  const cJSON *f;
  cJSON_ArrayForEach(f, b->changed) {
    if (cJSON_GetArraySize(ch) == 10) break;
    cJSON_AddItemToArray(ch, cJSON_Duplicate(f, 1));
  }
  char *changed = cJSON_GetArraySize(ch) ? cJSON_PrintUnformatted(ch) : NULL;
  cJSON_Delete(ch);
  const cJSON *c = b->cause;
  char *build = scrubbed(b->build), *prev = scrubbed(b->previous);
  const char *p[] = {id,
                     rk,
                     b->state,
                     jstr(c, "kind"),
                     jstr(c, "label"),
                     jstr(c, "name"),
                     jstr(c, "url"),
                     num(jget(c, "line"), line),
                     cause_fp(c, scenario, fp),
                     build,
                     b->commit,
                     prev,
                     num(b->delta, d),
                     num(cJSON_GetArrayItem(b->ci, 0), lo),
                     num(cJSON_GetArrayItem(b->ci, 1), hi),
                     num(b->pairs, pr),
                     changed,
                     b->why};
  enum zc_err e = agent_db_run(
      db,
      "INSERT INTO bisect_causes (bisect_id, rank, state, kind, label, name, "
      "file, line, fingerprint, build, commit_sha, previous, delta, ci_lo, "
      "ci_hi, pairs, changed, why) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
      "$9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
      (int)ZC_ARRAY_LEN(p), p, NULL);
  free(changed);
  free(build);
  free(prev);
  return e;
}

/* Every culprit's causes, then every undecided one. */
static enum zc_err insert_causes(struct agent_db *db, const char *id,
                                 const cJSON *doc, const char *scenario) {
  enum zc_err e = ZC_OK;
  int rank = 0;
  const cJSON *cu, *c;
  cJSON_ArrayForEach(cu, jget(doc, "culprits")) {
    cJSON_ArrayForEach(c, jget(cu, "causes")) {
      struct brow b = {.state = "culprit",
                       .build = jstr(cu, "build"),
                       .commit = jstr(cu, "commit"),
                       .previous = build_name(doc, jget(cu, "previous")),
                       .cause = c,
                       .delta = jget(c, "delta_ms"),
                       .ci = jget(c, "ci95"),
                       .pairs = jget(cu, "pairs"),
                       .changed = jget(cu, "changed_functions")};
      if (!e) e = insert_cause(db, id, ++rank, scenario, &b);
    }
  }
  cJSON_ArrayForEach(c, jget(doc, "undecided")) {
    const cJSON *k = jget(c, "cause");
    struct brow b = {
        .state = "undecided",
        .build = build_name(doc, jget(c, "bad")),
        .previous = build_name(doc, jget(c, "good")),
        .why = jstr(c, "why"),
        .cause = cJSON_IsNumber(k)
                     ? cJSON_GetArrayItem(jget(doc, "causes"), k->valueint)
                     : NULL,
    };
    if (!e) e = insert_cause(db, id, ++rank, scenario, &b);
  }
  return e;
}

static enum zc_err add_locked(struct agent_db *db, const cJSON *doc,
                              const struct agent_history_meta *m,
                              long long *id) {
  char scenario[512], at[32], ec[40], tr[40], nb[40];
  agent_hist_scenario_key(m->inputs, scenario, sizeof scenario);
  if (!scenario[0]) {
    /* no confirmation's inputs: the flow's file as bisect names it */
    cJSON *in = cJSON_CreateObject();
    const char *f = jstr(doc, "scenario");
    cJSON_AddStringToObject(in, "scenario", f ? f : "");
    agent_hist_scenario_key(in, scenario, sizeof scenario);
    cJSON_Delete(in);
  }
  if (!m->recorded_at) agent_hist_iso(at, sizeof at, 0);
  const cJSON *builds = jget(doc, "builds"), *v = jget(doc, "verdict");
  int n = cJSON_GetArraySize(builds);
  snprintf(nb, sizeof nb, "%d", n);
  /* builds given as URLs carry what the reports mask */
  char *good = scrubbed(jstr(cJSON_GetArrayItem(builds, 0), "build"));
  char *bad = scrubbed(jstr(cJSON_GetArrayItem(builds, n - 1), "build"));
  char *text = scrubbed(jstr(v, "text"));
  const cJSON *env = m->environment;
  const char *p[] = {m->recorded_at ? m->recorded_at : at,
                     scenario,
                     jstr(doc, "scenario"),
                     good,
                     bad,
                     nb,
                     jstr(jget(env, "machine"), "host"),
                     jstr(env, "chrome"),
                     jstr(doc, "zamcap_version"),
                     num(jget(v, "exit_code"), ec),
                     text,
                     num(jget(v, "traced_runs"), tr),
                     m->report_dir};
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      db,
      "INSERT INTO bisects (recorded_at, scenario, scenario_file, good_build, "
      "bad_build, builds, host, chrome, zamcap_version, exit_code, verdict, "
      "traced_runs, report_dir) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
      "$10, $11, $12, $13) RETURNING id",
      (int)ZC_ARRAY_LEN(p), p, &r);
  free(good);
  free(bad);
  free(text);
  if (e) return e;
  *id = r.n ? strtoll(agent_rows_get(&r, 0, 0), NULL, 10) : 0;
  agent_rows_free(&r);
  char ids[24];
  snprintf(ids, sizeof ids, "%lld", *id);
  return insert_causes(db, ids, doc, scenario);
}

enum zc_err agent_history_add_bisect(struct agent_history *h,
                                     const struct cJSON *doc,
                                     const struct agent_history_meta *m,
                                     long long *bisect_id) {
  long long id = 0;
  enum zc_err e = agent_db_begin(h->db);
  if (!e) e = add_locked(h->db, doc, m, &id);
  if (!e) e = agent_db_commit(h->db);
  if (e) agent_db_rollback(h->db);
  if (bisect_id) *bisect_id = e ? 0 : id;
  return e;
}

/* OUT/confirm/report.json, the ends' comparison: the flow's title and the
 * machine; NULL when it cannot be had. */
static cJSON *read_confirm(const char *out) {
  char path[4200], *txt = NULL;
  size_t len;
  snprintf(path, sizeof path, "%s/confirm/" ZC_OUT_REPORT, out);
  if (zc_read_file(path, 512u << 20, &txt, &len)) return NULL;
  cJSON *doc = cJSON_ParseWithLength(txt, len);
  free(txt);
  return doc;
}

long long agent_history_record_bisect(const char *spec, const char *out,
                                      const struct cJSON *doc) {
  cJSON *conf = read_confirm(out);
  char *dir = realpath(out, NULL);
  struct agent_history_meta m = {
      .command = "bisect",
      .report_dir = dir ? dir : out,
      .inputs = jget(conf, "inputs"),
      .environment = jget(conf, "environment"),
  };
  struct agent_history *h = NULL;
  long long id = 0;
  enum zc_err e = agent_history_open(spec, &h);
  if (!e) e = agent_history_add_bisect(h, doc, &m, &id);
  if (e) {
    zc_log(0,
           "warning: %s; this bisection is not in the history (its reports "
           "are in %s/, its exit code is the verdict's)",
           zc_errmsg(), m.report_dir);
  } else {
    char *name = scrubbed(spec);
    zc_log(2, "recorded as bisection %lld in the history %s", id, name);
    free(name);
  }
  agent_history_close(h);
  free(dir);
  cJSON_Delete(conf);
  return id;
}

/* ---- reading them back ---- */

static cJSON *num_or_null(const char *s) {
  if (!s) return cJSON_CreateNull();
  double v = strtod(s, NULL);
  return v == v && v - v == 0 ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *str_or_null(const char *s) {
  return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* Row i of r as an object of keys (NULL-ended); numbers where num[j]. */
static cJSON *row_obj(const struct agent_rows *r, size_t i,
                      const char *const *keys, const char *nums, size_t from) {
  cJSON *o = cJSON_CreateObject();
  for (size_t j = 0; keys[j]; j++) {
    const char *v = agent_rows_get(r, i, from + j);
    cJSON_AddItemToObject(o, keys[j],
                          nums[j] == 'n' ? num_or_null(v) : str_or_null(v));
  }
  return o;
}

/* The causes' rows of bisection id (r sorted by bisection, then rank,
 * from *at on) into arr. */
static void bisect_causes(cJSON *arr, const struct agent_rows *r, size_t *at,
                          const char *id) {
  static const char *const keys[] = {
      "state",    "kind",        "label", "name",   "file",
      "line",     "fingerprint", "build", "commit", "previous",
      "delta_ms", "ci_lo",       "ci_hi", "pairs",  NULL};
  static const char nums[] = "sssssnssssnnnn";
  for (; *at < r->n && !strcmp(agent_rows_get(r, *at, 0), id); (*at)++) {
    cJSON *o = row_obj(r, *at, keys, nums, 1);
    const char *ch = agent_rows_get(r, *at, 15),
               *why = agent_rows_get(r, *at, 16);
    cJSON *changed = ch ? cJSON_Parse(ch) : NULL;
    cJSON_AddItemToObject(
        o, "changed", cJSON_IsArray(changed) ? changed : cJSON_CreateArray());
    if (changed && !cJSON_IsArray(changed)) cJSON_Delete(changed);
    cJSON_AddItemToObject(o, "why", str_or_null(why));
    cJSON_AddItemToArray(arr, o);
  }
}

enum zc_err agent_history_bisects(struct agent_history *h, const char *scenario,
                                  double since_days, struct cJSON **out) {
  *out = cJSON_CreateArray();
  if (agent_hist_schema(h->db) < 3) return ZC_OK; /* none recorded then */
  char since[32] = "";
  if (since_days > 0)
    agent_hist_iso(since, sizeof since, (long)(since_days * 86400));
  const char *p[] = {scenario, since[0] ? since : NULL};
  struct agent_rows b, c;
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT b.id, b.recorded_at, b.good_build, b.bad_build, b.builds, "
      "b.host, b.chrome, b.exit_code, b.verdict, b.traced_runs, b.report_dir "
      "FROM bisects b WHERE b.scenario = $1 AND (CAST($2 AS TEXT) IS NULL OR "
      "b.recorded_at >= $2) ORDER BY b.id",
      2, p, &b);
  if (e) return e;
  e = agent_db_run(
      h->db,
      "SELECT c.bisect_id, c.state, c.kind, c.label, c.name, c.file, c.line, "
      "c.fingerprint, c.build, c.commit_sha, c.previous, c.delta, c.ci_lo, "
      "c.ci_hi, c.pairs, c.changed, c.why FROM bisect_causes c JOIN bisects "
      "b ON b.id = c.bisect_id WHERE b.scenario = $1 AND (CAST($2 AS TEXT) "
      "IS NULL OR b.recorded_at >= $2) ORDER BY c.bisect_id, c.rank",
      2, p, &c);
  if (e) {
    agent_rows_free(&b);
    return e;
  }
  static const char *const keys[] = {
      "id",     "at",        "good",    "bad",         "builds",     "host",
      "chrome", "exit_code", "verdict", "traced_runs", "report_dir", NULL};
  static const char nums[] = "nsssnssnsns";
  size_t at = 0;
  for (size_t i = 0; i < b.n; i++) {
    cJSON *o = row_obj(&b, i, keys, nums, 0);
    const char *id = agent_rows_get(&b, i, 0);
    /* causes of bisections recorded between the two statements: skipped */
    while (at < c.n &&
           strtoll(agent_rows_get(&c, at, 0), NULL, 10) < strtoll(id, NULL, 10))
      at++;
    bisect_causes(cJSON_AddArrayToObject(o, "causes"), &c, &at, id);
    cJSON_AddItemToArray(*out, o);
  }
  agent_rows_free(&b);
  agent_rows_free(&c);
  return ZC_OK;
}
