/* The command line's one option table: every option of every subcommand,
 * with its argument, the subcommands that take it, how it is checked and
 * where its value goes, and its help line. getopt_long's table and each
 * command's --help are made from it (as curl's tool_getparam.c does with
 * its aliases[]). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum kind {
  K_STR,       /* const char *: the argument as it is */
  K_COUNT,     /* unsigned, from min to max */
  K_MS,        /* double milliseconds, from min to max (min > 0: "> 0") */
  K_RATE,      /* double, from min to max */
  K_SECONDS,   /* double seconds, from min to max */
  K_DAYS,      /* double days, from min to max */
  K_SET,       /* int: set to 1 */
  K_CLEAR,     /* int: set to 0 */
  K_FORMATS,   /* unsigned: a --format list */
  K_PAIRS,     /* unsigned: "auto" (0) or a count from min to max */
  K_THRESHOLD, /* "5%" or "20ms": threshold_pct or threshold_ms */
  K_SHARE,     /* double: "20%" or "20" stored as 0.2, from 0 to 100 % */
  K_HEADER,    /* one more --attach-header (the outbox checks them) */
  K_MAPS,      /* one more --source-maps */
  K_ORIGIN,    /* one more --origin */
  K_SHARD,     /* "I/N": shard_i and shard_n */
  K_PARAM,     /* one more --param NAME=VALUE */
  K_QUIET,
  K_VERBOSE,
  K_HELP,
};

struct option_row {
  const char *name; /* --name */
  char letter;      /* -l, or 0 */
  const char *arg;  /* its argument in --help; NULL: a flag */
  unsigned cmds;    /* AGENT_* of the commands that take it */
  enum kind kind;
  double min, max;
  size_t off; /* in struct agent_args */
  const char *help;
};

