/* The history's SQL layer (histdb.h): SQLite and PostgreSQL behind one
 * "run this statement with these text parameters". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "histdb.h"

struct agent_db {
  enum agent_db_kind kind;
  sqlite3 *lite;
  PGconn *pg;
  char *name; /* for messages: the file, or the URI (secrets masked) */
};

void agent_rows_free(struct agent_rows *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n * r->cols; i++)
    free(r->v[i]);
  free(r->v);
  memset(r, 0, sizeof *r);
}

const char *agent_rows_get(const struct agent_rows *r, size_t i, size_t j) {
  if (i >= r->n || j >= r->cols) return NULL;
  return r->v[i * r->cols + j];
}

int agent_db_is_pg(const char *spec) {
  return !strncmp(spec, "postgresql://", 13) ||
         !strncmp(spec, "postgres://", 11);
}

enum agent_db_kind agent_db_kind(const struct agent_db *db) {
  return db->kind;
}

void agent_db_close(struct agent_db *db) {
  if (!db) return;
  if (db->lite) sqlite3_close(db->lite);
  if (db->pg) PQfinish(db->pg);
  free(db->name);
  free(db);
}

/* libpq's messages end in a newline; ours do not. */
static const char *pg_msg(PGconn *c) {
  static char buf[1024];
  snprintf(buf, sizeof buf, "%s", PQerrorMessage(c));
  size_t n = strlen(buf);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
    buf[--n] = '\0';
  return buf;
}

static enum zc_err open_pg(struct agent_db *db, const char *spec) {
  zc_url_secrets(spec); /* a password in the URI is never shown */
  /* A wait bounded by default; the URI's own connect_timeout, later in
   * the list, wins. */
  const char *const keys[] = {"connect_timeout", "dbname", NULL};
  const char *const vals[] = {"10", spec, NULL};
  db->pg = PQconnectdbParams(keys, vals, 1);
  if (!db->pg) return zc_fail(ZC_E_NOMEM, "history %s: out of memory", spec);
  if (PQstatus(db->pg) != CONNECTION_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot connect: %s", db->name,
                   pg_msg(db->pg));
  /* Notices (a table that already exists) are not the user's business. */
  PQclear(PQexec(db->pg, "SET client_min_messages = warning"));
  return ZC_OK;
}

/* How long a SQLite writer waits for another before it fails. */
enum { BUSY_MS = 30000 };

static enum zc_err open_lite(struct agent_db *db, const char *spec) {
  int rc = sqlite3_open_v2(spec, &db->lite,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc != SQLITE_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot open: %s", spec,
                   db->lite ? sqlite3_errmsg(db->lite) : sqlite3_errstr(rc));
  /* Parallel runs on one machine: readers never block the writer (WAL),
   * and a writer waits up to 30 s for another rather than fail. */
  sqlite3_busy_timeout(db->lite, BUSY_MS);
  char *err = NULL;
  /* Going to WAL takes the file from a read lock to an exclusive one,
   * and SQLite answers BUSY at once, without its busy handler, when
   * another connection waits for the write lock too (a fresh file that
   * several shards open at once): tried again until the same timeout. */
  double t0 = zc_now_ms();
  while ((rc = sqlite3_exec(db->lite, "PRAGMA journal_mode=WAL", NULL, NULL,
                            &err)) == SQLITE_BUSY &&
         zc_now_ms() - t0 < BUSY_MS) {
    sqlite3_free(err);
    err = NULL;
    zc_sleep_ms(5 + (double)((unsigned long)(zc_now_ms() * 1e3) % 20));
  }
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db->lite,
                      "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", NULL,
                      NULL, &err);
  if (rc != SQLITE_OK) {
    enum zc_err e = zc_fail(ZC_E_IO, "history %s: %s", spec,
                            err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return e;
  }
  return ZC_OK;
}

enum zc_err agent_db_open(const char *spec, struct agent_db **out) {
  *out = NULL;
  struct agent_db *db = zc_xcalloc(1, sizeof *db);
  db->kind = agent_db_is_pg(spec) ? AGENT_DB_PG : AGENT_DB_SQLITE;
  db->name = zc_xstrdup(spec);
  zc_scrub(db->name);
  enum zc_err e =
      db->kind == AGENT_DB_PG ? open_pg(db, spec) : open_lite(db, spec);
  if (e) {
    agent_db_close(db);
    return e;
  }
  *out = db;
  return ZC_OK;
}

/* ---- reading only ---- */

/* SQLite's URI of a file opened as immutable: the path with '%', '?' and
 * '#' (and what is not printable) percent-encoded. */
static char *immutable_uri(const char *path) {
  size_t n = strlen(path);
  char *u = zc_xmalloc(3 * n + sizeof "file:?immutable=1");
  char *o = u + sprintf(u, "file:");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    o += *p <= ' ' || *p >= 0x7f || strchr("%?#", *p) ? sprintf(o, "%%%02X", *p)
                                                      : sprintf(o, "%c", *p);
  strcpy(o, "?immutable=1");
  return u;
}

/* A SQLite file to read: nothing made, no WAL switch. A WAL history
 * whose -shm cannot be made (another account's folder, a read-only
 * mount) cannot be read so, short of its -shm and -wal being there:
 * then it is read as immutable, as it is on disk (a writer at work
 * meanwhile may go unseen). */
