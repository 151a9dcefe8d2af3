/* The manual (docs/) and the README against the code, as curl's test1139
 * checks its docs: each command's page lists every option its --help
 * lists and names none the command does not take; every zamcap command
 * line in the README, the pages and the systemd unit takes only options
 * of its command; the generated parts of the pages (synopses, options,
 * exit codes) are what zamcap-gendoc makes from the tables now; every
 * --help gives the exit table's codes; every relative link leads to a
 * file and a heading that exist; the README stays short. ZC_SRC is the
 * source tree, ZC_GENDOC this build's zamcap-gendoc. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "test.h"

enum { MAX_CMDS = 16, README_MAX_LINES = 250 };

static const char *const sections[] = {
    "Synopsis", "Description", "Options", "Exit codes", "Examples", "See also",
};

/* A path under the source tree, in one of 8 rotating buffers. */
static const char *src(const char *rel) {
  static char bufs[8][4096];
  static unsigned k;
  const char *root = getenv("ZC_SRC");
  char *b = bufs[k++ % 8];
  snprintf(b, sizeof bufs[0], "%s/%s", root ? root : "..", rel);
  return b;
}

static const struct agent_cmd *cmd_named(const char *name, size_t n) {
  for (size_t i = 0; agent_cmds[i]; i++)
    if (strlen(agent_cmds[i]->name) == n &&
        !strncmp(agent_cmds[i]->name, name, n))
      return agent_cmds[i];
  return NULL;
}

static size_t cmd_index(const struct agent_cmd *c) {
  size_t i = 0;
  while (agent_cmds[i] != c)
    i++;
  return i;
}

/* The long options zamcap CMD --help lists, as "\n--a\n--b\n", read
 * once per command. */
static const char *help_opts(const struct agent_cmd *c) {
  static char *cache[MAX_CMDS];
  size_t i = cmd_index(c);
  if (cache[i]) return cache[i];
  char *out = NULL;
  ZT_INT(zt_sh(&out, "'%s' %s --help 2>&1", zt_zamcap(), c->name), 0);
  const char *s = out ? out : "";
  char *set = calloc(1, strlen(s) + 2);
  size_t n = 0;
  set[n++] = '\n';
  for (const char *l = s; *l;
       l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
    if (strncmp(l, "  -", 3)) continue;
    const char *o = strstr(l, "--");
    if (!o || o - l > 8) continue;
    size_t k = strcspn(o, " \n");
    memcpy(set + n, o, k);
    n += k;
    set[n++] = '\n';
  }
  free(out);
  if (!ZT_TRUE(n > 8))
    fprintf(stderr, "  zamcap %s --help: no options\n", c->name);
  return cache[i] = set;
}

static int takes(const struct agent_cmd *c, const char *name, size_t n) {
  char want[128];
  snprintf(want, sizeof want, "\n--%.*s\n", (int)n, name);
  return strstr(help_opts(c), want) != NULL;
}

/* ---- command lines in the text ---- */

/* Where "zamcap" stands as a program's name in s (n bytes): after the
 * start, a blank or a '/', and before a blank; NULL when it does not. */
static const char *zamcap_word(const char *s, size_t n) {
  for (size_t i = 0; i + 7 <= n; i++)
    if (!strncmp(s + i, "zamcap ", 7) &&
        (i == 0 || s[i - 1] == ' ' || s[i - 1] == '/' || s[i - 1] == '\t'))
      return s + i;
  return NULL;
}

/* Checks each --name in s (n bytes) against command c: fails where c
 * does not take it. where: "FILE:LINE". */
static void check_opts(const char *where, const struct agent_cmd *c,
                       const char *s, size_t n, const char *what) {
  for (size_t i = 0; i + 2 < n; i++) {
    if (s[i] != '-' || s[i + 1] != '-' || !islower((unsigned char)s[i + 2]))
      continue;
    if (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '-')) continue;
    size_t k = 2;
    while (i + k < n && (islower((unsigned char)s[i + k]) ||
                         isdigit((unsigned char)s[i + k]) || s[i + k] == '-'))
      k++;
    if (!takes(c, s + i + 2, k - 2))
      zt_fail_at(__FILE__, __LINE__, "%s: %.*s is no option of zamcap %s (%s)",
                 where, (int)k, s + i, c->name, what);
    i += k;
  }
}

/* One piece of text: a code span, a line of a code block, or a
 * paragraph's prose. A zamcap command line in it is checked against its
 * command; other text, on a command's page, against the page's command,
 * unless it is another program's command line (code that does not start
 * with an option). */
