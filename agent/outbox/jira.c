/* Jira's issues through its REST API v2 (tracker-int.h): texts in a
 * {noformat} block (wiki markup would read Markdown as markup), the
 * report's files attached after the issue or comment, closed and
 * reopened by a workflow transition. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tracker-int.h"

static int jira_where_ok(const char *w) {
  if (!(w[0] >= 'A' && w[0] <= 'Z')) return 0;
  for (const char *p = w; *p; p++)
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return 0;
  return 1;
}

/* e-mail:token is Jira Cloud's basic auth; else a personal access token
 * (Data Center, Server). */
static unsigned jira_headers(const struct agent_tracker *t,
                             char h[][TRK_HEADER]) {
  unsigned n = 0;
  const char *tok = t->token ? t->token : "";
  char enc[TRK_HEADER - 64];
  if (strchr(tok, ':')) trk_b64(tok, enc, sizeof enc);
  snprintf(h[n++], TRK_HEADER, "Authorization: %s %s",
           strchr(tok, ':') ? "Basic" : "Bearer", strchr(tok, ':') ? enc : tok);
  snprintf(h[n++], TRK_HEADER, "X-Atlassian-Token: no-check");
  snprintf(h[n++], TRK_HEADER, "Accept: application/json");
  return n;
}

/* The text inside one {noformat} block, which only "{noformat" ends: a
 * space after the brace of each one in the text, in any case. Inserting
 * spaces can make no new one (the word holds none), so one pass is
 * enough; issue 38's one-pass strip turned "{no{noformat}format}" into
 * the closing tag, and the page's text after it rendered as wiki markup
 * (images from any host, [~user] mentions). Nothing is taken out. */
static char *jira_text(const struct agent_tracker *t, const char *text,
                       const struct trk_upl *u) {
  (void)t;
  (void)u;
  struct zc_buf b;
  zc_buf_init(&b, 2 << 20);
  enum zc_err e = zc_buf_printf(&b, "{noformat}\n");
  for (const char *p = text; *p && !e; p++) {
    e = zc_buf_addc(&b, *p);
    if (!e && *p == '{' && !strncasecmp(p + 1, "noformat", 8))
      e = zc_buf_addc(&b, ' ');
  }
  if (!e) e = zc_buf_printf(&b, "\n{noformat}");
  (void)e; /* at the ceiling the text is cut */
  return zc_buf_take(&b);
}

static void jira_file(const struct agent_tracker *t, struct trk_req *q,
                      cJSON *o, const char *title, const char *text,
                      struct trk_upl *u) {
  (void)u;
  trk_url(t, q, "/rest/api/2/issue");
  cJSON *x = cJSON_AddObjectToObject(o, "fields");
  cJSON_AddStringToObject(cJSON_AddObjectToObject(x, "project"), "key",
                          t->where);
  cJSON_AddStringToObject(x, "summary", title);
  cJSON_AddStringToObject(x, "description", text);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(x, "issuetype"), "name",
                          "Bug");
}

static void jira_comment(const struct agent_tracker *t, struct trk_req *q,
                         cJSON *o, const char *key, const char *text,
                         struct trk_upl *u) {
  (void)u;
  trk_url(t, q, "/rest/api/2/issue/%s/comment", key);
  cJSON_AddStringToObject(o, "body", text);
}

/* The transition to a status of category done (close) or not (reopen),
 * into id (32 bytes). */
static enum zc_err transition(const struct agent_tracker *t, const char *key,
                              int close, char *id) {
  struct trk_req q = {.method = "GET"};
  trk_url(t, &q, "/rest/api/2/issue/%s/transitions", key);
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

static enum zc_err jira_state(const struct agent_tracker *t, struct trk_req *q,
                              cJSON *o, const char *key, int close) {
  char tid[32];
  q->method = "POST";
  trk_url(t, q, "/rest/api/2/issue/%s/transitions", key);
  enum zc_err e = transition(t, key, close, tid);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "transition"), "id", tid);
  return e;
}

static int jira_created(const struct agent_tracker *t, const cJSON *j,
                        char *key, char *url) {
  trk_key(cJSON_GetObjectItem(j, "key"), key);
  url[0] = '\0';
  return !key[0] || snprintf(url, 1024, "%s/browse/%s", t->api, key) < 1024;
}

static enum zc_err jira_attach(const struct agent_tracker *t, const char *key,
                               const struct trk_files *f) {
  if (!f || !f->n) return ZC_OK;
  struct trk_req q = {.method = "POST", .files = f->p, .nfiles = f->n};
  trk_url(t, &q, "/rest/api/2/issue/%s/attachments", key);
  enum zc_err e = trk_send(t, &q);
  cJSON_Delete(q.json);
  return e;
}

const struct agent_tracker_ops trk_jira = {
    .name = "jira",
    .wants = "jira:PROJECTKEY (capitals, digits, _)",
    .server = "Jira",
    .where_ok = jira_where_ok,
    .headers = jira_headers,
    .text = jira_text,
    .file = jira_file,
    .comment = jira_comment,
    .state = jira_state,
    .created = jira_created,
    .attach = jira_attach,
};
