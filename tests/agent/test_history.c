/* The history: 30 scripted nights in SQLite (a regression appears,
 * persists, recovers, returns: one fingerprint, its nights and state),
 * the dashboard's series of them (end-to-end rows and web vitals), a
 * bisection recorded and read back, a schema-2 history migrated,
 * fingerprints across rehashed bundles, a newer schema refused, the
 * command line (the default place, report.json's and report.html's
 * history, an unreachable database), and a throwaway PostgreSQL
 * (pgserver.sh: Unix socket, no TCP, never as root) with 8 concurrent
 * writers. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"
#include "test.h"

/* One night's report.json: the flow "checkout", a cause slowChecksum in
 * a bundle whose name and port change every night (hash, port), or no
 * cause (delta 0). */
static cJSON *night(const char *hash, int port, double delta) {
  char causes[1024] = "";
  if (delta > 0)
    snprintf(causes, sizeof causes,
             "{\"rank\": 1, \"name\": \"slowChecksum\", \"file\": "
             "\"/js/app.%s.js\", \"url\": \"http://127.0.0.1:%d/js/"
             "app.%s.js\", \"line\": 42, \"column\": 22, \"status\": "
             "\"new\", \"old_ms\": 0, \"new_ms\": %g, \"delta_ms\": %g, "
             "\"delta_ms_per_pair\": [%g, %g, null], \"path\": "
             "[\"CrRendererMain\", \"main\", \"renderList\", "
             "\"slowChecksum\"]}",
             hash, port, hash, delta, delta, delta - 1, delta + 1);
  char txt[4096];
  snprintf(txt, sizeof txt,
           "{\"schema\": \"zamcap-report/2\", \"zamcap_version\": \"0.1.0\", "
           "\"options\": {\"mu_ms\": 50}, \"regression_causes\": [%s], "
           "\"spread_causes\": [], \"verdict\": {\"exit_code\": %d, "
           "\"state\": \"%s\", \"pairs\": 3}, \"end_to_end\": {\"pairs\": 3, "
           "\"metrics\": [{\"name\": \"scenario_ms\", \"unit\": \"ms\", "
           "\"old\": {\"mean\": 500}, \"new\": {\"mean\": %g}, \"delta\": "
           "{\"mean\": %g, \"ci95\": [1, 2], \"pct\": 3}, \"significant\": "
           "true}], \"steps\": []}, \"vitals\": [{\"step\": null, "
           "\"metric\": \"LCP\", \"unit\": \"ms\", \"old\": 800, \"new\": "
           "%g, \"delta\": %g, \"ci95\": [-4, 9], \"significant\": false, "
           "\"pairs\": 3}, {\"step\": 2, \"type\": \"click\", \"metric\": "
           "\"INP\", \"unit\": \"ms\", \"old\": 40, \"new\": 41}], "
           "\"inputs\": {\"scenario\": "
           "\"flows/checkout.json\", \"title\": \"checkout\", \"old\": "
           "\"http://127.0.0.1:%d/\", \"new\": \"http://127.0.0.1:%d/\"}, "
           "\"environment\": {\"chrome\": \"156.0\", \"machine\": {\"host\": "
           "\"ci-1\"}}}",
           causes, delta > 0, delta > 0 ? "regression" : "no regression",
           500 + delta, delta, 800 + delta / 10, delta / 10, port, port + 1);
  return cJSON_Parse(txt);
}

static void add_night(struct agent_history *h, int day, double delta) {
  char hash[16], at[32];
  snprintf(hash, sizeof hash, "%08x", (unsigned)day * 2654435761u);
  snprintf(at, sizeof at, "2026-11-%02dT02:30:00Z", day);
  cJSON *doc = night(hash, 40000 + day, delta);
  struct agent_history_meta m = {.command = "run", .recorded_at = at};
  long long id = 0;
  ZT_INT(agent_history_add(h, doc, &m, &id), ZC_OK);
  ZT_INT(id, day);
  cJSON_Delete(doc);
}

static const cJSON *field(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The one regression of the history, checked for its nights and state. */
static void check_one(struct agent_history *h, int nights, const char *state,
                      const char *first, const char *last) {
  cJSON *doc = NULL;
  ZT_INT(agent_history_query(h, "checkout", 0, 3, &doc), ZC_OK);
  const cJSON *regs = field(doc, "regressions");
  ZT_INT(cJSON_GetArraySize(regs), 1);
  const cJSON *g = cJSON_GetArrayItem(regs, 0);
  ZT_INT((long long)cJSON_GetNumberValue(field(g, "nights")), nights);
  ZT_INT(cJSON_GetArraySize(field(g, "deltas")), nights);
  ZT_STR(cJSON_GetStringValue(field(g, "state")), state);
  ZT_STR(cJSON_GetStringValue(field(g, "first_seen")), first);
  ZT_STR(cJSON_GetStringValue(field(g, "last_seen")), last);
  ZT_STR(cJSON_GetStringValue(field(g, "function")), "slowChecksum");
  ZT_STR(cJSON_GetStringValue(field(g, "top")), "main");
  ZT_TRUE(cJSON_IsNull(field(g, "issue")));
  cJSON_Delete(doc);
}

/* Nights 1-5 clean, 6-12 slowChecksum, 13-17 clean (recovered after 3),
 * 18-30 back: one fingerprint over bundles renamed every night. */
static void test_thirty_nights(void) {
  const char *db = zt_tmp("nights.db");
  unlink(db);
  struct agent_history *h = NULL;
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  for (int day = 1; day <= 30; day++) {
    int on = (day >= 6 && day <= 12) || day >= 18;
    add_night(h, day, on ? 100 + day : 0);
    if (day == 12)
      check_one(h, 7, "open", "2026-11-06T02:30:00Z", "2026-11-12T02:30:00Z");
    if (day == 14) /* two clean runs: not yet */
      check_one(h, 7, "open", "2026-11-06T02:30:00Z", "2026-11-12T02:30:00Z");
    if (day == 15)
      check_one(h, 7, "recovered", "2026-11-06T02:30:00Z",
                "2026-11-12T02:30:00Z");
    if (day == 18)
      check_one(h, 8, "open", "2026-11-06T02:30:00Z", "2026-11-18T02:30:00Z");
  }
  check_one(h, 20, "open", "2026-11-06T02:30:00Z", "2026-11-30T02:30:00Z");
  cJSON *doc = NULL;
  ZT_INT(agent_history_query(h, NULL, 0, 3, &doc), ZC_OK);
  ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 30);
  cJSON_Delete(doc);
  /* another scenario's name: nothing */
  ZT_INT(agent_history_query(h, "search", 0, 3, &doc), ZC_OK);
  ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 0);
  ZT_INT(cJSON_GetArraySize(field(doc, "regressions")), 0);
  cJSON_Delete(doc);
  /* --since: every scripted night lies in the past */
  ZT_INT(agent_history_query(h, "checkout", 1e5, 3, &doc), ZC_OK);
  ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 30);
  cJSON_Delete(doc);
  agent_history_close(h);
}

