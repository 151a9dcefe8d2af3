/* The history: every `run` and `compare` recorded in one database (SQLite
 * by default, zamcap-out/history.db beside the run folders; PostgreSQL for
 * a team), read back by `zamcap history`. A run is recorded from its
 * report.json once the reports are written, so the history holds exactly
 * what the report says. A cause is known across nights by its
 * fingerprint (agent_history_fingerprint), which survives renamed and
 * rehashed bundles.
 *
 * Ownership: arguments are borrowed; documents returned belong to the
 * caller (cJSON_Delete). */
#ifndef AGENT_HISTORY_H
#define AGENT_HISTORY_H

#include <stddef.h>

#include "zc.h"

struct cJSON;
struct agent_history;

/* The schema this zamcap writes and reads; a database at a higher
 * version (a newer zamcap's) is refused. */
#define AGENT_HISTORY_SCHEMA 3

/* The default history of a run folder: history.db in the folder that holds
 * it (zamcap-out/<time>/ -> zamcap-out/history.db; --out a/b -> a/history.db).
 * Caller frees. NULL (zc_errmsg says why) when every user can write in
 * that folder (--out /tmp/x): a history there could be another account's. */
char *agent_history_default(const char *outdir);

/* Opens (and on first use makes) the history spec names: a
 * postgresql:// URI, else a SQLite file (agent_db_open's checks); brings
 * its schema up to date in one transaction. A schema newer than this
 * zamcap's is ZC_E_USAGE, and the message names both versions; so is a
 * database that holds another program's tables and not zamcap's (it is
 * left as it was); an unreachable database is ZC_E_IO. */
enum zc_err agent_history_open(const char *spec, struct agent_history **out);
void agent_history_close(struct agent_history *h); /* NULL: nothing */

/* What the command line knows of a comparison beyond its report.json. */
struct agent_history_meta {
  const char *command;               /* "run", "compare" */
  const char *old_build, *new_build; /* URL or folder, as given */
  const char *old_label, *new_label; /* --old-label, --new-label, or NULL */
  const char *report_dir;            /* where the reports are */
  const char *recorded_at;           /* "2026-11-25T02:30:00Z"; NULL: now */
  /* report.json's inputs and environment when the report has none (a
   * compare of a run's folder takes them from the run's report), or NULL */
  const struct cJSON *inputs, *environment;
};

/* Records report (report.json, parsed) as one run, its causes, their
 * per-pair deltas and its end-to-end rows, in one transaction. *run_id
 * (may be NULL) gets the run's id. */
enum zc_err agent_history_add(struct agent_history *h,
                              const struct cJSON *report,
                              const struct agent_history_meta *m,
                              long long *run_id);

/* `zamcap history`'s document (schema zamcap-history/1, described in
 * docs/cmd/zamcap-history.md): the runs recorded and one regression per
 * fingerprint. scenario NULL: all; since_days <= 0: all time; a
 * fingerprint is recovered when its scenario had recover_after runs since
 * it was last a cause. */
enum zc_err agent_history_query(struct agent_history *h, const char *scenario,
                                double since_days, unsigned recover_after,
                                struct cJSON **out);

/* The runs the same filters cover, newest first (zamcap history
 * --list-runs): {id, at, scenario, host, old_label, new_label, verdict,
 * exit_code, causes, report_dir} each; a night's shards, whatever machine
 * ran them. */
enum zc_err agent_history_runs(struct agent_history *h, const char *scenario,
                               double since_days, struct cJSON **out);

/* What the history knows of one fingerprint, for report.json's `history`
 * of a cause: {fingerprint, nights (runs it was a cause in), first_seen,
 * last_seen, recent: its Δ in each of its scenario's last `last` runs,
 * oldest first, null where it was not a cause}. */
enum zc_err agent_history_seen(struct agent_history *h, const char *scenario,
                               const char *fingerprint, unsigned last,
                               struct cJSON **out);

/* A cause's fingerprint: FNV-1a 64 over "zamcap-fp/1", kind, scenario,
 * top-level function, name and file (ana_component'd: no origin, port or
 * content hash), each ended by a newline; when a field holds a newline,
 * over "zamcap-fp/2\n" and each field as LENGTH:BYTES instead, so that
 * no two causes share the string; 16 hex digits into out. */
void agent_history_fingerprint(const char *kind, const char *scenario,
                               const char *top, const char *name,
                               const char *file, char out[17]);

/* Records out/report.json in the history spec (a SQLite file or a
 * postgresql:// URI): m gives the command, the builds and their labels;
 * from (a run folder whose report.json gives the inputs, or NULL) fills
 * what the report lacks. Then adds each cause's `history` to report.json
 * and, when one was seen before and html is set, writes report.html
 * again; keep_json 0 removes report.json afterwards (it was written for
 * the history only). A history that cannot be used is a warning: the
 * run's exit code stands. Returns the run's id, 0 when not recorded. */
long long agent_history_record(const char *spec, const char *out,
                               const char *from,
                               const struct agent_history_meta *m, int html,
                               int keep_json);

/* Opens a history to read: one that does not exist is ZC_E_USAGE ("no such
 * file"), none is made, and nothing is changed (read-only: a history of
 * another account or on a read-only mount reads as it is); a database
 * without zamcap's schema is ZC_E_USAGE ("not a zamcap history"). */
enum zc_err agent_history_open_existing(const char *spec,
                                        struct agent_history **out);

