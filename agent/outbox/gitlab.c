/* GitLab's issues through its REST API v4 (tracker-int.h): the report's
 * files are uploaded to the project first and linked from the text. */
#include <stdio.h>
#include <string.h>

#include "tracker-int.h"

static int gl_where_ok(const char *w) {
  const char *slash = strchr(w, '/');
  return slash && slash != w && w[strlen(w) - 1] != '/' && !strstr(w, "//") &&
         trk_plain(w, "/");
}

static unsigned gl_headers(const struct agent_tracker *t,
                           char h[][TRK_HEADER]) {
  unsigned n = 0;
  snprintf(h[n++], TRK_HEADER, "PRIVATE-TOKEN: %s", t->token ? t->token : "");
  snprintf(h[n++], TRK_HEADER, "Accept: application/json");
  return n;
}

/* GitLab's :id: the project's path, URL-encoded. */
static void gl_id(const struct agent_tracker *t, char *out, size_t cap) {
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

static enum zc_err gl_upload(const struct agent_tracker *t,
                             const struct trk_files *f, struct trk_upl *u) {
  char id[600];
  gl_id(t, id, sizeof id);
  for (unsigned i = 0; i < f->n; i++) {
    struct trk_req q = {.method = "POST", .files = &f->p[i], .nfiles = 1};
    trk_url(t, &q, "/projects/%s/uploads", id);
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

static void gl_file(const struct agent_tracker *t, struct trk_req *q, cJSON *o,
                    const char *title, const char *text, struct trk_upl *u) {
  (void)u;
  char id[600];
  gl_id(t, id, sizeof id);
  trk_url(t, q, "/projects/%s/issues", id);
  cJSON_AddStringToObject(o, "title", title);
  cJSON_AddStringToObject(o, "description", text);
}

static void gl_comment(const struct agent_tracker *t, struct trk_req *q,
                       cJSON *o, const char *key, const char *text,
                       struct trk_upl *u) {
  (void)u;
  char id[600];
  gl_id(t, id, sizeof id);
  trk_url(t, q, "/projects/%s/issues/%s/notes", id, key);
  cJSON_AddStringToObject(o, "body", text);
}

static enum zc_err gl_state(const struct agent_tracker *t, struct trk_req *q,
                            cJSON *o, const char *key, int close) {
  char id[600];
  gl_id(t, id, sizeof id);
  trk_url(t, q, "/projects/%s/issues/%s", id, key);
  cJSON_AddStringToObject(o, "state_event", close ? "close" : "reopen");
  return ZC_OK;
}

static int gl_created(const struct agent_tracker *t, const cJSON *j, char *key,
                      char *url) {
  (void)t;
  trk_key(cJSON_GetObjectItem(j, "iid"), key);
  snprintf(url, 1024, "%s", trk_jstr(j, "web_url"));
  return 1;
}

const struct agent_tracker_ops trk_gitlab = {
    .name = "gitlab",
    .wants = "gitlab:GROUP/PROJECT",
    .api = "https://gitlab.com/api/v4",
    .server = "GitLab",
    .where_ok = gl_where_ok,
    .headers = gl_headers,
    .upload = gl_upload,
    .text = trk_markdown,
    .file = gl_file,
    .comment = gl_comment,
    .state = gl_state,
    .created = gl_created,
};
