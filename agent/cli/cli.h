/* cli: the command line's ground floor. The option table (opts.c) that
 * makes getopt's table, every --help, the man page and the completions;
 * what the options set (struct agent_args); a command's entry as the
 * table of commands (cmd/) lists it; masking what goes to stdout
 * (mask.c); the output folder (outdir.c). Every other room of agent/
 * stands on it; it knows none of them. Arguments are borrowed. */
#ifndef AGENT_CLI_H
#define AGENT_CLI_H

#include <stdio.h>

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
  AGENT_DASHBOARD = 512,
  AGENT_EXPLORE = 1024, /* zamcap explore: the inputs that expose it */
  /* the main command alone: its bit is AGENT_RUN | AGENT_RUNONE, so that
   * it takes the options of one flow (--param, --changes) that run-all
   * does not */
  AGENT_RUNONE = 2048,
  AGENT_ALL = AGENT_RUN | AGENT_COMPARE | AGENT_RECORD | AGENT_TREE |
              AGENT_HTML | AGENT_CHECK | AGENT_BISECT | AGENT_HISTORY |
              AGENT_RUNALL | AGENT_DASHBOARD | AGENT_EXPLORE | AGENT_RUNONE,
};

/* Everything the options set (opts.c); each command reads its part. */
struct agent_args {
  struct cdp_opts cdp; /* --chrome, --browser-url, --timeout, --headful */
  struct ana_opts ana; /* --mu, --quorum, --no-significance, --lcs-budget */
  const char *old, *new_, *url, *out, *categories, *attach;
  const char *headers[32]; /* --attach-header */
  unsigned nheaders;
  unsigned pairs;     /* --pairs: N, or 0 for auto (agent_pairs_span) */
  unsigned max_pairs; /* --max-pairs, with --pairs auto */
  unsigned cmp_pairs; /* compare's --pairs N: at most N pairs compared */
  unsigned warmup, retries, runs, formats;
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
  /* --counts N: count pairs after the timed ones (0: none) */
  unsigned counts;
  /* --io: I/O pairs after the timed ones; --io-mu-requests N,
   * --io-mu-kb KB: their smallest regressions (a run's) */
  int io;
  double io_mu_requests, io_mu_kb;
  /* run-all: --shard I/N (0 and 0 without it) */
  unsigned shard_i, shard_n;
  /* a flow's parameters: --param NAME=VALUE (run, check, explore) */
  const char *params[32];
  unsigned nparams;
  /* explore: --budget RUNS, --seed N, --objective WHAT, --search HOW */
  unsigned budget, seed;
  const char *objective, *search;
  /* run: --changes GOOD..BAD (with --repo) */
  const char *changes;
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
  const char *after; /* after the options; may be NULL (the exit codes
                        come from the exit table, exits.c) */
  int (*exec)(const struct agent_args *a); /* returns the exit code */
};
extern const struct agent_cmd agent_cmd_run, agent_cmd_compare,
    agent_cmd_record, agent_cmd_tree, agent_cmd_html, agent_cmd_check,
    agent_cmd_bisect, agent_cmd_history, agent_cmd_run_all, agent_cmd_dashboard,
    agent_cmd_explore;
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

/* One row of the exit-code table (exits.c), the one list of zamcap's
 * exit codes: zamcap --help, every command's --help, the man page and
 * docs/exit-codes.md are made from it. */
enum { AGENT_EXIT_SIGNAL = 128 }; /* the row "128+N": interrupted */
struct agent_exitdoc {
  int code;            /* ZC_EXIT_*, or AGENT_EXIT_SIGNAL */
  const char *name;    /* "found" */
  unsigned cmds;       /* AGENT_* of the commands that can exit with it */
  const char *meaning; /* what it means, one sentence without its dot */
};
/* Sets *out to row i; returns 0 past the last row. */
int agent_exit_doc(size_t i, struct agent_exitdoc *out);
/* The code as the tables show it: "2", or "128+N". */
void agent_exit_label(int code, char *out, size_t cap);
/* What code means for command c (NULL: for zamcap as a whole), in its
 * own words where it has them; NULL when c never exits with it. */
const char *agent_exit_text(const struct agent_cmd *c, int code);
/* A closing sentence after c's codes, or NULL. */
const char *agent_exit_after(const struct agent_cmd *c);
/* "Exit codes:" and one line per code c can give (c NULL: every code),
 * wrapped for a terminal, as --help prints them. */
void agent_exit_help(FILE *f, const struct agent_cmd *c);

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
/* Registers the secrets of the URLs the options give for builds (--old,
 * --new, --url, bisect's --builds and the builds after it), Chrome and the
 * history (--history's password), at start-up, before anything is written
 * (mask.c); the outbox registers its own. */
void agent_args_url_secrets(const struct agent_args *a);
/* From here on, what goes to stdout is masked as zc_log's messages are,
 * when secrets are registered; flushed and restored at exit. */
void agent_mask_stdout(void);

/* Prints "zamcap: msg" and "try 'zamcap CMD --help'" and returns 2. */
int agent_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses a non-negative number up to 1e9 (milliseconds, seconds, days, a
 * CPU factor: the row says which); returns 0 if s is not one. */
int agent_parse_number(const char *s, double *out);
int agent_parse_uint(const char *s, unsigned *out);

/* --pairs and --max-pairs as one rule, worked out here alone: --pairs N
 * runs exactly N pairs; --pairs auto runs AGENT_AUTO_FIRST, then decides
 * after each pair whether to go on, up to --max-pairs. A regression no
 * function explains (an end-to-end or web-vitals interval above its
 * threshold, no function named) rests on one figure per pair: auto
 * decides it at AGENT_AUTO_UNEXPLAINED pairs or more. */
enum { AGENT_AUTO_FIRST = 3, AGENT_AUTO_UNEXPLAINED = 6 };
struct agent_span {
  unsigned least, most; /* pairs: at least, at most */
  int decides;          /* 1 with --pairs auto, even where least is most */
};
struct agent_span agent_pairs_span(const struct agent_args *a);
/* The span in words for a progress line: "3 pairs", "3 to 12 pairs
 * (auto)". */
void agent_span_text(const struct agent_span *s, char *out, size_t cap);

/* Makes the output folder: dir itself when given, else
 * zamcap-out/<UTC timestamp>/ with a "latest" link beside it. Sets *out
 * (caller frees). */
enum zc_err agent_outdir(const char *dir, char **out);

#endif