static void check_piece(const char *where, const struct agent_cmd *page,
                        const char *s, size_t n, int code) {
  const char *z = zamcap_word(s, n);
  if (z) {
    const char *w = z + 7, *end = s + n;
    while (w < end && *w == ' ')
      w++;
    size_t wn = strcspn(w, " \n");
    if (wn > (size_t)(end - w)) wn = (size_t)(end - w);
    if (!strncmp(w, "--version", 9) || !strncmp(w, "--help", 6)) return;
    const struct agent_cmd *c = cmd_named(w, wn);
    /* up to the next command of a shell line */
    const char *stop = end;
    static const char *const seps[] = {" | ", "; ",  " && ", " || ",
                                       " > ", " 2>", "$("};
    for (size_t i = 0; i < sizeof seps / sizeof *seps; i++) {
      const char *at = strstr(w, seps[i]);
      if (at && at < stop) stop = at;
    }
    check_opts(where, c ? c : &agent_cmd_run, w, (size_t)(stop - w),
               "a command line");
    return;
  }
  size_t lead = 0;
  while (lead < n && s[lead] == ' ')
    lead++;
  if (!page || (code && (lead == n || s[lead] != '-'))) return;
  check_opts(where, page, s, n, "the page's command");
}

/* A paragraph of prose: its code spans and the text around them. */
static void check_prose(const char *where, const struct agent_cmd *page,
                        const char *p) {
  const char *s = p;
  while (*s) {
    const char *tick = strchr(s, '`');
    size_t n = tick ? (size_t)(tick - s) : strlen(s);
    check_piece(where, page, s, n, 0);
    if (!tick) break;
    size_t run = strspn(tick, "`");
    char close[8];
    snprintf(close, sizeof close, "%.*s", (int)(run < 7 ? run : 7), tick);
    const char *body = tick + run, *e = strstr(body, close);
    if (!e) break;
    check_piece(where, page, body, (size_t)(e - body), 1);
    s = e + run;
  }
}

/* Every option named in file (relative to ZC_SRC), page's command or
 * NULL; the generated option lists are left to the options case. */
static void scan_file(const char *rel, const struct agent_cmd *page) {
  char *text = zt_read(src(rel));
  if (!ZT_TRUE(text != NULL)) return;
  char para[16384] = "", where[512];
  int fence = 0, gen = 0, ln = 0, pstart = 0;
  size_t plen = 0;
  for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
    nl = strchr(l, '\n');
    if (nl) *nl = '\0';
    ln++;
    int blank = !l[strspn(l, " ")];
    if (!strncmp(l, "<!-- gendoc options", 19)) gen = 1;
    if (!strncmp(l, "<!-- /gendoc", 12)) gen = 0;
    int is_fence = !strncmp(l + strspn(l, " "), "```", 3);
    if ((blank || is_fence || gen) && plen) {
      snprintf(where, sizeof where, "%s:%d", rel, pstart);
      check_prose(where, page, para);
      plen = 0;
      para[0] = '\0';
    }
    if (is_fence) {
      fence = !fence;
    } else if (fence) {
      /* a line, joined with the next when it ends in a backslash */
      size_t n = strlen(l);
      if (!plen) pstart = ln;
      plen += (size_t)snprintf(para + plen, sizeof para - plen, "%s", l);
      if (n && l[n - 1] == '\\' && plen < sizeof para) {
        para[--plen] = '\0';
      } else {
        snprintf(where, sizeof where, "%s:%d", rel, pstart);
        check_piece(where, page, para, strlen(para), 1);
        plen = 0;
        para[0] = '\0';
      }
    } else if (!blank && !gen) {
      if (!plen) pstart = ln;
      plen += (size_t)snprintf(para + plen, sizeof para - plen, "%s%s",
                               plen ? " " : "", l);
      if (plen >= sizeof para) plen = sizeof para - 1;
    }
  }
  if (plen) {
    snprintf(where, sizeof where, "%s:%d", rel, pstart);
    check_prose(where, page, para);
  }
  free(text);
}

/* The Markdown files of the manual, relative to ZC_SRC, one a line. */
static char *md_files(void) {
  char *out = NULL;
  ZT_INT(
      zt_sh(&out, "cd '%s' && find docs -name '*.md' | LC_ALL=C sort", src("")),
      0);
  return out;
}

/* ---- the cases ---- */

/* Each command has its page, with its sections in order, and every page
 * under docs/cmd/ is a command's. */
