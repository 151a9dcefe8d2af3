/* --tracker: one issue per regression, in GitHub, GitLab, Jira or
 * Redmine, decided by the history (tracker.h). */
#define _GNU_SOURCE /* realpath */
#include "tracker.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "attach.h"
#include "histdb.h"
#include "history.h"
#include "zc-out.h"
#include "zc-url.h"

enum {
  SUMMARY_MAX = 60000,     /* of summary.md in a body: GitHub takes 65536 */
  TITLE_MAX = 240,         /* Jira's summary takes 255 */
  FILING_STALE_S = 600,    /* a claim this old: its process died */
  FILING_WAIT_MS = 300000, /* for another process to file */
};

static const char *const kinds[] = {"github", "gitlab", "jira", "redmine"};
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

/* Whether s is made of [A-Za-z0-9._-] and the bytes of extra only. */
static int plain(const char *s, const char *extra) {
  if (!*s) return 0;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || strchr("._-", *p) ||
          (extra && strchr(extra, *p))))
      return 0;
  return 1;
}

/* WHERE for each kind: owner/repo; group/subgroup/project; a Jira
 * project key; a Redmine project's identifier (or number). */
static int where_ok(enum agent_tracker_kind k, const char *w) {
  const char *slash = strchr(w, '/');
  switch (k) {
  case AGENT_TRACKER_GITHUB:
    return slash && slash != w && slash[1] && !strchr(slash + 1, '/') &&
           plain(w, "/");
  case AGENT_TRACKER_GITLAB:
    return slash && slash != w && w[strlen(w) - 1] != '/' && !strstr(w, "//") &&
           plain(w, "/");
  case AGENT_TRACKER_JIRA:
    if (!(w[0] >= 'A' && w[0] <= 'Z')) return 0;
    for (const char *p = w; *p; p++)
      if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
        return 0;
    return 1;
  case AGENT_TRACKER_REDMINE:
    for (const char *p = w; *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '_'))
        return 0;
    return *w != '\0';
  }
  return 0;
}

static const char *const where_wants[] = {
    "github:OWNER/REPO", "gitlab:GROUP/PROJECT",
    "jira:PROJECTKEY (capitals, digits, _)",
    "redmine:PROJECT (its identifier: a-z, 0-9, -, _)"};

int agent_tracker_parse(const char *spec, const char *url,
                        struct agent_tracker *t, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  t->attempts = 5;
  t->backoff_s = 1;
  t->recover_after = 3;
  const char *colon = strchr(spec, ':');
  size_t n = colon ? (size_t)(colon - spec) : 0;
  unsigned k = 0;
  while (k < ZC_ARRAY_LEN(kinds) &&
         !(strlen(kinds[k]) == n && !strncmp(spec, kinds[k], n)))
    k++;
  if (!colon || k == ZC_ARRAY_LEN(kinds))
    return bad(why, cap,
               "--tracker wants github:OWNER/REPO, gitlab:GROUP/PROJECT, "
               "jira:PROJECTKEY or redmine:PROJECT");
  t->kind = (enum agent_tracker_kind)k;
  if (strlen(colon + 1) >= sizeof t->where || !where_ok(t->kind, colon + 1))
    return bad(why, cap, "--tracker %s: wants %s", kinds[k], where_wants[k]);
  snprintf(t->spec, sizeof t->spec, "%s", spec);
  snprintf(t->where, sizeof t->where, "%s", colon + 1);
  const char *def = t->kind == AGENT_TRACKER_GITHUB ? "https://api.github.com"
                    : t->kind == AGENT_TRACKER_GITLAB
                        ? "https://gitlab.com/api/v4"
                        : NULL;
  if (!url && !def)
    return bad(why, cap,
               "--tracker %s: give --tracker-url, the %s server's base URL",
               kinds[k], k == AGENT_TRACKER_JIRA ? "Jira" : "Redmine");
  if (!url) url = def;
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
  const char *tok = getenv("ZAMCAP_TRACKER_TOKEN");
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
  t->token = t->dry_run ? NULL : tok;
  return 1;
}

/* ---- requests ---- */

