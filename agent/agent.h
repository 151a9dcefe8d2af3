/* agent: the zamcap command line. Subcommands live in their own files and
 * share the output-folder helpers here. Arguments are borrowed. */
#ifndef AGENT_H
#define AGENT_H

#include "zc.h"

/* Exit codes (DESIGN.md). */
enum {
  AGENT_EXIT_NONE = 0,     /* no regression-cause */
  AGENT_EXIT_FOUND = 1,    /* regression-causes found */
  AGENT_EXIT_USAGE = 2,    /* usage or input error */
  AGENT_EXIT_CAPTURE = 3,  /* capture failed */
  AGENT_EXIT_INTERNAL = 4, /* a bug */
};

int agent_compare(int argc, char **argv);

/* The reports --format picks; the text summary goes to stdout. */
enum {
  AGENT_FMT_TEXT = 1,
  AGENT_FMT_JSON = 2,
  AGENT_FMT_MD = 4,
  AGENT_FMT_HTML = 8,
  AGENT_FMT_DOT = 16, /* critical-graph.dot, pairs/, and the SVG */
  AGENT_FMT_ALL = 31,
};
/* "html,json" to bits; returns 0 on an unknown name. */
int agent_parse_formats(const char *s, unsigned *out);

/* What agent_analyze needs to know beyond the traces. */
struct cJSON;
struct agent_report_in {
  const char *command;  /* "compare" or "run", for report.json */
  unsigned formats;     /* AGENT_FMT_*; 0 means all */
  struct cJSON *extra;  /* fields copied into report.json, or NULL */
  unsigned planned, dropped; /* pairs planned and dropped in capture */
};

struct ana_opts;
/* The analysis of npairs trace pairs into out: pairs/pair-<i>.dot,
 * critical-graph.dot (and .svg), summary.md, report.json, report.html, as
 * in->formats says, and the summary on stdout; *causes gets the number of
 * aggregated regression-causes. */
enum zc_err agent_analyze(const char *const *oldf, const char *const *newf,
                          unsigned npairs, const struct ana_opts *o,
                          int drop, const char *out,
                          const struct agent_report_in *in,
                          unsigned *causes);
int agent_tree(int argc, char **argv);
int agent_html(int argc, char **argv); /* zamcap html OUT */
int agent_record(int argc, char **argv);
/* zamcap SCENARIO --old ... --new ...: argv[0] is the scenario. */
int agent_run(int argc, char **argv);

/* The exit code for an error (DESIGN.md); interrupted is 128 + signal. */
int agent_exit_for(enum zc_err e);

/* Prints "zamcap: msg" and "try 'zamcap CMD --help'" and returns 2. */
int agent_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses a non-negative number of milliseconds (or a count); returns 0 if
 * s is not one. */
int agent_parse_ms(const char *s, double *out);
int agent_parse_uint(const char *s, unsigned *out);

/* Makes the output folder: dir itself when given, else
 * zamcap-out/<UTC timestamp>/ with a "latest" link beside it. Sets *out
 * (caller frees). */
enum zc_err agent_outdir(const char *dir, char **out);
/* mkdir -p. */
enum zc_err agent_mkdirs(const char *path);

/* The built-in static file server (serve.c): dir on 127.0.0.1, on an
 * ephemeral port, until agent_server_free. */
struct agent_server;
enum zc_err agent_serve(const char *dir, struct agent_server **out);
const char *agent_server_url(const struct agent_server *s); /* ends in / */
void agent_server_free(struct agent_server *s);

/* A build given on the command line (opt names the option, for messages):
 * a folder is served (*srv set, free it) and *base is its URL; a URL
 * (scheme://…, about:, data:) is *base as it is. Else ZC_E_USAGE. */
enum zc_err agent_build_base(const char *opt, const char *arg,
                             struct agent_server **srv, const char **base);

#endif
