/* zamcap run-all FLOW.json... --old URL|DIR --new URL|DIR [--shard I/N]:
 * a night of many flows. Its share of the flows (the list sorted by path,
 * the k-th in shard k mod N + 1) runs one after another in one session:
 * the builds served once, one Chrome, each flow's pairs all on this host,
 * its reports in OUT/<flow>/ and its run in the shared history. Then a
 * summary of the flows (stdout, OUT/run-all.json, OUT/run-all.md) and one
 * exit code for the night. A flow that fails does not stop the others;
 * SIGTERM stops after what finished. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "history.h"
#include "session.h"
#include "zc-out.h"

/* One flow of the night. */
struct flow {
  char *file;             /* as given */
  unsigned index;         /* in the sorted list of every flow, from 0 */
  char *slug;             /* its folder's name under OUT */
  char *dir;              /* OUT/<slug> */
  struct agent_args args; /* the night's, with this flow, folder, history */
  int rc;                 /* its exit code; -1 while it has not run */
  int reported;           /* its reports were written */
  char *title, *state, *error;
  int causes;
  double secs;
};

struct night {
  const struct agent_args *a;
  struct agent_args top; /* no flow: the session's own */
  struct flow *f;        /* this shard's flows */
  size_t n, given;       /* this shard's, every flow given */
  char *out;             /* OUT: the flows' folders are in it */
  char *history;         /* the spec, NULL with --no-history */
  struct agent_session *s;
  int restart; /* the flow before failed to capture: a fresh Chrome */
};

static int by_path(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A flow's folder name: its file's name without .json, every byte but
 * [A-Za-z0-9._-] as '-'. Caller frees. */
static char *slug_of(const char *file) {
  const char *b = strrchr(file, '/');
  b = b ? b + 1 : file;
  size_t n = strlen(b);
  if (n > 5 && !strcmp(b + n - 5, ".json")) n -= 5;
  char *s = zc_xstrndup(b, n);
  for (char *p = s; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789._-",
                *p))
      *p = '-';
  if (!s[0] || !strcmp(s, ".") || !strcmp(s, "..")) {
    free(s);
    s = zc_xstrdup("flow");
  }
  return s;
}

/* Whether name is taken: a folder given to a flow before, another flow's
 * own name, or one of the session's and run-all's own names in OUT. */
static int taken(char *const *names, char *const *slugs, size_t n, size_t me,
                 const char *name) {
  static const char *const own[] = {
      "run-all.json",  "run-all.md", ZC_OUT_CHROME_LOG, ZC_OUT_TRACES,
      ZC_OUT_FAILURES, ZC_OUT_PAIRS, ZC_OUT_SOURCEMAPS};
  for (size_t i = 0; i < ZC_ARRAY_LEN(own); i++)
    if (!strcmp(name, own[i])) return 1;
  for (size_t j = 0; j < n; j++)
    if ((names[j] && !strcmp(names[j], name)) ||
        (j != me && !strcmp(slugs[j], name)))
      return 1;
  return 0;
}

/* Each flow's folder name, unique over every flow given and the same on
 * every shard: a flow whose name no other has keeps it; the others get
 * their index in the list after it (x-2), and more (x-2-2, x-2-3) while
 * that too is taken (issue 38: a/x.json, b/x.json and x-2.json gave two
 * flows the folder x-2, the later overwriting the earlier's reports). */
static char **folder_names(char **slugs, size_t n) {
  char **names = zc_xcalloc(n + 1, sizeof *names);
  for (size_t k = 0; k < n; k++)
    if (!taken(names, slugs, n, k, slugs[k])) names[k] = zc_xstrdup(slugs[k]);
  for (size_t k = 0; k < n; k++) {
    if (names[k]) continue;
    size_t len = strlen(slugs[k]) + 48;
    char *c = zc_xmalloc(len);
    snprintf(c, len, "%s-%zu", slugs[k], k + 1);
    for (unsigned i = 2; taken(names, slugs, n, k, c); i++)
      snprintf(c, len, "%s-%zu-%u", slugs[k], k + 1, i);
    names[k] = c;
  }
  return names;
}

