/* zamcap-gendoc: writes zamcap's man page and its bash and zsh completions
 * from the option table (opts.c, through agent_option_doc), the exit
 * table (exits.c) and the subcommands (agent_cmds), at build time, as
 * --help is made from them: an option added to the table is in all four,
 * and none is kept by hand. It also makes the generated parts of the
 * manual's pages in docs/ (each command's synopsis, options and exit
 * codes; the exit-code tables), which are committed and which test_docs
 * checks are up to date.
 *
 *   zamcap-gendoc man|bash|zsh FILE
 *   zamcap-gendoc md DIR          (the .md files under DIR, in place)
 *
 * The prose the tables do not hold (environment, files, examples) is
 * here, next to the constants it names. Not installed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "zc-out.h"

/* ---- the table, walked ---- */

/* Calls fn for every row that command bit takes (every row for bit 0). */
static void each_opt(unsigned bit,
                     void (*fn)(FILE *f, const struct agent_optdoc *o),
                     FILE *f) {
  struct agent_optdoc o;
  for (size_t i = 0; agent_option_doc(i, &o); i++)
    if (!bit || (o.cmds & bit)) fn(f, &o);
}

/* A row's help on one line, for zsh's hints. */
static void one_line(const char *help, char *out, size_t cap) {
  snprintf(out, cap, "%s", help);
  for (char *nl; (nl = strchr(out, '\n'));)
    *nl = ' ';
}

/* A row's help text; --help's own, "this text", is not what it is in a
 * man page or a completion's hint. */
static const char *help_of(const struct agent_optdoc *o) {
  return strcmp(o->name, "help") ? o->help : "print this help and exit";
}

/* ---- the man page ---- */

/* Text into roff: a line may not start with a control character, a
 * backslash is \e, and a dash is \- so that options copy as typed.
 * Newlines stay (in filled text they are spaces); leading spaces go. */
static void roff(FILE *f, const char *s) {
  int bol = 1;
  for (; *s; s++) {
    if (bol && *s == ' ') continue;
    if (bol && (*s == '.' || *s == '\'')) fputs("\\&", f);
    bol = *s == '\n';
    if (*s == '\\')
      fputs("\\e", f);
    else if (*s == '-')
      fputs("\\-", f);
    else
      fputc(*s, f);
  }
}

static void man_opt(FILE *f, const struct agent_optdoc *o) {
  fputs(".TP\n", f);
  if (o->letter) fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
  fputs("\\fB\\-\\-", f);
  roff(f, o->name);
  fputs("\\fR", f);
  if (o->arg) {
    fputs(" \\fI", f);
    roff(f, o->arg);
    fputs("\\fR", f);
  }
  fputc('\n', f);
  roff(f, help_of(o));
  fputc('\n', f);
}

/* A command's usage lines, in bold, without "usage: ". */
static void usage_lines(FILE *f, const struct agent_cmd *c) {
  for (const char *u = c->usage; *u;) {
    size_t n = strcspn(u, "\n");
    const char *line = u;
    if (!strncmp(line, "usage: ", 7)) line += 7;
    while (*line == ' ' && line < u + n)
      line++;
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)(u + n - line), line);
    fputs("\\fB", f);
    roff(f, buf);
    fputs("\\fR\n", f);
    u += n + (u[n] == '\n');
  }
}

/* The exit codes from the exit table (exits.c): every code for zamcap
 * as a whole (c NULL), or those command c gives, in its words. */
static void man_exits(FILE *f, const struct agent_cmd *c) {
  struct agent_exitdoc x;
  for (size_t i = 0; agent_exit_doc(i, &x); i++) {
    const char *text = agent_exit_text(c, x.code);
    if (!text) continue;
    char label[16];
    agent_exit_label(x.code, label, sizeof label);
    fprintf(f, ".TP\n%s\n", label);
    roff(f, text);
    fputs(".\n", f);
  }
  const char *after = agent_exit_after(c);
  if (after) {
    fputs(".PP\n", f);
    roff(f, after);
    fputc('\n', f);
  }
}

