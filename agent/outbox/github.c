/* GitHub's issues through its REST API (tracker-int.h): an issue per
 * repository, comments, closed and reopened by its state. */
#include <stdio.h>
#include <string.h>

#include "tracker-int.h"

static int gh_where_ok(const char *w) {
  const char *slash = strchr(w, '/');
  return slash && slash != w && slash[1] && !strchr(slash + 1, '/') &&
         trk_plain(w, "/");
}

static unsigned gh_headers(const struct agent_tracker *t,
                           char h[][TRK_HEADER]) {
  unsigned n = 0;
  snprintf(h[n++], TRK_HEADER, "Authorization: Bearer %s",
           t->token ? t->token : "");
  snprintf(h[n++], TRK_HEADER, "Accept: application/vnd.github+json");
  snprintf(h[n++], TRK_HEADER, "X-GitHub-Api-Version: 2022-11-28");
  return n;
}

static void gh_file(const struct agent_tracker *t, struct trk_req *q, cJSON *o,
                    const char *title, const char *text, struct trk_upl *u) {
  (void)u;
  trk_url(t, q, "/repos/%s/issues", t->where);
  cJSON_AddStringToObject(o, "title", title);
  cJSON_AddStringToObject(o, "body", text);
}

static void gh_comment(const struct agent_tracker *t, struct trk_req *q,
                       cJSON *o, const char *key, const char *text,
                       struct trk_upl *u) {
  (void)u;
  trk_url(t, q, "/repos/%s/issues/%s/comments", t->where, key);
  cJSON_AddStringToObject(o, "body", text);
}

static enum zc_err gh_state(const struct agent_tracker *t, struct trk_req *q,
                            cJSON *o, const char *key, int close) {
  q->method = "PATCH";
  trk_url(t, q, "/repos/%s/issues/%s", t->where, key);
  cJSON_AddStringToObject(o, "state", close ? "closed" : "open");
  if (close) cJSON_AddStringToObject(o, "state_reason", "completed");
  return ZC_OK;
}

static int gh_created(const struct agent_tracker *t, const cJSON *j, char *key,
                      char *url) {
  (void)t;
  trk_key(cJSON_GetObjectItem(j, "number"), key);
  snprintf(url, 1024, "%s", trk_jstr(j, "html_url"));
  return 1;
}

const struct agent_tracker_ops trk_github = {
    .name = "github",
    .wants = "github:OWNER/REPO",
    .api = "https://api.github.com",
    .server = "GitHub",
    .where_ok = gh_where_ok,
    .headers = gh_headers,
    .text = trk_markdown,
    .file = gh_file,
    .comment = gh_comment,
    .state = gh_state,
    .created = gh_created,
};