/* This shard's flows, from every flow in path order: the same split on
 * every machine given the same list, whatever order a shell's glob gave.
 * Folder names as folder_names gives them. Returns 0 or the usage
 * error. */
static int plan(struct night *nt) {
  const struct agent_args *a = nt->a;
  size_t n = (size_t)a->noperands;
  char **all = zc_xmalloc(n * sizeof *all);
  memcpy(all, a->operands, n * sizeof *all);
  qsort(all, n, sizeof *all, by_path);
  for (size_t k = 1; k < n; k++)
    if (!strcmp(all[k], all[k - 1])) {
      const char *twice = all[k]; /* the operand's, not the array's */
      free(all);
      return agent_usage_error("run-all", "%s: given twice", twice);
    }
  char **slugs = zc_xmalloc(n * sizeof *slugs);
  for (size_t k = 0; k < n; k++)
    slugs[k] = slug_of(all[k]);
  char **names = folder_names(slugs, n);
  unsigned si = a->shard_n ? a->shard_i - 1 : 0,
           sn = a->shard_n ? a->shard_n : 1;
  nt->f = zc_xcalloc(n, sizeof *nt->f);
  nt->given = n;
  for (size_t k = 0; k < n; k++) {
    if (k % sn != si) {
      free(names[k]);
      continue;
    }
    struct flow *f = &nt->f[nt->n++];
    f->file = all[k];
    f->index = (unsigned)k;
    f->rc = -1;
    f->slug = names[k];
  }
  for (size_t k = 0; k < n; k++)
    free(slugs[k]);
  free(slugs);
  free(names);
  free(all);
  return 0;
}

static const char *jstr(const cJSON *o, const char *k) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* The flow's verdict and causes from its report.json. */
static void read_verdict(struct flow *f) {
  char path[4200], *txt = NULL;
  size_t len;
  snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, f->dir);
  if (zc_read_file(path, 512u << 20, &txt, &len)) return;
  cJSON *doc = cJSON_ParseWithLength(txt, len);
  free(txt);
  const cJSON *v = cJSON_GetObjectItem(doc, "verdict");
  if (jstr(v, "state")) f->state = zc_xstrdup(jstr(v, "state"));
  f->causes = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "regression_causes"));
  cJSON_Delete(doc);
}

/* One flow: the session moved on to it, its pairs and reports, its run
 * in the history, its upload. Returns its exit code. After a failed
 * capture the next flow gets a fresh Chrome. */
static int run_flow(struct night *nt, struct flow *f) {
  const struct agent_args *a = nt->a;
  size_t len = strlen(f->slug) + strlen(nt->out) + 2;
  f->dir = zc_xmalloc(len);
  snprintf(f->dir, len, "%s/%s", nt->out, f->slug);
  f->args = *a;
  f->args.operands = &f->file;
  f->args.noperands = 1;
  f->args.out = f->dir;
  f->args.history = nt->history;
  f->args.no_history |= !nt->history;
  f->args.formats |= ANA_FMT_JSON; /* the summary reads each verdict */
  int rc = agent_session_flow(nt->s, &f->args, nt->restart);
  if (rc) {
    f->error = zc_xstrdup(zc_errmsg());
    free(f->dir);
    f->dir = NULL; /* nothing was made for it */
    return rc;
  }
  const char *title = agent_session_title(nt->s);
  if (title && title[0]) f->title = zc_xstrdup(title);
  /* the history knows a flow by its title: two flows of one title would
   * be one scenario there, each night's runs mixed */
  for (const struct flow *g = nt->f; f->title && g < f; g++)
    if (g->title && !strcmp(g->title, f->title))
      zc_log(0,
             "warning: %s has the title of %s, \"%s\": the history counts "
             "them as one scenario; give each flow a title of its own",
             f->file, g->file, f->title);
  rc = agent_session_compare(nt->s, 0, 1, NULL, &f->reported, NULL);
  if (f->reported) {
    read_verdict(f);
    rc = agent_publish(nt->s, &f->args, rc);
  } else {
    f->error = zc_xstrdup(zc_errmsg());
  }
  nt->restart = rc == ZC_EXIT_CAPTURE;
  return rc;
}

