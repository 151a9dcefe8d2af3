/* The history (history.h): opening it, and bringing its schema up to date
 * (migration k takes version k-1 to k). */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"

/* ---- the schema: migration k takes version k-1 to k ---- */

/* "@ID@" is each backend's auto-numbered key. */
static const char *const migration1[] = {
    "CREATE TABLE runs (id @ID@, recorded_at TEXT NOT NULL, command TEXT "
    "NOT NULL, scenario TEXT NOT NULL, scenario_file TEXT, steps_hash TEXT, "
    "old_build TEXT, new_build TEXT, old_label TEXT, new_label TEXT, host "
    "TEXT, chrome TEXT, zamcap_version TEXT, options TEXT, verdict TEXT, "
    "exit_code INTEGER, pairs INTEGER, causes INTEGER, report_dir TEXT)",
    "CREATE INDEX runs_scenario ON runs (scenario, id)",
    "CREATE INDEX runs_time ON runs (recorded_at)",
    /* One row per fingerprint: the tracker's issue goes here (part 2). */
    "CREATE TABLE regressions (fingerprint TEXT PRIMARY KEY, scenario TEXT "
    "NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, file TEXT, top TEXT, "
    "issue TEXT)",
    "CREATE TABLE causes (run_id BIGINT NOT NULL REFERENCES runs (id) ON "
    "DELETE CASCADE, kind TEXT NOT NULL, rank INTEGER NOT NULL, fingerprint "
    "TEXT NOT NULL REFERENCES regressions (fingerprint), name TEXT, file "
    "TEXT, url TEXT, line INTEGER, top TEXT, unit TEXT, old_value DOUBLE "
    "PRECISION, new_value DOUBLE PRECISION, delta DOUBLE PRECISION, ci_lo "
    "DOUBLE PRECISION, ci_hi DOUBLE PRECISION, PRIMARY KEY (run_id, kind, "
    "rank))",
    /* covering: zamcap history reads causes through it alone */
    "CREATE INDEX causes_fp ON causes (fingerprint, run_id, delta, unit)",
    "CREATE TABLE cause_pairs (run_id BIGINT NOT NULL REFERENCES runs (id) "
    "ON DELETE CASCADE, kind TEXT NOT NULL, rank INTEGER NOT NULL, pair "
    "INTEGER NOT NULL, delta DOUBLE PRECISION, PRIMARY KEY (run_id, kind, "
    "rank, pair))",
    "CREATE TABLE end_to_end (run_id BIGINT NOT NULL REFERENCES runs (id) ON "
    "DELETE CASCADE, metric TEXT NOT NULL, step INTEGER, unit TEXT, old_mean "
    "DOUBLE PRECISION, new_mean DOUBLE PRECISION, delta DOUBLE PRECISION, "
    "ci_lo DOUBLE PRECISION, ci_hi DOUBLE PRECISION, pct DOUBLE PRECISION, "
    "significant INTEGER)",
    "CREATE INDEX end_to_end_run ON end_to_end (run_id)",
    NULL,
};
/* The tracker (tracker.c): each fingerprint's issue (issue is its URL),
 * its key in the tracker, its state, and since when a process has been
 * filing it; and what was filed, once per fingerprint, run and action. */
static const char *const migration2[] = {
    "ALTER TABLE regressions ADD COLUMN tracker TEXT",
    "ALTER TABLE regressions ADD COLUMN issue_key TEXT",
    "ALTER TABLE regressions ADD COLUMN issue_state TEXT",
    "ALTER TABLE regressions ADD COLUMN issue_claimed TEXT",
    "CREATE TABLE tracker_log (id @ID@, fingerprint TEXT NOT NULL REFERENCES "
    "regressions (fingerprint), run_id BIGINT NOT NULL, action TEXT NOT "
    "NULL, tracker TEXT, issue TEXT, at TEXT NOT NULL, UNIQUE (fingerprint, "
    "run_id, action))",
    NULL,
};
/* What the dashboard draws beyond the end-to-end rows: each run's web
 * vitals (report.json's vitals[], the whole run's and each step's), and
 * each bisection (zamcap bisect's report.json): its ends, and per cause
 * the culprit build, its commit, its Δ and the cause's fingerprint, or
 * why it stayed undecided. */