/* The series of test_thirty_nights' nights: each run once, oldest first;
 * the end-to-end metric and the run's web vital (not the step's) with a
 * point per night, their values and intervals where they were. */
static void test_series(void) {
  const char *db = zt_tmp("series.db");
  unlink(db);
  struct agent_history *h = NULL;
  cJSON *scn = NULL, *doc = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  for (int day = 1; day <= 30; day++)
    add_night(h, day, (day >= 6 && day <= 12) || day >= 18 ? 100 + day : 0);
  ZT_INT(agent_history_scenarios(h, 0, &scn), ZC_OK);
  ZT_INT(cJSON_GetArraySize(scn), 1);
  const cJSON *s0 = cJSON_GetArrayItem(scn, 0);
  ZT_STR(cJSON_GetStringValue(field(s0, "scenario")), "checkout");
  ZT_INT((long long)cJSON_GetNumberValue(field(s0, "runs")), 30);
  ZT_STR(cJSON_GetStringValue(field(s0, "last")), "2026-11-30T02:30:00Z");
  cJSON_Delete(scn);
  ZT_INT(agent_history_series(h, "checkout", 0, &doc), ZC_OK);
  const cJSON *runs = field(doc, "runs"), *series = field(doc, "series");
  ZT_INT(cJSON_GetArraySize(runs), 30);
  const cJSON *r7 = cJSON_GetArrayItem(runs, 6);
  ZT_STR(cJSON_GetStringValue(field(r7, "at")), "2026-11-07T02:30:00Z");
  ZT_STR(cJSON_GetStringValue(field(r7, "verdict")), "regression");
  ZT_STR(cJSON_GetStringValue(field(r7, "host")), "ci-1");
  ZT_STR(cJSON_GetStringValue(field(r7, "chrome")), "156.0");
  ZT_INT(cJSON_GetArraySize(series), 2);
  const cJSON *s;
  int seen = 0;
  cJSON_ArrayForEach(s, series) {
    const char *m = cJSON_GetStringValue(field(s, "metric"));
    const cJSON *pts = field(s, "points");
    ZT_INT(cJSON_GetArraySize(pts), 30);
    const cJSON *p7 = cJSON_GetArrayItem(pts, 6); /* night 7: +107 ms */
    ZT_INT((long long)cJSON_GetNumberValue(cJSON_GetArrayItem(p7, 0)), 6);
    if (m && !strcmp(m, "scenario_ms")) {
      seen |= 1;
      ZT_STR(cJSON_GetStringValue(field(s, "source")), "end_to_end");
      ZT_NEAR(cJSON_GetNumberValue(cJSON_GetArrayItem(p7, 2)), 607, 1e-9);
      ZT_NEAR(cJSON_GetNumberValue(cJSON_GetArrayItem(p7, 5)), 2, 1e-9);
    } else if (m && !strcmp(m, "LCP")) {
      seen |= 2;
      ZT_STR(cJSON_GetStringValue(field(s, "source")), "vitals");
      ZT_NEAR(cJSON_GetNumberValue(cJSON_GetArrayItem(p7, 2)), 810.7, 1e-9);
      ZT_NEAR(cJSON_GetNumberValue(cJSON_GetArrayItem(p7, 4)), -4, 1e-9);
    }
  }
  ZT_INT(seen, 3);
  cJSON_Delete(doc);
  agent_history_close(h);
}

/* A bisection's report.json: two culprits of checkout, one at a commit,
 * and a cause that stayed undecided. */