/* A command's section: its usage lines as they are, what it does, its
 * options from the table, its closing words. */
static void man_cmd(FILE *f, const struct agent_cmd *c) {
  fprintf(f, ".SS \"zamcap %s\"\n.nf\n", c->name);
  usage_lines(f, c);
  fputs(".fi\n.PP\n", f);
  roff(f, c->about);
  fputs(".PP\nOptions:\n", f);
  each_opt(c->bit, man_opt, f);
  if (c->after) {
    fputs(".PP\n", f);
    roff(f, c->after);
  }
  fputs(".PP\nExit status:\n", f);
  man_exits(f, c);
}

static const char man_head[] =
    ".SH NAME\n"
    "zamcap \\- which function made the web app slower\n"
    ".SH SYNOPSIS\n"
    ".nf\n";

static const char man_about[] =
    ".SH DESCRIPTION\n"
    "zamcap compares Chrome traces of an OLD and a NEW build of a web app "
    "with the ZAM algorithm (Ocariza and Zhao) and answers with a critical "
    "graph: the call paths down to the lowest\\-level functions that got "
    "slower by at least \\fIMU\\fR milliseconds, kept only where every pair "
    "of runs agrees.\n"
    ".PP\n"
    "The main command serves both builds on loopback, launches a headless "
    "Chrome, replays a user flow exported from the DevTools Recorder on the "
    "old and the new build in interleaved pairs, records a trace of each run "
    "and compares them. The parts are commands of their own: \\fBzamcap "
    "record\\fR captures traces, \\fBzamcap compare\\fR compares saved "
    "ones.\n"
    ".PP\n"
    "Progress and diagnostics go to standard error, results to standard "
    "output; the exit status is the verdict.\n"
    ".SH COMMANDS\n";

static const char man_env[] =
    ".SH ENVIRONMENT\n"
    ".TP\n.B CHROME_PATH\n"
    "The Chrome to launch when \\fB\\-\\-chrome\\fR is not given; without "
    "either, \\fBchromium\\fR, \\fBchromium\\-browser\\fR, "
    "\\fBgoogle\\-chrome\\fR and \\fBgoogle\\-chrome\\-stable\\fR are looked "
    "for on \\fBPATH\\fR.\n"
    ".TP\n.B PATH\n"
    "Where Chrome and Graphviz's \\fBdot\\fR are found.\n"
    ".TP\n.B ZC_DOT_SECONDS\n"
    "How long \\fBdot\\fR may take to draw the critical graph (default "
    "120); a \\fBdot\\fR that fails or hangs costs the picture, with a "
    "warning.\n"
    ".TP\n.B CURL_CA_BUNDLE\n"
    "A CA bundle for \\fB\\-\\-attach\\fR's HTTPS upload and "
    "\\fB\\-\\-tracker\\fR's requests (a self\\-hosted tracker's "
    "private CA), as for curl.\n"
    ".TP\n.B ZAMCAP_TRACKER_TOKEN\n"
    "The token \\fB\\-\\-tracker\\fR sends (GitHub, GitLab: a token; "
    "Jira: \\fIe\\-mail\\fB:\\fR\\fItoken\\fR for Jira Cloud, else a "
    "personal access token; Redmine: an API key). It is never printed and "
    "never stored.\n"
    ".TP\n\\fB$\\fR\\fIVAR\\fR, \\fB${\\fR\\fIVAR\\fR\\fB}\\fR\n"
    "In an \\fB\\-\\-attach\\-header\\fR value: the variable's value, so "
    "that a token stays out of the command line.\n";