static const char *const migration3[] = {
    "CREATE TABLE vitals (run_id BIGINT NOT NULL REFERENCES runs (id) ON "
    "DELETE CASCADE, metric TEXT NOT NULL, step INTEGER, unit TEXT, old_mean "
    "DOUBLE PRECISION, new_mean DOUBLE PRECISION, delta DOUBLE PRECISION, "
    "ci_lo DOUBLE PRECISION, ci_hi DOUBLE PRECISION, significant INTEGER, "
    "pairs INTEGER)",
    "CREATE INDEX vitals_run ON vitals (run_id)",
    "CREATE TABLE bisects (id @ID@, recorded_at TEXT NOT NULL, scenario TEXT "
    "NOT NULL, scenario_file TEXT, good_build TEXT, bad_build TEXT, builds "
    "INTEGER, host TEXT, chrome TEXT, zamcap_version TEXT, exit_code "
    "INTEGER, verdict TEXT, traced_runs INTEGER, report_dir TEXT)",
    "CREATE INDEX bisects_scenario ON bisects (scenario, id)",
    "CREATE TABLE bisect_causes (bisect_id BIGINT NOT NULL REFERENCES "
    "bisects (id) ON DELETE CASCADE, rank INTEGER NOT NULL, state TEXT NOT "
    "NULL, kind TEXT, label TEXT, name TEXT, file TEXT, line INTEGER, "
    "fingerprint TEXT, build TEXT, commit_sha TEXT, previous TEXT, delta "
    "DOUBLE PRECISION, ci_lo DOUBLE PRECISION, ci_hi DOUBLE PRECISION, pairs "
    "INTEGER, changed TEXT, why TEXT, PRIMARY KEY (bisect_id, rank))",
    "CREATE INDEX bisect_causes_fp ON bisect_causes (fingerprint)",
    NULL,
};
static const char *const *const migrations[AGENT_HISTORY_SCHEMA] = {
    migration1,
    migration2,
    migration3,
};

static enum zc_err run_ddl(struct agent_db *db, const char *sql) {
  const char *id = agent_db_kind(db) == AGENT_DB_PG ? "BIGSERIAL PRIMARY KEY"
                                                    : "INTEGER PRIMARY KEY";
  char buf[2048];
  const char *at = strstr(sql, "@ID@");
  if (at)
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - sql), sql, id, at + 4);
  return agent_db_run(db, at ? buf : sql, 0, NULL, NULL);
}

/* A schema newer than this zamcap's (r: its last zamcap_schema row). */
static enum zc_err newer(long have, const struct agent_rows *r,
                         const char *name) {
  if (have <= AGENT_HISTORY_SCHEMA) return ZC_OK;
  return zc_fail(ZC_E_USAGE,
                 "history %s: written by a newer zamcap (%s): its schema is "
                 "version %ld, this zamcap %s reads versions up to %d; "
                 "upgrade zamcap, or give another --history",
                 name, agent_rows_get(r, 0, 1), have, ZAMCAP_VERSION,
                 AGENT_HISTORY_SCHEMA);
}

/* Inside the migration's transaction: the version the database is at,
 * refused when newer than ours, then the missing migrations. */
static enum zc_err migrate_locked(struct agent_db *db, const char *name) {
  enum zc_err e = agent_db_zamcap(db, 1);
  if (e) return e;
  e = agent_db_run(
      db,
      "CREATE TABLE IF NOT EXISTS zamcap_schema (version INTEGER PRIMARY KEY, "
      "zamcap TEXT NOT NULL, applied_at TEXT NOT NULL)",
      0, NULL, NULL);
  struct agent_rows r;
  if (!e)
    e = agent_db_run(db,
                     "SELECT version, zamcap FROM zamcap_schema ORDER BY "
                     "version DESC LIMIT 1",
                     0, NULL, &r);
  if (e) return e;
  long have = r.n ? strtol(agent_rows_get(&r, 0, 0), NULL, 10) : 0;
  e = newer(have, &r, name);
  agent_rows_free(&r);
  for (long v = have + 1; !e && v <= AGENT_HISTORY_SCHEMA; v++) {
    for (const char *const *s = migrations[v - 1]; !e && *s; s++)
      e = run_ddl(db, *s);
    char ver[24], at[32];
    snprintf(ver, sizeof ver, "%ld", v);
    agent_hist_iso(at, sizeof at, 0);
    const char *p[] = {ver, ZAMCAP_VERSION, at};
    if (!e)
      e = agent_db_run(db,
                       "INSERT INTO zamcap_schema (version, zamcap, "
                       "applied_at) VALUES ($1, $2, $3)",
                       3, p, NULL);
  }
  return e;
}