/* How bad a flow's exit code is for the night: a bug, then a flow that
 * could not be read, a capture that failed (its answer is missing), then
 * a regression, an undecided candidate, nothing. */
static int severity(int rc) {
  switch (rc) {
  case ZC_EXIT_NONE: return 0;
  case ZC_EXIT_INCONCLUSIVE: return 1;
  case ZC_EXIT_FOUND: return 2;
  case ZC_EXIT_CAPTURE: return 3;
  case ZC_EXIT_USAGE: return 4;
  default: return 5; /* 4, and anything unforeseen */
  }
}

static const char *status_of(const struct flow *f) {
  if (f->rc < 0) return "not run";
  if (f->rc >= 128) return "interrupted";
  if (f->state) return f->state;
  return f->rc == ZC_EXIT_USAGE ? "input error" : "failed";
}

static cJSON *flow_json(const struct flow *f) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "file", f->file);
  cJSON_AddNumberToObject(o, "index", f->index + 1);
  cJSON_AddItemToObject(
      o, "title", f->title ? cJSON_CreateString(f->title) : cJSON_CreateNull());
  cJSON_AddStringToObject(o, "status", status_of(f));
  if (f->rc >= 0)
    cJSON_AddNumberToObject(o, "exit_code", f->rc);
  else
    cJSON_AddNullToObject(o, "exit_code");
  cJSON_AddNumberToObject(o, "regression_causes", f->causes);
  cJSON_AddItemToObject(o, "report_dir",
                        f->dir ? cJSON_CreateString(f->slug)
                               : cJSON_CreateNull());
  cJSON_AddItemToObject(
      o, "error", f->error ? cJSON_CreateString(f->error) : cJSON_CreateNull());
  cJSON_AddNumberToObject(o, "seconds", (double)(long)(f->secs * 10) / 10);
  return o;
}

/* run-all.json (schema zamcap-run-all/1, docs/cmd/zamcap-run-all.md). */
static cJSON *summary_json(const struct night *nt, int rc) {
  const struct agent_args *a = nt->a;
  cJSON *d = cJSON_CreateObject();
  cJSON_AddStringToObject(d, "schema", "zamcap-run-all/1");
  cJSON_AddStringToObject(d, "zamcap_version", ZAMCAP_VERSION);
  if (a->shard_n) {
    cJSON *sh = cJSON_AddObjectToObject(d, "shard");
    cJSON_AddNumberToObject(sh, "index", a->shard_i);
    cJSON_AddNumberToObject(sh, "count", a->shard_n);
  } else {
    cJSON_AddNullToObject(d, "shard");
  }
  cJSON_AddNumberToObject(d, "flows_given", (double)nt->given);
  cJSON_AddStringToObject(d, "old", a->old);
  cJSON_AddStringToObject(d, "new", a->new_);
  cJSON_AddItemToObject(d, "old_label",
                        a->old_label ? cJSON_CreateString(a->old_label)
                                     : cJSON_CreateNull());
  cJSON_AddItemToObject(d, "new_label",
                        a->new_label ? cJSON_CreateString(a->new_label)
                                     : cJSON_CreateNull());
  cJSON_AddItemToObject(d, "history",
                        nt->history ? cJSON_CreateString(nt->history)
                                    : cJSON_CreateNull());
  cJSON_AddNumberToObject(d, "exit_code", rc);
  cJSON_AddBoolToObject(d, "interrupted", zc_interrupted != 0);
  cJSON *fl = cJSON_AddArrayToObject(d, "flows");
  for (size_t i = 0; i < nt->n; i++)
    cJSON_AddItemToArray(fl, flow_json(&nt->f[i]));
  return d;
}

