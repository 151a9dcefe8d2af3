/* The one list of zamcap's exit codes: each code, its name, what it
 * means, which commands give it, and what it means for a command where
 * that command says more. zamcap --help, every command's --help (opts.c),
 * the man page's EXIT STATUS and docs/exit-codes.md (gendoc.c) are made
 * from it, and test_docs checks the pages against it. The values are
 * core's (enum zc_exit); which error gives which code is core's
 * zc_exit_for. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum {
  /* the commands that compare, and so can find a regression or not
   * decide; run-all's bit holds AGENT_RUN */
  VERDICT = AGENT_RUN | AGENT_COMPARE | AGENT_BISECT,
};

static const struct agent_exitdoc codes[] = {
    {ZC_EXIT_NONE, "none", AGENT_ALL,
     "no regression: no function got slower by mu in every pair, and the "
     "end-to-end figure's interval lies below its threshold on runs that "
     "had a core to work on (we looked, and it is not slower)"},
    {ZC_EXIT_FOUND, "found", VERDICT,
     "a regression: regression-causes found, or an end-to-end or "
     "web-vitals figure got slower beyond its threshold with no function "
     "to blame (report.json's unexplained_causes)"},
    {ZC_EXIT_USAGE, "usage", AGENT_ALL,
     "usage or input error: one line names the thing (a bad option, a "
     "scenario's step, a broken trace and its byte offset, an output "
     "folder that cannot be made)"},
    {ZC_EXIT_CAPTURE, "capture", VERDICT | AGENT_RECORD,
     "capture failed or incomplete (Chrome, a step, the network; a pair "
     "dropped: the others are still analysed and reported), or the upload "
     "(--attach) or the tracker (--tracker) failed with no regression to "
     "report"},
    {ZC_EXIT_INTERNAL, "internal", AGENT_ALL,
     "internal error: a bug in zamcap, or out of memory"},
    {ZC_EXIT_INCONCLUSIVE, "inconclusive", VERDICT,
     "inconclusive: a candidate's slowdown swung too widely over the pairs "
     "to decide, the end-to-end interval holds the threshold (it could "
     "hide a regression that size), or the runs' main thread had under "
     "half a core (a starved machine); the verdict says why, and about how "
     "many pairs in all would settle it"},
    {AGENT_EXIT_SIGNAL, "interrupted", AGENT_ALL,
     "interrupted by signal N (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 143 "
     "SIGTERM)"},
};

/* What a code means for one command, where the table's words do not
 * say it; code -1 is a closing line after the codes. */