#define AT(f) offsetof(struct agent_args, f)
static const struct option_row rows[] = {
    {.name = "old",
     .arg = "URL|DIR",
     .cmds = AGENT_RUN | AGENT_CHECK | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(old),
     .help = "the old build"},
    {.name = "new",
     .arg = "URL|DIR",
     .cmds = AGENT_RUN | AGENT_CHECK | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(new_),
     .help = "the new build"},
    {.name = "url",
     .arg = "URL|DIR",
     .cmds = AGENT_RECORD,
     .kind = K_STR,
     .off = AT(url),
     .help = "the page, or the build's base URL for SCENARIO, or\n"
             "a build folder to serve"},
    {.name = "pairs",
     .arg = "auto|N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_PAIRS,
     .min = 1,
     .max = 100,
     .off = AT(pairs),
     .help = "pairs of runs: auto (the default) runs 3, then\n"
             "one more at a time until every candidate and the\n"
             "end-to-end time are decided; N runs exactly N"},
    {.name = "max-pairs",
     .arg = "N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_COUNT,
     .min = 3,
     .max = 100,
     .off = AT(max_pairs),
     .help = "with --pairs auto, stop there (default 12)"},
    {.name = "time-budget",
     .arg = "S",
     .cmds = AGENT_RUN | AGENT_BISECT,
     .kind = K_SECONDS,
     .min = 1,
     .max = 1e6,
     .off = AT(time_budget_s),
     .help = "with --pairs auto, start no pair that would\n"
             "likely end past S seconds of pairs (default: none)"},
    {.name = "threshold",
     .arg = "X%|Xms",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_THRESHOLD,
     .help = "the end-to-end time regressed when its interval\n"
             "lies above this change (default 5%)"},
    {.name = "pairs",
     .arg = "N",
     .cmds = AGENT_COMPARE,
     .kind = K_COUNT,
     .min = 1,
     .max = 1e6,
     .off = AT(cmp_pairs),
     .help = "compare at most N pairs (default: all)"},
    {.name = "warmup",
     .arg = "N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_COUNT,
     .max = 100,
     .off = AT(warmup),
     .help = "unrecorded runs per build first (default 1)"},
    {.name = "runs",
     .arg = "N",
     .cmds = AGENT_RECORD,
     .kind = K_COUNT,
     .min = 1,
     .max = 1e6,
     .off = AT(runs),
     .help = "how many runs (default 1)"},
    {.name = "mu",
     .arg = "MS",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_MS,
     .min = 1e-9,
     .max = 1e9,
     .off = AT(ana.mu),
     .help = "smallest regression reported (default 50)"},
    {.name = "minor",
     .arg = "X%",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_SHARE,
     .off = AT(ana.minor_share),
     .help = "a slowdown under X% of the largest cause's is\n"
             "listed as minor, not named (default 20%; 0 names\n"
             "every one, as the critical graph has them)"},
    {.name = "quorum",
     .arg = "K",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_COUNT,
     .min = 1,
     .max = 1e6,
     .off = AT(ana.quorum),
     .help = "keep what K pairs agree on (default: all)"},
    {.name = "no-significance",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_CLEAR,
     .off = AT(ana.significance),
     .help = "with 3 pairs or more, keep slowdowns that are not\n"
             "significantly above 0 over the pairs too"},
    {.name = "lcs-budget",
     .arg = "MS",
     .cmds = AGENT_COMPARE,
     .kind = K_MS,
     .max = 1e9,
     .off = AT(ana.lcs_budget_ms),
     .help = "time for one LCS before the hash matcher takes\n"
             "over (default 10000)"},
    {.name = "memory",
     .cmds = AGENT_RUN,
     .kind = K_SET,
     .off = AT(memory),
     .help = "after the timed pairs, memory pairs of their own\n"
             "(as many, at most 5): a sampling heap profile per\n"
             "run, compared per call path (allocation), and the\n"
             "memory retained after the flow"},
    {.name = "memory-interval",
     .arg = "BYTES",
     .cmds = AGENT_RUN,
     .kind = K_COUNT,
     .min = 1024,
     .max = 1 << 30,
     .off = AT(memory_interval),
     .help = "with --memory, one heap sample per BYTES\n"
             "allocated on average (default 32768)"},
    {.name = "memory-mu",
     .arg = "KB",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_RATE,
     .min = 1e-3,
     .max = 1e9,
     .off = AT(memory_mu_kb),
     .help = "with --memory or heap profiles, the smallest\n"
             "allocation regression reported (default 256)"},
    {.name = "counts",
     .arg = "N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_COUNT,
     .max = 10,
     .off = AT(counts),
     .help = "after the timed pairs, N count pairs (default 1,\n"
             "0: none): V8 counts every function's calls, to\n"
             "tell 'slower per call' from 'called more often'"},
    {.name = "io",
     .cmds = AGENT_RUN | AGENT_BISECT,
     .kind = K_SET,
     .off = AT(io),
     .help = "after the timed pairs, I/O pairs of their own (as\n"
             "many, at most 3): each run's requests and storage\n"
             "writes, compared per call path"},
    {.name = "io-mu-requests",
     .arg = "N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE,
     .kind = K_RATE,
     .min = 1e-3,
     .max = 1e9,
     .off = AT(io_mu_requests),
     .help = "the smallest I/O regression in requests (and\n"
             "storage writes) a run reported (default 5)"},
    {.name = "io-mu-kb",
     .arg = "KB",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE,
     .kind = K_RATE,
     .min = 1e-3,
     .max = 1e9,
     .off = AT(io_mu_kb),
     .help = "the smallest I/O regression in KB received, sent\n"
             "or written a run reported (default 100)"},
    {.name = "retries",
     .arg = "N",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_COUNT,
     .max = 20,
     .off = AT(retries),
     .help = "retries of a failed run (default 1)"},
    {.name = "cpu-throttle",
     .arg = "X",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_RATE,
     .min = 1,
     .max = 100,
     .off = AT(cpu_throttle),
     .help = "slow the CPU X times, both builds alike"},
    {.name = "out",
     .arg = "DIR",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_RECORD |
             AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(out),
     .help = "output folder (default zamcap-out/<UTC time>/)"},
    {.name = "step-timeout",
     .arg = "MS",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_MS,
     .min = 1,
     .max = 1e9,
     .off = AT(step_timeout_ms),
     .help = "a step's limit (default 30000)"},
    {.name = "settle",
     .arg = "MS",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_MS,
     .max = 1e9,
     .off = AT(settle_ms),
     .help = "quiet time that ends a run (default 500)"},
    {.name = "settle-max",
     .arg = "MS",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_MS,
     .min = 1,
     .max = 1e9,
     .off = AT(settle_max_ms),
     .help = "the longest wait for quiet after the last step; a\n"
             "page still busy then is traced as it is and\n"
             "flagged (default 10000)"},
    {.name = "timeout",
     .arg = "MS",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_MS,
     .min = 1,
     .max = 1e9,
     .off = AT(cdp.timeout_ms),
     .help = "longest wait for a command or a settle\n(default 30000)"},
    {.name = "chrome",
     .arg = "PATH",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(cdp.chrome),
     .help = "the Chrome to launch (default: $CHROME_PATH,\n"
             "then chromium, google-chrome, ... on PATH)"},
    {.name = "browser-url",
     .arg = "URL",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(cdp.browser_url),
     .help = "attach to a running Chrome instead:\n"
             "http://HOST:PORT or a ws:// DevTools URL"},
    {.name = "headful",
     .cmds = AGENT_RECORD,
     .kind = K_SET,
     .off = AT(cdp.headful),
     .help = "show the browser window"},
    {.name = "categories",
     .arg = "LIST",
     .cmds = AGENT_RECORD,
     .kind = K_STR,
     .off = AT(categories),
     .help = "trace categories (default: the Performance\n"
             "panel's, CPU samples and layout shifts\n"
             "included)"},
    {.name = "no-compress",
     .cmds = AGENT_RECORD,
     .kind = K_SET,
     .off = AT(no_compress),
     .help = "keep traces as plain .json (Chrome then sends\n"
             "several times more bytes)"},
    {.name = "no-trace",
     .cmds = AGENT_RECORD,
     .kind = K_SET,
     .off = AT(no_trace),
     .help = "run without tracing (to measure its overhead)"},
    {.name = "min",
     .arg = "MS",
     .cmds = AGENT_TREE,
     .kind = K_MS,
     .max = 1e9,
     .off = AT(min_ms),
     .help = "hide nodes under MS milliseconds (default 1)"},
    {.name = "no-prune",
     .cmds = AGENT_TREE,
     .kind = K_SET,
     .off = AT(no_prune),
     .help = "keep anonymous and one-letter functions"},
    {.name = "drop-markers",
     .cmds = AGENT_COMPARE | AGENT_TREE,
     .kind = K_SET,
     .off = AT(drop_markers),
     .help = "leave (program), (idle), (garbage collector) out"},
    {.name = "format",
     .arg = "LIST",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_FORMATS,
     .off = AT(formats),
     .help = "reports to write, of text (stdout), json, md,\n"
             "html, dot (with the SVG), folded (old.folded and\n"
             "new.folded: FlameGraph, speedscope), cpuprofile\n"
             "(old.cpuprofile, new.cpuprofile: DevTools);\n"
             "default all"},
    {.name = "attach",
     .arg = "URL",
     .cmds = AGENT_RUN | AGENT_BISECT,
     .kind = K_STR,
     .off = AT(attach),
     .help = "upload report.html, summary.md and report.json\n"
             "there (multipart POST) when done"},
    {.name = "attach-header",
     .arg = "H",
     .cmds = AGENT_RUN | AGENT_BISECT,
     .kind = K_HEADER,
     .off = AT(headers),
     .help = "'Name: value' for the upload, repeatable; $VAR\n"
             "and ${VAR} in the value come from the environment"},
    {.name = "origin",
     .arg = "URL",
     .cmds =
         AGENT_RUN | AGENT_BISECT | AGENT_RECORD | AGENT_CHECK | AGENT_EXPLORE,
     .kind = K_ORIGIN,
     .off = AT(origins),
     .help = "another origin the flow's app was recorded on, mapped\n"
             "onto the build like the first; repeatable"},
    {.name = "source-maps",
     .arg = "DIR|URL=DIR",
     .cmds = AGENT_COMPARE,
     .kind = K_MAPS,
     .off = AT(source_maps),
     .help = "where the traces' scripts and maps are: a folder\n"
             "(by file name), or the folder a URL prefix is\n"
             "served from; repeatable"},
    {.name = "no-source-maps",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_COMPARE | AGENT_EXPLORE,
     .kind = K_SET,
     .off = AT(no_source_maps),
     .help = "keep minified names: use no source map"},
    {.name = "preset",
     .arg = "mobile|desktop",
     .cmds = AGENT_RUN | AGENT_BISECT | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(preset),
     .help = "emulate a device and its network, both builds\n"
             "alike (Lighthouse's: mobile is a Moto G Power on\n"
             "slow 4G with a 4x slower CPU; desktop 1350x940)"},
    {.name = "builds",
     .arg = "B0",
     .cmds = AGENT_BISECT,
     .kind = K_STR,
     .off = AT(builds),
     .help = "the builds, oldest first: B0 (good), then the\n"
             "others as operands up to Bn (bad); folders or URLs"},
    {.name = "git",
     .arg = "GOOD..BAD",
     .cmds = AGENT_BISECT,
     .kind = K_STR,
     .off = AT(git_range),
     .help = "bisect the commits from GOOD (good) to BAD (bad)"},
    {.name = "build",
     .arg = "CMD",
     .cmds = AGENT_BISECT,
     .kind = K_STR,
     .off = AT(build_cmd),
     .help = "with --git, what builds a commit: sh -c CMD in its\n"
             "own worktree, with ZAMCAP_COMMIT set"},
    {.name = "dist",
     .arg = "PATH",
     .cmds = AGENT_BISECT,
     .kind = K_STR,
     .off = AT(dist),
     .help = "with --git, the folder to serve, in the worktree"},
    {.name = "repo",
     .arg = "DIR",
     .cmds = AGENT_BISECT,
     .kind = K_STR,
     .off = AT(repo),
     .help = "with --git, the repository (default .)"},
    {.name = "max-runs",
     .arg = "N",
     .cmds = AGENT_BISECT,
     .kind = K_COUNT,
     .min = 2,
     .max = 100000,
     .off = AT(max_runs),
     .help = "traced runs a bisection may make (default 200)"},
    {.name = "history",
     .arg = "DB",
     .cmds = AGENT_RUN | AGENT_COMPARE | AGENT_BISECT | AGENT_HISTORY |
             AGENT_DASHBOARD,
     .kind = K_STR,
     .off = AT(history),
     .help = "the history: a SQLite file, or postgresql://...\n"
             "(default: history.db beside the run folder, in\n"
             "the folder that holds it; zamcap-out/history.db)"},
    {.name = "no-history",
     .cmds = AGENT_RUN | AGENT_COMPARE | AGENT_BISECT,
     .kind = K_SET,
     .off = AT(no_history),
     .help = "record nothing in the history"},
    {.name = "old-label",
     .arg = "TEXT",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_STR,
     .off = AT(old_label),
     .help = "the old build's name in the history (a commit\n"
             "SHA, a version)"},
    {.name = "new-label",
     .arg = "TEXT",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_STR,
     .off = AT(new_label),
     .help = "the new build's name in the history"},
    {.name = "format",
     .arg = "text|json",
     .cmds = AGENT_HISTORY,
     .kind = K_STR,
     .off = AT(history_format),
     .help = "text (the default) or json"},
    {.name = "since",
     .arg = "DAYS",
     .cmds = AGENT_HISTORY | AGENT_DASHBOARD,
     .kind = K_DAYS,
     .max = 1e6,
     .off = AT(since_days),
     .help = "only the runs of the last DAYS days"},
    {.name = "list-runs",
     .cmds = AGENT_HISTORY,
     .kind = K_SET,
     .off = AT(list_runs),
     .help = "list the runs too, newest first: time, scenario,\n"
             "host, labels, verdict, exit code, causes, report\n"
             "folder (--since 1: the last night, every shard)"},
    {.name = "recover-after",
     .arg = "N",
     .cmds = AGENT_HISTORY | AGENT_DASHBOARD | AGENT_RUN | AGENT_COMPARE,
     .kind = K_COUNT,
     .min = 1,
     .max = 1000,
     .off = AT(recover_after),
     .help = "a regression not seen in its scenario's last N\n"
             "runs has recovered (default 3)"},
    {.name = "tracker",
     .arg = "KIND:WHERE",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_STR,
     .off = AT(tracker),
     .help = "one issue per regression: github:OWNER/REPO,\n"
             "gitlab:GROUP/PROJECT, jira:PROJECTKEY or\n"
             "redmine:PROJECT; files new ones, comments on\n"
             "those seen again (token: $ZAMCAP_TRACKER_TOKEN)"},
    {.name = "tracker-url",
     .arg = "API",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_STR,
     .off = AT(tracker_url),
     .help = "the tracker's base URL (default: GitHub's and\n"
             "GitLab's public APIs; Jira and Redmine need it)"},
    {.name = "tracker-dry-run",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_SET,
     .off = AT(tracker_dry_run),
     .help = "print what --tracker would file or comment, and\n"
             "send nothing"},
    {.name = "close-recovered",
     .cmds = AGENT_RUN | AGENT_COMPARE,
     .kind = K_SET,
     .off = AT(close_recovered),
     .help = "with --tracker, close an issue once its regression\n"
             "has recovered (else only comment)"},
    {.name = "out",
     .arg = "DIR",
     .cmds = AGENT_DASHBOARD,
     .kind = K_STR,
     .off = AT(out),
     .help = "the site's folder: index.html and a page per\n"
             "scenario (made if absent; pages of the same\n"
             "names are replaced)"},
    {.name = "shard",
     .arg = "I/N",
     .cmds = AGENT_RUNALL,
     .kind = K_SHARD,
     .min = 1,
     .max = 10000,
     .help = "run the I-th of N shares of the flows (1/3 is the\n"
             "first of 3): the flows sorted by path, the k-th\n"
             "(from 0) in share k mod N + 1"},
    {.name = "param",
     .arg = "NAME=VALUE",
     .cmds = AGENT_RUNONE | AGENT_CHECK | AGENT_EXPLORE,
     .kind = K_PARAM,
     .off = AT(params),
     .help = "a flow parameter's value instead of its first;\n"
             "repeatable (explore searches the others)"},
    {.name = "changes",
     .arg = "GOOD..BAD",
     .cmds = AGENT_RUNONE | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(changes),
     .help = "rank the changes of git diff GOOD BAD (the two\n"
             "builds' commits) by their impact set's time"},
    {.name = "repo",
     .arg = "DIR",
     .cmds = AGENT_RUNONE | AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(repo),
     .help = "with --changes, the repository (default .)"},
    {.name = "budget",
     .arg = "RUNS",
     .cmds = AGENT_EXPLORE,
     .kind = K_COUNT,
     .min = 4,
     .max = 100000,
     .off = AT(budget),
     .help = "traced runs the search may make (default 80): a\n"
             "pair per candidate, then 3 pairs again for each\n"
             "of the best 3"},
    {.name = "time-budget",
     .arg = "S",
     .cmds = AGENT_EXPLORE,
     .kind = K_SECONDS,
     .min = 1,
     .max = 1e6,
     .off = AT(time_budget_s),
     .help = "try no new candidate once S seconds have gone\n"
             "(default: none)"},
    {.name = "seed",
     .arg = "N",
     .cmds = AGENT_EXPLORE,
     .kind = K_COUNT,
     .max = 1e6,
     .off = AT(seed),
     .help = "the search's seed: the same seed tries the same\n"
             "candidates (default 1)"},
    {.name = "objective",
     .arg = "WHAT",
     .cmds = AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(objective),
     .help = "what the search makes worse, new - old:\n"
             "scripting (the default: CPU time in JavaScript),\n"
             "wall, step:N (its wall time), cause:NAME (a\n"
             "function's time with its callees), lcp or inp"},
    {.name = "search",
     .arg = "cover|ga|random",
     .cmds = AGENT_EXPLORE,
     .kind = K_STR,
     .off = AT(search),
     .help = "how candidates are chosen (default cover): a\n"
             "covering design then evolution; PERFImpACT's\n"
             "genetic algorithm; random draws"},
    {.name = "quiet",
     .letter = 'q',
     .cmds = AGENT_ALL,
     .kind = K_QUIET,
     .help = "no progress on stderr"},
    {.name = "verbose",
     .letter = 'v',
     .cmds = AGENT_ALL,
     .kind = K_VERBOSE,
     .help = "more detail on stderr (again: more still)"},
    {.name = "help",
     .letter = 'h',
     .cmds = AGENT_ALL,
     .kind = K_HELP,
     .help = "this text"},
};
#undef AT