/* A Markdown table cell: text from a flow or a page (its file, title, an
 * error that quotes a selector or a URL) is a code span, so that no link,
 * image, HTML or @mention in it renders or pings: fenced by more
 * backticks than it holds in a row, a space inside each end (CommonMark
 * strips them), line breaks and control characters as spaces, and every
 * '|' escaped with an odd run of backslashes (GFM splits the row first,
 * on any pipe after an even run). */
static void md_code(FILE *f, const char *s) {
  fputs(" ", f);
  size_t ticks = 0, run = 0, bs = 0;
  for (const char *p = s ? s : ""; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > ticks) ticks = run;
  }
  if (s && *s) {
    for (size_t i = 0; i <= ticks; i++)
      fputc('`', f);
    fputc(' ', f);
    for (; *s; s++) {
      if (*s == '|') fputs(bs % 2 ? "\\\\" : "\\", f);
      bs = *s == '\\' ? bs + 1 : 0;
      fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    }
    fputc(' ', f);
    for (size_t i = 0; i <= ticks; i++)
      fputc('`', f);
  }
  fputs(" |", f);
}

/* A cell of zamcap's own words or numbers. */
static void md_cell(FILE *f, const char *s) {
  fprintf(f, " %s |", s);
}

static enum zc_err write_md(void *arg, FILE *f) {
  const struct night *nt = arg;
  fprintf(f, "## zamcap run-all: %zu of %zu flows", nt->n, nt->given);
  if (nt->a->shard_n)
    fprintf(f, " (shard %u/%u)", nt->a->shard_i, nt->a->shard_n);
  fputs("\n\n| flow | title | verdict | causes | exit | report |\n"
        "|---|---|---|---|---|---|\n",
        f);
  for (size_t i = 0; i < nt->n; i++) {
    const struct flow *fl = &nt->f[i];
    char num[32];
    fputs("|", f);
    md_code(f, fl->file);
    md_code(f, fl->title);
    if (fl->error && !fl->state)
      md_code(f, fl->error);
    else
      md_cell(f, status_of(fl));
    snprintf(num, sizeof num, "%d", fl->causes);
    md_cell(f, num);
    snprintf(num, sizeof num, "%d", fl->rc);
    md_cell(f, fl->rc >= 0 ? num : "-");
    if (fl->dir)
      md_code(f, fl->slug);
    else
      md_cell(f, "-");
    fputs("\n", f);
  }
  return ferror(f) ? ZC_E_IO : ZC_OK;
}

static enum zc_err write_str(void *arg, FILE *f) {
  fputs(arg, f);
  return ferror(f) ? ZC_E_IO : ZC_OK;
}

/* The summary: run-all.json and run-all.md in out, secrets masked, and
 * one line per flow on stdout. */
static void summarize(const struct night *nt, const char *out, int rc) {
  char path[4200];
  cJSON *doc = summary_json(nt, rc);
  char *txt = cJSON_Print(doc);
  cJSON_Delete(doc);
  zc_scrub(txt);
  snprintf(path, sizeof path, "%s/run-all.json", out);
  if (zc_write_atomic(path, write_str, txt)) zc_error("%s", zc_errmsg());
  free(txt);
  snprintf(path, sizeof path, "%s/run-all.md", out);
  if (zc_write_atomic(path, write_md, (void *)nt)) zc_error("%s", zc_errmsg());
  printf("run-all: %zu of %zu flows", nt->n, nt->given);
  if (nt->a->shard_n) printf(" (shard %u/%u)", nt->a->shard_i, nt->a->shard_n);
  printf(", exit %d; summary in %s/run-all.md\n", rc, out);
  for (size_t i = 0; i < nt->n; i++) {
    const struct flow *f = &nt->f[i];
    char line[1024], code[16] = "-", tail[600] = "";
    if (f->rc >= 0) snprintf(code, sizeof code, "%d", f->rc);
    if (f->error && !f->state) /* no report: why (it names the flow) */
      snprintf(tail, sizeof tail, "  %s", f->error);
    else if (f->dir)
      snprintf(tail, sizeof tail, " -> %s/", f->slug);
    snprintf(line, sizeof line, "  %-3s %-13s %2d cause%s  %s%s", code,
             status_of(f), f->causes, f->causes == 1 ? " " : "s", f->file,
             tail);
    zc_scrub(line);
    zc_term_put(stdout, line, SIZE_MAX); /* a title or error may quote a page */
    putchar('\n');
  }
}

