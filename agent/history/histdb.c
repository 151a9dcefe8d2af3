/* The history's SQL layer (histdb.h): SQLite and PostgreSQL behind one
 * "run this statement with these text parameters". */
#define _DEFAULT_SOURCE /* S_ISVTX, strncasecmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "histdb.h"

struct agent_db {
  enum agent_db_kind kind;
  sqlite3 *lite;
  double busy_t0; /* when the current wait for a lock began */
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
  return !strncasecmp(spec, "postgresql://", 13) ||
         !strncasecmp(spec, "postgres://", 11);
}

enum zc_err agent_db_spec_check(const char *spec) {
  if (!spec[0]) return zc_fail(ZC_E_USAGE, "--history: empty");
  if (agent_db_is_pg(spec)) return ZC_OK;
  /* Anything else is a SQLite file; a URI of another scheme or a libpq
   * keyword string would silently become a file named after it, its
   * password in the name. */
  const char *colon = strstr(spec, "://");
  if (colon && strcspn(spec, "/") > (size_t)(colon - spec))
    return zc_fail(ZC_E_USAGE,
                   "--history %.*s://...: zamcap takes postgresql:// URIs "
                   "and SQLite files",
                   (int)(colon - spec), spec);
  size_t k = strspn(spec, "abcdefghijklmnopqrstuvwxyz_ \t");
  if (k && spec[k] == '=' && strcspn(spec, "/") > k)
    return zc_fail(ZC_E_USAGE,
                   "--history: a libpq keyword string (%.*s=...) is not "
                   "taken; give a postgresql:// URI or a SQLite file",
                   (int)strcspn(spec, " \t="), spec);
  return ZC_OK;
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

static enum zc_err open_pg(struct agent_db *db, const char *spec,
                           int readonly) {
  zc_url_secrets(spec); /* a password in the URI is never shown */
  /* A wait bounded by default; the URI's own connect_timeout, later in
   * the list, wins, as does its own password over PGPASSWORD's, which
   * main() took out of the environment so that no child inherits it. */
  const char *pw = zc_env_take("PGPASSWORD");
  const char *keys[4] = {"connect_timeout"}, *vals[4] = {"10"};
  size_t k = 1;
  if (pw) keys[k] = "password", vals[k++] = pw;
  keys[k] = "dbname", vals[k++] = spec;
  keys[k] = vals[k] = NULL;
  db->pg = PQconnectdbParams(keys, vals, 1);
  if (!db->pg) return zc_fail(ZC_E_NOMEM, "history %s: out of memory", spec);
  if (PQstatus(db->pg) != CONNECTION_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot connect: %s", db->name,
                   pg_msg(db->pg));
  /* Notices (a table that already exists) are not the user's business. */
  PQclear(PQexec(db->pg, "SET client_min_messages = warning"));
  /* a reader changes nothing, whatever it is asked */
  if (readonly)
    PQclear(PQexec(db->pg, "SET default_transaction_read_only = on"));
  return ZC_OK;
}

/* How long a SQLite writer waits for another before it fails. */
enum { BUSY_MS = 30000 };

/* SQLite's wait for another connection's lock: up to BUSY_MS, in short
 * sleeps, and not at all once zamcap is asked to stop (issue 38's class:
 * every wait honours the stop flag; sqlite3_busy_timeout's would not). */
static int lite_busy(void *arg, int n) {
  double *t0 = arg;
  if (n == 0) *t0 = zc_now_ms();
  if (zc_interrupted || zc_now_ms() - *t0 >= BUSY_MS) return 0;
  zc_sleep_ms(n < 10 ? 1 : 10);
  return 1;
}

/* A folder another user can write in (every user, or a sticky one):
 * there a history, its -wal or its -shm could be another account's. */
static int shared_folder(const char *spec, char *dir, size_t cap) {
  snprintf(dir, cap, "%s", spec);
  char *slash = strrchr(dir, '/');
  if (!slash)
    snprintf(dir, cap, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  struct stat st;
  return stat(dir, &st) == 0 && (st.st_mode & (S_IWOTH | S_ISVTX));
}

/* Before a SQLite history is opened to write: in a shared folder, the
 * file and its companions are this user's own, and no link; a folder
 * every user can write in and that is not sticky is refused (anyone may
 * swap the file there). */
static enum zc_err lite_mine(const char *spec) {
  char dir[4096], p[4200];
  struct stat st;
  if (lstat(spec, &st) == 0 && S_ISLNK(st.st_mode))
    return zc_fail(ZC_E_USAGE,
                   "history %s: a symbolic link; zamcap writes no history "
                   "through one (give --history the file itself)",
                   spec);
  if (!shared_folder(spec, dir, sizeof dir)) return ZC_OK;
  if (stat(dir, &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    return zc_fail(ZC_E_USAGE,
                   "history %s: every user can write in %s and replace it "
                   "(give --history a file in a folder of your own)",
                   spec, dir);
  static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
    snprintf(p, sizeof p, "%s%s", spec, sfx[i]);
    if (lstat(p, &st) != 0) continue;
    if (S_ISLNK(st.st_mode) || st.st_uid != geteuid())
      return zc_fail(
          ZC_E_USAGE,
          "history %s: %s is %s in the shared folder %s; zamcap "
          "writes no history another account may have made "
          "(give --history a file in a folder of your own)",
          spec, p, S_ISLNK(st.st_mode) ? "a symbolic link" : "not this user's",
          dir);
  }
  return ZC_OK;
}

enum zc_err agent_db_zamcap(struct agent_db *db, int empty_ok) {
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      db,
      db->kind == AGENT_DB_PG
          ? "SELECT table_name FROM information_schema.tables WHERE "
            "table_schema = current_schema() ORDER BY table_name"
          : "SELECT name FROM sqlite_master WHERE type = 'table' AND name "
            "NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      0, NULL, &r);
  if (e) return e;
  int ours = 0;
  for (size_t i = 0; i < r.n; i++)
    ours |= !strcmp(agent_rows_get(&r, i, 0), "zamcap_schema");
  if (!ours && r.n)
    e = zc_fail(ZC_E_USAGE,
                "history %s: not a zamcap history: it holds another "
                "program's tables (%s%s), which zamcap leaves as they are; "
                "give --history a database of zamcap's own",
                db->name, agent_rows_get(&r, 0, 0), r.n > 1 ? ", ..." : "");
  else if (!ours && !empty_ok)
    e = zc_fail(ZC_E_USAGE,
                "history %s: not a zamcap history (it has no "
                "tables)",
                db->name);
  agent_rows_free(&r);
  return e;
}

/* A reader of a history in WAL mode needs its -shm and -wal, which a
 * writer removes when it closes; where this user cannot make them (a
 * read-only mount, another account's folder) nobody who could write is
 * there either, and the file is read as immutable. */
static enum zc_err lite_reader(struct agent_db *db, const char *spec) {
  int rc = sqlite3_exec(db->lite, "SELECT count(*) FROM sqlite_master", NULL,
                        NULL, NULL);
  if (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN) return ZC_OK;
  sqlite3_close(db->lite);
  db->lite = NULL;
  struct zc_buf u;
  zc_buf_init(&u, 3 * strlen(spec) + 64);
  enum zc_err e = zc_buf_add(&u, "file:", 5);
  for (const char *p = spec; *p && !e; p++)
    e = strchr("?#%", *p) || (unsigned char)*p < 0x21
            ? zc_buf_printf(&u, "%%%02X", (unsigned char)*p)
            : zc_buf_addc(&u, *p);
  if (!e) e = zc_buf_printf(&u, "?immutable=1");
  rc = e ? SQLITE_NOMEM
         : sqlite3_open_v2(u.ptr, &db->lite,
                           SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
  zc_buf_free(&u);
  if (rc != SQLITE_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot open: %s", spec,
                   db->lite ? sqlite3_errmsg(db->lite) : sqlite3_errstr(rc));
  return ZC_OK;
}

static enum zc_err open_lite(struct agent_db *db, const char *spec,
                             int readonly) {
  enum zc_err e = readonly ? ZC_OK : lite_mine(spec);
  if (e) return e;
  /* A reader neither makes nor changes anything (it may not own the file,
   * or be able to write its folder); a writer follows no link. */
  int flags = readonly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                             SQLITE_OPEN_NOFOLLOW;
  int rc = sqlite3_open_v2(spec, &db->lite, flags, NULL);
  if (rc != SQLITE_OK)
    return zc_fail(ZC_E_IO, "history %s: cannot open: %s", spec,
                   db->lite ? sqlite3_errmsg(db->lite) : sqlite3_errstr(rc));
  sqlite3_busy_handler(db->lite, lite_busy, &db->busy_t0);
  if (readonly) {
    e = lite_reader(db, spec);
    /* a reader of a whole history (the dashboard reads it scenario by
     * scenario, each spread over the file) keeps 64 MB of its pages, not
     * SQLite's 2 MB */
    if (!e)
      sqlite3_exec(db->lite, "PRAGMA cache_size = -65536", NULL, NULL, NULL);
    return e;
  }
  /* another program's database is left as it was: no WAL switch either */
  if ((e = agent_db_zamcap(db, 1))) return e;
  /* Parallel runs on one machine: readers never block the writer (WAL),
   * and a writer waits up to 30 s for another rather than fail. */
  char *err = NULL;
  /* Going to WAL takes the file from a read lock to an exclusive one,
   * and SQLite answers BUSY at once, without its busy handler, when
   * another connection waits for the write lock too (a fresh file that
   * several shards open at once): tried again until the same timeout. */
  double t0 = zc_now_ms();
  while ((rc = sqlite3_exec(db->lite, "PRAGMA journal_mode=WAL", NULL, NULL,
                            &err)) == SQLITE_BUSY &&
         zc_now_ms() - t0 < BUSY_MS && !zc_interrupted) {
    sqlite3_free(err);
    err = NULL;
    zc_sleep_ms(5 + (double)((unsigned long)(zc_now_ms() * 1e3) % 20));
  }
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db->lite,
                      "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", NULL,
                      NULL, &err);
  if (rc != SQLITE_OK) {
    e = zc_fail(ZC_E_IO, "history %s: %s", spec,
                err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
  }
  return e;
}

static enum zc_err db_open(const char *spec, int readonly,
                           struct agent_db **out) {
  *out = NULL;
  enum zc_err e = agent_db_spec_check(spec);
  if (e) return e;
  struct agent_db *db = zc_xcalloc(1, sizeof *db);
  db->kind = agent_db_is_pg(spec) ? AGENT_DB_PG : AGENT_DB_SQLITE;
  db->name = zc_xstrdup(spec);
  zc_scrub(db->name);
  e = db->kind == AGENT_DB_PG ? open_pg(db, spec, readonly)
                              : open_lite(db, spec, readonly);
  if (e) {
    agent_db_close(db);
    return e;
  }
  *out = db;
  return ZC_OK;
}

enum zc_err agent_db_open(const char *spec, struct agent_db **out) {
  return db_open(spec, 0, out);
}

enum zc_err agent_db_open_read(const char *spec, struct agent_db **out) {
  return db_open(spec, 1, out);
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