int agent_option_doc(size_t i, struct agent_optdoc *out) {
  if (i >= ZC_ARRAY_LEN(rows)) return 0;
  const struct option_row *r = &rows[i];
  enum kind k = r->kind;
  *out = (struct agent_optdoc){
      .name = r->name,
      .letter = r->letter,
      .arg = r->arg,
      .cmds = r->cmds,
      .repeatable = k == K_HEADER || k == K_MAPS || k == K_ORIGIN ||
                    k == K_PARAM || k == K_VERBOSE,
      .help = r->help,
  };
  return 1;
}

void agent_args_init(struct agent_args *a) {
  memset(a, 0, sizeof *a);
  cdp_opts_default(&a->cdp);
  ana_opts_default(&a->ana);
  a->pairs = 0; /* auto */
  a->max_pairs = 12;
  a->threshold_ms = -1;
  a->threshold_pct = 5;
  a->warmup = 1;
  a->retries = 1;
  a->runs = 1;
  a->formats = ANA_FMT_ALL;
  a->step_timeout_ms = 30000;
  a->settle_ms = 500;
  a->settle_max_ms = 10000;
  a->min_ms = 1;
  a->max_runs = 200;
  a->recover_after = 3;
  a->memory_interval = 32768;
  a->memory_mu_kb = 256;
  a->counts = 1;
  a->budget = 80;
  a->seed = 1;
  a->io_mu_requests = 5;
  a->io_mu_kb = 100;
}

