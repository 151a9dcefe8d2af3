/* agent: the zamcap command line. One option table (opts.c), one entry per
 * subcommand in a file of its name, and the calls into the rooms below:
 * capture (agent/capture/), analysis/ for every report. Arguments are
 * borrowed. */
#ifndef AGENT_H
#define AGENT_H

#include "ana.h"
#include "cdp.h"
#include "zc.h"

/* The subcommands, one bit each: the option table says which take an
 * option. */
enum {
  AGENT_RUN = 1, /* zamcap SCENARIO ... (or zamcap run SCENARIO ...) */
  AGENT_COMPARE = 2,
  AGENT_RECORD = 4,
  AGENT_TREE = 8,
  AGENT_HTML = 16,
  AGENT_CHECK = 32,
};

/* Everything the options set (opts.c); each command reads its part. */
struct agent_args {
  struct cdp_opts cdp; /* --chrome, --browser-url, --timeout, --headful */
  struct ana_opts ana; /* --mu, --quorum, --no-significance, --lcs-budget */
  const char *old, *new_, *url, *out, *categories, *attach;
  const char *headers[32]; /* --attach-header */
  unsigned nheaders;
  unsigned pairs, max_pairs, warmup, retries, runs, formats;
  unsigned pairs_max; /* --max-pairs, with --pairs auto (pairs 0) */
  double cpu_throttle, step_timeout_ms, settle_ms, min_ms;
  double time_budget_s, threshold_ms, threshold_pct, settle_max_ms;
  int drop_markers, no_prune, no_trace, no_compress, no_source_maps;
  const char *source_maps[16]; /* --source-maps */
  unsigned nsource_maps;
  const char *origins[16]; /* --origin */
  unsigned norigins;
  char **operands; /* what is left after the options */
  int noperands;
};

/* A subcommand (tmux's cmd_entry): its name, its bit in the option table,
 * its --help text around the table's lines, and what runs it. */
struct agent_cmd {
  const char *name;  /* as typed: "compare"; "run" for the main command */
  unsigned bit;      /* AGENT_* */
  const char *usage; /* the usage lines */
  const char *about; /* what it does (ends in a blank line) */
  const char *after; /* after the options: exit codes; may be NULL */
  int (*exec)(const struct agent_args *a); /* returns the exit code */
};
extern const struct agent_cmd agent_cmd_run, agent_cmd_compare,
    agent_cmd_record, agent_cmd_tree, agent_cmd_html, agent_cmd_check;

/* Defaults for every option. */
void agent_args_init(struct agent_args *a);

/* Parses argv (argv[0] the command's name, then options and operands in
 * any order) by the option table into *a. Returns -1 to go on, or the
 * exit code to return at once: 0 after --help, 2 after a usage error
 * (printed). */
int agent_getopt(const struct agent_cmd *c, int argc, char **argv,
                 struct agent_args *a);

/* Registers the secrets of an --old/--new/--url value (zc_url_secrets), so
 * that no report, trace or message shows them, and says so when it has a
 * user:password. */
void agent_url_secrets(const char *opt, const char *url);
/* Registers the secrets of every URL the options give (mask.c). */
void agent_args_secrets(const struct agent_args *a);
/* From here on, what goes to stdout is masked as zc_log's messages are,
 * when secrets are registered; flushed and restored at exit. */
void agent_mask_stdout(void);

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

/* The built-in static file server (serve.c): dir on 127.0.0.1, on an
 * ephemeral port, until agent_server_free. */
struct agent_server;
enum zc_err agent_serve(const char *dir, struct agent_server **out);
const char *agent_server_url(const struct agent_server *s); /* ends in / */
void agent_server_free(struct agent_server *s);

/* A build given on the command line (opt names the option, for messages):
 * a folder is served (*srv set, free it) and *base is its URL; a URL
 * (scheme://…, about:, data:) is *base as it is. Else ZC_E_USAGE. */
/* Loads a scenario and adds --origin's origins to the app's; on error
 * zc_errmsg() says why (ZC_E_USAGE). */
struct scn_scenario;
enum zc_err agent_load_scenario(const struct agent_args *a, const char *path,
                                struct scn_scenario **out);

enum zc_err agent_build_base(const char *opt, const char *arg,
                             struct agent_server **srv, const char **base);

#endif