static void b64(const char *s, char *out, size_t cap) {
  static const char d[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n = strlen(s), o = 0;
  for (size_t i = 0; i < n && o + 5 < cap; i += 3) {
    unsigned v = (unsigned)(unsigned char)s[i] << 16;
    if (i + 1 < n) v |= (unsigned)(unsigned char)s[i + 1] << 8;
    if (i + 2 < n) v |= (unsigned)(unsigned char)s[i + 2];
    out[o++] = d[v >> 18 & 63];
    out[o++] = d[v >> 12 & 63];
    out[o++] = i + 1 < n ? d[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? d[v & 63] : '=';
  }
  out[o] = '\0';
}

/* The headers of every request of t's kind; ctype NULL: a multipart or
 * no body. Returns how many. */
static unsigned auth_headers(const struct agent_tracker *t, const char *ctype,
                             char h[5][1100]) {
  unsigned n = 0;
  const char *tok = t->token ? t->token : "";
  switch (t->kind) {
  case AGENT_TRACKER_GITHUB:
    snprintf(h[n++], sizeof h[0], "Authorization: Bearer %s", tok);
    snprintf(h[n++], sizeof h[0], "Accept: application/vnd.github+json");
    snprintf(h[n++], sizeof h[0], "X-GitHub-Api-Version: 2022-11-28");
    break;
  case AGENT_TRACKER_GITLAB:
    snprintf(h[n++], sizeof h[0], "PRIVATE-TOKEN: %s", tok);
    break;
  case AGENT_TRACKER_JIRA: {
    /* e-mail:token is Jira Cloud's basic auth; else a personal access
     * token (Data Center, Server). */
    char enc[1024];
    if (strchr(tok, ':')) b64(tok, enc, sizeof enc);
    snprintf(h[n++], sizeof h[0], "Authorization: %s %s",
             strchr(tok, ':') ? "Basic" : "Bearer",
             strchr(tok, ':') ? enc : tok);
    snprintf(h[n++], sizeof h[0], "X-Atlassian-Token: no-check");
    break;
  }
  case AGENT_TRACKER_REDMINE:
    snprintf(h[n++], sizeof h[0], "X-Redmine-API-Key: %s", tok);
    break;
  }
  if (t->kind != AGENT_TRACKER_GITHUB)
    snprintf(h[n++], sizeof h[0], "Accept: application/json");
  if (ctype) snprintf(h[n++], sizeof h[0], "Content-Type: %s", ctype);
  return n;
}

/* Sleeps s seconds, or less when zamcap is asked to stop. */
static void wait_s(double s) {
  for (double left = s; left > 0 && !zc_interrupted; left -= 0.1) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* A request and its answer. */
struct req {
  const char *method;
  char url[2048];
  const char *body; /* JSON, or raw bytes with ctype */
  size_t body_len;
  const char *ctype;
  const char *const *files;
  unsigned nfiles;
  int creates; /* files an issue: retried only when surely not filed */
  cJSON *json; /* out: the answer, parsed (NULL: none, or not JSON) */
  long status;
};

/* Sends q, again after a 429 or a 5xx (waiting what Retry-After says, else
 * backoff_s doubling) up to t->attempts times. A 2xx answer is ZC_OK. A
 * request that files an issue is sent again after 429 and 503 only: a
 * 500 or a gateway's 502 or 504 may come after the issue was made, and
 * sending it again would file it twice. */
static enum zc_err trk_send(const struct agent_tracker *t, struct req *q) {
  char hbuf[5][1100];
  const char *hl[5];
  unsigned nh = auth_headers(
      t, q->body ? q->ctype ? q->ctype : "application/json" : NULL, hbuf);
  for (unsigned i = 0; i < nh; i++)
    hl[i] = hbuf[i];
  double backoff = t->backoff_s;
  char shown[2048];
  zc_url_shown(q->url, shown, sizeof shown);
  for (unsigned k = 1;; k++) {
    struct agent_http h = {.method = q->method,
                           .url = q->url,
                           .headers = hl,
                           .nheaders = nh,
                           .body = q->body,
                           .body_len = q->body_len,
                           .files = q->files,
                           .nfiles = q->nfiles,
                           .stop = &zc_interrupted};
    enum zc_err e = agent_http_send(&h);
    if (e) return zc_fail(e, "tracker %s: %s", t->spec, zc_errmsg());
    q->status = h.status;
    int again =
        h.status == 429 || h.status == 503 || (h.status >= 500 && !q->creates);
    if (h.status >= 200 && h.status < 300) {
      q->json = cJSON_Parse(h.answer);
      free(h.answer);
      return ZC_OK;
    }
    if (!again || k >= t->attempts) {
      char line[256];
      agent_http_line(h.answer, line, sizeof line);
      free(h.answer);
      return zc_fail(
          ZC_E_IO, "tracker %s: %s %s: HTTP %ld%s%s%s%s", t->spec, q->method,
          shown, h.status, again ? " (after retries)" : "", line[0] ? ": " : "",
          line, h.status == 401 ? " (is ZAMCAP_TRACKER_TOKEN right?)" : "");
    }
    free(h.answer);
    double w = h.retry_after >= 0 ? (double)h.retry_after : backoff;
    if (w > 120) w = 120; /* a night has other flows to run */
    zc_log(1, "tracker %s: HTTP %ld from %s; trying again in %.0f s", t->spec,
           h.status, shown, w);
    wait_s(w);
    if (zc_interrupted)
      return zc_fail(ZC_E_INTERRUPTED, "tracker %s: interrupted", t->spec);
    backoff *= 2;
  }
}

/* cJSON o printed into q's body (q->body then belongs to the caller's
 * free). */
static char *json_body(struct req *q, cJSON *o) {
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  q->body = s;
  q->body_len = strlen(s);
  return s;
}

static void url_of(const struct agent_tracker *t, struct req *q,
                   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void url_of(const struct agent_tracker *t, struct req *q,
                   const char *fmt, ...) {
  char path[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(path, sizeof path, fmt, ap);
  va_end(ap);
  snprintf(q->url, sizeof q->url, "%s%s", t->api, path);
}

/* GitLab's :id: the project's path, URL-encoded. */
static void gitlab_id(const struct agent_tracker *t, char *out, size_t cap) {
  size_t o = 0;
  for (const char *p = t->where; *p && o + 4 < cap; p++) {
    if (*p == '/') {
      memcpy(out + o, "%2F", 3);
      o += 3;
    } else {
      out[o++] = *p;
    }
  }
  out[o] = '\0';
}

/* ---- files, issues, comments ---- */

/* The report's files attached, those of them in the report's folder. */
struct files {
  char path[2][4400];
  const char *p[2], *name[2], *type[2];
  unsigned n;
};

static void report_files(const char *dir, struct files *f) {
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

/* What uploads give the text that goes with them: GitLab's Markdown
 * links, Redmine's tokens. */
struct upl {
  char md[4096];
  cJSON *tokens;
};

static enum zc_err upload_redmine(const struct agent_tracker *t,
                                  const struct files *f, struct upl *u) {
  u->tokens = cJSON_CreateArray();
  for (unsigned i = 0; i < f->n; i++) {
    char *data = NULL;
    size_t len = 0;
    if (zc_read_file(f->p[i], 256u << 20, &data, &len))
      return zc_fail(ZC_E_IO, "tracker %s: %s", t->spec, zc_errmsg());
    struct req q = {.method = "POST",
                    .body = data,
                    .body_len = len,
                    .ctype = "application/octet-stream"};
    url_of(t, &q, "/uploads.json?filename=%s", f->name[i]);
    enum zc_err e = trk_send(t, &q);
    free(data);
    if (e) return e;
    const char *tok = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(q.json, "upload"), "token"));
    if (tok) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "token", tok);
      cJSON_AddStringToObject(o, "filename", f->name[i]);
      cJSON_AddStringToObject(o, "content_type", f->type[i]);
      cJSON_AddItemToArray(u->tokens, o);
    }
    cJSON_Delete(q.json);
  }
  return ZC_OK;
}

static enum zc_err upload_gitlab(const struct agent_tracker *t,
                                 const struct files *f, struct upl *u) {
  char id[600];
  gitlab_id(t, id, sizeof id);
  for (unsigned i = 0; i < f->n; i++) {
    struct req q = {.method = "POST", .files = &f->p[i], .nfiles = 1};
    url_of(t, &q, "/projects/%s/uploads", id);
    enum zc_err e = trk_send(t, &q);
    if (e) return e;
    const char *md =
        cJSON_GetStringValue(cJSON_GetObjectItem(q.json, "markdown"));
    size_t l = strlen(u->md);
    if (md && strlen(md) + l + 8 < sizeof u->md)
      snprintf(u->md + l, sizeof u->md - l, "%s%s", l ? ", " : "", md);
    cJSON_Delete(q.json);
  }
  return ZC_OK;
}

/* Before a text goes: its files uploaded where that comes first. */
static enum zc_err upload(const struct agent_tracker *t, const struct files *f,
                          struct upl *u) {
  memset(u, 0, sizeof *u);
  if (!f || !f->n) return ZC_OK;
  if (t->kind == AGENT_TRACKER_REDMINE) return upload_redmine(t, f, u);
  if (t->kind == AGENT_TRACKER_GITLAB) return upload_gitlab(t, f, u);
  return ZC_OK;
}

/* Jira's attachments, after the issue or comment they belong to. */
static enum zc_err attach_jira(const struct agent_tracker *t, const char *key,
                               const struct files *f) {
  if (t->kind != AGENT_TRACKER_JIRA || !f || !f->n) return ZC_OK;
  struct req q = {.method = "POST", .files = f->p, .nfiles = f->n};
  url_of(t, &q, "/rest/api/2/issue/%s/attachments", key);
  enum zc_err e = trk_send(t, &q);
  cJSON_Delete(q.json);
  return e;
}

/* A text as the tracker shows it: Jira's wiki markup would read Markdown
 * as markup, so there it is shown as it is; elsewhere it is Markdown,
 * with GitLab's upload links after it. */
static char *as_text(const struct agent_tracker *t, const char *text,
                     const struct upl *u) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  enum zc_err e = ZC_OK;
  if (t->kind == AGENT_TRACKER_JIRA) {
    e = zc_buf_printf(&b, "{noformat}\n");
    for (const char *p = text; *p && !e;) {
      const char *q = strstr(p, "{noformat}");
      size_t n = q ? (size_t)(q - p) : strlen(p);
      e = zc_buf_add(&b, p, n);
      p += n + (q ? 10 : 0);
    }
    if (!e) e = zc_buf_printf(&b, "\n{noformat}");
  } else {
    e = zc_buf_printf(&b, "%s", text);
    if (!e && u && u->md[0]) e = zc_buf_printf(&b, "\n\nReport: %s", u->md);
  }
  (void)e; /* at the ceiling the text is cut */
  return zc_buf_take(&b);
}

/* o's string k, or "". */
static const char *jstr(const cJSON *o, const char *k) {
  const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
  return s ? s : "";
}

/* The issue's key and address out of a created issue's answer. */
static void created(const struct agent_tracker *t, const cJSON *j, char *key,
                    char *url) {
  const cJSON *v = NULL;
  key[0] = url[0] = '\0';
  switch (t->kind) {
  case AGENT_TRACKER_GITHUB:
    v = cJSON_GetObjectItem(j, "number");
    snprintf(url, 1024, "%s", jstr(j, "html_url"));
    break;
  case AGENT_TRACKER_GITLAB:
    v = cJSON_GetObjectItem(j, "iid");
    snprintf(url, 1024, "%s", jstr(j, "web_url"));
    break;
  case AGENT_TRACKER_JIRA: v = cJSON_GetObjectItem(j, "key"); break;
  case AGENT_TRACKER_REDMINE:
    v = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "issue"), "id");
    break;
  }
  if (cJSON_IsNumber(v)) snprintf(key, 64, "%.0f", v->valuedouble);
  if (cJSON_IsString(v) && plain(v->valuestring, NULL))
    snprintf(key, 64, "%s", v->valuestring);
  if (!key[0]) return;
  int w = 0;
  if (t->kind == AGENT_TRACKER_JIRA)
    w = snprintf(url, 1024, "%s/browse/%s", t->api, key);
  if (t->kind == AGENT_TRACKER_REDMINE)
    w = snprintf(url, 1024, "%s/issues/%s", t->api, key);
  if (!url[0] || w >= 1024) snprintf(url, 1024, "%s#%s", t->spec, key);
}