void agent_url_secrets(const char *opt, const char *url) {
  /* Said once per URL, however many of the commands' parts register it. */
  static const char *said[64];
  size_t i = 0;
  while (i < ZC_ARRAY_LEN(said) && said[i] && said[i] != url)
    i++;
  int first = i == ZC_ARRAY_LEN(said) || !said[i];
  if (first && i < ZC_ARRAY_LEN(said)) said[i] = url;
  if (zc_url_secrets(url) && first)
    zc_log(1,
           "%s: its user:password is masked in the reports, the "
           "messages and the traces (rewritten after each run)",
           opt);
}

int agent_usage_error(const char *cmd, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zc_error("%s", msg);
  fprintf(stderr, "try 'zamcap %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
  return ZC_EXIT_USAGE;
}

int agent_parse_number(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0) || v > 1e9) return 0;
  *out = v;
  return 1;
}

int agent_parse_uint(const char *s, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || end == s || *end || *s == '-' || v > 1000000) return 0;
  *out = (unsigned)v;
  return 1;
}

struct agent_span agent_pairs_span(const struct agent_args *a) {
  if (a->pairs) return (struct agent_span){a->pairs, a->pairs, 0};
  unsigned most = a->max_pairs;
  unsigned least = AGENT_AUTO_FIRST < most ? AGENT_AUTO_FIRST : most;
  return (struct agent_span){least, most, 1};
}