static void man_files(FILE *f) {
  static const char *const files[][2] = {
      {ZC_OUT_HTML, "One self\\-contained page for a bug tracker"},
      {ZC_OUT_SUMMARY, "Ten lines or so for an issue comment"},
      {ZC_OUT_REPORT, "Everything, machine\\-readable"},
      {ZC_OUT_GRAPH_DOT, "The aggregated critical graph (Graphviz)"},
      {ZC_OUT_GRAPH_SVG, "The same, drawn, when Graphviz is installed"},
      {ZC_OUT_PAIRS "/pair\\-<i>.dot", "Each pair's critical graph"},
      {"old.folded, new.folded", "Each build's call tree as folded stacks"},
      {"old.cpuprofile, new.cpuprofile", "The same for DevTools"},
      {ZC_OUT_TRACES "/<build>\\-<i>.json.gz", "Each run's trace"},
      {ZC_OUT_FAILURES "/", "Screenshots of failed steps"},
      {ZC_OUT_SOURCEMAPS "/", "The source maps used"},
      {ZC_OUT_CHROME_LOG, "Chrome's own output"},
  };
  fputs(".SH FILES\n"
        "Each command that writes writes into \\fIOUT\\fR: \\fB\\-\\-out\\fR, "
        "else \\fBzamcap\\-out/\\fR\\fI<UTC time>\\fR\\fB/\\fR with "
        "\\fBzamcap\\-out/latest\\fR pointing at the newest.\n",
        f);
  for (size_t i = 0; i < ZC_ARRAY_LEN(files); i++)
    fprintf(f, ".TP\n\\fIOUT\\fR\\fB/%s\\fR\n%s.\n", files[i][0], files[i][1]);
  fputs(".TP\n\\fB/tmp/zamcap\\-chrome\\-\\fR\\fI<pid>\\fR\\fB.*\\fR\n"
        "The profile of a Chrome zamcap launched, removed when it ends.\n"
        ".TP\n\\fBshare/doc/zamcap/examples/\\fR\n"
        "Under the installation prefix: a systemd service and timer that run "
        "zamcap nightly.\n",
        f);
}

static const char man_tail[] =
    ".SH EXAMPLES\n"
    "Find the regression in a demo app's new build (the source tree's "
    "\\fBscenarios/demo/\\fR):\n"
    ".PP\n.RS\n.nf\n"
    "zamcap scenarios/demo/todo.json \\e\n"
    "  \\-\\-old scenarios/demo/todo/old \\-\\-new scenarios/demo/todo/new\n"
    ".fi\n.RE\n"
    ".PP\n"
    "Compare traces saved from the DevTools Performance panel, reporting "
    "slowdowns of 20 ms or more:\n"
    ".PP\n.RS\n.nf\n"
    "zamcap compare old\\-traces/ new\\-traces/ \\-\\-mu 20 \\-\\-out perf\n"
    ".fi\n.RE\n"
    ".PP\n"
    "Record three traced runs of a page:\n"
    ".PP\n.RS\n.nf\n"
    "zamcap record \\-\\-url https://example.com/ \\-\\-runs 3\n"
    ".fi\n.RE\n"
    ".PP\n"
    "Analyse last night's capture again with another threshold:\n"
    ".PP\n.RS\n.nf\n"
    "zamcap compare zamcap\\-out/latest \\-\\-mu 100 \\-\\-out again\n"
    ".fi\n.RE\n"
    ".PP\n"
    "The second of three machines runs its share of a night's flows, "
    "recorded in a team's history:\n"
    ".PP\n.RS\n.nf\n"
    "zamcap run\\-all flows/*.json \\-\\-old https://prod.example.com/ "
    "\\e\n"
    "  \\-\\-new https://staging.example.com/ \\-\\-shard 2/3 \\e\n"
    "  \\-\\-history postgresql://zamcap@db.example.com/zamcap\n"
    ".fi\n.RE\n"
    ".SH \"SEE ALSO\"\n"
    ".BR chromium (1),\n"
    ".BR dot (1),\n"
    "and zamcap's manual: a page per command and the topics (how it works, "
    "report.json's schema, the nightly recipes, the exit codes) in "
    "\\fBshare/doc/zamcap/docs/\\fR under the installation prefix, or "
    "\\fBdocs/\\fR in the source tree.\n";