/* Files a new issue: key (64 bytes) and url (1024) get its key and
 * address, and stay empty unless it was made (an error after that, in
 * attaching the report to it, leaves them set). */
static enum zc_err op_file(const struct agent_tracker *t, const char *title,
                           const char *body, const struct files *f, char *key,
                           char *url) {
  key[0] = url[0] = '\0';
  struct upl u;
  enum zc_err e = upload(t, f, &u);
  char *text = e ? NULL : as_text(t, body, &u), *js = NULL;
  struct req q = {.method = "POST"};
  cJSON *o = cJSON_CreateObject(), *x;
  char id[600];
  switch (t->kind) {
  case AGENT_TRACKER_GITHUB:
    url_of(t, &q, "/repos/%s/issues", t->where);
    cJSON_AddStringToObject(o, "title", title);
    cJSON_AddStringToObject(o, "body", text ? text : "");
    break;
  case AGENT_TRACKER_GITLAB:
    gitlab_id(t, id, sizeof id);
    url_of(t, &q, "/projects/%s/issues", id);
    cJSON_AddStringToObject(o, "title", title);
    cJSON_AddStringToObject(o, "description", text ? text : "");
    break;
  case AGENT_TRACKER_JIRA:
    url_of(t, &q, "/rest/api/2/issue");
    x = cJSON_AddObjectToObject(o, "fields");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(x, "project"), "key",
                            t->where);
    cJSON_AddStringToObject(x, "summary", title);
    cJSON_AddStringToObject(x, "description", text ? text : "");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(x, "issuetype"), "name",
                            "Bug");
    break;
  case AGENT_TRACKER_REDMINE:
    url_of(t, &q, "/issues.json");
    x = cJSON_AddObjectToObject(o, "issue");
    cJSON_AddStringToObject(x, "project_id", t->where);
    cJSON_AddStringToObject(x, "subject", title);
    cJSON_AddStringToObject(x, "description", text ? text : "");
    if (u.tokens) cJSON_AddItemToObject(x, "uploads", u.tokens);
    u.tokens = NULL;
    break;
  }
  js = json_body(&q, o);
  q.creates = 1;
  if (!e) e = trk_send(t, &q);
  if (!e) {
    created(t, q.json, key, url);
    if (!key[0])
      e = zc_fail(ZC_E_IO,
                  "tracker %s: POST %s: the answer names no issue (HTTP %ld)",
                  t->spec, q.url, q.status);
  }
  if (!e) e = attach_jira(t, key, f);
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
                              const char *body, const struct files *f,
                              int *posted) {
  *posted = 0;
  struct upl u;
  enum zc_err e = upload(t, f, &u);
  char *text = e ? NULL : as_text(t, body, &u), *js = NULL, id[600];
  struct req q = {.method = "POST"};
  cJSON *o = cJSON_CreateObject(), *x;
  switch (t->kind) {
  case AGENT_TRACKER_GITHUB:
    url_of(t, &q, "/repos/%s/issues/%s/comments", t->where, key);
    cJSON_AddStringToObject(o, "body", text ? text : "");
    break;
  case AGENT_TRACKER_GITLAB:
    gitlab_id(t, id, sizeof id);
    url_of(t, &q, "/projects/%s/issues/%s/notes", id, key);
    cJSON_AddStringToObject(o, "body", text ? text : "");
    break;
  case AGENT_TRACKER_JIRA:
    url_of(t, &q, "/rest/api/2/issue/%s/comment", key);
    cJSON_AddStringToObject(o, "body", text ? text : "");
    break;
  case AGENT_TRACKER_REDMINE:
    q.method = "PUT";
    url_of(t, &q, "/issues/%s.json", key);
    x = cJSON_AddObjectToObject(o, "issue");
    cJSON_AddStringToObject(x, "notes", text ? text : "");
    if (u.tokens) cJSON_AddItemToObject(x, "uploads", u.tokens);
    u.tokens = NULL;
    break;
  }
  js = json_body(&q, o);
  if (!e) e = trk_send(t, &q);
  *posted = !e;
  if (!e) e = attach_jira(t, key, f);
  cJSON_Delete(q.json);
  cJSON_Delete(u.tokens);
  free(js);
  free(text);
  return e;
}