static enum zc_err open_lite_read(struct agent_db *db, const char *spec) {
  int rc = sqlite3_open_v2(spec, &db->lite, SQLITE_OPEN_READONLY, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db->lite, BUSY_MS);
    rc = sqlite3_exec(db->lite, "SELECT count(*) FROM sqlite_master", NULL,
                      NULL, NULL);
    if (rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN) {
      sqlite3_close(db->lite);
      char *uri = immutable_uri(spec);
      rc = sqlite3_open_v2(uri, &db->lite,
                           SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
      free(uri);
    }
  }
  if (rc != SQLITE_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot open to read: %s", spec,
                   db->lite ? sqlite3_errmsg(db->lite) : sqlite3_errstr(rc));
  /* a reader of a whole history (the dashboard reads it scenario by
   * scenario, each scattered over the file) keeps 64 MB of its pages, not
   * SQLite's 2 MB */
  sqlite3_busy_timeout(db->lite, BUSY_MS);
  sqlite3_exec(db->lite, "PRAGMA cache_size = -65536", NULL, NULL, NULL);
  return ZC_OK;
}

enum zc_err agent_db_open_read(const char *spec, struct agent_db **out) {
  *out = NULL;
  struct agent_db *db = zc_xcalloc(1, sizeof *db);
  db->kind = agent_db_is_pg(spec) ? AGENT_DB_PG : AGENT_DB_SQLITE;
  db->name = zc_xstrdup(spec);
  zc_scrub(db->name);
  enum zc_err e =
      db->kind == AGENT_DB_PG ? open_pg(db, spec) : open_lite_read(db, spec);
  /* a reader changes nothing, whatever it is asked */
  if (!e && db->kind == AGENT_DB_PG)
    PQclear(PQexec(db->pg, "SET default_transaction_read_only = on"));
  if (e) {
    agent_db_close(db);
    return e;
  }
  *out = db;
  return ZC_OK;
}

static enum zc_err run_pg(struct agent_db *db, const char *sql, int np,
                          const char *const *p, struct agent_rows *rows) {
  PGresult *r = PQexecParams(db->pg, sql, np, NULL, p, NULL, NULL, 0);
  ExecStatusType st = PQresultStatus(r);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    enum zc_err e = zc_fail(ZC_E_IO, "history %s: %s", db->name,
                            r ? PQresultErrorMessage(r) : pg_msg(db->pg));
    PQclear(r);
    return e;
  }
  if (rows && st == PGRES_TUPLES_OK) {
    rows->n = (size_t)PQntuples(r);
    rows->cols = (size_t)PQnfields(r);
    rows->v = zc_xcalloc(rows->n * rows->cols + 1, sizeof *rows->v);
    for (size_t i = 0; i < rows->n; i++)
      for (size_t j = 0; j < rows->cols; j++)
        if (!PQgetisnull(r, (int)i, (int)j))
          rows->v[i * rows->cols + j] =
              zc_xstrdup(PQgetvalue(r, (int)i, (int)j));
  }
  PQclear(r);
  return ZC_OK;
}

/* One row of a SQLite statement onto rows. */
static void lite_row(sqlite3_stmt *st, struct agent_rows *rows, size_t *cap) {
  size_t cols = (size_t)sqlite3_column_count(st);
  rows->cols = cols;
  ZC_GROW(rows->v, *cap, (rows->n + 1) * cols + 1);
  for (size_t j = 0; j < cols; j++) {
    const unsigned char *t = sqlite3_column_text(st, (int)j);
    rows->v[rows->n * cols + j] = t ? zc_xstrdup((const char *)t) : NULL;
  }
  rows->n++;
}

static enum zc_err run_lite(struct agent_db *db, const char *sql, int np,
                            const char *const *p, struct agent_rows *rows) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db->lite, sql, -1, &st, NULL);
  for (int i = 0; rc == SQLITE_OK && i < np; i++) {
    char name[16];
    snprintf(name, sizeof name, "$%d", i + 1);
    int at = sqlite3_bind_parameter_index(st, name);
    if (!at) continue; /* a parameter the statement does not use */
    rc = p[i] ? sqlite3_bind_text(st, at, p[i], -1, SQLITE_TRANSIENT)
              : sqlite3_bind_null(st, at);
  }
  size_t cap = 0;
  while (rc == SQLITE_OK || rc == SQLITE_ROW) {
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && rows) lite_row(st, rows, &cap);
  }
  enum zc_err e = ZC_OK;
  if (rc != SQLITE_DONE)
    e = zc_fail(ZC_E_IO, "history %s: %s", db->name, sqlite3_errmsg(db->lite));
  sqlite3_finalize(st);
  return e;
}

enum zc_err agent_db_run(struct agent_db *db, const char *sql, int np,
                         const char *const *p, struct agent_rows *rows) {
  if (rows) memset(rows, 0, sizeof *rows);
  enum zc_err e = db->kind == AGENT_DB_PG ? run_pg(db, sql, np, p, rows)
                                          : run_lite(db, sql, np, p, rows);
  if (e && rows) agent_rows_free(rows);
  return e;
}

enum zc_err agent_db_begin(struct agent_db *db) {
  return agent_db_run(db, db->kind == AGENT_DB_PG ? "BEGIN" : "BEGIN IMMEDIATE",
                      0, NULL, NULL);
}

enum zc_err agent_db_commit(struct agent_db *db) {
  return agent_db_run(db, "COMMIT", 0, NULL, NULL);
}

void agent_db_rollback(struct agent_db *db) {
  /* After an error the transaction may be gone already: nothing to say. */
  if (db->kind == AGENT_DB_PG)
    PQclear(PQexec(db->pg, "ROLLBACK"));
  else
    sqlite3_exec(db->lite, "ROLLBACK", NULL, NULL, NULL);
}