static void night_free(struct night *nt) {
  for (size_t i = 0; i < nt->n; i++) {
    struct flow *f = &nt->f[i];
    free(f->slug);
    free(f->dir);
    free(f->title);
    free(f->state);
    free(f->error);
  }
  free(nt->f);
  free(nt->out);
  free(nt->history);
}

/* The flows one after another; returns the night's exit code. */
static int run_flows(struct night *nt) {
  int rc = ZC_EXIT_NONE;
  for (size_t i = 0; i < nt->n && !zc_interrupted; i++) {
    struct flow *f = &nt->f[i];
    zc_log(1, "flow %zu of %zu: %s", i + 1, nt->n, f->file);
    double t0 = zc_now_ms();
    f->rc = run_flow(nt, f);
    f->secs = (zc_now_ms() - t0) / 1e3;
    zc_log(1, "flow %zu of %zu: %s: %s, exit %d, %.1f s", i + 1, nt->n, f->file,
           status_of(f), f->rc, f->secs);
    if (severity(f->rc) > severity(rc)) rc = f->rc;
  }
  if (zc_interrupted) rc = 128 + zc_interrupted;
  return rc;
}

static int run_all_exec(const struct agent_args *a) {
  if (a->noperands < 1)
    return agent_usage_error("run-all", "give one FLOW.json or more, and "
                                        "--old and --new");
  int rc = agent_run_check("run-all", a);
  if (rc) return rc;
  struct night nt = {.a = a, .top = *a};
  if ((rc = plan(&nt))) return rc;
  nt.top.noperands = 0;
  const struct agent_build builds[2] = {
      {.opt = "--old", .arg = a->old, .name = ZC_OUT_OLD},
      {.opt = "--new", .arg = a->new_, .name = ZC_OUT_NEW},
  };
  if ((rc = agent_session_open(&nt.top, builds, 2, &nt.s))) {
    night_free(&nt);
    return rc;
  }
  nt.out = zc_xstrdup(agent_session_out(nt.s));
  if (!a->no_history) {
    nt.history =
        a->history ? zc_xstrdup(a->history) : agent_history_default(nt.out);
    /* said once: every flow then records nothing */
    if (!nt.history)
      zc_log(0, "warning: %s; no flow is recorded in the history", zc_errmsg());
  }
  zc_log(1, "run-all: %zu of %zu flows%s; reports in %s/", nt.n, nt.given,
         a->shard_n ? " (this shard's)" : "", nt.out);
  rc = run_flows(&nt);
  summarize(&nt, nt.out, rc);
  agent_session_close(nt.s, 1);
  night_free(&nt);
  return rc;
}

const struct agent_cmd agent_cmd_run_all = {
    .name = "run-all",
    .bit = AGENT_RUN | AGENT_RUNALL,
    .usage = "usage: zamcap run-all FLOW.json... --old URL|DIR --new URL|DIR "
             "[--shard I/N] [OPTIONS]",
    .about =
        "Runs each FLOW as the main command does, one after another in one\n"
        "Chrome with the builds served once: each flow's pairs, reports in\n"
        "OUT/<flow>/ and its run in the history. With --shard I/N, only its\n"
        "share of the flows (the same split on every machine). Then a\n"
        "summary of the flows (stdout, OUT/run-all.json, OUT/run-all.md).\n",
    .after = NULL,
    .exec = run_all_exec,
};