static const char bisect_doc[] =
    "{\"schema\": \"zamcap-bisect/1\", \"zamcap_version\": \"0.1.0\", "
    "\"scenario\": \"flows/checkout.json\", \"builds\": [{\"index\": 0, "
    "\"build\": \"0a1b2c3d4e5f\", \"commit\": "
    "\"0a1b2c3d4e5f00000000000000000000000000aa\"}, {\"index\": 1, "
    "\"build\": \"1111aaaa2222\"}, {\"index\": 2, \"build\": "
    "\"c0ffee123456\", \"commit\": "
    "\"c0ffee1234560000000000000000000000000000\"}], \"causes\": [{\"kind\": "
    "\"path\", \"label\": \"CrRendererMain > main > renderList > "
    "slowChecksum\", \"name\": \"slowChecksum\", \"url\": \"/js/app.js\", "
    "\"line\": 42, \"path\": [\"CrRendererMain\", \"main\", "
    "\"renderList\", \"slowChecksum\"]}, {\"kind\": \"scenario\", \"label\": "
    "\"the scenario's time\", \"name\": null}], \"culprits\": [{\"index\": "
    "2, \"build\": \"c0ffee123456\", \"commit\": "
    "\"c0ffee1234560000000000000000000000000000\", \"previous\": 1, "
    "\"pairs\": 4, \"changed_functions\": [{\"name\": \"slowChecksum\", "
    "\"delta_ms\": 101}], \"causes\": [{\"kind\": \"path\", \"label\": "
    "\"CrRendererMain > main > renderList > slowChecksum\", \"name\": "
    "\"slowChecksum\", \"url\": \"/js/app.js\", \"line\": 42, \"path\": "
    "[\"CrRendererMain\", \"main\", \"renderList\", \"slowChecksum\"], "
    "\"delta_ms\": 104.5, \"ci95\": [98, 111]}]}], \"undecided\": "
    "[{\"cause\": 1, \"good\": 0, \"bad\": 2, \"why\": \"--max-runs "
    "reached\"}], \"verdict\": {\"exit_code\": 1, \"traced_runs\": 40, "
    "\"text\": \"build 2 (c0ffee123456) made it slower.\"}}";

/* A bisection recorded and read back: its culprit with the commit, and
 * the fingerprint the nights' cause has, so that the regression can
 * name its commit; the undecided cause with its range and why. */
static void test_bisect_recorded(void) {
  const char *db = zt_tmp("bisect.db");
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  add_night(h, 1, 120);
  cJSON *doc = cJSON_Parse(bisect_doc), *in = cJSON_CreateObject();
  ZT_TRUE(doc != NULL);
  cJSON_AddStringToObject(in, "title", "checkout");
  struct agent_history_meta m = {.command = "bisect",
                                 .recorded_at = "2026-11-02T09:00:00Z",
                                 .report_dir = "/srv/perf/bisect-1",
                                 .inputs = in};
  long long id = 0;
  ZT_INT(agent_history_add_bisect(h, doc, &m, &id), ZC_OK);
  ZT_INT(id, 1);
  cJSON *q = NULL, *bs = NULL;
  ZT_INT(agent_history_query(h, "checkout", 0, 3, &q), ZC_OK);
  const char *fp = cJSON_GetStringValue(
      field(cJSON_GetArrayItem(field(q, "regressions"), 0), "fingerprint"));
  ZT_INT(agent_history_bisects(h, "checkout", 0, &bs), ZC_OK);
  ZT_INT(cJSON_GetArraySize(bs), 1);
  const cJSON *b = cJSON_GetArrayItem(bs, 0), *cs = field(b, "causes");
  ZT_STR(cJSON_GetStringValue(field(b, "good")), "0a1b2c3d4e5f");
  ZT_STR(cJSON_GetStringValue(field(b, "bad")), "c0ffee123456");
  ZT_STR(cJSON_GetStringValue(field(b, "report_dir")), "/srv/perf/bisect-1");
  ZT_INT((long long)cJSON_GetNumberValue(field(b, "exit_code")), 1);
  ZT_INT(cJSON_GetArraySize(cs), 2);
  const cJSON *c0 = cJSON_GetArrayItem(cs, 0), *c1 = cJSON_GetArrayItem(cs, 1);
  ZT_STR(cJSON_GetStringValue(field(c0, "state")), "culprit");
  ZT_STR(cJSON_GetStringValue(field(c0, "build")), "c0ffee123456");
  ZT_STR(cJSON_GetStringValue(field(c0, "commit")),
         "c0ffee1234560000000000000000000000000000");
  ZT_STR(cJSON_GetStringValue(field(c0, "previous")), "1111aaaa2222");
  ZT_STR(cJSON_GetStringValue(field(c0, "name")), "slowChecksum");
  ZT_STR(cJSON_GetStringValue(field(c0, "fingerprint")), fp ? fp : "?");
  ZT_NEAR(cJSON_GetNumberValue(field(c0, "delta_ms")), 104.5, 1e-9);
  ZT_NEAR(cJSON_GetNumberValue(field(c0, "ci_hi")), 111, 1e-9);
  ZT_INT(cJSON_GetArraySize(field(c0, "changed")), 1);
  ZT_STR(cJSON_GetStringValue(field(c1, "state")), "undecided");
  ZT_STR(cJSON_GetStringValue(field(c1, "kind")), "scenario");
  ZT_TRUE(cJSON_IsNull(field(c1, "fingerprint")));
  ZT_STR(cJSON_GetStringValue(field(c1, "previous")), "0a1b2c3d4e5f");
  ZT_STR(cJSON_GetStringValue(field(c1, "why")), "--max-runs reached");
  cJSON_Delete(bs);
  /* another scenario's: none */
  ZT_INT(agent_history_bisects(h, "search", 0, &bs), ZC_OK);
  ZT_INT(cJSON_GetArraySize(bs), 0);
  cJSON_Delete(bs);
  cJSON_Delete(q);
  cJSON_Delete(doc);
  cJSON_Delete(in);
  agent_history_close(h);
}

/* A history at schema 2 (as the zamcap before vitals and bisections left
 * it) is migrated on first use: its runs stay, the new tables are there,
 * and its first run has no vitals. */
