/* Redmine's issues through its REST API (tracker-int.h): the report's
 * files uploaded first, their tokens sent with the issue or the note;
 * texts in character references (rm_text), whatever formatting the
 * Redmine uses; closed and reopened by the first closed or open issue
 * status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-int.h"

static int rm_where_ok(const char *w) {
  for (const char *p = w; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
          *p == '_'))
      return 0;
  return *w != '\0';
}

static unsigned rm_headers(const struct agent_tracker *t,
                           char h[][TRK_HEADER]) {
  unsigned n = 0;
  snprintf(h[n++], TRK_HEADER, "X-Redmine-API-Key: %s",
           t->token ? t->token : "");
  snprintf(h[n++], TRK_HEADER, "Accept: application/json");
  return n;
}

/* A text as every Redmine shows it harmlessly, whichever formatting it
 * was set up with (Textile, Markdown, CommonMark: a REST client cannot
 * ask): every ASCII mark that any of them or Redmine's own links read
 * (!, *, _, @, #, :, [, {, <, &, |, ...) as an HTML character reference,
 * which all three print as the character and none reads as markup; a
 * space that starts a line likewise (no code block). Letters, digits,
 * spaces, line breaks and UTF-8 stay. Issue 38: with Textile, the page's
 * text rendered as markup (images from any host, mentions). */
static char *rm_text(const struct agent_tracker *t, const char *text,
                     const struct trk_upl *u) {
  (void)t;
  (void)u;
  struct zc_buf b;
  zc_buf_init(&b, 8 << 20);
  enum zc_err e = ZC_OK;
  int bol = 1; /* at a line's start */
  for (const unsigned char *p = (const unsigned char *)text; *p && !e; p++) {
    unsigned char c = *p;
    if (c == '\n') {
      e = zc_buf_addc(&b, '\n');
      bol = 1;
      continue;
    }
    if (c < 0x20 || c == 0x7f) c = ' ';
    int plain = c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                (c >= 'A' && c <= 'Z') || (c == ' ' && !bol);
    e = plain ? zc_buf_addc(&b, (char)c) : zc_buf_printf(&b, "&#%u;", c);
    /* CommonMark's HTML prints the character again, and Redmine reads
     * its links (@user, user:x, #1) in that HTML: a word joiner after
     * each, zero-width, ends them there */
    if (!e && (c == '@' || c == ':' || c == '#'))
      e = zc_buf_printf(&b, "&#8288;");
    bol = bol && c == ' ';
  }
  (void)e; /* at the ceiling the text is cut */
  return zc_buf_take(&b);
}

static enum zc_err rm_upload(const struct agent_tracker *t,
                             const struct trk_files *f, struct trk_upl *u) {
  u->tokens = cJSON_CreateArray();
  for (unsigned i = 0; i < f->n; i++) {
    char *data = NULL;
    size_t len = 0;
    if (zc_read_file(f->p[i], 256u << 20, &data, &len))
      return zc_fail(ZC_E_IO, "tracker %s: %s", t->spec, zc_errmsg());
    struct trk_req q = {.method = "POST",
                        .body = data,
                        .body_len = len,
                        .ctype = "application/octet-stream"};
    trk_url(t, &q, "/uploads.json?filename=%s", f->name[i]);
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

/* The uploads' tokens go with the text (and are no longer u's). */
static void with_uploads(cJSON *x, struct trk_upl *u) {
  if (u->tokens) cJSON_AddItemToObject(x, "uploads", u->tokens);
  u->tokens = NULL;
}

static void rm_file(const struct agent_tracker *t, struct trk_req *q, cJSON *o,
                    const char *title, const char *text, struct trk_upl *u) {
  trk_url(t, q, "/issues.json");
  cJSON *x = cJSON_AddObjectToObject(o, "issue");
  cJSON_AddStringToObject(x, "project_id", t->where);
  cJSON_AddStringToObject(x, "subject", title);
  cJSON_AddStringToObject(x, "description", text);
  with_uploads(x, u);
}

static void rm_comment(const struct agent_tracker *t, struct trk_req *q,
                       cJSON *o, const char *key, const char *text,
                       struct trk_upl *u) {
  q->method = "PUT";
  trk_url(t, q, "/issues/%s.json", key);
  cJSON *x = cJSON_AddObjectToObject(o, "issue");
  cJSON_AddStringToObject(x, "notes", text);
  with_uploads(x, u);
}

/* The first closed status (close) or first open one (reopen), into id
 * (32 bytes). */
static enum zc_err rm_status(const struct agent_tracker *t, int close,
                             char *id) {
  struct trk_req q = {.method = "GET"};
  trk_url(t, &q, "/issue_statuses.json");
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

static enum zc_err rm_state(const struct agent_tracker *t, struct trk_req *q,
                            cJSON *o, const char *key, int close) {
  char tid[32];
  trk_url(t, q, "/issues/%s.json", key);
  enum zc_err e = rm_status(t, close, tid);
  cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "issue"), "status_id",
                          atof(tid));
  return e;
}

static int rm_created(const struct agent_tracker *t, const cJSON *j, char *key,
                      char *url) {
  trk_key(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "issue"), "id"), key);
  url[0] = '\0';
  return !key[0] || snprintf(url, 1024, "%s/issues/%s", t->api, key) < 1024;
}

const struct agent_tracker_ops trk_redmine = {
    .name = "redmine",
    .wants = "redmine:PROJECT (its identifier: a-z, 0-9, -, _)",
    .server = "Redmine",
    .where_ok = rm_where_ok,
    .headers = rm_headers,
    .upload = rm_upload,
    .text = rm_text,
    .file = rm_file,
    .comment = rm_comment,
    .state = rm_state,
    .created = rm_created,
};