static const struct {
  const char *cmd;
  int code;
  const char *text;
} notes[] = {
    {"run-all", ZC_EXIT_NONE,
     "no flow found a regression-cause (or the shard has no flow)"},
    {"run-all", ZC_EXIT_FOUND, "a flow found regression-causes"},
    {"run-all", ZC_EXIT_USAGE,
     "a bad option (before anything runs), or a flow that cannot be read"},
    {"run-all", ZC_EXIT_CAPTURE,
     "a flow's capture failed, or its upload or tracker failed with no "
     "regression to report"},
    {"run-all", ZC_EXIT_INCONCLUSIVE, "a flow was inconclusive"},
    {"run-all", AGENT_EXIT_SIGNAL,
     "interrupted by signal N (130 SIGINT, 143 SIGTERM, ...): the flows "
     "finished are kept and summarized"},
    {"run-all", -1,
     "The night's code is the worst of the flows' codes, in this order: "
     "4, 2, 3, 1, 5, 0; each flow's own code is in the summary."},
    {"compare", ZC_EXIT_USAGE,
     "usage or input error: a bad option, a missing folder, a broken trace "
     "or heap profile (its file and byte offset), an output folder that "
     "cannot be made"},
    {"compare", ZC_EXIT_CAPTURE,
     "--tracker failed with no regression to report"},
    {"record", ZC_EXIT_NONE, "every run recorded"},
    {"record", ZC_EXIT_CAPTURE,
     "capture failed (Chrome, a step, the network); the runs already "
     "recorded are kept"},
    {"tree", ZC_EXIT_NONE, "the tree printed"},
    {"tree", ZC_EXIT_USAGE,
     "usage or input error: a broken trace, or one without CPU samples"},
    {"html", ZC_EXIT_NONE, "report.html written"},
    {"html", ZC_EXIT_USAGE,
     "usage or input error: no OUT/report.json, or one that cannot be read"},
    {"check", ZC_EXIT_NONE, "the scenario is valid"},
    {"check", ZC_EXIT_USAGE,
     "it is not: one line names the file, the step and what is wrong"},
    {"bisect", ZC_EXIT_NONE,
     "no regression between the ends: nothing to bisect"},
    {"bisect", ZC_EXIT_FOUND, "culprit(s) found"},
    {"bisect", ZC_EXIT_USAGE,
     "usage or input error: fewer than 2 builds, an empty range, GOOD not "
     "an ancestor of BAD, a --repo with uncommitted changes"},
    {"bisect", ZC_EXIT_CAPTURE,
     "builds or captures failed so that no answer is possible, or the "
     "upload failed with no culprit to report"},
    {"bisect", ZC_EXIT_INCONCLUSIVE,
     "inconclusive: the causes whose range stayed undecided are named"},
    {"history", ZC_EXIT_NONE, "the history printed"},
    {"history", ZC_EXIT_USAGE,
     "usage error, or the history cannot be read (missing, refused, or "
     "written by a newer zamcap)"},
    {"dashboard", ZC_EXIT_NONE,
     "the site written (its index.html's path on stdout)"},
    {"dashboard", ZC_EXIT_USAGE,
     "usage error, the history cannot be read (missing, refused, or "
     "written by a newer zamcap: then no page is written), or DIR cannot "
     "be written"},
};

int agent_exit_doc(size_t i, struct agent_exitdoc *out) {
  if (i >= ZC_ARRAY_LEN(codes)) return 0;
  *out = codes[i];
  return 1;
}

void agent_exit_label(int code, char *out, size_t cap) {
  if (code == AGENT_EXIT_SIGNAL)
    snprintf(out, cap, "%d+N", AGENT_EXIT_SIGNAL);
  else
    snprintf(out, cap, "%d", code);
}

const char *agent_exit_text(const struct agent_cmd *c, int code) {
  const char *text = NULL;
  for (size_t i = 0; i < ZC_ARRAY_LEN(codes) && !text; i++)
    if (codes[i].code == code && (!c || (codes[i].cmds & c->bit)))
      text = codes[i].meaning;
  for (size_t i = 0; c && text && i < ZC_ARRAY_LEN(notes); i++)
    if (notes[i].code == code && !strcmp(notes[i].cmd, c->name))
      return notes[i].text;
  return text;
}

const char *agent_exit_after(const struct agent_cmd *c) {
  for (size_t i = 0; c && i < ZC_ARRAY_LEN(notes); i++)
    if (notes[i].code == -1 && !strcmp(notes[i].cmd, c->name))
      return notes[i].text;
  return NULL;
}

/* Prints s from column col on, wrapped before column 79, continuation
 * lines indented to indent. */
static void wrap(FILE *f, const char *s, int col, int indent) {
  while (*s) {
    size_t n = strcspn(s, " ");
    if (col > indent && col + 1 + (int)n > 78) {
      fprintf(f, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', f);
      col++;
    }
    fprintf(f, "%.*s", (int)n, s);
    col += (int)n;
    s += n;
    while (*s == ' ')
      s++;
  }
  fputc('\n', f);
}

void agent_exit_help(FILE *f, const struct agent_cmd *c) {
  fputs("Exit codes:\n", f);
  for (size_t i = 0; i < ZC_ARRAY_LEN(codes); i++) {
    const char *text = agent_exit_text(c, codes[i].code);
    if (!text) continue;
    char label[16];
    agent_exit_label(codes[i].code, label, sizeof label);
    fprintf(f, "  %-6s", label);
    wrap(f, text, 8, 8);
  }
  const char *after = agent_exit_after(c);
  if (after) {
    fputs("  ", f);
    wrap(f, after, 2, 2);
  }
}