static void test_migrate_v2(void) {
  const char *db = zt_tmp("v2.db");
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  add_night(h, 1, 0);
  agent_history_close(h);
  struct agent_db *d = NULL;
  ZT_INT(agent_db_open(db, &d), ZC_OK);
  static const char *const back[] = {
      "DROP TABLE bisect_causes", "DROP TABLE bisects", "DROP TABLE vitals",
      "DELETE FROM zamcap_schema WHERE version = 3"};
  for (size_t i = 0; i < ZC_ARRAY_LEN(back); i++)
    ZT_INT(agent_db_run(d, back[i], 0, NULL, NULL), ZC_OK);
  ZT_INT(agent_hist_schema(d), 2);
  agent_db_close(d);
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  ZT_INT(agent_hist_schema(h->db), AGENT_HISTORY_SCHEMA);
  add_night(h, 2, 130);
  cJSON *doc = NULL;
  ZT_INT(agent_history_series(h, "checkout", 0, &doc), ZC_OK);
  ZT_INT(cJSON_GetArraySize(field(doc, "runs")), 2);
  const cJSON *s;
  cJSON_ArrayForEach(s, field(doc, "series")) {
    const char *m = cJSON_GetStringValue(field(s, "metric"));
    ZT_INT(cJSON_GetArraySize(field(s, "points")),
           m && !strcmp(m, "LCP") ? 1 : 2);
  }
  cJSON_Delete(doc);
  agent_history_close(h);
}

/* Renamed and rehashed bundles, other ports: the same fingerprint; another
 * function, kind, top-level function or scenario: another. */
static void test_fingerprint(void) {
  char a[17], b[17], c[17];
  agent_history_fingerprint("time", "checkout", "main", "slowChecksum",
                            "/js/app.3f9a1c2e.js", a);
  agent_history_fingerprint("time", "checkout", "main", "slowChecksum",
                            "/js/app.a81b22cd.js", b);
  ZT_STR(a, b);
  agent_history_fingerprint("time", "checkout", "main", "slowChecksum",
                            "http://127.0.0.1:8123/js/app.a81b22cd.js?v=3", b);
  ZT_STR(a, b);
  ZT_INT((long long)strlen(a), 16);
  agent_history_fingerprint("spread-out", "checkout", "main", "slowChecksum",
                            "/js/app.js", c);
  ZT_TRUE(strcmp(a, c) != 0);
  agent_history_fingerprint("time", "checkout", "boot", "slowChecksum",
                            "/js/app.js", c);
  ZT_TRUE(strcmp(a, c) != 0);
  agent_history_fingerprint("time", "search", "main", "slowChecksum",
                            "/js/app.js", c);
  ZT_TRUE(strcmp(a, c) != 0);
  agent_history_fingerprint("time", "checkout", "main", "fastChecksum",
                            "/js/app.js", c);
  ZT_TRUE(strcmp(a, c) != 0);
  /* the documented canonical string */
  agent_history_fingerprint("time", "", "", "", "", c);
  ZT_STR(c, "4d81d9639acd2901");
}

/* Newlines in a page's names cannot make two causes one (issue 38, Low:
 * the fields were joined with newlines): a name "a\nb" with top "x" and
 * a name "b" with top "x\na" read the same joined; and a fingerprint of
 * fields without one is what it always was. */
static void test_fingerprint_newlines(void) {
  char a[17], b[17];
  agent_history_fingerprint("time", "checkout", "x", "a\nb", "/app.js", a);
  agent_history_fingerprint("time", "checkout", "x\na", "b", "/app.js", b);
  ZT_TRUE(strcmp(a, b) != 0);
  agent_history_fingerprint("time", "flow\ntime", "", "", "", a);
  agent_history_fingerprint("time\nflow", "time", "", "", "", b);
  ZT_TRUE(strcmp(a, b) != 0);
  agent_history_fingerprint("time", "", "", "", "", a);
  ZT_STR(a, "4d81d9639acd2901");
}

/* A history whose schema a newer zamcap wrote is refused, naming both
 * versions, and left as it was. */
static void test_newer_schema(void) {
  const char *db = zt_tmp("newer.db");
  unlink(db);
  struct agent_history *h = NULL;
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  agent_history_close(h);
  struct agent_db *d = NULL;
  ZT_INT(agent_db_open(db, &d), ZC_OK);
  ZT_INT(agent_db_run(d,
                      "INSERT INTO zamcap_schema (version, zamcap, "
                      "applied_at) VALUES (7, '9.0.0', 'then')",
                      0, NULL, NULL),
         ZC_OK);
  agent_db_close(d);
  ZT_INT(agent_history_open(db, &h), ZC_E_USAGE);
  ZT_TRUE(h == NULL);
  ZT_HAS(zc_errmsg(), "version 7");
  ZT_HAS(zc_errmsg(), "9.0.0");
  char upto[32];
  snprintf(upto, sizeof upto, "up to %d", AGENT_HISTORY_SCHEMA);
  ZT_HAS(zc_errmsg(), upto);
}

/* compare on the real traces: the default history beside the run folder,
 * the second run's report.json and report.html say it was seen before,
 * zamcap history reads it; --no-history records nothing. */
