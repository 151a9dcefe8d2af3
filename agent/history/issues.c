/* The tracker's rows (history.h): which fingerprint has which issue in
 * which state, who is filing it, and what was sent for which run. Every
 * statement the tracker needs is here, so that the outbox writes no SQL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "histdb.h"
#include "history.h"

long long agent_hist_recent_from(struct agent_db *db, const char *scenario,
                                 unsigned k) {
  char off[24];
  snprintf(off, sizeof off, "%u", k ? k - 1 : 0);
  const char *p[] = {scenario, off};
  struct agent_rows r;
  if (agent_db_run(db,
                   "SELECT id FROM runs WHERE scenario = $1 ORDER BY id DESC "
                   "LIMIT 1 OFFSET $2",
                   2, p, &r))
    return 0;
  long long id = r.n ? strtoll(agent_rows_get(&r, 0, 0), NULL, 10) : 0;
  agent_rows_free(&r);
  return id;
}

void agent_hist_iso(char *out, size_t cap, long ago) {
  time_t t = time(NULL) - ago;
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Runs sql (params p) and says whether it returned a row: 1, 0, or -1 on
 * an error. */
static int returned(struct agent_history *h, const char *sql, int np,
                    const char *const *p) {
  struct agent_rows r;
  if (agent_db_run(h->db, sql, np, p, &r)) return -1;
  int got = r.n > 0;
  agent_rows_free(&r);
  return got;
}

static void copy(char *out, size_t cap, const char *v) {
  snprintf(out, cap, "%s", v ? v : "");
}

enum zc_err agent_history_run_of(struct agent_history *h, long long run,
                                 char *scenario, size_t scap, char *at,
                                 size_t acap) {
  char id[24];
  snprintf(id, sizeof id, "%lld", run);
  const char *p[] = {id};
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      h->db, "SELECT scenario, recorded_at FROM runs WHERE id = $1", 1, p, &r);
  if (e) return e;
  if (!r.n) {
    agent_rows_free(&r);
    return zc_fail(ZC_E_IO, "run %s is not in the history", id);
  }
  copy(scenario, scap, agent_rows_get(&r, 0, 0));
  copy(at, acap, agent_rows_get(&r, 0, 1));
  agent_rows_free(&r);
  return ZC_OK;
}

void agent_hcauses_free(struct agent_hcause *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) {
    free(c[i].fp);
    free(c[i].name);
    free(c[i].unit);
    free(c[i].issue);
    free(c[i].key);
  }
  free(c);
}

static char *dup_or_null(const char *s) {
  return s ? zc_xstrdup(s) : NULL;
}

enum zc_err agent_history_run_causes(struct agent_history *h, long long run,
                                     struct agent_hcause **out, size_t *n) {
  *out = NULL;
  *n = 0;
  char id[24];
  snprintf(id, sizeof id, "%lld", run);
  const char *p[] = {id};
  struct agent_rows r;
  enum zc_err e = agent_db_run(h->db,
                               "SELECT fingerprint, name, delta, unit FROM "
                               "causes WHERE run_id = $1 ORDER BY kind, rank",
                               1, p, &r);
  if (e) return e;
  struct agent_hcause *c = zc_xcalloc(r.n ? r.n : 1, sizeof *c);
  size_t k = 0;
  for (size_t i = 0; i < r.n; i++) {
    const char *fp = agent_rows_get(&r, i, 0);
    int again = 0; /* a function twice in one run: once */
    for (size_t j = 0; j < k && !again; j++)
      again = !strcmp(c[j].fp, fp);
    if (again) continue;
    const char *d = agent_rows_get(&r, i, 2);
    c[k++] =
        (struct agent_hcause){.fp = zc_xstrdup(fp),
                              .name = dup_or_null(agent_rows_get(&r, i, 1)),
                              .unit = dup_or_null(agent_rows_get(&r, i, 3)),
                              .delta = d ? strtod(d, NULL) : 0};
  }
  agent_rows_free(&r);
  *out = c;
  *n = k;
  return ZC_OK;
}

enum zc_err agent_history_issue(struct agent_history *h, const char *fp,
                                struct agent_issue *out) {
  struct agent_rows rs;
  const char *p[] = {fp};
  enum zc_err e = agent_db_run(h->db,
                               "SELECT issue_state, issue, issue_key, "
                               "tracker FROM regressions WHERE "
                               "fingerprint = $1",
                               1, p, &rs);
  if (e) return e;
  copy(out->state, sizeof out->state, agent_rows_get(&rs, 0, 0));
  copy(out->url, sizeof out->url, agent_rows_get(&rs, 0, 1));
  copy(out->key, sizeof out->key, agent_rows_get(&rs, 0, 2));
  copy(out->tracker, sizeof out->tracker, agent_rows_get(&rs, 0, 3));
  agent_rows_free(&rs);
  return ZC_OK;
}