static void test_pages(void) {
  for (size_t i = 0; agent_cmds[i]; i++) {
    char rel[128], head[160];
    snprintf(rel, sizeof rel, "docs/cmd/zamcap-%s.md", agent_cmds[i]->name);
    char *p = zt_read(src(rel));
    if (!p) {
      zt_fail_at(__FILE__, __LINE__, "%s is missing", rel);
      continue;
    }
    snprintf(head, sizeof head, "# zamcap-%s\n", agent_cmds[i]->name);
    if (strncmp(p, head, strlen(head)))
      zt_fail_at(__FILE__, __LINE__, "%s does not start with %s", rel, head);
    const char *at = p;
    for (size_t k = 0; k < sizeof sections / sizeof *sections; k++) {
      snprintf(head, sizeof head, "\n## %s\n", sections[k]);
      const char *h = strstr(at, head);
      if (!h)
        zt_fail_at(__FILE__, __LINE__, "%s: no section '%s' (in this place)",
                   rel, sections[k]);
      else
        at = h + 1;
    }
    static const char *const parts[] = {"synopsis", "options", "exits"};
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
      snprintf(head, sizeof head, "<!-- gendoc %s %s", parts[k],
               agent_cmds[i]->name);
      if (!strstr(p, head))
        zt_fail_at(__FILE__, __LINE__, "%s: no generated part '%s'", rel, head);
    }
    free(p);
  }
  char *out = NULL;
  ZT_INT(zt_sh(&out, "cd '%s' && ls docs/cmd", src("")), 0);
  for (char *l = out; l && *l; l += strcspn(l, "\n") + 1) {
    size_t n = strcspn(l, "\n");
    if (n < 10 || strncmp(l, "zamcap-", 7) || strncmp(l + n - 3, ".md", 3) ||
        !cmd_named(l + 7, n - 10))
      zt_fail_at(__FILE__, __LINE__, "docs/cmd/%.*s: no command's page", (int)n,
                 l);
    if (!l[n]) break;
  }
  free(out);
}

/* The Options section of each command's page lists exactly the options
 * its --help lists; the rest of the page names none the command does not
 * take. */
static void test_options(void) {
  for (size_t i = 0; agent_cmds[i]; i++) {
    const struct agent_cmd *c = agent_cmds[i];
    char rel[128];
    snprintf(rel, sizeof rel, "docs/cmd/zamcap-%s.md", c->name);
    char *p = zt_read(src(rel));
    if (!p) continue; /* test_pages says so */
    const char *sec = strstr(p, "\n## Options\n");
    const char *end = sec ? strstr(sec + 1, "\n## ") : NULL;
    if (!sec) sec = end = p;
    if (!end) end = p + strlen(p);
    /* its list's heads: "- `--name ARG`" or "- `-q`, `--quiet`" */
    char heads[8192] = "\n";
    size_t hn = 1;
    for (const char *l = sec; l && l < end; l = strchr(l + 1, '\n')) {
      if (strncmp(l, "\n- `", 4)) continue;
      const char *o = strstr(l, "`--"), *eol = strchr(l + 1, '\n');
      if (!o || (eol && o > eol)) continue;
      size_t k = strcspn(o + 1, " `\n");
      hn += (size_t)snprintf(heads + hn, sizeof heads - hn, "%.*s\n", (int)k,
                             o + 1);
      if (!takes(c, o + 3, k - 2))
        zt_fail_at(__FILE__, __LINE__,
                   "%s lists %.*s, which zamcap %s --help "
                   "does not",
                   rel, (int)k, o + 1, c->name);
    }
    const char *h = help_opts(c);
    for (const char *o = h + 1; *o; o += strcspn(o, "\n") + 1) {
      char want[128];
      snprintf(want, sizeof want, "\n%.*s\n", (int)strcspn(o, "\n"), o);
      if (!strstr(heads, want))
        zt_fail_at(__FILE__, __LINE__,
                   "%s: its Options lack %.*s, which zamcap %s --help lists",
                   rel, (int)strcspn(o, "\n"), o, c->name);
    }
    free(p);
    scan_file(rel, c);
  }
}

/* Every zamcap command line in the README, the manual and the systemd
 * unit takes only options its command has. */
static void test_examples(void) {
  scan_file("README.md", NULL);
  scan_file("dist/zamcap-nightly.service", NULL);
  char *files = md_files();
  for (char *l = files; l && *l; l += strcspn(l, "\n") + 1) {
    char rel[512];
    snprintf(rel, sizeof rel, "%.*s", (int)strcspn(l, "\n"), l);
    if (strncmp(rel, "docs/cmd/", 9)) scan_file(rel, NULL);
  }
  free(files);
}