static void test_cli(void) {
  const char *z = zt_zamcap(), *dir = zt_tmp("cli");
  char *out = NULL;
  zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  for (int i = 1; i <= 2; i++)
    ZT_INT(zt_sh(NULL,
                 "'%s' compare '%s/real/old' '%s/real/new' -q --out "
                 "'%s/run%d' --new-label v%d >/dev/null",
                 z, getenv("ZC_DATA"), getenv("ZC_DATA"), dir, i, i),
           1);
  ZT_INT(zt_sh(&out, "'%s' history --history '%s/history.db' --format json", z,
               dir),
         0);
  cJSON *doc = cJSON_Parse(out ? out : "");
  ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 2);
  const cJSON *g = cJSON_GetArrayItem(field(doc, "regressions"), 0);
  ZT_STR(cJSON_GetStringValue(field(g, "function")), "slowChecksum");
  ZT_INT((long long)cJSON_GetNumberValue(field(g, "nights")), 2);
  cJSON_Delete(doc);
  free(out);
  char p[4200];
  snprintf(p, sizeof p, "%s/run2/report.html", dir);
  char *html = zt_read(p);
  ZT_HAS(html ? html : "", "seen on 2 nights since");
  free(html);
  snprintf(p, sizeof p, "%s/run2/report.json", dir);
  char *js = zt_read(p);
  ZT_HAS(js ? js : "", "\"fingerprint\"");
  free(js);
  ZT_INT(zt_sh(NULL,
               "'%s' compare '%s/real/old' '%s/real/new' -q --out "
               "'%s/solo/r' --no-history >/dev/null",
               z, getenv("ZC_DATA"), getenv("ZC_DATA"), dir),
         1);
  snprintf(p, sizeof p, "%s/solo/history.db", dir);
  ZT_TRUE(access(p, F_OK) != 0);
  ZT_INT(zt_sh(&out, "'%s' history --history '%s/none.db' 2>&1", z, dir), 2);
  ZT_HAS(out ? out : "", "no such file");
  free(out);
}

/* A database that cannot be reached: a warning that names it (never its
 * password), the report still written, the verdict's exit code. */
static void test_unreachable(void) {
  const char *z = zt_zamcap(), *dir = zt_tmp("unreach");
  char *out = NULL;
  zt_sh(NULL, "rm -rf '%s'", dir);
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/new' -q --out '%s' "
               "--history 'postgresql://zc:pw-s3cret@/db?host=/nonexistent' "
               "2>&1 >/dev/null",
               z, getenv("ZC_DATA"), getenv("ZC_DATA"), dir),
         1);
  ZT_HAS(out ? out : "", "cannot connect");
  ZT_HAS(out ? out : "", "not in the history");
  ZT_TRUE(!strstr(out ? out : "", "pw-s3cret"));
  free(out);
  char p[4200];
  snprintf(p, sizeof p, "%s/report.json", dir);
  ZT_TRUE(access(p, F_OK) == 0);
  snprintf(p, sizeof p, "%s/report.html", dir);
  ZT_TRUE(access(p, F_OK) == 0);
}

/* 8 writers at once into the fresh history uri, 10 runs each: all 80
 * runs and their causes are there, under one fingerprint; the first
 * use's migration ran once. */
static void eight_writers(const char *uri) {
  pid_t kids[8];
  for (int w = 0; w < 8; w++) {
    if ((kids[w] = fork()) != 0) continue;
    struct agent_history *h = NULL;
    int bad = agent_history_open(uri, &h) != ZC_OK;
    for (int i = 0; !bad && i < 10; i++) {
      cJSON *doc = night("0badf00d", 9000 + w, 120 + i);
      struct agent_history_meta m = {.command = "run"};
      bad = agent_history_add(h, doc, &m, NULL) != ZC_OK;
      cJSON_Delete(doc);
    }
    if (bad) fprintf(stderr, "writer %d: %s\n", w, zc_errmsg());
    agent_history_close(h);
    _exit(bad);
  }
  for (int w = 0; w < 8; w++) {
    int st = -1;
    waitpid(kids[w], &st, 0);
    ZT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  struct agent_history *h = NULL;
  cJSON *doc = NULL;
  if (!ZT_INT(agent_history_open(uri, &h), ZC_OK) ||
      !ZT_INT(agent_history_query(h, "checkout", 0, 3, &doc), ZC_OK)) {
    agent_history_close(h);
    return;
  }
  ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 80);
  const cJSON *regs = field(doc, "regressions");
  ZT_INT(cJSON_GetArraySize(regs), 1);
  ZT_INT((long long)cJSON_GetNumberValue(
             field(cJSON_GetArrayItem(regs, 0), "nights")),
         80);
  cJSON_Delete(doc);
  struct agent_rows r;
  ZT_INT(agent_db_run(h->db,
                      "SELECT (SELECT count(*) FROM cause_pairs), (SELECT "
                      "count(*) FROM end_to_end), (SELECT count(*) FROM "
                      "zamcap_schema)",
                      0, NULL, &r),
         ZC_OK);
  ZT_STR(agent_rows_get(&r, 0, 0), "240");
  ZT_STR(agent_rows_get(&r, 0, 1), "80");
  /* one row per migration: each ran once */
  ZT_INT(atoi(agent_rows_get(&r, 0, 2)), AGENT_HISTORY_SCHEMA);
  agent_rows_free(&r);
  agent_history_close(h);
}

/* The same in one fresh SQLite file, as shards on one machine would: WAL
 * and the busy timeout make the writers wait for each other, none
 * fails. */
static void test_sqlite_writers(void) {
  const char *db = zt_tmp("writers.db");
  unlink(db);
  eight_writers(db);
}

