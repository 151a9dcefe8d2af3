/* The history's SQL layer: one small interface over two backends, SQLite
 * (a file) and PostgreSQL (libpq, a postgresql:// or postgres:// URI).
 * Statements are written once, with $1, $2 ... for their parameters, and
 * run as they are on both; every value goes in and comes out as text
 * (NULL is SQL's NULL), the columns' types convert it.
 *
 * Ownership: arguments are borrowed; rows belong to the caller
 * (agent_rows_free). */
#ifndef AGENT_HISTDB_H
#define AGENT_HISTDB_H

#include <stddef.h>

#include "zc.h"

enum agent_db_kind { AGENT_DB_SQLITE, AGENT_DB_PG };

struct agent_db;

/* A statement's result: n rows of cols values, row-major; a value is NULL
 * for SQL's NULL. */
struct agent_rows {
  size_t n, cols;
  char **v;
};
void agent_rows_free(struct agent_rows *r);
/* Row i's column j, or NULL. */
const char *agent_rows_get(const struct agent_rows *r, size_t i, size_t j);

/* Whether spec names a PostgreSQL database (postgresql://, postgres://,
 * in any case). */
int agent_db_is_pg(const char *spec);
/* Whether spec is one zamcap takes: a PostgreSQL URI or a SQLite file,
 * not a URI of another scheme nor a libpq keyword string (either would
 * become a file named after it); ZC_E_USAGE with the reason. */
enum zc_err agent_db_spec_check(const char *spec);

/* Opens the database spec names to write: a PostgreSQL URI (its
 * user:password masked in every message), else a SQLite file, made if
 * absent, in WAL mode with a busy timeout (parallel runs on one machine
 * wait for each other rather than fail), never through a link; in a
 * folder other users can write in (sticky, like /tmp), the file and its
 * -wal, -shm and -journal must be this user's (ZC_E_USAGE otherwise). On
 * error zc_errmsg() names the database and says why (ZC_E_IO). */
enum zc_err agent_db_open(const char *spec, struct agent_db **out);
/* The same to read only: nothing made or changed (no WAL switch), a file
 * of another account or on a read-only mount is read as it is. */
enum zc_err agent_db_open_read(const char *spec, struct agent_db **out);
void agent_db_close(struct agent_db *db); /* NULL: nothing */
enum agent_db_kind agent_db_kind(const struct agent_db *db);

/* Whether db is zamcap's: it has zamcap_schema, or no table at all
 * (empty_ok: a history about to be made). One that holds another
 * program's tables is ZC_E_USAGE ("not a zamcap history"), and writers
 * leave it as it was. */
enum zc_err agent_db_zamcap(struct agent_db *db, int empty_ok);

/* Runs one statement with np text parameters ($1 ...); rows (may be NULL)
 * gets what it returns. On error zc_errmsg() has the database's message. */
enum zc_err agent_db_run(struct agent_db *db, const char *sql, int np,
                         const char *const *p, struct agent_rows *rows);

/* A transaction: one writer at a time on SQLite (BEGIN IMMEDIATE), a
 * plain BEGIN on PostgreSQL. */
enum zc_err agent_db_begin(struct agent_db *db);
enum zc_err agent_db_commit(struct agent_db *db);
void agent_db_rollback(struct agent_db *db);

/* The history's handle (history.h), shared by the history's files. */
struct agent_history {
  struct agent_db *db;
};

/* The id from which a run is among its scenario's last k runs: a
 * fingerprint last seen before it has recovered. 0 when there are not k
 * runs (or on an error). */
long long agent_hist_recent_from(struct agent_db *db, const char *scenario,
                                 unsigned k);
/* Now, less ago seconds, as the history spells times (UTC, ISO 8601). */
void agent_hist_iso(char *out, size_t cap, long ago);
/* The schema version the database is at (open.c): the tables of later
 * migrations are not there in an older one a reader did not migrate; -1
 * on an error. */
long agent_hist_schema(struct agent_db *db);
/* The scenario's name in the history (record.c), from report.json's
 * inputs: its title, else its file's name without .json; "" for traces
 * compared with no run around them. */
struct cJSON;
void agent_hist_scenario_key(const struct cJSON *inputs, char *out, size_t cap);

#endif
