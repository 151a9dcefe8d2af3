/* --tracker: one issue per regression, decided by the history
 * (tracker.h). What differs between the trackers is each in its file
 * behind struct agent_tracker_ops (tracker-int.h); the history's rows
 * are asked through history.h, which holds every statement. */
#define _GNU_SOURCE /* realpath */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "history.h"
#include "tracker-int.h"
#include "zc-out.h"
#include "zc-url.h"

enum {
  SUMMARY_MAX = 60000,     /* of summary.md in a body: GitHub takes 65536 */
  TITLE_MAX = 240,         /* Jira's summary takes 255 */
  FILING_STALE_S = 600,    /* a claim this old: its process died */
  FILING_WAIT_MS = 300000, /* for another process to file */
};

/* Every tracker, in the order the messages name them. */
static const struct agent_tracker_ops *const trackers[] = {
    &trk_github, &trk_gitlab, &trk_jira, &trk_redmine};
/* The report's files attached where the tracker takes files: summary.md
 * is the body already. */
static const char *const attached[] = {ZC_OUT_HTML, ZC_OUT_REPORT};
static const char *const attached_type[] = {"text/html", "application/json"};

static int bad(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
  return 0;
}

const char *agent_tracker_kind(const struct agent_tracker *t) {
  return t->ops ? t->ops->name : "";
}

int agent_tracker_parse(const char *spec, const char *url,
                        struct agent_tracker *t, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  t->attempts = 5;
  t->backoff_s = 1;
  t->retry_budget_s = 300;
  t->recover_after = 3;
  const char *colon = strchr(spec, ':');
  size_t n = colon ? (size_t)(colon - spec) : 0;
  const struct agent_tracker_ops *ops = NULL;
  for (size_t k = 0; colon && !ops && k < ZC_ARRAY_LEN(trackers); k++)
    if (strlen(trackers[k]->name) == n && !strncmp(spec, trackers[k]->name, n))
      ops = trackers[k];
  if (!ops)
    return bad(why, cap,
               "--tracker wants github:OWNER/REPO, gitlab:GROUP/PROJECT, "
               "jira:PROJECTKEY or redmine:PROJECT");
  t->ops = ops;
  if (strlen(colon + 1) >= sizeof t->where || !ops->where_ok(colon + 1))
    return bad(why, cap, "--tracker %s: wants %s", ops->name, ops->wants);
  snprintf(t->spec, sizeof t->spec, "%s", spec);
  snprintf(t->where, sizeof t->where, "%s", colon + 1);
  if (!url && !ops->api)
    return bad(why, cap,
               "--tracker %s: give --tracker-url, the %s server's base URL",
               ops->name, ops->server);
  if (!url) url = ops->api;
  if (strlen(url) >= sizeof t->api)
    return bad(why, cap, "--tracker-url: too long");
  char w[512];
  if (!agent_attach_url_ok(url, w, sizeof w)) {
    const char *rest = strncmp(w, "--attach", 8) ? w : w + 8;
    return bad(why, cap, "--tracker-url%s", rest);
  }
  if (strchr(url, '?') || strchr(url, '#'))
    return bad(why, cap, "--tracker-url: a base URL, without ? or #");
  snprintf(t->api, sizeof t->api, "%s", url);
  for (size_t l = strlen(t->api); l && t->api[l - 1] == '/'; l--)
    t->api[l - 1] = '\0';
  return 1;
}