/* 8 writers at once into one fresh PostgreSQL (eight_writers). */
static void test_postgres(void) {
  char tmpl[] = "/tmp/zc-pg-XXXXXX", *uri = NULL;
  const char *dir = mkdtemp(tmpl);
  ZT_TRUE(dir != NULL);
  if (!dir) return;
  char script[4200];
  snprintf(script, sizeof script, "%s/../agent/pgserver.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&uri, "sh '%s' start '%s'", script, dir);
  if (rc == 77) {
    zt_skip("no PostgreSQL server installed");
    zt_sh(NULL, "rm -rf '%s'", dir);
    free(uri);
    return;
  }
  ZT_INT(rc, 0);
  if (rc) {
    zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
    free(uri);
    return;
  }
  uri[strcspn(uri, "\n")] = '\0';
  eight_writers(uri);
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(uri);
}

/* The file's bytes, for "left as it was". */
static char *bytes_of(const char *path, size_t *n) {
  char *t = NULL;
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  t = zc_xmalloc(1 << 20);
  *n = fread(t, 1, 1 << 20, f);
  fclose(f);
  return t;
}

static int same_bytes(const char *path, const char *was, size_t n) {
  size_t m;
  char *now = bytes_of(path, &m);
  int same = now && was && m == n && !memcmp(now, was, n);
  free(now);
  return same;
}

/* A history with one run whose function, file and scenario a page and a
 * flow chose. */
static void add_named(const char *db, const char *scenario, const char *fn,
                      const char *file) {
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  cJSON *doc = night("0badf00d", 9000, 120);
  cJSON *c = cJSON_GetArrayItem(field(doc, "regression_causes"), 0);
  cJSON_ReplaceItemInObject(c, "name", cJSON_CreateString(fn));
  cJSON_ReplaceItemInObject(c, "file", cJSON_CreateString(file));
  cJSON_ReplaceItemInObject((cJSON *)field(doc, "inputs"), "title",
                            cJSON_CreateString(scenario));
  struct agent_history_meta m = {.command = "run"};
  ZT_INT(agent_history_add(h, doc, &m, NULL), ZC_OK);
  cJSON_Delete(doc);
  agent_history_close(h);
}

/* --out /tmp/x made the folder above OUT the history, whoever wrote it
 * (issue 38): a world-writable folder holds no default history, and with
 * --tracker that is said before anything runs; a planted file or a link
 * in a shared folder is refused as --history too. */
static void test_shared_default(void) {
  const char *z = getenv("ZAMCAP"), *data = getenv("ZC_DATA");
  const char *dir = zt_tmp("shared");
  char *out = NULL, db[4200], p[4300];
  zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s' && chmod 1777 '%s'", dir, dir, dir);
  snprintf(db, sizeof db, "%s/history.db", dir);
  add_named(db, "checkout", "slowChecksum", "/js/app.js"); /* planted */
  size_t n;
  char *was = bytes_of(db, &n);
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/new' -q --out '%s/run' "
               "2>&1 >/dev/null",
               z, data, data, dir),
         1);
  ZT_HAS(out ? out : "", "no default history in");
  ZT_HAS(out ? out : "", "every user can write there");
  ZT_TRUE(same_bytes(db, was, n));
  free(out);
  ZT_INT(zt_sh(&out,
               "ZAMCAP_TRACKER_TOKEN=tok-1234 '%s' compare '%s/real/old' "
               "'%s/real/new' -q --out '%s/run2' --tracker github:acme/shop "
               "--tracker-url http://127.0.0.1:9 --close-recovered 2>&1",
               z, data, data, dir),
         2);
  ZT_HAS(out ? out : "", "--tracker: no default history in");
  snprintf(p, sizeof p, "%s/run2", dir);
  ZT_TRUE(access(p, F_OK) != 0); /* nothing ran */
  free(out);
  /* a link in a shared folder, and a file of another account */
  snprintf(p, sizeof p, "%s/link.db", dir);
  ZT_INT(symlink(db, p), 0);
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/new' -q --out '%s/run3' "
               "--history '%s' 2>&1 >/dev/null",
               z, data, data, zt_tmp("shared-out"), p),
         1);
  ZT_HAS(out ? out : "", "a symbolic link");
  ZT_TRUE(same_bytes(db, was, n));
  free(out);
  if (geteuid() == 0 && zt_sh(NULL, "chown nobody '%s'", db) == 0) {
    ZT_INT(zt_sh(&out,
                 "'%s' compare '%s/real/old' '%s/real/new' -q --out "
                 "'%s/run4' --history '%s' 2>&1 >/dev/null",
                 z, data, data, zt_tmp("shared-out"), db),
           1);
    ZT_HAS(out ? out : "", "not this user's in the shared folder");
    ZT_TRUE(same_bytes(db, was, n));
    free(out);
  }
  free(was);
}

/* zamcap history reads a history it cannot write (another account's, a
 * read-only mount): issue 38 had it exit 2 wanting write access. Nothing
 * is made beside it, and its bytes stay as they were. */
static void test_read_only(void) {
  const char *z = getenv("ZAMCAP"), *dir = zt_tmp("ro");
  char db[4200], *out = NULL;
  zt_sh(NULL, "chmod -R u+w '%s' 2>/dev/null; rm -rf '%s' && mkdir -p '%s'",
        dir, dir, dir);
  snprintf(db, sizeof db, "%s/history.db", dir);
  add_named(db, "checkout", "slowChecksum", "/js/app.js");
  size_t n;
  char *was = bytes_of(db, &n);
  ZT_INT(zt_sh(NULL, "chmod 0444 '%s' && chmod 0555 '%s'", db, dir), 0);
  /* root writes anyway: read as nobody, whose the file is not */
  const char *as = geteuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup "
                                    "--clear-groups -- "
                                  : "";
  ZT_INT(zt_sh(&out, "%s'%s' history --history '%s' 2>&1", as, z, db), 0);
  ZT_HAS(out ? out : "", "1 runs recorded; 1 regression");
  ZT_HAS(out ? out : "", "slowChecksum (/js/app.js)");
  free(out);
  ZT_INT(
      zt_sh(&out, "%s'%s' history --history '%s' --list-runs 2>&1", as, z, db),
      0);
  ZT_HAS(out ? out : "", "run 1");
  free(out);
  ZT_TRUE(same_bytes(db, was, n));
  ZT_INT(zt_sh(&out, "ls '%s'", dir), 0);
  ZT_STR(out, "history.db\n");
  free(out);
  free(was);
  zt_sh(NULL, "chmod 0755 '%s'", dir);
}