/* Jira's transition to a status of category done (close) or not (reopen),
 * into id (32 bytes). */
static enum zc_err jira_transition(const struct agent_tracker *t,
                                   const char *key, int close, char *id) {
  struct req q = {.method = "GET"};
  url_of(t, &q, "/rest/api/2/issue/%s/transitions", key);
  enum zc_err e = trk_send(t, &q);
  id[0] = '\0';
  const cJSON *tr;
  cJSON_ArrayForEach(tr, cJSON_GetObjectItem(q.json, "transitions")) {
    const char *cat = cJSON_GetStringValue(cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(tr, "to"), "statusCategory"),
        "key"));
    const char *tid = cJSON_GetStringValue(cJSON_GetObjectItem(tr, "id"));
    if (!id[0] && cat && tid && !strcmp(cat, "done") == !!close)
      snprintf(id, 32, "%s", tid);
  }
  cJSON_Delete(q.json);
  if (!e && !id[0])
    e = zc_fail(ZC_E_IO, "tracker %s: %s has no transition that %s it", t->spec,
                key, close ? "closes" : "reopens");
  return e;
}

/* Redmine's first closed status (close) or first open one (reopen). */
static enum zc_err redmine_status(const struct agent_tracker *t, int close,
                                  char *id) {
  struct req q = {.method = "GET"};
  url_of(t, &q, "/issue_statuses.json");
  enum zc_err e = trk_send(t, &q);
  id[0] = '\0';
  const cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItem(q.json, "issue_statuses")) {
    const cJSON *v = cJSON_GetObjectItem(s, "id");
    if (!id[0] && cJSON_IsNumber(v) &&
        cJSON_IsTrue(cJSON_GetObjectItem(s, "is_closed")) == !!close)
      snprintf(id, 32, "%.0f", v->valuedouble);
  }
  cJSON_Delete(q.json);
  if (!e && !id[0])
    e = zc_fail(ZC_E_IO, "tracker %s: no %s issue status", t->spec,
                close ? "closed" : "open");
  return e;
}