void agent_span_text(const struct agent_span *s, char *out, size_t cap) {
  if (s->decides)
    snprintf(out, cap, "%u to %u pairs (auto)", s->least, s->most);
  else
    snprintf(out, cap, "%u pair%s", s->most, s->most == 1 ? "" : "s");
}

/* "a count", "a count >= 1", "1 to 100": what a row's argument must be. */
static void wants(const struct option_row *r, char *out, size_t cap) {
  switch (r->kind) {
  case K_COUNT:
    if (r->max >= 1e6)
      snprintf(out, cap, r->min ? "a count >= %g" : "a count", r->min);
    else if (r->min)
      snprintf(out, cap, "%g to %g", r->min, r->max);
    else
      snprintf(out, cap, "a count up to %g", r->max);
    break;
  case K_MS:
    snprintf(out, cap,
             r->min > 0 && r->min < 1 ? "milliseconds > 0" : "milliseconds");
    break;
  case K_RATE:
    snprintf(out, cap, "a rate from %g to %g", r->min, r->max);
    break;
  case K_SECONDS: snprintf(out, cap, "seconds, at least %g", r->min); break;
  case K_DAYS: snprintf(out, cap, "days, at least %g", r->min); break;
  case K_SHARE: snprintf(out, cap, "a share from 0 to 100%%"); break;
  default: snprintf(out, cap, "a value");
  }
}