/* The generated parts of the pages are what zamcap-gendoc makes now. */
static void test_generated(void) {
  const char *gendoc = getenv("ZC_GENDOC");
  if (!ZT_TRUE(gendoc != NULL)) return;
  char *out = NULL;
  int rc = zt_sh(&out,
                 "rm -rf '%s' && mkdir -p '%s' && cp -R '%s' '%s/' && "
                 "'%s' md '%s/docs' && diff -ru '%s' '%s/docs'",
                 zt_tmp("gen"), zt_tmp("gen"), src("docs"), zt_tmp("gen"),
                 gendoc, zt_tmp("gen"), src("docs"), zt_tmp("gen"));
  if (!ZT_INT(rc, 0))
    fprintf(stderr,
            "%s\n  the pages' generated parts are out of date: run "
            "build/zamcap-gendoc md docs\n",
            out ? out : "");
  free(out);
}

/* "Exit codes:" of a --help: the codes c gives (NULL: zamcap --help),
 * each with its words, and no other. */
static void check_help_exits(const struct agent_cmd *c) {
  char *out = NULL;
  ZT_INT(zt_sh(&out, "'%s' %s --help", zt_zamcap(), c ? c->name : ""), 0);
  const char *sec = out ? strstr(out, "\nExit codes:\n") : NULL;
  if (!ZT_TRUE(sec != NULL)) {
    free(out);
    return;
  }
  struct agent_exitdoc x;
  for (size_t i = 0; agent_exit_doc(i, &x); i++) {
    const char *text = agent_exit_text(c, x.code);
    char label[16], line[128];
    agent_exit_label(x.code, label, sizeof label);
    snprintf(line, sizeof line, "\n  %-6s%.30s", label, text ? text : "");
    if (text && !strstr(sec, line))
      zt_fail_at(__FILE__, __LINE__, "zamcap %s --help: no line '%s'",
                 c ? c->name : "", line + 1);
    snprintf(line, sizeof line, "\n  %-6s", label);
    if (!text && strstr(sec, line))
      zt_fail_at(__FILE__, __LINE__,
                 "zamcap %s --help: exit %s, which the "
                 "exit table does not give it",
                 c ? c->name : "", label);
  }
  free(out);
}

/* One exit table: every code of enum zc_exit and the signals' row is in
 * it; every --help shows it; no command keeps exit lines of its own; the
 * page holds the table. */
static void test_exit_codes(void) {
  int seen[ZC_EXIT_INCONCLUSIVE + 1] = {0}, signal = 0;
  struct agent_exitdoc x;
  for (size_t i = 0; agent_exit_doc(i, &x); i++) {
    if (x.code >= 0 && x.code <= ZC_EXIT_INCONCLUSIVE) seen[x.code]++;
    signal += x.code == AGENT_EXIT_SIGNAL;
    ZT_TRUE(x.name && *x.name && x.meaning && *x.meaning);
  }
  for (int k = 0; k <= ZC_EXIT_INCONCLUSIVE; k++)
    ZT_INT(seen[k], 1);
  ZT_INT(signal, 1);
  check_help_exits(NULL);
  for (size_t i = 0; agent_cmds[i]; i++) {
    check_help_exits(agent_cmds[i]);
    const char *after = agent_cmds[i]->after;
    if (after && strstr(after, "Exit"))
      zt_fail_at(__FILE__, __LINE__,
                 "zamcap %s: exit lines of its own in "
                 "its after text",
                 agent_cmds[i]->name);
  }
  char *p = zt_read(src("docs/exit-codes.md"));
  ZT_HAS(p, "<!-- gendoc exit-table");
  ZT_HAS(p, "<!-- gendoc exit-commands");
  ZT_HAS(p, "<!-- gendoc exit-errors");
  free(p);
}

/* The slugs GitHub gives a file's headings, as "\nslug\n..." (caller
 * frees): lower case, letters, digits, '-' and '_' kept, blanks made
 * '-', the rest dropped; a repeated one gets -1, -2, .... */