/* Another program's SQLite file given as --history: zamcap history says
 * it is no zamcap history (exit 2) and a run records nothing into it; in
 * both, the file is left as it was (issue 38: WAL mode and 7 tables
 * added). */
static void test_foreign_db(void) {
  const char *z = getenv("ZAMCAP"), *data = getenv("ZC_DATA");
  char db[4200], *out = NULL;
  snprintf(db, sizeof db, "%s", zt_tmp("other-program.db"));
  unlink(db);
  ZT_INT(
      zt_sh(NULL,
            "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
            "c.execute(\"create table notes (t text)\"); "
            "c.execute(\"insert into notes values (1)\"); c.commit()' "
            "'%s'",
            db),
      0);
  size_t n;
  char *was = bytes_of(db, &n);
  ZT_INT(zt_sh(&out, "'%s' history --history '%s' 2>&1", z, db), 2);
  ZT_HAS(out ? out : "", "not a zamcap history");
  ZT_HAS(out ? out : "", "notes");
  free(out);
  ZT_TRUE(same_bytes(db, was, n));
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/new' -q --out '%s' "
               "--history '%s' 2>&1 >/dev/null",
               z, data, data, zt_tmp("foreign-out"), db),
         1);
  ZT_HAS(out ? out : "", "not a zamcap history");
  ZT_HAS(out ? out : "", "not in the history");
  free(out);
  ZT_TRUE(same_bytes(db, was, n));
  char p[4300];
  snprintf(p, sizeof p, "%s-wal", db);
  ZT_TRUE(access(p, F_OK) != 0);
  free(was);
  /* an empty file is no history to read either */
  snprintf(p, sizeof p, "%s", zt_tmp("empty.db"));
  zt_write_str(p, "");
  ZT_INT(zt_sh(&out, "'%s' history --history '%s' 2>&1", z, p), 2);
  ZT_HAS(out ? out : "", "not a zamcap history");
  free(out);
}

/* zamcap history prints names a page chose (a function named after a
 * string key, a file, a flow's title) harmlessly: issue 38's OSC 52
 * clipboard write and screen clear reached the terminal. */
static void test_hostile_names(void) {
  const char *z = getenv("ZAMCAP"), *db = zt_tmp("names.db");
  unlink(db);
  add_named(db, "flow\x1b[2J\x1b[H", "fn\x1b]52;c;cm0gLXJmIH4=\x07",
            "/js/\x1b[31mred.js");
  char *out = NULL;
  ZT_INT(zt_sh(&out, "'%s' history --history '%s' --list-runs", z, db), 0);
  ZT_TRUE(out && !strchr(out, 0x1b) && !strchr(out, 0x07));
  ZT_HAS(out ? out : "", "fn\\e]52;c;cm0gLXJmIH4=\\x07");
  ZT_HAS(out ? out : "", "/js/\\e[31mred.js");
  ZT_HAS(out ? out : "", "[flow\\e[2J\\e[H]");
  free(out);
}

/* A libpq keyword string, or another scheme, given to --history: exit 2
 * before anything runs, no file named after it, the password never shown
 * (issue 38: it became a SQLite file named after it). POSTGRESQL:// in
 * capitals is PostgreSQL's. */
static void test_history_specs(void) {
  const char *z = getenv("ZAMCAP"), *data = getenv("ZC_DATA");
  const char *dir = zt_tmp("specs");
  char *out = NULL;
  zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  static const char *const bad[][2] = {
      {"host=/tmp dbname=zc password=pw-kw-5150", "libpq keyword string"},
      {"mysql://u:pw-my-5150@db/zc", "zamcap takes postgresql://"},
  };
  for (size_t i = 0; i < 2; i++) {
    ZT_INT(zt_sh(&out,
                 "cd '%s' && '%s' compare '%s/real/old' '%s/real/new' -q "
                 "--out r%zu --history '%s' 2>&1",
                 dir, z, data, data, i, bad[i][0]),
           2);
    ZT_HAS(out ? out : "", bad[i][1]);
    ZT_TRUE(out && !strstr(out, "5150"));
    free(out);
  }
  ZT_INT(zt_sh(&out, "ls '%s'", dir), 0);
  ZT_STR(out, "");
  free(out);
  ZT_INT(zt_sh(&out,
               "cd '%s' && '%s' compare '%s/real/old' '%s/real/new' -q --out "
               "r --history 'POSTGRESQL://zc:pw-up-5150@/db?host=/nonexistent' "
               "2>&1 >/dev/null",
               dir, z, data, data),
         1);
  ZT_HAS(out ? out : "", "cannot connect");
  ZT_TRUE(out && !strstr(out, "5150"));
  free(out);
  ZT_INT(zt_sh(&out, "ls '%s'", dir), 0);
  ZT_STR(out, "r\n");
  free(out);
}