/* Closes (close 1) or reopens issue key. */
static enum zc_err op_state(const struct agent_tracker *t, const char *key,
                            int close) {
  struct req q = {.method = "PUT"};
  cJSON *o = cJSON_CreateObject();
  char id[600], tid[32];
  enum zc_err e = ZC_OK;
  switch (t->kind) {
  case AGENT_TRACKER_GITHUB:
    q.method = "PATCH";
    url_of(t, &q, "/repos/%s/issues/%s", t->where, key);
    cJSON_AddStringToObject(o, "state", close ? "closed" : "open");
    if (close) cJSON_AddStringToObject(o, "state_reason", "completed");
    break;
  case AGENT_TRACKER_GITLAB:
    gitlab_id(t, id, sizeof id);
    url_of(t, &q, "/projects/%s/issues/%s", id, key);
    cJSON_AddStringToObject(o, "state_event", close ? "close" : "reopen");
    break;
  case AGENT_TRACKER_JIRA:
    q.method = "POST";
    url_of(t, &q, "/rest/api/2/issue/%s/transitions", key);
    e = jira_transition(t, key, close, tid);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "transition"), "id",
                            tid);
    break;
  case AGENT_TRACKER_REDMINE:
    url_of(t, &q, "/issues/%s.json", key);
    e = redmine_status(t, close, tid);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "issue"), "status_id",
                            atof(tid));
    break;
  }
  char *js = json_body(&q, o);
  if (!e) e = trk_send(t, &q);
  cJSON_Delete(q.json);
  free(js);
  return e;
}

/* ---- the night: what the history says to file ---- */

struct night {
  const struct agent_tracker *t;
  struct agent_db *db;
  char run[24], scenario[512], at[40], dir[4200];
  struct files f;
  char *summary; /* summary.md, cut to SUMMARY_MAX */
};

/* A cause of the run. */
struct seen {
  const char *fp, *name, *unit;
  double delta;
};