static void gen_man(FILE *f) {
  fprintf(f,
          ".\\\" zamcap(1), made by zamcap-gendoc from the option table\n"
          ".\\\" (agent/opts.c): do not edit.\n"
          ".TH ZAMCAP 1 \"\" \"zamcap %s\" \"User Commands\"\n"
          ".nh\n.ad l\n",
          ZAMCAP_VERSION);
  fputs(man_head, f);
  for (size_t i = 0; agent_cmds[i]; i++)
    usage_lines(f, agent_cmds[i]);
  fputs("\\fBzamcap \\-\\-version\\fR\n"
        "\\fBzamcap \\-\\-help\\fR\n.fi\n",
        f);
  fputs(man_about, f);
  for (size_t i = 0; agent_cmds[i]; i++)
    man_cmd(f, agent_cmds[i]);
  fputs(".SH \"EXIT STATUS\"\n", f);
  man_exits(f, NULL);
  fputs(man_env, f);
  man_files(f);
  fputs(man_tail, f);
}

/* ---- bash ---- */

static void bash_word(FILE *f, const struct agent_optdoc *o) {
  if (o->letter) fprintf(f, " -%c", o->letter);
  fprintf(f, " --%s", o->name);
}

/* What an option's argument completes to, from how --help names it: a
 * folder, a file, the word auto, or nothing to offer. */
static const char *arg_kind(const char *arg) {
  if (strstr(arg, "DIR")) return "dir";
  if (strstr(arg, "PATH")) return "file";
  if (!strncmp(arg, "auto", 4)) return "auto";
  return "none";
}

/* One case arm per option with an argument, each name once. */
static void bash_args(FILE *f) {
  static const char *const kinds[] = {"dir", "file", "none"};
  static const char *const acts[] = {
      "mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")",
      "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")", "COMPREPLY=()"};
  fputs("  case $prev in\n", f);
  for (size_t k = 0; k < ZC_ARRAY_LEN(kinds); k++) {
    struct agent_optdoc o, p;
    const char *sep = "  ";
    for (size_t i = 0; agent_option_doc(i, &o); i++) {
      /* --pairs is auto|N for run, N for compare: bash's one case arm
       * offers no word rather than a wrong one. */
      const char *kind = o.arg ? arg_kind(o.arg) : "";
      if (!strcmp(kind, "auto")) kind = "none";
      if (strcmp(kind, kinds[k])) continue;
      int seen = 0;
      for (size_t j = 0; j < i && agent_option_doc(j, &p); j++)
        seen |= p.arg && !strcmp(p.name, o.name);
      if (seen) continue;
      fprintf(f, "%s--%s", sep, o.name);
      sep = "|";
    }
    if (strcmp(sep, "  ")) fprintf(f, ")\n    %s\n    return ;;\n", acts[k]);
  }
  fputs("  esac\n", f);
}

static void gen_bash(FILE *f) {
  fputs(
      "# bash completion for zamcap, made by zamcap-gendoc from the option\n"
      "# table (agent/opts.c): do not edit.\n"
      "_zamcap() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
      "  local cmd=run\n"
      "  case ${COMP_WORDS[1]} in\n  ",
      f);
  for (size_t i = 0; agent_cmds[i]; i++)
    fprintf(f, "%s%s", i ? "|" : "", agent_cmds[i]->name);
  fputs(") ((COMP_CWORD > 1)) && cmd=${COMP_WORDS[1]} ;;\n  esac\n", f);
  bash_args(f);
  fputs("  if [[ $cur == -* ]]; then\n    local opts\n    case $cmd in\n", f);
  for (size_t i = 0; agent_cmds[i]; i++) {
    fprintf(f, "    %s) opts='", agent_cmds[i]->name);
    each_opt(agent_cmds[i]->bit, bash_word, f);
    fputs("' ;;\n", f);
  }
  fputs("    esac\n"
        "    [[ $cmd == run && $COMP_CWORD == 1 ]] && opts+=' --version'\n"
        "    mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
        "    return\n"
        "  fi\n"
        "  if ((COMP_CWORD == 1)); then\n"
        "    mapfile -t COMPREPLY < <(compgen -W '",
        f);
  for (size_t i = 0; agent_cmds[i]; i++)
    fprintf(f, "%s%s", i ? " " : "", agent_cmds[i]->name);
  fputs("' -- \"$cur\"; compgen -f -- \"$cur\")\n"
        "    return\n"
        "  fi\n"
        "  mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
        "}\n"
        "complete -o filenames -F _zamcap zamcap\n",
        f);
}