/* ---- bisections (bisect.c) ---- */

/* Records a bisection: doc is zamcap bisect's report.json (schema
 * zamcap-bisect/1); m gives its folder (report_dir), its time
 * (recorded_at; NULL: now) and the ends' comparison's inputs and
 * environment (the flow's title, which names the scenario as the runs
 * name it, the host, Chrome). One row for the bisection, one per culprit's
 * cause (the culprit build, its commit, the build before, its Δ and the
 * cause's fingerprint) and per undecided cause, in one transaction.
 * *bisect_id (may be NULL) gets its id. */
enum zc_err agent_history_add_bisect(struct agent_history *h,
                                     const struct cJSON *doc,
                                     const struct agent_history_meta *m,
                                     long long *bisect_id);
/* Records the bisection doc, whose reports are in out (and the ends'
 * comparison in out/confirm/), in the history spec. A history that cannot
 * be used is a warning. Returns its id, 0 when not recorded. */
long long agent_history_record_bisect(const char *spec, const char *out,
                                      const struct cJSON *doc);
/* The scenario's bisections (since_days <= 0: all), oldest first: {id,
 * at, good, bad, builds, host, chrome, exit_code, verdict, traced_runs,
 * report_dir, causes: [{state ("culprit", "undecided"), kind, label,
 * name, file, line, fingerprint, build, commit, previous, delta_ms,
 * ci_lo, ci_hi, pairs, changed: [...], why}]}. */
enum zc_err agent_history_bisects(struct agent_history *h, const char *scenario,
                                  double since_days, struct cJSON **out);

/* ---- the dashboard's series (series.c) ---- */

/* The scenarios with runs in the last since_days days (<= 0: all), in
 * strcmp order of name: [{scenario, runs, first, last}]. */
enum zc_err agent_history_scenarios(struct agent_history *h, double since_days,
                                    struct cJSON **out);
/* One scenario's runs and series over the same days: {scenario, runs:
 * [{id, at, command, host, chrome, old_label, new_label, verdict,
 * exit_code, causes, report_dir}] oldest first, series: [{metric, source
 * ("end_to_end", "vitals"), unit, points: [[run, old, new, delta, ci_lo,
 * ci_hi, significant], ...]}]}, where run indexes runs and a value is null
 * where the run has none. Whole-run rows only (no step's). */
enum zc_err agent_history_series(struct agent_history *h, const char *scenario,
                                 double since_days, struct cJSON **out);

/* ---- the tracker's rows (issues.c): every statement the tracker needs ---- */

/* A run's scenario and time; ZC_E_IO when it is not in the history. */
enum zc_err agent_history_run_of(struct agent_history *h, long long run,
                                 char *scenario, size_t scap, char *at,
                                 size_t acap);

/* A cause as the tracker sees it: its fingerprint, function, change and
 * unit; for a recovered one, its issue's address and key instead. */
struct agent_hcause {
  char *fp, *name, *unit, *issue, *key;
  double delta;
};
void agent_hcauses_free(struct agent_hcause *c, size_t n);
/* The causes of a run, each fingerprint once (its first), by kind and
 * rank. */
enum zc_err agent_history_run_causes(struct agent_history *h, long long run,
                                     struct agent_hcause **out, size_t *n);
/* The scenario's open issues in tracker whose fingerprint was no cause in
 * its last k runs (none while it has fewer than k). */
enum zc_err agent_history_recovered(struct agent_history *h,
                                    const char *scenario, const char *tracker,
                                    unsigned k, struct agent_hcause **out,
                                    size_t *n);

/* A fingerprint's issue: its state ("", "filing", "open", "recovered",
 * "closed"), address, key and tracker ("" where none). */
struct agent_issue {
  char state[16], url[1024], key[64], tracker[300];
};
enum zc_err agent_history_issue(struct agent_history *h, const char *fp,
                                struct agent_issue *out);

/* The calls below return 1 when they changed a row, 0 when the row was
 * not in the state they change from, -1 on an error (zc_errmsg). */

/* Claims fp for filing, for tracker: when it has no issue, or a claim
 * older than stale_s seconds (its process died). One conditional UPDATE:
 * of two processes, one gets it. claim gets the claim ("<time>
 * <pid>@<host>") for agent_history_unclaim. */
int agent_history_claim(struct agent_history *h, const char *fp,
                        const char *tracker, long stale_s, char claim[128]);
/* Gives the claim back: nothing was filed. */
int agent_history_unclaim(struct agent_history *h, const char *fp,
                          const char *claim);
/* fp's issue was filed: open, at url, key. */
int agent_history_filed(struct agent_history *h, const char *fp,
                        const char *url, const char *key);
/* fp's issue from state from (NULL: whatever it is) to state to. */
int agent_history_move(struct agent_history *h, const char *fp,
                       const char *from, const char *to);
/* tracker_log: action ("filed", "comment", "returned", "recovered") on fp
 * in run, once: 1 recorded now, 0 recorded before. */
int agent_history_log(struct agent_history *h, const char *fp, long long run,
                      const char *action, const char *tracker,
                      const char *issue);
/* Takes a log row back (its action was not sent); an error is a warning. */
void agent_history_unlog(struct agent_history *h, const char *fp, long long run,
                         const char *action);
/* Whether run filed or reopened fp's issue already (its text says the
 * rest). */
int agent_history_logged_new(struct agent_history *h, const char *fp,
                             long long run);

#endif