/* Now (less ago seconds) as the history spells times. */
static void iso_ago(char *out, size_t cap, long ago) {
  time_t t = time(NULL) - ago;
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* One line on stdout, "tracker SPEC: ...", harmless to a terminal. */
static void say(const struct night *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const struct night *n, const char *fmt, ...) {
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
static void title_of(const struct night *n, const struct seen *c, char *out,
                     size_t cap) {
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
static void text_of(const struct night *n, const struct seen *c,
                    const char *action, struct zc_buf *b) {
  char name[512], dir[4200], scn[512];
  flat(c->name, name, sizeof name);
  flat(n->dir, dir, sizeof dir);
  flat(n->scenario, scn, sizeof scn);
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
                      "Seen again in run %s of %s (%s): `%s` %+.1f %s.\n\n"
                      "Report folder: `%s`.",
                      n->run, scn, n->at, name, c->delta,
                      c->unit ? c->unit : "ms", dir);
  else if (!strcmp(action, "returned"))
    e = zc_buf_printf(b,
                      "Back in run %s of %s (%s), after it had recovered: "
                      "`%s` %+.1f %s.\n\nReport folder: `%s`.",
                      n->run, scn, n->at, name, c->delta,
                      c->unit ? c->unit : "ms", dir);
  else
    e = zc_buf_printf(b,
                      "Recovered: `%s` was no regression-cause in the last "
                      "%u runs of %s (the latest: run %s, %s).%s",
                      name, n->t->recover_after, scn, n->run, n->at,
                      n->t->close_recovered ? " Closing." : "");
  (void)e; /* at the ceiling the text is cut */
}

/* Records action on fp for this run in tracker_log, unless it is there:
 * 1 recorded, 0 there already, -1 an error. */
static int log_claim(const struct night *n, const char *fp, const char *action,
                     const char *issue) {
  char at[40];
  iso_ago(at, sizeof at, 0);
  const char *p[] = {fp, n->run, action, n->t->spec, issue, at};
  struct agent_rows r;
  if (agent_db_run(n->db,
                   "INSERT INTO tracker_log (fingerprint, run_id, action, "
                   "tracker, issue, at) VALUES ($1, $2, $3, $4, $5, $6) ON "
                   "CONFLICT DO NOTHING RETURNING id",
                   6, p, &r))
    return -1;
  int got = r.n > 0;
  agent_rows_free(&r);
  return got;
}

static void log_undo(const struct night *n, const char *fp,
                     const char *action) {
  const char *p[] = {fp, n->run, action};
  if (agent_db_run(n->db,
                   "DELETE FROM tracker_log WHERE fingerprint = $1 AND run_id "
                   "= $2 AND action = $3",
                   3, p, NULL))
    zc_log(0, "warning: %s", zc_errmsg());
}

/* Runs sql (params p) and says whether it returned a row: 1, 0, or -1 on
 * an error. */
static int changed(const struct night *n, const char *sql, int np,
                   const char *const *p) {
  struct agent_rows r;
  if (agent_db_run(n->db, sql, np, p, &r)) return -1;
  int got = r.n > 0;
  agent_rows_free(&r);
  return got;
}

/* A comment of action's kind on key, recorded once per run. */
static enum zc_err comment_once(const struct night *n, const struct seen *c,
                                const char *action, const char *key,
                                const char *issue) {
  /* A run done again: the issue it filed or reopened says it already. */
  const char *p[] = {c->fp, n->run};
  int got = strcmp(action, "comment")
                ? 0
                : changed(n,
                          "SELECT id FROM tracker_log WHERE fingerprint = $1 "
                          "AND run_id = $2 AND action IN ('filed', "
                          "'returned')",
                          2, p);
  if (got) return got < 0 ? ZC_E_IO : ZC_OK;
  got = log_claim(n, c->fp, action, issue);
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
  if (!posted) log_undo(n, c->fp, action);
  if (posted)
    zc_log(1, "tracker %s: commented on %s%s", n->t->spec, issue,
           !strcmp(action, "comment")    ? ""
           : !strcmp(action, "returned") ? " (back)"
                                         : " (recovered)");
  return e;
}

/* Files c as a new issue if this process can claim its row: 1 filed, 0
 * another process has it, -1 an error. */
static int file_new(const struct night *n, const struct seen *c) {
  char claim[128], stale[40], host[64] = "";
  iso_ago(claim, 40, 0);
  iso_ago(stale, sizeof stale, FILING_STALE_S);
  gethostname(host, sizeof host - 1);
  snprintf(claim + strlen(claim), sizeof claim - strlen(claim), " %ld@%s",
           (long)getpid(), host);
  const char *p[] = {c->fp, claim, n->t->spec, stale};
  int got = changed(n,
                    "UPDATE regressions SET issue_state = 'filing', "
                    "issue_claimed = $2, tracker = $3 WHERE fingerprint = $1 "
                    "AND (issue_state IS NULL OR (issue_state = 'filing' AND "
                    "issue_claimed < $4)) RETURNING fingerprint",
                    4, p);
  if (got <= 0) return got;
  char title[TITLE_MAX + 8], key[64], url[1024];
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  title_of(n, c, title, sizeof title);
  text_of(n, c, "filed", &b);
  enum zc_err e = op_file(n->t, title, b.ptr ? b.ptr : "", &n->f, key, url);
  zc_buf_free(&b);
  if (e && !key[0]) { /* nothing was made: the next night tries again */
    struct zc_errsave keep;
    zc_err_save(&keep);
    const char *q[] = {c->fp, claim};
    changed(n,
            "UPDATE regressions SET issue_state = NULL, issue_claimed = NULL "
            "WHERE fingerprint = $1 AND issue_claimed = $2 RETURNING "
            "fingerprint",
            2, q);
    zc_err_restore(&keep);
    return -1;
  }
  /* Made, even if attaching to it failed (Jira): it is recorded, so that
   * it is never filed again. */
  struct zc_errsave keep;
  if (e) zc_err_save(&keep);
  const char *q[] = {c->fp, url, key};
  if (changed(n,
              "UPDATE regressions SET issue_state = 'open', issue = $2, "
              "issue_key = $3, issue_claimed = NULL WHERE fingerprint = $1 "
              "RETURNING fingerprint",
              3, q) < 0 ||
      log_claim(n, c->fp, "filed", url) < 0) {
    zc_error("tracker %s: filed %s, but the history could not record it: %s",
             n->t->spec, url, zc_errmsg());
    return -1;
  }
  zc_log(1, "tracker %s: filed %s for %s", n->t->spec, url, c->name);
  if (e) zc_err_restore(&keep);
  return e ? -1 : 1;
}

/* The issue columns of fp's row: state, issue, key (NULL where none). */
struct row {
  char state[16], issue[1024], key[64], tracker[300];
};

static enum zc_err row_of(const struct night *n, const char *fp,
                          struct row *r) {
  struct agent_rows rs;
  const char *p[] = {fp};
  enum zc_err e = agent_db_run(n->db,
                               "SELECT issue_state, issue, issue_key, "
                               "tracker FROM regressions WHERE "
                               "fingerprint = $1",
                               1, p, &rs);
  if (e) return e;
  const char *v[4] = {agent_rows_get(&rs, 0, 0), agent_rows_get(&rs, 0, 1),
                      agent_rows_get(&rs, 0, 2), agent_rows_get(&rs, 0, 3)};
  snprintf(r->state, sizeof r->state, "%s", v[0] ? v[0] : "");
  snprintf(r->issue, sizeof r->issue, "%s", v[1] ? v[1] : "");
  snprintf(r->key, sizeof r->key, "%s", v[2] ? v[2] : "");
  snprintf(r->tracker, sizeof r->tracker, "%s", v[3] ? v[3] : "");
  agent_rows_free(&rs);
  return ZC_OK;
}

/* Waits while another process files fp. */
static enum zc_err wait_filing(const struct night *n, const char *fp,
                               struct row *r) {
  for (int ms = 0; ms < FILING_WAIT_MS && !zc_interrupted; ms += 200) {
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    enum zc_err e = row_of(n, fp, r);
    if (e || strcmp(r->state, "filing")) return e;
  }
  if (zc_interrupted)
    return zc_fail(ZC_E_INTERRUPTED, "tracker %s: interrupted", n->t->spec);
  return zc_fail(ZC_E_IO,
                 "tracker %s: another zamcap has been filing %s for %d s; "
                 "nothing was sent for it",
                 n->t->spec, fp, FILING_WAIT_MS / 1000);
}

static void dry_seen(const struct night *n, const struct seen *c,
                     const struct row *r) {
  char title[TITLE_MAX + 8];
  title_of(n, c, title, sizeof title);
  if (!r->state[0] || !strcmp(r->state, "filing"))
    say(n, "would file \"%s\" (fingerprint %s)%s", title, c->fp,
        r->state[0] ? ", unless the zamcap filing it now does" : "");
  else if (!strcmp(r->state, "open"))
    say(n, "would comment on %s: seen again, %+.1f %s", r->issue, c->delta,
        c->unit ? c->unit : "ms");
  else
    say(n, "would %scomment on %s: back, %+.1f %s",
        strcmp(r->state, "closed") ? "" : "reopen and ", r->issue, c->delta,
        c->unit ? c->unit : "ms");
}

/* A cause of the run: a new issue, a comment, or its issue reopened. */
static enum zc_err seen(const struct night *n, const struct seen *c) {
  struct row r;
  for (int tries = 0; tries < 8; tries++) {
    enum zc_err e = row_of(n, c->fp, &r);
    if (e) return e;
    /* An issue in another tracker (--tracker changed) is that tracker's:
     * its key means nothing here. */
    if (r.state[0] && r.tracker[0] && strcmp(r.tracker, n->t->spec)) {
      zc_log(1, "tracker %s: %s has its issue in %s (%s); left alone",
             n->t->spec, c->name, r.tracker, r.issue[0] ? r.issue : "filing");
      return ZC_OK;
    }
    if (n->t->dry_run) {
      dry_seen(n, c, &r);
      return ZC_OK;
    }
    if (!r.state[0] || !strcmp(r.state, "filing")) {
      /* a stale claim is taken over; a live one is waited for */
      int got = file_new(n, c);
      if (got < 0) return ZC_E_IO;
      if (got > 0) return ZC_OK;
      if (r.state[0] && (e = wait_filing(n, c->fp, &r))) return e;
      continue;
    }
    if (!strcmp(r.state, "open"))
      return comment_once(n, c, "comment", r.key, r.issue);
    /* recovered or closed: the process that moves it back to open says
     * so; another one only comments */
    const char *p[] = {c->fp, r.state};
    int got = changed(n,
                      "UPDATE regressions SET issue_state = 'open' WHERE "
                      "fingerprint = $1 AND issue_state = $2 RETURNING "
                      "fingerprint",
                      2, p);
    if (got < 0) return ZC_E_IO;
    if (!got) continue;
    if (!strcmp(r.state, "closed") && (e = op_state(n->t, r.key, 0))) {
      const char *q[] = {c->fp, r.state};
      changed(n,
              "UPDATE regressions SET issue_state = $2 WHERE fingerprint = "
              "$1 RETURNING fingerprint",
              2, q);
      return e;
    }
    return comment_once(n, c, "returned", r.key, r.issue);
  }
  return zc_fail(ZC_E_IO, "tracker %s: %s changed state too often to follow",
                 n->t->spec, c->fp);
}

/* The run from which a run is among its scenario's last k: a fingerprint
 * last seen before it has recovered. 0 when there are not k runs. */
static long long recent_from(const struct night *n) {
  char off[24];
  snprintf(off, sizeof off, "%u",
           n->t->recover_after ? n->t->recover_after - 1 : 0);
  const char *p[] = {n->scenario, off};
  struct agent_rows r;
  if (agent_db_run(n->db,
                   "SELECT id FROM runs WHERE scenario = $1 ORDER BY id DESC "
                   "LIMIT 1 OFFSET $2",
                   2, p, &r))
    return 0;
  long long id = r.n ? strtoll(agent_rows_get(&r, 0, 0), NULL, 10) : 0;
  agent_rows_free(&r);
  return id;
}

/* One open issue whose fingerprint has recovered: a comment, and closed
 * with --close-recovered. */
static enum zc_err recovered(const struct night *n, const struct seen *c,
                             const char *issue, const char *key) {
  const char *to = n->t->close_recovered ? "closed" : "recovered";
  if (n->t->dry_run) {
    say(n, "would comment on %s: recovered%s", issue,
        n->t->close_recovered ? ", and close it" : "");
    return ZC_OK;
  }
  const char *p[] = {c->fp, to};
  int got = changed(n,
                    "UPDATE regressions SET issue_state = $2 WHERE "
                    "fingerprint = $1 AND issue_state = 'open' RETURNING "
                    "fingerprint",
                    2, p);
  if (got <= 0) return got < 0 ? ZC_E_IO : ZC_OK;
  enum zc_err e = comment_once(n, c, "recovered", key, issue);
  if (!e && n->t->close_recovered) {
    e = op_state(n->t, key, 1);
    if (!e) zc_log(1, "tracker %s: closed %s", n->t->spec, issue);
  }
  if (e) {
    struct zc_errsave keep;
    zc_err_save(&keep);
    const char *q[] = {c->fp};
    changed(n,
            "UPDATE regressions SET issue_state = 'open' WHERE fingerprint = "
            "$1 RETURNING fingerprint",
            1, q);
    zc_err_restore(&keep);
  }
  return e;
}

/* The scenario's open issues whose fingerprint was no cause in its last
 * recover_after runs. */
static enum zc_err recoveries(const struct night *n) {
  long long from = recent_from(n);
  if (!from) return ZC_OK;
  struct agent_rows r;
  const char *p[] = {n->scenario, n->t->spec};
  enum zc_err e = agent_db_run(
      n->db,
      "SELECT g.fingerprint, g.issue, g.issue_key, g.name, (SELECT "
      "max(c.run_id) FROM causes c WHERE c.fingerprint = g.fingerprint) FROM "
      "regressions g WHERE g.scenario = $1 AND g.issue_state = 'open' AND "
      "g.tracker = $2 ORDER BY g.fingerprint",
      2, p, &r);
  for (size_t i = 0; !e && i < r.n; i++) {
    const char *last = agent_rows_get(&r, i, 4);
    if (last && strtoll(last, NULL, 10) >= from) continue;
    struct seen c = {.fp = agent_rows_get(&r, i, 0),
                     .name = agent_rows_get(&r, i, 3)};
    e = recovered(n, &c, agent_rows_get(&r, i, 1), agent_rows_get(&r, i, 2));
  }
  agent_rows_free(&r);
  return e;
}

/* The run's row and its report: scenario, time, files, summary. */
static enum zc_err night_open(struct night *n, long long run_id,
                              const char *report_dir) {
  snprintf(n->run, sizeof n->run, "%lld", run_id);
  const char *p[] = {n->run};
  struct agent_rows r;
  enum zc_err e = agent_db_run(
      n->db, "SELECT scenario, recorded_at FROM runs WHERE id = $1", 1, p, &r);
  if (e) return e;
  if (!r.n) {
    agent_rows_free(&r);
    return zc_fail(ZC_E_IO, "tracker %s: run %s is not in the history",
                   n->t->spec, n->run);
  }
  snprintf(n->scenario, sizeof n->scenario, "%s", agent_rows_get(&r, 0, 0));
  snprintf(n->at, sizeof n->at, "%s", agent_rows_get(&r, 0, 1));
  agent_rows_free(&r);
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
  struct night n = {.t = t, .db = h->db};
  enum zc_err e = night_open(&n, run_id, report_dir);
  struct agent_rows r = {0};
  const char *p[] = {n.run};
  if (!e)
    e = agent_db_run(n.db,
                     "SELECT fingerprint, name, delta, unit FROM causes WHERE "
                     "run_id = $1 ORDER BY kind, rank",
                     1, p, &r);
  for (size_t i = 0; !e && i < r.n; i++) {
    const char *fp = agent_rows_get(&r, i, 0);
    int again = 0; /* a function twice in one run: once */
    for (size_t k = 0; k < i && !again; k++)
      again = !strcmp(agent_rows_get(&r, k, 0), fp);
    if (again) continue;
    const char *d = agent_rows_get(&r, i, 2);
    struct seen c = {.fp = fp,
                     .name = agent_rows_get(&r, i, 1),
                     .delta = d ? strtod(d, NULL) : 0,
                     .unit = agent_rows_get(&r, i, 3)};
    e = seen(&n, &c);
  }
  agent_rows_free(&r);
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

void agent_tracker_secrets(const struct agent_args *a) {
  const char *tok = getenv("ZAMCAP_TRACKER_TOKEN");
  if (!a->tracker || !tok || !*tok) return;
  zc_secret_add(tok, strlen(tok));
  /* Jira's basic auth sends it in base64: a server may quote that back */
  char enc[1024];
  b64(tok, enc, sizeof enc);
  zc_secret_add(enc, strlen(enc));
  if (a->tracker_url) agent_url_secrets("--tracker-url", a->tracker_url);
}