/* ---- zsh ---- */

/* Text inside single quotes: ' closes them, and the characters of
 * special (a spec's own: "]\\" in a hint, ":\\" in a message) get a
 * backslash. */
static void zsh_text(FILE *f, const char *s, const char *special) {
  for (; *s; s++) {
    if (*s == '\'')
      fputs("'\\''", f);
    else if (strchr(special, *s))
      fprintf(f, "\\%c", *s);
    else
      fputc(*s, f);
  }
}

static void zsh_spec(FILE *f, const struct agent_optdoc *o) {
  char help[512], name[64];
  one_line(help_of(o), help, sizeof help);
  for (int pass = o->letter ? 0 : 1; pass < 2; pass++) {
    fputs("    '", f);
    if (o->repeatable)
      fputs("*", f);
    else if (o->letter)
      fprintf(f, "(-%c --%s)", o->letter, o->name);
    if (pass)
      snprintf(name, sizeof name, "--%s", o->name);
    else
      snprintf(name, sizeof name, "-%c", o->letter);
    fprintf(f, "%s%s[", name, o->arg && pass ? "=" : "");
    zsh_text(f, help, "]\\");
    fputs("]", f);
    if (o->arg) {
      const char *k = arg_kind(o->arg);
      fputs(":", f);
      zsh_text(f, o->arg, ":\\");
      fputs(!strcmp(k, "dir")    ? ":_files -/"
            : !strcmp(k, "file") ? ":_files"
            : !strcmp(k, "auto") ? ":(auto)"
                                 : ":",
            f);
    }
    fputs("' \\\n", f);
  }
}

static void gen_zsh(FILE *f) {
  fputs("#compdef zamcap\n"
        "# zsh completion for zamcap, made by zamcap-gendoc from the option\n"
        "# table (agent/opts.c): do not edit.\n"
        "_zamcap() {\n"
        "  local -a commands\n"
        "  commands=(\n",
        f);
  for (size_t i = 0; agent_cmds[i]; i++) {
    /* Its hint: the first usage line, less "usage: zamcap ". */
    const char *u = agent_cmds[i]->usage;
    char hint[256];
    if (!strncmp(u, "usage: zamcap ", 14)) u += 14;
    snprintf(hint, sizeof hint, "%.*s", (int)strcspn(u, "\n"), u);
    fprintf(f, "    '%s:", agent_cmds[i]->name);
    zsh_text(f, hint, "");
    fputs("'\n", f);
  }
  fputs("  )\n  local cmd=run\n  case $words[2] in\n  (", f);
  for (size_t i = 0; agent_cmds[i]; i++)
    fprintf(f, "%s%s", i ? "|" : "", agent_cmds[i]->name);
  fputs(")\n"
        "    if ((CURRENT == 2)); then\n"
        "      _describe -t commands 'zamcap command' commands\n"
        "      return\n"
        "    fi\n"
        "    cmd=$words[2]\n"
        "    shift words\n"
        "    ((CURRENT--)) ;;\n"
        "  (*)\n"
        "    if ((CURRENT == 2)) && [[ $words[2] != -* ]]; then\n"
        "      _describe -t commands 'zamcap command' commands\n"
        "      _files\n"
        "      return\n"
        "    fi ;;\n"
        "  esac\n"
        "  case $cmd in\n",
        f);
  for (size_t i = 0; agent_cmds[i]; i++) {
    fprintf(f, "  (%s)\n    _arguments -s -S : \\\n", agent_cmds[i]->name);
    each_opt(agent_cmds[i]->bit, zsh_spec, f);
    fputs("    '*:file:_files' ;;\n", f);
  }
  fputs("  esac\n}\n_zamcap \"$@\"\n", f);
}

