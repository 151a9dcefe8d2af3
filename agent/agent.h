/* agent: the zamcap command line. One option table (opts.c), one entry per
 * subcommand in a file of its name, and the calls into the rooms below:
 * capture (agent/capture/), analysis/ for every report. Arguments are
 * borrowed. */
#ifndef AGENT_H
#define AGENT_H

#include "ana.h"
#include "cdp.h"
#include "zc.h"

struct stat;

/* The subcommands, one bit each: the option table says which take an
 * option. */
enum {
  AGENT_RUN = 1, /* zamcap SCENARIO ... (or zamcap run SCENARIO ...) */
  AGENT_COMPARE = 2,
  AGENT_RECORD = 4,
  AGENT_TREE = 8,
  AGENT_HTML = 16,
  AGENT_CHECK = 32,
  AGENT_BISECT = 64,
  AGENT_HISTORY = 128,
  /* zamcap run-all: its bit is AGENT_RUN | AGENT_RUNALL, so that it takes
   * every option of the main command, and --shard of its own */
  AGENT_RUNALL = 256,
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
  /* bisect: --builds (the first; the rest are operands), --git GOOD..BAD,
   * --build CMD, --dist PATH, --repo DIR, --max-runs N */
  const char *builds, *git_range, *build_cmd, *dist, *repo;
  const char *preset; /* --preset mobile|desktop */
  unsigned max_runs;
  /* the history: --history DB, --no-history, --old-label, --new-label;
   * zamcap history's --format, --since DAYS, --recover-after N */
  const char *history, *old_label, *new_label, *history_format;
  int no_history, list_runs; /* --no-history; history's --list-runs */
  double since_days;
  unsigned recover_after;
  /* the tracker: --tracker KIND:WHERE, --tracker-url, --tracker-dry-run,
   * --close-recovered */
  const char *tracker, *tracker_url;
  int tracker_dry_run, close_recovered;
  /* --memory, --memory-interval BYTES, --memory-mu KB */
  int memory;
  unsigned memory_interval;
  double memory_mu_kb;
  /* run-all: --shard I/N (0 and 0 without it) */
  unsigned shard_i, shard_n;
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
    agent_cmd_record, agent_cmd_tree, agent_cmd_html, agent_cmd_check,
    agent_cmd_bisect, agent_cmd_history, agent_cmd_run_all;
/* Every subcommand, in the order --help lists them; NULL at the end
 * (cmds.c). */
extern const struct agent_cmd *const agent_cmds[];

/* One row of the option table as its readers outside opts.c see it: the
 * man page and the shell completions (gendoc.c) are made from these, as
 * getopt's table and --help are, so none can disagree with another. */
struct agent_optdoc {
  const char *name; /* --name */
  char letter;      /* -l, or 0 */
  const char *arg;  /* its argument as --help shows it ("MS"); NULL: a flag */
  unsigned cmds;    /* AGENT_* of the commands that take it */
  int repeatable;   /* given more than once, each counts */
  const char *help; /* lines separated by \n */
};

/* Sets *out to row i of the option table; returns 0 (and leaves *out)
 * past the last row. */
int agent_option_doc(size_t i, struct agent_optdoc *out);

/* Defaults for every option. */
void agent_args_init(struct agent_args *a);

/* Parses argv (argv[0] the command's name, then options and operands in
 * any order) by the option table into *a. Returns -1 to go on, or the
 * exit code to return at once: 0 after --help, 2 after a usage error
 * (printed). */
int agent_getopt(const struct agent_cmd *c, int argc, char **argv,
                 struct agent_args *a);

/* Runs argv[0] (found on PATH) with argv, no shell, in dir (NULL: here),
 * with env ("NAME=value", or NULL) added to its environment, stdin on
 * /dev/null; its stdout into *out (NUL-terminated, at most cap bytes kept;
 * out NULL: stdout goes with stderr), its stderr appended to log_path (NULL:
 * dropped). *status is its exit code, 127 when it is not installed, -1
 * when a signal ended it. Fails only when the child could not be set up. */
enum zc_err agent_exec(char *const argv[], const char *dir, const char *env,
                       const char *log_path, char **out, size_t cap,
                       int *status);

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

/* A file of a build folder, by the one rule of the built-in server and
 * the map finder: path ('/'-separated, percent-decoded, relative to root,
 * which realpath resolved) has no segment that starts with '.'; resolved,
 * it lies under root, with no dotfile on the way (a link inside the
 * folder is followed, one out of it is not); it is a regular file (a
 * FIFO is opened without blocking and refused). Returns a descriptor open
 * for reading, with *st filled, or -1 and errno (ENOENT: not a file of
 * this build). */
int agent_build_open(const char *root, const char *path, struct stat *st);
/* Such a file's bytes (NUL-terminated, caller frees), or NULL: not one, or
 * over max bytes. */
char *agent_build_read(const char *root, const char *path, size_t max,
                       size_t *n);

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