int agent_history_claim(struct agent_history *h, const char *fp,
                        const char *tracker, long stale_s, char claim[128]) {
  char stale[40], host[64] = "";
  agent_hist_iso(claim, 40, 0);
  agent_hist_iso(stale, sizeof stale, stale_s);
  gethostname(host, sizeof host - 1);
  size_t l = strlen(claim);
  snprintf(claim + l, 128 - l, " %ld@%s", (long)getpid(), host);
  const char *p[] = {fp, claim, tracker, stale};
  return returned(h,
                  "UPDATE regressions SET issue_state = 'filing', "
                  "issue_claimed = $2, tracker = $3 WHERE fingerprint = $1 "
                  "AND (issue_state IS NULL OR (issue_state = 'filing' AND "
                  "issue_claimed < $4)) RETURNING fingerprint",
                  4, p);
}

int agent_history_unclaim(struct agent_history *h, const char *fp,
                          const char *claim) {
  const char *p[] = {fp, claim};
  return returned(h,
                  "UPDATE regressions SET issue_state = NULL, issue_claimed = "
                  "NULL WHERE fingerprint = $1 AND issue_claimed = $2 "
                  "RETURNING fingerprint",
                  2, p);
}

int agent_history_filed(struct agent_history *h, const char *fp,
                        const char *url, const char *key) {
  const char *p[] = {fp, url, key};
  return returned(h,
                  "UPDATE regressions SET issue_state = 'open', issue = $2, "
                  "issue_key = $3, issue_claimed = NULL WHERE fingerprint = "
                  "$1 RETURNING fingerprint",
                  3, p);
}

int agent_history_move(struct agent_history *h, const char *fp,
                       const char *from, const char *to) {
  if (!from) {
    const char *p[] = {fp, to};
    return returned(h,
                    "UPDATE regressions SET issue_state = $2 WHERE "
                    "fingerprint = $1 RETURNING fingerprint",
                    2, p);
  }
  const char *p[] = {fp, to, from};
  return returned(h,
                  "UPDATE regressions SET issue_state = $2 WHERE fingerprint "
                  "= $1 AND issue_state = $3 RETURNING fingerprint",
                  3, p);
}

int agent_history_log(struct agent_history *h, const char *fp, long long run,
                      const char *action, const char *tracker,
                      const char *issue) {
  char at[40], id[24];
  agent_hist_iso(at, sizeof at, 0);
  snprintf(id, sizeof id, "%lld", run);
  const char *p[] = {fp, id, action, tracker, issue, at};
  return returned(h,
                  "INSERT INTO tracker_log (fingerprint, run_id, action, "
                  "tracker, issue, at) VALUES ($1, $2, $3, $4, $5, $6) ON "
                  "CONFLICT DO NOTHING RETURNING id",
                  6, p);
}

void agent_history_unlog(struct agent_history *h, const char *fp, long long run,
                         const char *action) {
  char id[24];
  snprintf(id, sizeof id, "%lld", run);
  const char *p[] = {fp, id, action};
  if (agent_db_run(h->db,
                   "DELETE FROM tracker_log WHERE fingerprint = $1 AND run_id "
                   "= $2 AND action = $3",
                   3, p, NULL))
    zc_log(0, "warning: %s", zc_errmsg());
}

int agent_history_logged_new(struct agent_history *h, const char *fp,
                             long long run) {
  char id[24];
  snprintf(id, sizeof id, "%lld", run);
  const char *p[] = {fp, id};
  return returned(h,
                  "SELECT id FROM tracker_log WHERE fingerprint = $1 AND "
                  "run_id = $2 AND action IN ('filed', 'returned')",
                  2, p);
}

enum zc_err agent_history_recovered(struct agent_history *h,
                                    const char *scenario, const char *tracker,
                                    unsigned k, struct agent_hcause **out,
                                    size_t *n) {
  *out = NULL;
  *n = 0;
  long long from = agent_hist_recent_from(h->db, scenario, k);
  if (!from) return ZC_OK;
  struct agent_rows r;
  const char *p[] = {scenario, tracker};
  enum zc_err e = agent_db_run(
      h->db,
      "SELECT g.fingerprint, g.issue, g.issue_key, g.name, (SELECT "
      "max(c.run_id) FROM causes c WHERE c.fingerprint = g.fingerprint) FROM "
      "regressions g WHERE g.scenario = $1 AND g.issue_state = 'open' AND "
      "g.tracker = $2 ORDER BY g.fingerprint",
      2, p, &r);
  if (e) return e;
  struct agent_hcause *c = zc_xcalloc(r.n ? r.n : 1, sizeof *c);
  size_t m = 0;
  for (size_t i = 0; i < r.n; i++) {
    const char *last = agent_rows_get(&r, i, 4);
    if (last && strtoll(last, NULL, 10) >= from) continue;
    c[m++] =
        (struct agent_hcause){.fp = zc_xstrdup(agent_rows_get(&r, i, 0)),
                              .issue = dup_or_null(agent_rows_get(&r, i, 1)),
                              .key = dup_or_null(agent_rows_get(&r, i, 2)),
                              .name = dup_or_null(agent_rows_get(&r, i, 3))};
  }
  agent_rows_free(&r);
  *out = c;
  *n = m;
  return ZC_OK;
}