/* --shard I/N: the I-th of N shares, I from 1. */
static int take_shard(const struct agent_cmd *c, const struct option_row *r,
                      const char *v, struct agent_args *a) {
  unsigned i = 0, n = 0;
  size_t k = strcspn(v, "/");
  char num[16];
  if (v[k] == '/' && k < sizeof num) {
    snprintf(num, sizeof num, "%.*s", (int)k, v);
    if (!agent_parse_uint(num, &i) || !agent_parse_uint(v + k + 1, &n))
      i = n = 0;
  }
  if (i >= r->min && n <= r->max && i <= n) {
    a->shard_i = i;
    a->shard_n = n;
    return 0;
  }
  return agent_usage_error(c->name,
                           "--shard wants I/N, 1 <= I <= N <= %g (1/3 is "
                           "the first of 3; Kubernetes' "
                           "JOB_COMPLETION_INDEX is I-1), not '%s'",
                           r->max, v);
}

/* Stores row r's argument into a; returns 0 or prints the usage error. */
static int take(const struct agent_cmd *c, const struct option_row *r,
                const char *v, struct agent_args *a) {
  char *at = (char *)a + r->off, w[64];
  unsigned u;
  double d;
  switch (r->kind) {
  case K_STR: *(const char **)(void *)at = v; return 0;
  case K_SET: *(int *)(void *)at = 1; return 0;
  case K_CLEAR: *(int *)(void *)at = 0; return 0;
  case K_QUIET: zc_verbosity = 0; return 0;
  case K_VERBOSE: zc_verbosity++; return 0;
  case K_HELP: return 0;
  case K_COUNT:
    if (agent_parse_uint(v, &u) && u >= r->min && u <= r->max) {
      *(unsigned *)(void *)at = u;
      return 0;
    }
    break;
  case K_MS:
  case K_RATE:
  case K_SECONDS:
  case K_DAYS:
    if (agent_parse_number(v, &d) && d >= r->min && d <= r->max) {
      *(double *)(void *)at = d;
      return 0;
    }
    break;
  case K_PAIRS:
    if (!strcmp(v, "auto")) {
      *(unsigned *)(void *)at = 0;
      return 0;
    }
    if (agent_parse_uint(v, &u) && u >= r->min && u <= r->max) {
      *(unsigned *)(void *)at = u;
      return 0;
    }
    return agent_usage_error(c->name,
                             "--%s wants auto or %g to %g, not "
                             "'%s'",
                             r->name, r->min, r->max, v);
  case K_SHARE: {
    char *end;
    errno = 0;
    d = strtod(v, &end);
    if (errno || end == v || !(d >= 0) || d > 100 ||
        !(!*end || !strcmp(end, "%")))
      return agent_usage_error(
          c->name, "--%s wants a share from 0 to 100%%, not '%s'", r->name, v);
    *(double *)(void *)at = d / 100;
    return 0;
  }
  case K_THRESHOLD: {
    char *end;
    errno = 0;
    d = strtod(v, &end);
    int pct = !strcmp(end, "%"), ms = !strcmp(end, "ms") || !*end;
    if (errno || end == v || !(d >= 0) || d > 1e9 || !(pct || ms))
      return agent_usage_error(c->name,
                               "--threshold wants a change in %% "
                               "or ms (5%%, 20ms), not '%s'",
                               v);
    a->threshold_pct = pct ? d : 0;
    a->threshold_ms = pct ? -1 : d;
    return 0;
  }
  case K_FORMATS:
    if (ana_parse_formats(v, &u)) {
      *(unsigned *)(void *)at = u;
      return 0;
    }
    return agent_usage_error(c->name,
                             "--format wants a list of text, json, "
                             "md, html, dot, folded, cpuprofile or all, not "
                             "'%s'",
                             v);
  case K_HEADER:
    if (a->nheaders == ZC_ARRAY_LEN(a->headers))
      return agent_usage_error(c->name, "at most %zu --attach-header",
                               ZC_ARRAY_LEN(a->headers));
    a->headers[a->nheaders++] = v;
    return 0;
  case K_ORIGIN:
    if (a->norigins == ZC_ARRAY_LEN(a->origins))
      return agent_usage_error(c->name, "at most %zu --origin",
                               ZC_ARRAY_LEN(a->origins));
    if ((strncmp(v, "http://", 7) && strncmp(v, "https://", 8)) ||
        !v[strcspn(v, ":") + 3] || strchr("/?#", v[strcspn(v, ":") + 3]))
      return agent_usage_error(c->name, "--origin %s: not an http(s) URL", v);
    a->origins[a->norigins++] = v;
    return 0;
  case K_SHARD: return take_shard(c, r, v, a);
  case K_PARAM:
    if (a->nparams == ZC_ARRAY_LEN(a->params))
      return agent_usage_error(c->name, "at most %zu --param",
                               ZC_ARRAY_LEN(a->params));
    if (!strchr(v, '=') || v[0] == '=')
      return agent_usage_error(c->name, "--param wants NAME=VALUE, not '%s'",
                               v);
    a->params[a->nparams++] = v;
    return 0;
  case K_MAPS:
    if (a->nsource_maps == ZC_ARRAY_LEN(a->source_maps))
      return agent_usage_error(c->name, "at most %zu --source-maps",
                               ZC_ARRAY_LEN(a->source_maps));
    a->source_maps[a->nsource_maps++] = v;
    return 0;
  }
  wants(r, w, sizeof w);
  return agent_usage_error(c->name, "--%s wants %s, not '%s'", r->name, w, v);
}