/* ---- the manual's generated parts (docs/) ---- */

/* Text for Markdown: one line, and < > as entities (so that "<UTC time>"
 * is text, not a tag). */
static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\n')
      fputc(' ', f);
    else if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else
      fputc(*s, f);
  }
}

/* A sentence: the text and its full stop. */
static void md_sentence(FILE *f, const char *s) {
  md_text(f, s);
  size_t n = strlen(s);
  if (n && s[n - 1] != '.') fputc('.', f);
}

static void md_opt(FILE *f, const struct agent_optdoc *o) {
  fputs("- ", f);
  if (o->letter) fprintf(f, "`-%c`, ", o->letter);
  fprintf(f, "`--%s%s%s`: ", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
  md_sentence(f, help_of(o));
  fputc('\n', f);
}

/* The usage lines as typed, less "usage: " and as much indent. */
static void md_synopsis(FILE *f, const struct agent_cmd *c) {
  fputs("```\n", f);
  for (const char *u = c->usage; *u;) {
    size_t n = strcspn(u, "\n"), skip = 0;
    while (skip < 7 && skip < n && u[skip] == "usage: "[skip])
      skip++;
    if (skip < 7)
      for (skip = 0; skip < 7 && skip < n && u[skip] == ' ';)
        skip++;
    fprintf(f, "%.*s\n", (int)(n - skip), u + skip);
    u += n + (u[n] == '\n');
  }
  fputs("```\n", f);
}

static void md_exits(FILE *f, const struct agent_cmd *c) {
  struct agent_exitdoc x;
  for (size_t i = 0; agent_exit_doc(i, &x); i++) {
    const char *text = agent_exit_text(c, x.code);
    if (!text) continue;
    char label[16];
    agent_exit_label(x.code, label, sizeof label);
    fprintf(f, "- `%s`: ", label);
    md_sentence(f, text);
    fputc('\n', f);
  }
  const char *after = agent_exit_after(c);
  if (after) {
    fputc('\n', f);
    md_sentence(f, after);
    fputc('\n', f);
  }
}

/* Every code: the table of docs/exit-codes.md. */
static void md_exit_table(FILE *f, const struct agent_cmd *unused) {
  (void)unused;
  struct agent_exitdoc x;
  fputs("| code | name | meaning |\n|---|---|---|\n", f);
  for (size_t i = 0; agent_exit_doc(i, &x); i++) {
    char label[16];
    agent_exit_label(x.code, label, sizeof label);
    fprintf(f, "| %s | %s | ", label, x.name);
    md_sentence(f, x.meaning);
    fputs(" |\n", f);
  }
}

/* Which command gives which code (docs/exit-codes.md). */
static void md_exit_cmds(FILE *f, const struct agent_cmd *unused) {
  (void)unused;
  fputs("| command | exit codes |\n|---|---|\n", f);
  for (size_t i = 0; agent_cmds[i]; i++) {
    const struct agent_cmd *c = agent_cmds[i];
    fprintf(f, "| [`zamcap %s`](cmd/zamcap-%s.md#exit-codes) | ", c->name,
            c->name);
    struct agent_exitdoc x;
    const char *sep = "";
    for (size_t k = 0; agent_exit_doc(k, &x); k++) {
      if (!agent_exit_text(c, x.code)) continue;
      char label[16];
      agent_exit_label(x.code, label, sizeof label);
      fprintf(f, "%s%s", sep, label);
      sep = ", ";
    }
    fputs(" |\n", f);
  }
}

/* Each error and the code it gives at each stage: core's zc_exit_for,
 * the one table every command turns its errors into exit codes by. */
static void md_errors(FILE *f, const struct agent_cmd *unused) {
  (void)unused;
#define E(x)                                                                   \
  { x, #x }
  static const struct {
    enum zc_err e;
    const char *name;
  } errs[] = {
      E(ZC_OK),       E(ZC_E_USAGE),    E(ZC_E_IO),          E(ZC_E_PARSE),
      E(ZC_E_TOOBIG), E(ZC_E_TIMEOUT),  E(ZC_E_CDP),         E(ZC_E_BROWSER),
      E(ZC_E_NOMEM),  E(ZC_E_INTERNAL), E(ZC_E_INTERRUPTED),
  };
#undef E
  _Static_assert(ZC_ARRAY_LEN(errs) == ZC_E_INTERRUPTED + 1,
                 "every enum zc_err in the table");
  fputs("| error (`enum zc_err`) | `zc_strerror` | input: options, scenario, "
        "given traces, output folder | capture: Chrome, the runs, their "
        "analysis, the upload |\n|---|---|---|---|\n",
        f);
  for (size_t i = 0; i < ZC_ARRAY_LEN(errs); i++) {
    fprintf(f, "| `%s` | %s |", errs[i].name, zc_strerror(errs[i].e));
    for (int st = ZC_STAGE_INPUT; st <= ZC_STAGE_CAPTURE; st++) {
      char label[16];
      agent_exit_label(zc_exit_for(errs[i].e, (enum zc_stage)st) >= 128
                           ? AGENT_EXIT_SIGNAL
                           : zc_exit_for(errs[i].e, (enum zc_stage)st),
                       label, sizeof label);
      fprintf(f, " %s |", label);
    }
    fputc('\n', f);
  }
}

static void md_options(FILE *f, const struct agent_cmd *c) {
  each_opt(c->bit, md_opt, f);
}

/* The kinds of generated part: "<!-- gendoc KIND [COMMAND] ... -->" opens
 * one, "<!-- /gendoc -->" closes it; what lies between is made anew. */
static const struct {
  const char *kind;
  int per_cmd; /* 1: takes a command's name */
  void (*gen)(FILE *f, const struct agent_cmd *c);
  const char *from; /* what to edit instead, for the opening line */
} md_kinds[] = {
    {"synopsis", 1, md_synopsis, "the usage in agent/cmd/cmd-"},
    {"options", 1, md_options, "the option table, agent/cli/opts.c"},
    {"exits", 1, md_exits, "the exit table, agent/cli/exits.c"},
    {"exit-table", 0, md_exit_table, "the exit table, agent/cli/exits.c"},
    {"exit-commands", 0, md_exit_cmds, "the exit table, agent/cli/exits.c"},
    {"exit-errors", 0, md_errors, "zc_exit_for, core/zc.c"},
};

static const struct agent_cmd *cmd_named(const char *name, size_t n) {
  for (size_t i = 0; agent_cmds[i]; i++)
    if (strlen(agent_cmds[i]->name) == n &&
        !strncmp(agent_cmds[i]->name, name, n))
      return agent_cmds[i];
  return NULL;
}

/* One opening line: writes it again and what it makes into out; returns
 * 0, or 1 after a message naming path and line. */
static int md_block(FILE *out, const char *line, const char *path, int ln) {
  const char *k = line + strlen("<!-- gendoc ");
  size_t kn = strcspn(k, " :"), i = 0;
  while (i < ZC_ARRAY_LEN(md_kinds) &&
         (strlen(md_kinds[i].kind) != kn || strncmp(md_kinds[i].kind, k, kn)))
    i++;
  if (i == ZC_ARRAY_LEN(md_kinds)) {
    fprintf(stderr, "%s:%d: unknown generated part '%.*s'\n", path, ln, (int)kn,
            k);
    return 1;
  }
  const struct agent_cmd *c = NULL;
  const char *name = k + kn + strspn(k + kn, " ");
  size_t nn = strcspn(name, " :");
  if (md_kinds[i].per_cmd && !(c = cmd_named(name, nn))) {
    fprintf(stderr, "%s:%d: no command '%.*s'\n", path, ln, (int)nn, name);
    return 1;
  }
  char from[128];
  snprintf(from, sizeof from, "%s%s%s", md_kinds[i].from,
           md_kinds[i].gen == md_synopsis ? c->name : "",
           md_kinds[i].gen == md_synopsis ? ".c" : "");
  fprintf(out, "<!-- gendoc %s%s%s: made by zamcap-gendoc from %s -->\n",
          md_kinds[i].kind, c ? " " : "", c ? c->name : "", from);
  md_kinds[i].gen(out, c);
  return 0;
}

/* Makes the generated parts of one Markdown file anew, and writes it back
 * when they changed; returns 0, or 1 after a message. */
static int md_file(const char *path) {
  FILE *in = fopen(path, "r");
  if (!in) {
    perror(path);
    return 1;
  }
  char *text = NULL, line[4096];
  size_t len = 0, oldlen = 0;
  FILE *out = open_memstream(&text, &len);
  int rc = 0, inside = 0, ln = 0;
  while (!rc && fgets(line, sizeof line, in)) {
    ln++;
    oldlen += strlen(line);
    if (!strncmp(line, "<!-- gendoc ", 12)) {
      if (inside) fprintf(stderr, "%s:%d: a part inside a part\n", path, ln);
      rc = inside || md_block(out, line, path, ln);
      inside = 1;
    } else if (!strncmp(line, "<!-- /gendoc -->", 16)) {
      fputs(line, out);
      inside = 0;
    } else if (!inside) {
      fputs(line, out);
    }
  }
  if (!rc && inside) {
    fprintf(stderr, "%s: a generated part is not closed (<!-- /gendoc -->)\n",
            path);
    rc = 1;
  }
  fclose(out);
  /* Written back only when it differs, so that make-style tools and git
   * see no change when there is none. */
  char *old = rc ? NULL : zc_xmalloc(oldlen + 1);
  if (old) {
    rewind(in);
    old[fread(old, 1, oldlen, in)] = '\0';
  }
  fclose(in);
  if (old && strcmp(old, text)) {
    FILE *w = fopen(path, "w");
    if (!w || fputs(text, w) < 0 || fclose(w)) perror(path), rc = 1;
  }
  free(old);
  free(text);
  return rc;
}

/* Every .md file under dir, sub-folders too. */
static int gen_md(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 1;
  }
  int rc = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st)) continue;
    size_t n = strlen(e->d_name);
    if (S_ISDIR(st.st_mode))
      rc |= gen_md(path);
    else if (n > 3 && !strcmp(e->d_name + n - 3, ".md"))
      rc |= md_file(path);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  static const struct {
    const char *what;
    void (*gen)(FILE *f);
  } gens[] = {{"man", gen_man}, {"bash", gen_bash}, {"zsh", gen_zsh}};
  for (size_t i = 0; argc == 3 && i < ZC_ARRAY_LEN(gens); i++) {
    if (strcmp(argv[1], gens[i].what)) continue;
    FILE *f = fopen(argv[2], "w");
    if (!f) {
      perror(argv[2]);
      return 1;
    }
    gens[i].gen(f);
    if (ferror(f) | fclose(f)) {
      perror(argv[2]);
      remove(argv[2]);
      return 1;
    }
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "md")) return gen_md(argv[2]);
  fputs("usage: zamcap-gendoc man|bash|zsh FILE\n"
        "       zamcap-gendoc md DIR\n",
        stderr);
  return 2;
}