/* PGPASSWORD still opens a PostgreSQL that asks for a password, though
 * zamcap takes it out of the environment at start (so that no child
 * inherits it): a throwaway server with SCRAM (pgserver.sh PASSWORD). */
static void test_pgpassword(void) {
  char tmpl[] = "/tmp/zc-pgpw-XXXXXX", *uri = NULL, script[4200];
  const char *dir = mkdtemp(tmpl), *z = getenv("ZAMCAP");
  if (!ZT_TRUE(dir != NULL)) return;
  snprintf(script, sizeof script, "%s/../agent/pgserver.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&uri, "sh '%s' start '%s' pg-pw-6363", script, dir);
  if (rc == 77) zt_skip("no PostgreSQL server installed");
  if (rc == 0) {
    uri[strcspn(uri, "\n")] = '\0';
    char *out = NULL;
    ZT_INT(zt_sh(&out,
                 "env -u PGPASSWORD '%s' compare '%s/real/old' '%s/real/new' "
                 "-q --out '%s/r0' --history '%s' 2>&1 >/dev/null",
                 z, getenv("ZC_DATA"), getenv("ZC_DATA"), dir, uri),
           1);
    ZT_HAS(out ? out : "", "not in the history"); /* no password: refused */
    free(out);
    ZT_INT(zt_sh(&out,
                 "PGPASSWORD=pg-pw-6363 '%s' compare '%s/real/old' "
                 "'%s/real/new' -q --out '%s/r1' --history '%s' 2>&1 "
                 ">/dev/null",
                 z, getenv("ZC_DATA"), getenv("ZC_DATA"), dir, uri),
           1);
    ZT_TRUE(out && !strstr(out, "history"));
    free(out);
    ZT_INT(zt_sh(&out,
                 "PGPASSWORD=pg-pw-6363 '%s' history --history '%s' "
                 "--format json",
                 z, uri),
           0);
    cJSON *doc = cJSON_Parse(out ? out : "");
    ZT_INT((long long)cJSON_GetNumberValue(field(doc, "runs")), 1);
    cJSON_Delete(doc);
    free(out);
  } else if (rc != 77) {
    ZT_INT(rc, 0);
  }
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(uri);
}

/* Whether process pid has path open. */
static int has_open(int pid, const char *path) {
  char dir[64], *out = NULL;
  snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
  zt_sh(&out, "ls -l '%s' 2>/dev/null", dir);
  int yes = out && strstr(out, path) != NULL;
  free(out);
  return yes;
}

/* SIGTERM while the history waits for another process's lock: exit 143
 * at once, not after the 30 s wait (issue 38's class: every wait
 * honours the stop flag; SQLite's busy timeout did not). */
static void test_sigterm_locked(void) {
  const char *db = zt_tmp("locked.db"), *err = zt_tmp("locked.err");
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  agent_history_close(h);
  char cmd[9000], line[64] = "";
  snprintf(cmd, sizeof cmd,
           "exec python3 -c 'import sqlite3,sys,time; c=sqlite3.connect("
           "sys.argv[1], isolation_level=None); c.execute(\"BEGIN "
           "EXCLUSIVE\"); print(\"locked\", flush=True); time.sleep(60)' "
           "'%s'",
           db);
  FILE *lo = NULL;
  int locker = zt_spawn(cmd, &lo);
  if (!ZT_TRUE(locker > 0 && fgets(line, sizeof line, lo))) {
    zt_stop(locker);
    return;
  }
  snprintf(cmd, sizeof cmd,
           "exec '%s' compare '%s/real/old' '%s/real/new' -q --out '%s' "
           "--history '%s' 2>'%s' >/dev/null",
           getenv("ZAMCAP"), getenv("ZC_DATA"), getenv("ZC_DATA"),
           zt_tmp("locked-out"), db, err);
  FILE *so = NULL;
  int pid = zt_spawn(cmd, &so);
  int waiting = 0;
  for (int i = 0; i < 400 && !waiting; i++) {
    waiting = has_open(pid, db);
    if (!waiting) zc_sleep_ms(50);
  }
  zc_sleep_ms(500); /* inside SQLite's wait for the lock */
  double t0 = zc_now_ms();
  kill(pid, SIGTERM);
  int st = 0, rc = -1;
  while (rc < 0 && zc_now_ms() - t0 < 20000) {
    if (waitpid(pid, &st, WNOHANG) == pid)
      rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    else
      zc_sleep_ms(20);
  }
  double took = zc_now_ms() - t0;
  if (rc < 0) zt_stop(pid);
  if (so) fclose(so);
  zt_stop(locker);
  if (lo) fclose(lo);
  ZT_TRUE(waiting);
  ZT_INT(rc, 143);
  ZT_TRUE(took < 3000);
  if (took >= 3000) fprintf(stderr, "  exit after %.0f ms\n", took);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"sigterm_locked", test_sigterm_locked},
      {"pgpassword", test_pgpassword},
      {"shared_default", test_shared_default},
      {"read_only", test_read_only},
      {"foreign_db", test_foreign_db},
      {"hostile_names", test_hostile_names},
      {"history_specs", test_history_specs},
      {"thirty_nights", test_thirty_nights},
      {"series", test_series},
      {"bisect_recorded", test_bisect_recorded},
      {"migrate_v2", test_migrate_v2},
      {"fingerprint", test_fingerprint},
      {"fingerprint_newlines", test_fingerprint_newlines},
      {"newer_schema", test_newer_schema},
      {"cli", test_cli},
      {"unreachable", test_unreachable},
      {"postgres", test_postgres},
      {"sqlite_writers", test_sqlite_writers},
  };
  return ZT_RUN(cases, argc, argv);
}