/* The command's --help: usage, what it does, its options from the table,
 * its closing words, then its exit codes from the exit table. */
static void help(const struct agent_cmd *c) {
  printf("%s\n\n%s\n", c->usage, c->about);
  for (size_t i = 0; i < ZC_ARRAY_LEN(rows); i++) {
    const struct option_row *r = &rows[i];
    if (!(r->cmds & c->bit)) continue;
    char left[64];
    if (r->letter)
      snprintf(left, sizeof left, "-%c, --%s", r->letter, r->name);
    else
      snprintf(left, sizeof left, "--%s%s%s", r->name, r->arg ? " " : "",
               r->arg ? r->arg : "");
    /* Continuation lines of the help text line up under the first. */
    printf("  %-20s", left);
    if (strlen(left) > 20) printf("\n  %-20s", "");
    for (const char *h = r->help; *h;) {
      size_t n = strcspn(h, "\n");
      printf(" %.*s\n", (int)n, h);
      h += n;
      if (*h == '\n' && *++h) printf("  %-20s", "");
    }
  }
  if (c->after) printf("\n%s", c->after);
  putchar('\n');
  agent_exit_help(stdout, c);
}

int agent_getopt(const struct agent_cmd *c, int argc, char **argv,
                 struct agent_args *a) {
  struct option lo[ZC_ARRAY_LEN(rows) + 1];
  const struct option_row *of[ZC_ARRAY_LEN(rows)];
  char shorts[16];
  size_t n = 0, ns = 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(rows); i++) {
    if (!(rows[i].cmds & c->bit)) continue;
    of[n] = &rows[i];
    lo[n] = (struct option){rows[i].name,
                            rows[i].arg ? required_argument : no_argument, NULL,
                            (int)(256 + n)};
    if (rows[i].letter) shorts[ns++] = rows[i].letter;
    n++;
  }
  memset(&lo[n], 0, sizeof lo[n]);
  shorts[ns] = '\0';
  optind = 1;
  opterr = 0;
  int k;
  while ((k = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
    if (k == '?' && optopt >= 256)
      return agent_usage_error(c->name, "--%s wants an argument, %s",
                               of[optopt - 256]->name, of[optopt - 256]->arg);
    const struct option_row *r = NULL;
    if (k >= 256) r = of[k - 256];
    for (size_t i = 0; !r && k != '?' && i < n; i++)
      if (of[i]->letter == k) r = of[i];
    if (!r)
      return agent_usage_error(c->name, "unknown option '%s'",
                               argv[optind - 1]);
    if (r->kind == K_HELP) {
      help(c);
      return 0;
    }
    int rc = take(c, r, optarg, a);
    if (rc) return rc;
  }
  a->operands = argv + optind;
  a->noperands = argc - optind;
  return -1;
}
