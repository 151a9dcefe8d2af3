/* The trackers' inside (tracker.c and one file per tracker): what differs
 * between GitHub, GitLab, Jira and Redmine sits behind one struct of
 * operations, as curl's TLS backends sit behind struct Curl_ssl. Adding
 * a tracker is a file that defines its struct agent_tracker_ops and a row
 * in tracker.c's table of them.
 *
 * Ownership: arguments are borrowed; a request's answer (json) belongs to
 * its sender's caller (cJSON_Delete). */
#ifndef AGENT_TRACKER_INT_H
#define AGENT_TRACKER_INT_H

#include <cjson/cJSON.h>

#include "tracker.h"

/* one header line: a token of AGENT_TRACKER_TOKEN_MAX bytes fits it in
 * base64 (Jira's Basic) */
enum { TRK_HEADER = 6200 };

/* A request and its answer. */
struct trk_req {
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

/* The report's files attached, those of them in the report's folder. */
struct trk_files {
  char path[2][4400];
  const char *p[2], *name[2], *type[2];
  unsigned n;
};

/* What uploads give the text that goes with them: GitLab's Markdown
 * links, Redmine's tokens. */
struct trk_upl {
  char md[4096];
  cJSON *tokens;
};

/* One tracker. Each builder fills q (its method and URL) and o (its JSON
 * body) for one action; tracker.c sends it. */
struct agent_tracker_ops {
  const char *name;   /* as --tracker spells it: "github" */
  const char *wants;  /* what WHERE is, for messages: "github:OWNER/REPO" */
  const char *api;    /* the public API's base URL; NULL: --tracker-url */
  const char *server; /* the server, for messages: "Jira" */
  /* whether WHERE names a project of this tracker */
  int (*where_ok)(const char *where);
  /* the tracker's own headers (authentication first) into h; how many */
  unsigned (*headers)(const struct agent_tracker *t, char h[][TRK_HEADER]);
  /* the report's files uploaded before a text that names them; NULL:
   * this tracker attaches nothing first */
  enum zc_err (*upload)(const struct agent_tracker *t,
                        const struct trk_files *f, struct trk_upl *u);
  /* a text as the tracker shows it (caller frees) */
  char *(*text)(const struct agent_tracker *t, const char *text,
                const struct trk_upl *u);
  /* a new issue */
  void (*file)(const struct agent_tracker *t, struct trk_req *q, cJSON *o,
               const char *title, const char *text, struct trk_upl *u);
  /* a comment on issue key */
  void (*comment)(const struct agent_tracker *t, struct trk_req *q, cJSON *o,
                  const char *key, const char *text, struct trk_upl *u);
  /* closes (close 1) or reopens issue key; may ask the tracker first */
  enum zc_err (*state)(const struct agent_tracker *t, struct trk_req *q,
                       cJSON *o, const char *key, int close);
  /* the key (64 bytes) out of a created issue's answer, and its
   * address into url (1024); returns 0 when the address did not fit */
  int (*created)(const struct agent_tracker *t, const cJSON *answer, char *key,
                 char *url);
  /* the report's files after the issue or comment they belong to (Jira);
   * NULL: none */
  enum zc_err (*attach)(const struct agent_tracker *t, const char *key,
                        const struct trk_files *f);
};

extern const struct agent_tracker_ops trk_github, trk_gitlab, trk_jira,
    trk_redmine;

/* ---- shared by the trackers (trkhttp.c) ---- */

/* Sends q, again after a 429 or a 5xx (waiting what Retry-After says, else
 * backoff doubling) up to t->attempts times; a 2xx answer is ZC_OK. */
enum zc_err trk_send(const struct agent_tracker *t, struct trk_req *q);
/* q's URL: the API's base and the path fmt makes. */
void trk_url(const struct agent_tracker *t, struct trk_req *q, const char *fmt,
             ...) __attribute__((format(printf, 3, 4)));
/* s in base64 into out (cap bytes). */
void trk_b64(const char *s, char *out, size_t cap);
/* Whether s is made of [A-Za-z0-9._-] and the bytes of extra only. */
int trk_plain(const char *s, const char *extra);
/* o's string k, or "". */
const char *trk_jstr(const cJSON *o, const char *k);
/* A text as Markdown, with GitLab's upload links after it. */
char *trk_markdown(const struct agent_tracker *t, const char *text,
                   const struct trk_upl *u);
/* The key of an answer's member v (a number or a plain string). */
void trk_key(const cJSON *v, char *key);

#endif