static char *slugs(const char *text) {
  size_t cap = strlen(text) + 2, n = 0;
  char *out = calloc(1, cap + 64);
  out[n++] = '\n';
  int fence = 0;
  for (const char *l = text; *l;
       l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
    if (!strncmp(l, "```", 3)) fence = !fence;
    if (fence || *l != '#') continue;
    const char *h = l + strspn(l, "#");
    if (*h != ' ') continue;
    char slug[256];
    size_t k = 0, len = strcspn(h, "\n");
    for (size_t i = 1; i < len && k < sizeof slug - 8; i++) {
      unsigned char ch = (unsigned char)h[i];
      if (isalnum(ch) || ch == '-' || ch == '_' || ch >= 0x80)
        slug[k++] = (char)tolower(ch);
      else if (ch == ' ')
        slug[k++] = '-';
    }
    slug[k] = '\0';
    char want[300];
    snprintf(want, sizeof want, "\n%s\n", slug);
    for (int d = 1; strstr(out, want); d++)
      snprintf(want, sizeof want, "\n%s-%d\n", slug, d);
    n += (size_t)snprintf(out + n, cap + 64 - n, "%s", want + 1);
  }
  return out;
}

/* The links of one file: each relative target exists, with its heading. */
static void check_links(const char *rel) {
  char *text = zt_read(src(rel));
  if (!ZT_TRUE(text != NULL)) return;
  char dir[512];
  snprintf(dir, sizeof dir, "%s", rel);
  char *slash = strrchr(dir, '/');
  if (slash)
    slash[1] = '\0';
  else
    dir[0] = '\0';
  for (const char *s = text; (s = strstr(s, "](")); s += 2) {
    const char *t = s + 2;
    size_t n = strcspn(t, ")\n ");
    if (!strncmp(t, "http://", 7) || !strncmp(t, "https://", 8) ||
        !strncmp(t, "mailto:", 7))
      continue;
    char target[1024], file[1600]; /* dir and target */
    snprintf(target, sizeof target, "%.*s", (int)n, t);
    char *hash = strchr(target, '#');
    if (hash) *hash++ = '\0';
    snprintf(file, sizeof file, "%s%s", *target ? dir : "",
             *target ? target : rel);
    if (access(src(file), F_OK)) {
      zt_fail_at(__FILE__, __LINE__, "%s: link to %s: no such file", rel,
                 target);
      continue;
    }
    if (!hash || !strstr(file, ".md")) continue;
    char *t2 = zt_read(src(file)), want[300];
    char *sl = t2 ? slugs(t2) : NULL;
    snprintf(want, sizeof want, "\n%s\n", hash);
    if (!sl || !strstr(sl, want))
      zt_fail_at(__FILE__, __LINE__, "%s: link to %s#%s: no such heading", rel,
                 file, hash);
    free(sl);
    free(t2);
  }
  free(text);
}

static void test_links(void) {
  check_links("README.md");
  char *files = md_files();
  for (char *l = files; l && *l; l += strcspn(l, "\n") + 1) {
    char rel[512];
    snprintf(rel, sizeof rel, "%.*s", (int)strcspn(l, "\n"), l);
    check_links(rel);
  }
  free(files);
}

/* The README is short, gives the two set-up commands, and leads to every
 * command's page and the manual's index; the index leads to every
 * page. */
static void test_readme(void) {
  char *r = zt_read(src("README.md"));
  if (!ZT_TRUE(r != NULL)) return;
  int lines = 0;
  for (const char *s = r; (s = strchr(s, '\n')); s++)
    lines++;
  if (lines > README_MAX_LINES)
    zt_fail_at(__FILE__, __LINE__, "README.md: %d lines, more than %d", lines,
               README_MAX_LINES);
  ZT_HAS(r, "tests/setup.sh --example");
  ZT_HAS(r, "tests/setup.sh --test");
  ZT_HAS(r, "](docs/README.md)");
  for (size_t i = 0; agent_cmds[i]; i++) {
    char link[128];
    snprintf(link, sizeof link, "](docs/cmd/zamcap-%s.md)",
             agent_cmds[i]->name);
    ZT_HAS(r, link);
  }
  free(r);
  char *index = zt_read(src("docs/README.md")), *files = md_files();
  for (char *l = files; index && l && *l; l += strcspn(l, "\n") + 1) {
    char link[512];
    snprintf(link, sizeof link, "](%.*s", (int)strcspn(l, "\n") - 5, l + 5);
    if (strcmp(link, "](README.md") && !strstr(index, link))
      zt_fail_at(__FILE__, __LINE__, "docs/README.md: no link to %s", link + 2);
  }
  free(files);
  free(index);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"pages", test_pages},           {"options", test_options},
      {"examples", test_examples},     {"generated", test_generated},
      {"exit_codes", test_exit_codes}, {"links", test_links},
      {"readme", test_readme},
  };
  return ZT_RUN(cases, argc, argv);
}