/* One migrator at a time: SQLite's write lock, PostgreSQL's advisory
 * lock (CREATE TABLE IF NOT EXISTS alone races there). */
static enum zc_err migrate(struct agent_db *db, const char *name) {
  enum zc_err e = agent_db_begin(db);
  if (!e && agent_db_kind(db) == AGENT_DB_PG)
    e = agent_db_run(db, "SELECT pg_advisory_xact_lock(7405240001)", 0, NULL,
                     NULL);
  if (!e) e = migrate_locked(db, name);
  if (!e) e = agent_db_commit(db);
  if (e) agent_db_rollback(db);
  return e;
}

long agent_hist_schema(struct agent_db *db) {
  struct agent_rows r;
  if (agent_db_run(db, "SELECT max(version) FROM zamcap_schema", 0, NULL, &r))
    return -1;
  const char *v = agent_rows_get(&r, 0, 0);
  long have = v ? strtol(v, NULL, 10) : 0;
  agent_rows_free(&r);
  return have;
}

enum zc_err agent_history_open(const char *spec, struct agent_history **out) {
  *out = NULL;
  struct agent_db *db = NULL;
  enum zc_err e = agent_db_open(spec, &db);
  if (e) return e;
  char *name = zc_xstrdup(spec);
  zc_scrub(name);
  e = migrate(db, name);
  free(name);
  if (e) {
    agent_db_close(db);
    return e;
  }
  *out = zc_xcalloc(1, sizeof **out);
  (*out)->db = db;
  return ZC_OK;
}

void agent_history_close(struct agent_history *h) {
  if (!h) return;
  agent_db_close(h->db);
  free(h);
}

char *agent_history_default(const char *outdir) {
  char *copy = zc_xstrdup(outdir);
  /* "a/b/" names the folder b as "a/b" does */
  for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
    copy[n - 1] = '\0';
  const char *parent = dirname(copy);
  /* --out /tmp/x: in a folder every user writes in, the history there
   * may be another account's, its rows planted (a regression "already
   * filed" as an issue that the tracker then closes with this user's
   * token). */
  struct stat st;
  if (stat(parent, &st) == 0 && (st.st_mode & S_IWOTH)) {
    zc_fail(ZC_E_USAGE,
            "no default history in %s: every user can write there, so "
            "another account's history could pass for this one's (give "
            "--history FILE, or --no-history)",
            parent);
    free(copy);
    return NULL;
  }
  size_t n = strlen(parent) + sizeof "/history.db";
  char *p = zc_xmalloc(n);
  snprintf(p, n, "%s/history.db", parent);
  free(copy);
  return p;
}

enum zc_err agent_history_open_existing(const char *spec,
                                        struct agent_history **out) {
  *out = NULL;
  /* Reading makes no history where there is none. */
  if (!agent_db_is_pg(spec) && access(spec, F_OK))
    return zc_fail(ZC_E_USAGE, "history %s: no such file (give --history DB)",
                   spec);
  /* ... and changes none: no schema made or migrated, no WAL switch; a
   * history of another account, or on a read-only mount, reads as it
   * is. */
  struct agent_db *db = NULL;
  enum zc_err e = agent_db_open_read(spec, &db);
  if (e) return e;
  char *name = zc_xstrdup(spec);
  zc_scrub(name);
  e = agent_db_zamcap(db, 0);
  struct agent_rows r;
  if (!e)
    e = agent_db_run(db,
                     "SELECT version, zamcap FROM zamcap_schema ORDER BY "
                     "version DESC LIMIT 1",
                     0, NULL, &r);
  if (!e) {
    e = newer(r.n ? strtol(agent_rows_get(&r, 0, 0), NULL, 10) : 0, &r, name);
    agent_rows_free(&r);
  }
  free(name);
  if (e) {
    agent_db_close(db);
    return e;
  }
  *out = zc_xcalloc(1, sizeof **out);
  (*out)->db = db;
  return ZC_OK;
}