int agent_tracker_from_args(const struct agent_args *a, struct agent_tracker *t,
                            char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  if (!a->tracker) {
    if (a->tracker_url || a->tracker_dry_run || a->close_recovered)
      return bad(why, cap,
                 "--tracker-url, --tracker-dry-run and --close-recovered "
                 "need --tracker KIND:WHERE");
    return 1;
  }
  if (!agent_tracker_parse(a->tracker, a->tracker_url, t, why, cap)) return 0;
  if (a->no_history)
    return bad(why, cap,
               "--tracker needs the history (it says which regression has "
               "which issue): drop --no-history");
  t->dry_run = a->tracker_dry_run;
  t->close_recovered = a->close_recovered;
  t->recover_after = a->recover_after;
  const char *tok = agent_tracker_token();
  if (!t->dry_run && (!tok || !*tok))
    return bad(why, cap,
               "--tracker %s: set ZAMCAP_TRACKER_TOKEN to the tracker's "
               "token (or try --tracker-dry-run)",
               t->spec);
  for (const char *p = tok ? tok : ""; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      return bad(why, cap,
                 "ZAMCAP_TRACKER_TOKEN has a line break or another control "
                 "character");
  /* a header cut short would be a 401 that names no reason */
  if (tok && strlen(tok) > AGENT_TRACKER_TOKEN_MAX)
    return bad(why, cap,
               "ZAMCAP_TRACKER_TOKEN is %zu bytes; zamcap takes tokens up to "
               "%d",
               strlen(tok), AGENT_TRACKER_TOKEN_MAX);
  t->token = t->dry_run ? NULL : tok;
  return 1;
}

/* ---- the report's files, issues, comments ---- */

static void report_files(const char *dir, struct trk_files *f) {
  f->n = 0;
  for (unsigned i = 0; i < ZC_ARRAY_LEN(attached); i++) {
    snprintf(f->path[f->n], sizeof f->path[0], "%s/%s", dir, attached[i]);
    if (access(f->path[f->n], R_OK)) continue;
    f->p[f->n] = f->path[f->n];
    f->name[f->n] = attached[i];
    f->type[f->n] = attached_type[i];
    f->n++;
  }
}

/* Before a text goes: its files uploaded where that comes first. */
static enum zc_err upload(const struct agent_tracker *t,
                          const struct trk_files *f, struct trk_upl *u) {
  memset(u, 0, sizeof *u);
  if (!f || !f->n || !t->ops->upload) return ZC_OK;
  return t->ops->upload(t, f, u);
}

/* After it: the files where they go after the text (Jira). */
static enum zc_err attach_after(const struct agent_tracker *t, const char *key,
                                const struct trk_files *f) {
  return t->ops->attach ? t->ops->attach(t, key, f) : ZC_OK;
}

/* o printed into q's body and deleted; the body is the caller's to free. */
static char *json_body(struct trk_req *q, cJSON *o) {
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  q->body = s;
  q->body_len = strlen(s);
  return s;
}

/* The issue's key and address out of a created issue's answer: the
 * tracker's own address, else "SPEC#KEY". */
static void created(const struct agent_tracker *t, const cJSON *j, char *key,
                    char *url) {
  key[0] = url[0] = '\0';
  int fits = t->ops->created(t, j, key, url);
  if (!key[0]) {
    url[0] = '\0';
    return;
  }
  /* The address is the tracker's word, and report.html, zamcap history
   * and later comments show it: an http(s) URL without spaces or control
   * characters, else none (issue 38: javascript: was stored as given). */
  int web = !strncasecmp(url, "https://", 8) || !strncasecmp(url, "http://", 7);
  for (const char *p = url; web && *p; p++)
    web = (unsigned char)*p > 0x20 && *p != 0x7f && !strchr("\"<>\\`", *p);
  if (!url[0] || !fits || !web) snprintf(url, 1024, "%s#%s", t->spec, key);
}

/* Files a new issue: key (64 bytes) and url (1024) get its key and
 * address, and stay empty unless it was made (an error after that, in
 * attaching the report to it, leaves them set). */
static enum zc_err op_file(const struct agent_tracker *t, const char *title,
                           const char *body, const struct trk_files *f,
                           char *key, char *url, int *answered) {
  key[0] = url[0] = '\0';
  *answered = 0;
  struct trk_upl u;
  enum zc_err e = upload(t, f, &u);
  char *text = e ? NULL : t->ops->text(t, body, &u);
  struct trk_req q = {.method = "POST", .creates = 1};
  cJSON *o = cJSON_CreateObject();
  t->ops->file(t, &q, o, title, text ? text : "", &u);
  char *js = json_body(&q, o);
  if (!e) e = trk_send(t, &q);
  if (!e) {
    *answered = 1; /* 2xx: the issue may well be there */
    created(t, q.json, key, url);
    if (!key[0])
      e = zc_fail(ZC_E_IO,
                  "tracker %s: POST %s: the answer names no issue (HTTP %ld)",
                  t->spec, q.url, q.status);
  }
  if (!e) e = attach_after(t, key, f);
  cJSON_Delete(q.json);
  cJSON_Delete(u.tokens);
  free(js);
  free(text);
  return e;
}

/* A comment on issue key, with f's files (NULL: none). *posted says
 * whether the comment went, also when attaching the files after it
 * failed (Jira). */
static enum zc_err op_comment(const struct agent_tracker *t, const char *key,
                              const char *body, const struct trk_files *f,
                              int *posted) {
  *posted = 0;
  struct trk_upl u;
  enum zc_err e = upload(t, f, &u);
  char *text = e ? NULL : t->ops->text(t, body, &u);
  struct trk_req q = {.method = "POST"};
  cJSON *o = cJSON_CreateObject();
  t->ops->comment(t, &q, o, key, text ? text : "", &u);
  char *js = json_body(&q, o);
  if (!e) e = trk_send(t, &q);
  *posted = !e;
  if (!e) e = attach_after(t, key, f);
  cJSON_Delete(q.json);
  cJSON_Delete(u.tokens);
  free(js);
  free(text);
  return e;
}

/* Closes (close 1) or reopens issue key. */
static enum zc_err op_state(const struct agent_tracker *t, const char *key,
                            int close) {
  struct trk_req q = {.method = "PUT"};
  cJSON *o = cJSON_CreateObject();
  enum zc_err e = t->ops->state(t, &q, o, key, close);
  char *js = json_body(&q, o);
  if (!e) e = trk_send(t, &q);
  cJSON_Delete(q.json);
  free(js);
  return e;
}

/* ---- the night: what the history says to file ---- */

struct night {
  const struct agent_tracker *t;
  struct agent_history *h;
  long long run_id;
  char run[24], scenario[512], at[40], dir[4200];
  struct trk_files f;
  char *summary; /* summary.md, cut to SUMMARY_MAX */
};

/* One line on stdout, "tracker SPEC: ...", harmless to a terminal. */
static void night_say(const struct night *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void night_say(const struct night *n, const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  printf("tracker %s: ", n->t->spec);
  zc_term_put(stdout, buf, SIZE_MAX);
  putchar('\n');
  fflush(stdout);
}

/* s as one line of plain text: control characters become spaces, and
 * backticks quotes (it goes into a Markdown code span). */
static void flat(const char *s, char *out, size_t cap) {
  snprintf(out, cap, "%s", s ? s : "");
  for (char *p = out; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      *p = ' ';
    else if (*p == '`')
      *p = '\'';
}

/* The issue's title: function, scenario and change, cut at a character
 * boundary. */
static void title_of(const struct night *n, const struct agent_hcause *c,
                     char *out, size_t cap) {
  char name[512], scn[512];
  flat(c->name, name, sizeof name);
  flat(n->scenario[0] ? n->scenario : "(no scenario)", scn, sizeof scn);
  char full[1200];
  snprintf(full, sizeof full, "%s in %s: %+.1f %s slower", name, scn, c->delta,
           c->unit ? c->unit : "ms");
  snprintf(out, cap, "%.*s", (int)(cap - 1), full);
  size_t l = strlen(out);
  if (l <= TITLE_MAX) return;
  l = TITLE_MAX;
  while (l && ((unsigned char)out[l] & 0xc0) == 0x80)
    l--;
  out[l] = '\0';
}

/* The text of each action, into b. */
static void text_of(const struct night *n, const struct agent_hcause *c,
                    const char *action, struct zc_buf *b) {
  char name[512], dir[4200], scn[512];
  flat(c->name, name, sizeof name);
  /* the folder's name, not the runner's path to it (a public tracker
   * need not learn the machine's layout; the history keeps the path) */
  const char *base = strrchr(n->dir, '/');
  flat(base && base[1] ? base + 1 : n->dir, dir, sizeof dir);
  flat(n->scenario[0] ? n->scenario : "(no scenario)", scn, sizeof scn);
  enum zc_err e = ZC_OK;
  if (!strcmp(action, "filed"))
    e = zc_buf_printf(b,
                      "%s\n\n---\nFiled by zamcap for the regression whose "
                      "fingerprint is `%s` (the scenario, the function and "
                      "its file, its top-level function, its kind); later "
                      "nights comment here. Report folder: `%s`.",
                      n->summary, c->fp, dir);
  else if (!strcmp(action, "comment"))
    e = zc_buf_printf(b,
                      "Seen again in run %s of `%s` (%s): `%s` %+.1f %s.\n\n"
                      "Report folder: `%s`.",
                      n->run, scn, n->at, name, c->delta,
                      c->unit ? c->unit : "ms", dir);
  else if (!strcmp(action, "returned"))
    e = zc_buf_printf(b,
                      "Back in run %s of `%s` (%s), after it had recovered: "
                      "`%s` %+.1f %s.\n\nReport folder: `%s`.",
                      n->run, scn, n->at, name, c->delta,
                      c->unit ? c->unit : "ms", dir);
  else
    e = zc_buf_printf(b,
                      "Recovered: `%s` was no regression-cause in the last "
                      "%u runs of `%s` (the latest: run %s, %s).%s",
                      name, n->t->recover_after, scn, n->run, n->at,
                      n->t->close_recovered ? " Closing." : "");
  (void)e; /* at the ceiling the text is cut */
}

/* A comment of action's kind on key, recorded once per run. */
static enum zc_err comment_once(const struct night *n,
                                const struct agent_hcause *c,
                                const char *action, const char *key,
                                const char *issue) {
  /* A run done again: the issue it filed or reopened says it already. */
  int got = strcmp(action, "comment")
                ? 0
                : agent_history_logged_new(n->h, c->fp, n->run_id);
  if (got) return got < 0 ? ZC_E_IO : ZC_OK;
  got = agent_history_log(n->h, c->fp, n->run_id, action, n->t->spec, issue);
  if (got < 0) return ZC_E_IO;
  if (!got) return ZC_OK; /* this run's comment is there */
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  text_of(n, c, action, &b);
  int files = strcmp(action, "recovered") != 0, posted = 0;
  enum zc_err e =
      op_comment(n->t, key, b.ptr ? b.ptr : "", files ? &n->f : NULL, &posted);
  zc_buf_free(&b);
  /* a comment that went stays recorded, so that it goes once */
  if (!posted) agent_history_unlog(n->h, c->fp, n->run_id, action);
  if (posted)
    zc_log(1, "tracker %s: commented on %s%s", n->t->spec, issue,
           !strcmp(action, "comment")    ? ""
           : !strcmp(action, "returned") ? " (back)"
                                         : " (recovered)");
  return e;
}

/* Files c as a new issue if this process can claim its row: 1 filed, 0
 * another process has it, -1 an error, *err its code (a stop is
 * ZC_E_INTERRUPTED, whatever was under way: issue 38 had it ZC_E_IO, and
 * SIGTERM during a request or its retry wait exited 1 or 3). */
static int file_new(const struct night *n, const struct agent_hcause *c,
                    enum zc_err *err) {
  char claim[128];
  *err = ZC_E_IO;
  int got = agent_history_claim(n->h, c->fp, n->t->spec, FILING_STALE_S, claim);
  if (got <= 0) return got;
  char title[TITLE_MAX + 8], key[64], url[1024];
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  title_of(n, c, title, sizeof title);
  text_of(n, c, "filed", &b);
  int answered = 0;
  enum zc_err e =
      op_file(n->t, title, b.ptr ? b.ptr : "", &n->f, key, url, &answered);
  zc_buf_free(&b);
  if (e) *err = e;
  if (e && !key[0]) {
    struct zc_errsave keep;
    zc_err_save(&keep);
    /* A 2xx that names no issue may have filed one: filing it again each
     * night would make one a night (issue 38). It stays "unknown" until
     * someone looks; refused or not sent, the next night tries again. */
    if (answered)
      agent_history_move(n->h, c->fp, "filing", "unknown");
    else
      agent_history_unclaim(n->h, c->fp, claim);
    zc_err_restore(&keep);
    if (answered)
      zc_fail(e,
              "%s; it may have been filed, so zamcap files this "
              "regression (fingerprint %s) no more: look in the tracker",
              zc_errmsg(), c->fp);
    return -1;
  }
  /* Made, even if attaching to it failed (Jira): it is recorded, so that
   * it is never filed again. */
  struct zc_errsave keep;
  if (e) zc_err_save(&keep);
  if (agent_history_filed(n->h, c->fp, url, key) < 0 ||
      agent_history_log(n->h, c->fp, n->run_id, "filed", n->t->spec, url) < 0) {
    zc_error("tracker %s: filed %s, but the history could not record it: %s",
             n->t->spec, url, zc_errmsg());
    return -1;
  }
  zc_log(1, "tracker %s: filed %s for %s", n->t->spec, url, c->name);
  if (e) zc_err_restore(&keep);
  return e ? -1 : 1;
}

/* Waits while another process files fp. */
static enum zc_err wait_filing(const struct night *n, const char *fp,
                               struct agent_issue *r) {
  for (int ms = 0; ms < FILING_WAIT_MS && !zc_interrupted; ms += 200) {
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    enum zc_err e = agent_history_issue(n->h, fp, r);
    if (e || strcmp(r->state, "filing")) return e;
  }
  if (zc_interrupted)
    return zc_fail(ZC_E_INTERRUPTED, "tracker %s: interrupted", n->t->spec);
  return zc_fail(ZC_E_IO,
                 "tracker %s: another zamcap has been filing %s for %d s; "
                 "nothing was sent for it",
                 n->t->spec, fp, FILING_WAIT_MS / 1000);
}

static void dry_seen(const struct night *n, const struct agent_hcause *c,
                     const struct agent_issue *r) {
  char title[TITLE_MAX + 8];
  title_of(n, c, title, sizeof title);
  if (!r->state[0] || !strcmp(r->state, "filing"))
    night_say(n, "would file \"%s\" (fingerprint %s)%s", title, c->fp,
              r->state[0] ? ", unless the zamcap filing it now does" : "");
  else if (!strcmp(r->state, "open"))
    night_say(n, "would comment on %s: seen again, %+.1f %s", r->url, c->delta,
              c->unit ? c->unit : "ms");
  else
    night_say(n, "would %scomment on %s: back, %+.1f %s",
              strcmp(r->state, "closed") ? "" : "reopen and ", r->url, c->delta,
              c->unit ? c->unit : "ms");
}

/* A cause of the run: a new issue, a comment, or its issue reopened. */
static enum zc_err night_seen(const struct night *n,
                              const struct agent_hcause *c) {
  struct agent_issue r;
  for (int tries = 0; tries < 8; tries++) {
    enum zc_err e = agent_history_issue(n->h, c->fp, &r);
    if (e) return e;
    /* An issue in another tracker (--tracker changed) is that tracker's:
     * its key means nothing here. */
    if (r.state[0] && r.tracker[0] && strcmp(r.tracker, n->t->spec)) {
      zc_log(1, "tracker %s: %s has its issue in %s (%s); left alone",
             n->t->spec, c->name, r.tracker, r.url[0] ? r.url : "filing");
      return ZC_OK;
    }
    if (!strcmp(r.state, "unknown")) {
      zc_log(1,
             "tracker %s: %s: its filing was answered without an issue; "
             "left alone (fingerprint %s)",
             n->t->spec, c->name, c->fp);
      return ZC_OK;
    }
    if (n->t->dry_run) {
      dry_seen(n, c, &r);
      return ZC_OK;
    }
    if (!r.state[0] || !strcmp(r.state, "filing")) {
      /* a stale claim is taken over; a live one is waited for */
      int got = file_new(n, c, &e);
      if (got < 0) return e;
      if (got > 0) return ZC_OK;
      if (r.state[0] && (e = wait_filing(n, c->fp, &r))) return e;
      continue;
    }
    if (!strcmp(r.state, "open"))
      return comment_once(n, c, "comment", r.key, r.url);
    /* recovered or closed: the process that moves it back to open says
     * so; another one only comments */
    int got = agent_history_move(n->h, c->fp, r.state, "open");
    if (got < 0) return ZC_E_IO;
    if (!got) continue;
    if (!strcmp(r.state, "closed") && (e = op_state(n->t, r.key, 0))) {
      agent_history_move(n->h, c->fp, NULL, r.state);
      return e;
    }
    return comment_once(n, c, "returned", r.key, r.url);
  }
  return zc_fail(ZC_E_IO, "tracker %s: %s changed state too often to follow",
                 n->t->spec, c->fp);
}

/* One open issue whose fingerprint has recovered: a comment, and closed
 * with --close-recovered. */
static enum zc_err night_recovered(const struct night *n,
                                   const struct agent_hcause *c) {
  const char *to = n->t->close_recovered ? "closed" : "recovered";
  if (n->t->dry_run) {
    night_say(n, "would comment on %s: recovered%s", c->issue,
              n->t->close_recovered ? ", and close it" : "");
    return ZC_OK;
  }
  int got = agent_history_move(n->h, c->fp, "open", to);
  if (got <= 0) return got < 0 ? ZC_E_IO : ZC_OK;
  enum zc_err e = comment_once(n, c, "recovered", c->key, c->issue);
  if (!e && n->t->close_recovered) {
    e = op_state(n->t, c->key, 1);
    if (!e) zc_log(1, "tracker %s: closed %s", n->t->spec, c->issue);
  }
  if (e) {
    struct zc_errsave keep;
    zc_err_save(&keep);
    agent_history_move(n->h, c->fp, NULL, "open");
    zc_err_restore(&keep);
  }
  return e;
}

/* The scenario's open issues whose fingerprint was no cause in its last
 * recover_after runs. */
static enum zc_err recoveries(const struct night *n) {
  struct agent_hcause *c;
  size_t k;
  enum zc_err e = agent_history_recovered(n->h, n->scenario, n->t->spec,
                                          n->t->recover_after, &c, &k);
  for (size_t i = 0; !e && i < k; i++)
    e = night_recovered(n, &c[i]);
  agent_hcauses_free(c, k);
  return e;
}

/* The run's row and its report: scenario, time, files, summary. */
static enum zc_err night_open(struct night *n, long long run_id,
                              const char *report_dir) {
  n->run_id = run_id;
  snprintf(n->run, sizeof n->run, "%lld", run_id);
  enum zc_err e = agent_history_run_of(n->h, run_id, n->scenario,
                                       sizeof n->scenario, n->at, sizeof n->at);
  if (e) return zc_fail(e, "tracker %s: %s", n->t->spec, zc_errmsg());
  char *real = realpath(report_dir, NULL);
  snprintf(n->dir, sizeof n->dir, "%s", real ? real : report_dir);
  free(real);
  report_files(n->dir, &n->f);
  char path[4300], *txt = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/" ZC_OUT_SUMMARY, n->dir);
  if (zc_read_file(path, 64u << 20, &txt, &len)) {
    n->summary = zc_xstrdup("(summary.md could not be read; see the report "
                            "folder)");
    return ZC_OK;
  }
  if (len > SUMMARY_MAX) {
    static const char cut[] = "\n\n(cut here: the whole summary is "
                              "summary.md, in the report folder)";
    size_t l = SUMMARY_MAX;
    while (l && ((unsigned char)txt[l] & 0xc0) == 0x80)
      l--;
    txt = zc_xreallocarray(txt, l + sizeof cut, 1);
    memcpy(txt + l, cut, sizeof cut);
  }
  n->summary = txt;
  return ZC_OK;
}

enum zc_err agent_tracker_night(const struct agent_tracker *t,
                                struct agent_history *h, long long run_id,
                                const char *report_dir) {
  struct night n = {.t = t, .h = h};
  enum zc_err e = night_open(&n, run_id, report_dir);
  struct agent_hcause *c = NULL;
  size_t k = 0;
  if (!e) e = agent_history_run_causes(h, run_id, &c, &k);
  for (size_t i = 0; !e && i < k; i++)
    e = night_seen(&n, &c[i]);
  agent_hcauses_free(c, k);
  if (!e) e = recoveries(&n);
  free(n.summary);
  return e;
}

int agent_tracker_after(const struct agent_args *a, const char *out,
                        long long run_id, int rc) {
  if (!a->tracker) return rc;
  struct agent_tracker t;
  char why[512];
  enum zc_err e = ZC_OK;
  if (!agent_tracker_from_args(a, &t, why, sizeof why))
    e = zc_fail(ZC_E_USAGE, "%s", why);
  else if (run_id <= 0)
    e = zc_fail(ZC_E_IO,
                "tracker %s: this run is not in the history, so nothing was "
                "filed",
                t.spec);
  struct agent_history *h = NULL;
  char *spec = a->history ? zc_xstrdup(a->history) : agent_history_default(out);
  if (!e && !spec) e = zc_fail(ZC_E_USAGE, "tracker: %s", zc_errmsg());
  /* The token over plain http to another machine can be read on the
   * way. */
  if (!e && !t.dry_run && !strncasecmp(t.api, "http://", 7) &&
      zc_url_host(t.api) != ZC_HOST_LOOPBACK)
    zc_log(1,
           "tracker %s: warning: %s is not https; the token travels "
           "unencrypted",
           t.spec, t.api);
  if (!e) e = agent_history_open(spec, &h);
  if (!e) e = agent_tracker_night(&t, h, run_id, out);
  agent_history_close(h);
  free(spec);
  if (!e) return rc;
  zc_error("%s (the report stays in %s/)", zc_errmsg(), out);
  if (e == ZC_E_INTERRUPTED) return zc_exit_for(e, ZC_STAGE_CAPTURE);
  /* As --attach: a failure turns "nothing found" into 3 and never hides a
   * regression's exit code. */
  return rc == ZC_EXIT_NONE ? ZC_EXIT_CAPTURE : rc;
}

const char *agent_tracker_token(void) {
  return zc_env_take("ZAMCAP_TRACKER_TOKEN");
}

void agent_tracker_secrets(const struct agent_args *a) {
  const char *tok = agent_tracker_token();
  if (!a->tracker || !tok || !*tok) return;
  zc_secret_add(tok, strlen(tok));
  /* Jira's basic auth sends it in base64: a server may quote that back */
  char enc[TRK_HEADER];
  trk_b64(tok, enc, sizeof enc);
  zc_secret_add(enc, strlen(enc));
  if (a->tracker_url) agent_url_secrets("--tracker-url", a->tracker_url);
}
