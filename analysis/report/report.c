/* Report writers: Graphviz DOT, the text summary, report.json. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "timeline.h"

static const char *rep_name(const struct ana_graph *g, uint32_t i) {
  const struct ana_gnode *n = &g->nodes[i];
  if (n->kind == ANA_ROOT) return "root";
  return ana_shown_name(g->ctx, n->name, n->kind == ANA_FUNC);
}

/* "name (file:line:col)", with the minified name and where it ran for a
 * function a source map renamed. */
static void rep_where(const struct ana_ctx *c, const char *name,
                      uint32_t component, int32_t line, int32_t col,
                      uint32_t gen, char *out, size_t cap) {
  const char *comp = ana_str(c, component);
  const struct ana_gen *g = ana_gen_get(c, gen);
  if (!*name) name = "(anonymous)";
  int n = !*comp     ? snprintf(out, cap, "%s", name)
          : col >= 0 ? snprintf(out, cap, "%s (%s:%d:%d)", name, comp, line + 1,
                                col + 1)
                     : snprintf(out, cap, "%s (%s:%d)", name, comp, line + 1);
  if (!g || n < 0 || (size_t)n >= cap) return;
  const char *u = ana_str(c, g->url);
  size_t un = strcspn(u, "?#");
  const char *b = u + un;
  while (b > u && b[-1] != '/')
    b--;
  const char *gn = ana_str(c, g->name);
  snprintf(out + n, cap - (size_t)n, " [%s%sat %.*s:%d:%d]", gn, *gn ? " " : "",
           (int)(u + un - b), b, g->line + 1, g->col + 1);
}

void ana_gnode_where(const struct ana_graph *g, uint32_t i, char *out,
                     size_t cap) {
  const struct ana_gnode *n = &g->nodes[i];
  if (n->kind != ANA_FUNC)
    snprintf(out, cap, "%s", rep_name(g, i));
  else
    rep_where(g->ctx, rep_name(g, i), n->component, n->line, n->col, n->gen,
              out, cap);
}

/* Pushes node i's children so that they pop in order; returns the new
 * stack depth. The stack holds g->n entries: each node is pushed once. */
static uint32_t rep_push_kids(const struct ana_graph *g, uint32_t i,
                              uint32_t *stack, uint32_t sp) {
  uint32_t k0 = sp;
  for (uint32_t k = g->nodes[i].kid; k != ANA_NONE; k = g->nodes[k].sib)
    stack[sp++] = k;
  for (uint32_t a = k0, b = sp; a + 1 < b; a++, b--) {
    uint32_t t = stack[a];
    stack[a] = stack[b - 1];
    stack[b - 1] = t;
  }
  return sp;
}

enum { DOT_NAME_MAX = 200 };

/* DOT strings: quote, backslash and control characters escaped, cut at
 * DOT_NAME_MAX bytes (at a character's start) with an ellipsis: dot
 * refuses a label past 16 KB, and no one reads one past a line. */
static void rep_dotstr(FILE *f, const char *s) {
  for (const char *s0 = s; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (s - s0 >= DOT_NAME_MAX && (c & 0xC0) != 0x80) {
      fputs("\xe2\x80\xa6", f);
      break;
    }
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c < 0x20)
      fputc(' ', f);
    else
      fputc(c, f);
  }
}

enum zc_err ana_write_dot(const struct ana_graph *g, const char *title,
                          FILE *f) {
  fputs("digraph critical {\n  graph [label=\"", f);
  rep_dotstr(f, title ? title : "zamcap critical graph");
  fputs("\", labelloc=t, fontname=\"Helvetica\"];\n"
        "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n",
        f);
  uint32_t *stack = zc_xmalloc(((size_t)g->n + 1) * sizeof *stack);
  uint32_t sp = 0;
  stack[sp++] = 0;
  while (sp) {
    uint32_t i = stack[--sp];
    const struct ana_gnode *n = &g->nodes[i];
    double o, nw, d;
    ana_gnode_means(g, i, &o, &nw, &d);
    fprintf(f, "  n%u [label=\"", i);
    rep_dotstr(f, rep_name(g, i));
    const char *c = ana_str(g->ctx, n->component);
    if (n->kind == ANA_FUNC && *c) {
      fputs("\\n", f);
      rep_dotstr(f, c);
      fprintf(f, ":%d", n->line + 1);
    } else if (n->kind == ANA_PROGRAM || n->kind == ANA_GC) {
      fputs("\\n(non-script)", f);
    } else if (n->kind == ANA_THREAD) {
      fputs("\\n(thread)", f);
    }
    if (n->kind != ANA_ROOT && n->kind != ANA_THREAD) {
      const char *u = ana_unit_desc(g->unit)->shown;
      if (n->isnew == n->present)
        fprintf(f, "\\nnew: %.1f %s (+%.1f)", nw, u, d);
      else
        fprintf(f, "\\n%.1f \xe2\x86\x92 %.1f (%+.1f) %s", o, nw, d, u);
      if (g->calls && !isnan(g->calls[i].calls[0]))
        fprintf(f, "\\ncalls %.0f \xe2\x86\x92 %.0f a run",
                g->calls[i].calls[0], g->calls[i].calls[1]);
    }
    fputc('"', f);
    if (n->cause) fputs(", style=\"rounded,filled\", fillcolor=\"grey75\"", f);
    fputs("];\n", f);
    if (n->parent != ANA_NONE) fprintf(f, "  n%u -> n%u;\n", n->parent, i);
    sp = rep_push_kids(g, i, stack, sp);
  }
  free(stack);
  fputs("}\n", f);
  return ferror(f) ? zc_fail(ZC_E_IO, "writing DOT: %s", strerror(errno))
                   : ZC_OK;
}

int ana_headline(char *out, size_t cap, long causes, long undecided,
                 double mu_ms, unsigned npairs, unsigned quorum) {
  if (causes < 0) return snprintf(out, cap, "Regression-causes unknown");
  if (!causes && undecided > 0)
    return snprintf(out, cap,
                    "Inconclusive (%ld candidate%s undecided "
                    "after %u pair%s)",
                    undecided, undecided == 1 ? "" : "s", npairs,
                    npairs == 1 ? "" : "s");
  char mu[48] = "", in[64] = "";
  if (!isnan(mu_ms)) snprintf(mu, sizeof mu, " ≥ %g ms", mu_ms);
  if (npairs == 1)
    snprintf(in, sizeof in, " in the one pair");
  else if (npairs && quorum && quorum < npairs)
    snprintf(in, sizeof in, " in at least %u of %u pairs", quorum, npairs);
  else if (npairs)
    snprintf(in, sizeof in, " in all %u pairs", npairs);
  const char *what = causes ? " (slower by" : " (no function got slower by";
  int tail = mu[0] || in[0];
  if (!causes)
    return snprintf(out, cap, "No regression-cause%s%s%s%s", tail ? what : "",
                    mu, in, tail ? ")" : "");
  return snprintf(out, cap, "%ld regression-cause%s%s%s%s%s", causes,
                  causes == 1 ? "" : "s", tail ? what : "", mu, in,
                  tail ? ")" : "");
}

/* A call path of len calls shows at most max of them: the first third and
 * the last two thirds. For the call at index at, 0 when it is shown, else
 * how many are left out where it is the first left out, else UINT32_MAX. */
static uint32_t rep_path_cut(uint32_t len, uint32_t at, uint32_t max) {
  uint32_t head = max / 3;
  if (len <= max || at < head || at >= len - (max - head)) return 0;
  return at == head ? len - max : UINT32_MAX;
}

enum { TERM_PATH_SHOWN = 30 };

void ana_spread_where(const struct ana_ctx *c, const struct ana_spread *s,
                      char *out, size_t cap) {
  rep_where(c, ana_str(c, s->fn.name), s->fn.component, s->fn.line, s->fn.col,
            s->fn.gen, out, cap);
}

/* A spread-out cause's costliest path k as "a > b > c", cut in the middle
 * past max calls; sep between the calls. put writes one name. */
static void rep_spread_path(const struct ana_spreads *sp,
                            const struct ana_spread *s, unsigned k,
                            uint32_t max, const char *sep, FILE *f,
                            void (*put)(FILE *, const char *)) {
  uint32_t len = ana_bu_path(sp->bu, s->top[k].path, NULL, 0);
  uint32_t *names = zc_xmalloc(((size_t)len + 1) * sizeof *names);
  ana_bu_path(sp->bu, s->top[k].path, names, len);
  const struct ana_ctx *c = ana_bu_ctx(sp->bu);
  for (uint32_t i = 0; i < len; i++) {
    uint32_t more = rep_path_cut(len, i, max);
    if (more) {
      if (more != UINT32_MAX) fprintf(f, "… %u more%s", more, sep);
      continue;
    }
    put(f, ana_str(c, names[i]));
    if (i + 1 < len) fputs(sep, f);
  }
  free(names);
}

static void rep_term_name(FILE *f, const char *s) {
  zc_term_put(f, s, SIZE_MAX);
}

/* The spread-out causes on the terminal. */
static void rep_spread_text(const struct ana_spreads *sp, double mu_ms,
                            FILE *f) {
  if (!sp || !sp->n) return;
  fprintf(f,
          "%u spread-out regression-cause%s (self time summed over its "
          "call paths slower by ≥ %g ms; no path alone):\n",
          sp->n, sp->n == 1 ? "" : "s", mu_ms);
  for (uint32_t k = 0; k < sp->n; k++) {
    const struct ana_spread *s = &sp->v[k];
    char where[512];
    ana_spread_where(ana_bu_ctx(sp->bu), s, where, sizeof where);
    fprintf(f, "  %+.1f ms  ", s->delta_ms);
    zc_term_put(f, where, SIZE_MAX);
    fprintf(f, "  over %u call path%s\n", s->npaths, s->npaths == 1 ? "" : "s");
    for (unsigned t = 0; t < s->ntop; t++) {
      fprintf(f, "      %+.1f ms  ", s->top[t].delta_ms);
      rep_spread_path(sp, s, t, TERM_PATH_SHOWN, " > ", f, rep_term_name);
      fputc('\n', f);
    }
  }
}

/* The minor causes (ana_graph_mark_minor) and the minor spread-out ones,
 * largest Δ first, the first MINOR_SHOWN on one line: on the terminal (md
 * 0) or in Markdown. */
enum { MINOR_SHOWN = 5 };
struct minor_item {
  const char *name;
  double delta;
};
static int minor_cmp(const void *a, const void *b) {
  const struct minor_item *x = a, *y = b;
  return (x->delta < y->delta) - (x->delta > y->delta);
}
static void rep_minor_line(const struct ana_graph *g,
                           const struct ana_spreads *sp, int md, FILE *f) {
  struct ana_cause *cs;
  uint32_t n = ana_minor_causes(g, &cs), ns = sp ? sp->nminor : 0;
  struct minor_item *v = zc_xmalloc(((size_t)n + ns + 1) * sizeof *v);
  for (uint32_t k = 0; k < n; k++)
    v[k] = (struct minor_item){rep_name(g, cs[k].node), cs[k].delta_ms};
  for (uint32_t k = 0; k < ns; k++) {
    const struct ana_spread *s = &sp->v[sp->n + k];
    v[n + k] = (struct minor_item){ana_str(ana_bu_ctx(sp->bu), s->fn.name),
                                   s->delta_ms};
  }
  free(cs);
  n += ns;
  qsort(v, n, sizeof *v, minor_cmp);
  if (n) {
    fprintf(f,
            md ? "\nAlso slower, each under %.0f %% of the largest cause, "
                 "so not named: "
               : "  also slower, each under %.0f %% of the largest cause, "
                 "not named: ",
            g->minor_share * 100);
    const char *u = ana_unit_desc(g->unit)->shown;
    for (uint32_t k = 0; k < n && k < MINOR_SHOWN; k++) {
      if (k) fputs(", ", f);
      if (md)
        ana_md_code(f, v[k].name);
      else
        zc_term_put(f, v[k].name, SIZE_MAX);
      fprintf(f, " (%+.1f%s%s)", v[k].delta, *u ? " " : "", u);
    }
    if (n > MINOR_SHOWN) fprintf(f, " and %u more", n - MINOR_SHOWN);
    fputs(md ? ".\n" : "\n", f);
  }
  free(v);
}

void ana_write_summary(const struct ana_graph *g, const struct ana_spreads *sp,
                       double mu_ms, FILE *f) {
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  char head[256];
  ana_headline(head, sizeof head, n + (sp ? sp->n : 0), g->noisy_causes, mu_ms,
               g->npairs, g->quorum);
  fprintf(f, "%s%s\n", head, n || (sp && sp->n) ? ":" : "");
  if (!n) {
    free(cs);
    rep_spread_text(sp, mu_ms, f);
    return;
  }
  uint32_t *path = zc_xmalloc(((size_t)g->n + 1) * sizeof *path);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t len = 0;
    for (uint32_t i = cs[k].node; i != ANA_NONE; i = g->nodes[i].parent)
      path[len++] = i;
    char where[512];
    ana_gnode_where(g, cs[k].node, where, sizeof where);
    const struct ana_gnode *c = &g->nodes[cs[k].node];
    /* names from the page, shown escaped on the terminal */
    fprintf(f, "  %+.1f ms  ", cs[k].delta_ms);
    zc_term_put(f, where, SIZE_MAX);
    fprintf(f, "%s%s\n      ", c->isnew == c->present ? "  [new]" : "",
            c->effect ? "  [consequence: more of the same work]" : "");
    for (uint32_t i = len - 1; i-- > 0;) {
      uint32_t more = rep_path_cut(len - 1, len - 2 - i, TERM_PATH_SHOWN);
      if (more) {
        if (more != UINT32_MAX) fprintf(f, "... %u more > ", more);
        continue;
      }
      zc_term_put(f, rep_name(g, path[i]), SIZE_MAX);
      fputs(i ? " > " : "\n", f);
    }
    const char *w = g->calls ? g->calls[cs[k].node].words : NULL;
    if (w) {
      fputs("      calls: ", f);
      zc_term_put(f, w, SIZE_MAX);
      fputc('\n', f);
    }
  }
  free(path);
  free(cs);
  rep_minor_line(g, sp, 0, f);
  rep_spread_text(sp, mu_ms, f);
}

/* Markdown. Prose (the verdict) escapes only what Markdown would read as
 * markup anywhere in a line: emphasis, code, links, HTML, entities, table
 * pipes, strikethrough; the verdict never starts a line with a list or
 * heading marker, so "-", "+", ".", "(" stay as they are. */
void ana_md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (strchr("\\`*_[]<>|~&", c))
      fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == 0x7f)
      fputc(' ', f);
    else
      fputc(c, f);
  }
}

enum { MD_NAME_MAX = 120, MD_PATH_SHOWN = 12 };

/* A name from the page as an inline code span, in which nothing is markup:
 * fenced with one backtick more than its longest run of them, pipes
 * escaped (a table cell ends at one even in code), controls as spaces, and
 * cut to MD_NAME_MAX bytes (at a character's start) with an ellipsis, so
 * that summary.md stays far below a comment's 65 536 characters. */
void ana_md_code(FILE *f, const char *s) {
  size_t n = strlen(s), run = 0, longest = 0;
  int cut = n > MD_NAME_MAX;
  if (cut) {
    n = MD_NAME_MAX;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
      n--;
  }
  for (size_t i = 0; i < n; i++) {
    run = s[i] == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  int pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ');
  for (size_t k = 0; k <= longest; k++)
    fputc('`', f);
  if (pad) fputc(' ', f);
  for (size_t i = 0, bs = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    /* GFM splits a table row before it reads code spans, on any pipe
     * after an even run of backslashes: "x\\|" would end the span early
     * and let the rest of the name render */
    if (c == '|')
      fputs(bs % 2 ? "\\\\|" : "\\|", f);
    else if (c < 0x20 || c == 0x7f)
      fputc(' ', f);
    else
      fputc(c, f);
    bs = c == '\\' ? bs + 1 : 0;
  }
  if (cut) fputs("…", f);
  if (pad) fputc(' ', f);
  for (size_t k = 0; k <= longest; k++)
    fputc('`', f);
}

static void rep_md_name(FILE *f, const char *s) {
  ana_md_code(f, s);
}

/* The spread-out causes in summary.md: the first five, a costliest path
 * each. */
static void rep_spread_md(const struct ana_spreads *sp, FILE *f) {
  if (!sp || !sp->n) return;
  fputs("\nSpread out (self time summed over its call paths; no path "
        "alone):\n\n| Δ mean | function | where | call paths | costliest "
        "path |\n|---:|---|---|---:|---|\n",
        f);
  const struct ana_ctx *c = ana_bu_ctx(sp->bu);
  for (uint32_t k = 0; k < sp->n && k < 5; k++) {
    const struct ana_spread *s = &sp->v[k];
    fprintf(f, "| +%.1f ms | ", s->delta_ms);
    ana_md_code(f, ana_str(c, s->fn.name));
    fputs(" | ", f);
    ana_md_code(f, ana_str(c, s->fn.component));
    fprintf(f, ":%d | %u | ", s->fn.line + 1, s->npaths);
    if (s->ntop)
      rep_spread_path(sp, s, 0, MD_PATH_SHOWN, " › ", f, rep_md_name);
    fputs(" |\n", f);
  }
  if (sp->n > 5)
    fprintf(f, "\n…and %u more in report.html and report.json.\n", sp->n - 5);
}

void ana_write_summary_md(const struct ana_graph *g,
                          const struct ana_spreads *sp, double mu_ms,
                          const char *verdict, const struct ana_e2e *e2e,
                          FILE *f) {
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  char headline[256];
  ana_headline(headline, sizeof headline, n + (sp ? sp->n : 0), g->noisy_causes,
               mu_ms, g->npairs, g->quorum);
  fprintf(f, "### zamcap: %s\n\n", headline);
  if (verdict) {
    ana_md_text(f, verdict);
    fputs("\n", f);
  } else {
    fprintf(f, "%s function got slower by %g ms or more in %s %u pair%s.\n",
            n ? "Some" : "No", mu_ms, g->npairs > 1 ? "all" : "the", g->npairs,
            g->npairs == 1 ? "" : "s");
  }
  uint32_t *path = zc_xmalloc(((size_t)g->n + 1) * sizeof *path);
  if (n)
    fputs("\n| Δ mean | function | where | Δ per pair | call path |\n"
          "|---:|---|---|---|---|\n",
          f);
  for (uint32_t k = 0; k < n && k < 5; k++) {
    uint32_t i = cs[k].node;
    const struct ana_gnode *nd = &g->nodes[i];
    fprintf(f, "| +%.1f ms | ", cs[k].delta_ms);
    ana_md_code(f, rep_name(g, i));
    fprintf(f, "%s%s | ", nd->isnew == nd->present ? " (new)" : "",
            nd->effect ? " (consequence)" : "");
    ana_md_code(f, ana_str(g->ctx, nd->component));
    fprintf(f, ":%d | ", nd->line + 1);
    for (unsigned p = 0; p < g->npairs; p++) {
      int64_t ov = g->old_w[(size_t)i * g->npairs + p];
      int64_t nv = g->new_w[(size_t)i * g->npairs + p];
      if (p) fputs(", ", f);
      if (nv == ANA_ABSENT)
        fputs("–", f);
      else
        fprintf(f, "%+.0f", (double)(nv - (ov < 0 ? 0 : ov)) / 1e3);
    }
    fputs(" | ", f);
    uint32_t len = 0;
    for (uint32_t j = i; j != ANA_NONE; j = g->nodes[j].parent)
      path[len++] = j;
    /* path[len - 1] is the root. A deep path shows its first and last
     * calls, and how many are left out between. */
    for (uint32_t j = len - 1; j-- > 0;) {
      uint32_t more = rep_path_cut(len - 1, len - 2 - j, MD_PATH_SHOWN);
      if (more) {
        if (more != UINT32_MAX) fprintf(f, "… %u more › ", more);
        continue;
      }
      ana_md_code(f, rep_name(g, path[j]));
      if (j) fputs(" › ", f);
    }
    fputs(" |\n", f);
  }
  if (n > 5)
    fprintf(f, "\n…and %u more in report.html and report.json.\n", n - 5);
  int said = 0;
  for (uint32_t k = 0; g->calls && k < n && k < 5; k++) {
    const char *w = g->calls[cs[k].node].words;
    if (!w) continue;
    if (!said++) fputs("\nWhat V8's call counts say:\n", f);
    fputs("- ", f);
    ana_md_code(f, rep_name(g, cs[k].node));
    fputs(": ", f);
    ana_md_text(f, w);
    fputc('\n', f);
  }
  rep_minor_line(g, sp, 1, f);
  rep_spread_md(sp, f);
  /* The end-to-end change: the metrics that moved significantly, or the
   * scenario's wall time. */
  int e2e_head = 0;
  for (unsigned i = 0; e2e && i < e2e->nmetrics; i++) {
    const struct ana_e2e_row *r = &e2e->rows[i];
    if (!r->delta.n || (!r->significant && strcmp(r->name, "scenario_ms")))
      continue;
    if (!e2e_head++) fputs("\nEnd to end, old → new:\n", f);
    char d[160];
    ana_e2e_delta_text(r, d, sizeof d);
    fprintf(f, "- %s: %.1f → %.1f %s, %s%s\n", r->label, r->old.mean,
            r->new_.mean, r->unit, d,
            r->significant ? "" : ", not significant");
  }
  free(path);
  free(cs);
}

/* ---- report.json ---- */

/* A raw weight in the graph's shown unit (µs to ms for time). */
static double rep_w(const struct ana_graph *g, int64_t w) {
  return round((double)w) / ana_unit_desc(g->unit)->per;
}

/* A key of report.json that carries the unit: "delta" -> "delta_ms" for
 * time, "delta_kb" for bytes. */
static const char *rep_key(const struct ana_graph *g, const char *stem,
                           char *buf, size_t cap) {
  snprintf(buf, cap, "%s_%s", stem, ana_unit_desc(g->unit)->key);
  return buf;
}

static cJSON *rep_num(double v) {
  return cJSON_CreateNumber(round(v * 1000.0) / 1000.0);
}

static void rep_loc(cJSON *o, const struct ana_ctx *c, uint32_t name,
                    uint32_t component, uint32_t url, int32_t line, int32_t col,
                    uint32_t gen) {
  const char *comp = ana_str(c, component);
  /* what has a file is a function */
  cJSON_AddStringToObject(o, "name", ana_shown_name(c, name, *comp));
  cJSON_AddStringToObject(o, "file", comp);
  cJSON_AddStringToObject(o, "url", ana_str(c, url));
  /* 1-based for people; null where the trace gives no position. */
  if (line >= 0)
    cJSON_AddNumberToObject(o, "line", line + 1);
  else
    cJSON_AddNullToObject(o, "line");
  if (col >= 0)
    cJSON_AddNumberToObject(o, "column", col + 1);
  else
    cJSON_AddNullToObject(o, "column");
  const struct ana_gen *g = ana_gen_get(c, gen);
  if (g) { /* renamed by a source map: what V8 saw */
    cJSON *m = cJSON_AddObjectToObject(o, "minified");
    cJSON_AddStringToObject(m, "name", ana_str(c, g->name));
    cJSON_AddStringToObject(m, "url", ana_str(c, g->url));
    cJSON_AddNumberToObject(m, "line", g->line + 1);
    cJSON_AddNumberToObject(m, "column", g->col + 1);
  }
}

static const char *rep_kind(uint8_t k) {
  switch (k) {
  case ANA_ROOT: return "root";
  case ANA_THREAD: return "thread";
  case ANA_PROGRAM: return "program";
  case ANA_GC: return "gc";
  case ANA_IDLE: return "idle";
  default: return "function";
  }
}

/* One graph as a flat list of nodes in depth-first order, each with its
 * id (its index in the list) and its parent's id (null for the root): a
 * call path thousands of calls deep stays a list, which every JSON reader
 * takes and whose size grows with the number of nodes alone. */
static cJSON *rep_graph(const struct ana_graph *g) {
  uint32_t *id = zc_xmalloc(((size_t)g->n + 1) * sizeof *id);
  uint32_t *stack = zc_xmalloc(((size_t)g->n + 1) * sizeof *stack);
  uint32_t sp = 0, next = 0;
  cJSON *graph = cJSON_CreateObject();
  cJSON *nodes = cJSON_AddArrayToObject(graph, "nodes");
  stack[sp++] = 0;
  while (sp) {
    uint32_t i = stack[--sp];
    const struct ana_gnode *n = &g->nodes[i];
    cJSON *o = cJSON_CreateObject();
    id[i] = next;
    cJSON_AddNumberToObject(o, "id", next++);
    if (n->parent != ANA_NONE)
      cJSON_AddNumberToObject(o, "parent", id[n->parent]);
    else
      cJSON_AddNullToObject(o, "parent");
    rep_loc(o, g->ctx, n->name, n->component, n->url, n->line, n->col, n->gen);
    cJSON_AddStringToObject(o, "kind", rep_kind(n->kind));
    cJSON_AddBoolToObject(o, "cause", n->cause);
    if (n->minor) cJSON_AddBoolToObject(o, "minor", 1);
    if (n->cause)
      cJSON_AddStringToObject(o, "role", n->effect ? "consequence" : "root");
    cJSON_AddStringToObject(o, "status",
                            n->kind == ANA_ROOT || n->kind == ANA_THREAD ? ""
                            : n->isnew == n->present                     ? "new"
                            : n->isnew ? "mixed"
                                       : "slower");
    cJSON_AddNumberToObject(o, "present", n->present);
    double om, nm, dm;
    char k[32];
    ana_gnode_means(g, i, &om, &nm, &dm);
    cJSON_AddItemToObject(o, rep_key(g, "old", k, sizeof k), rep_num(om));
    cJSON_AddItemToObject(o, rep_key(g, "new", k, sizeof k), rep_num(nm));
    cJSON_AddItemToObject(o, rep_key(g, "delta", k, sizeof k), rep_num(dm));
    cJSON *pp = cJSON_AddArrayToObject(o, "pairs");
    for (unsigned p = 0; p < g->npairs; p++) {
      int64_t ov = g->old_w[(size_t)i * g->npairs + p];
      int64_t nv = g->new_w[(size_t)i * g->npairs + p];
      if (nv == ANA_ABSENT) {
        cJSON_AddItemToArray(pp, cJSON_CreateNull());
        continue;
      }
      cJSON *e = cJSON_CreateObject();
      if (ov < 0)
        cJSON_AddNullToObject(e, rep_key(g, "old", k, sizeof k));
      else
        cJSON_AddNumberToObject(e, rep_key(g, "old", k, sizeof k),
                                rep_w(g, ov));
      cJSON_AddNumberToObject(e, rep_key(g, "new", k, sizeof k), rep_w(g, nv));
      cJSON_AddNumberToObject(e, rep_key(g, "delta", k, sizeof k),
                              rep_w(g, nv - (ov < 0 ? 0 : ov)));
      cJSON_AddItemToArray(pp, e);
    }
    cJSON_AddItemToArray(nodes, o);
    sp = rep_push_kids(g, i, stack, sp);
  }
  free(id);
  free(stack);
  return graph;
}

/* Node i's call path from the thread down, as o's "path" (names); path:
 * room for g->n nodes. */
static void rep_path_json(cJSON *o, const struct ana_graph *g, uint32_t i,
                          uint32_t *path) {
  uint32_t len = 0;
  for (uint32_t j = i; j != ANA_NONE; j = g->nodes[j].parent)
    path[len++] = j;
  cJSON *pa = cJSON_AddArrayToObject(o, "path");
  for (uint32_t j = len - 1; j-- > 0;)
    cJSON_AddItemToArray(pa, cJSON_CreateString(rep_name(g, path[j])));
}

struct cJSON *ana_causes_json(const struct ana_graph *g) {
  cJSON *arr = cJSON_CreateArray();
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  uint32_t *path = zc_xmalloc(((size_t)g->n + 1) * sizeof *path);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = cs[k].node;
    const struct ana_gnode *nd = &g->nodes[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", k + 1);
    rep_loc(o, g->ctx, nd->name, nd->component, nd->url, nd->line, nd->col,
            nd->gen);
    cJSON_AddStringToObject(o, "status",
                            nd->isnew == nd->present ? "new"
                            : nd->isnew              ? "mixed"
                                                     : "slower");
    /* issue 25.3: a root, or a consequence of one (ranked after) */
    cJSON_AddStringToObject(o, "role", nd->effect ? "consequence" : "root");
    cJSON_AddItemToObject(o, "same_work",
                          isnan(nd->same) ? cJSON_CreateNull()
                                          : rep_num((double)nd->same));
    char key[32];
    cJSON_AddItemToObject(o, rep_key(g, "old", key, sizeof key),
                          rep_num(cs[k].old_ms));
    cJSON_AddItemToObject(o, rep_key(g, "new", key, sizeof key),
                          rep_num(cs[k].new_ms));
    cJSON_AddItemToObject(o, rep_key(g, "delta", key, sizeof key),
                          rep_num(cs[k].delta_ms));
    rep_key(g, "delta", key, sizeof key);
    strcat(key, "_per_pair");
    cJSON *pd = cJSON_AddArrayToObject(o, key);
    for (unsigned p = 0; p < g->npairs; p++) {
      int64_t ov = g->old_w[(size_t)i * g->npairs + p];
      int64_t nv = g->new_w[(size_t)i * g->npairs + p];
      cJSON_AddItemToArray(
          pd, nv == ANA_ABSENT
                  ? cJSON_CreateNull()
                  : cJSON_CreateNumber(rep_w(g, nv - (ov < 0 ? 0 : ov))));
    }
    rep_path_json(o, g, i, path);
    cJSON_AddItemToArray(arr, o);
  }
  free(path);
  free(cs);
  return arr;
}

struct cJSON *ana_minor_json(const struct ana_graph *g,
                             const struct ana_spreads *sp) {
  cJSON *arr = cJSON_CreateArray();
  struct ana_cause *cs;
  uint32_t n = ana_minor_causes(g, &cs);
  uint32_t *path = zc_xmalloc(((size_t)g->n + 1) * sizeof *path);
  for (uint32_t k = 0; k < n; k++) {
    const struct ana_gnode *nd = &g->nodes[cs[k].node];
    cJSON *o = cJSON_CreateObject();
    rep_loc(o, g->ctx, nd->name, nd->component, nd->url, nd->line, nd->col,
            nd->gen);
    char key[32];
    cJSON_AddItemToObject(o, rep_key(g, "delta", key, sizeof key),
                          rep_num(cs[k].delta_ms));
    rep_path_json(o, g, cs[k].node, path);
    cJSON_AddItemToArray(arr, o);
  }
  free(path);
  free(cs);
  for (uint32_t k = 0; sp && k < sp->nminor; k++) {
    const struct ana_spread *s = &sp->v[sp->n + k];
    cJSON *o = cJSON_CreateObject();
    rep_loc(o, ana_bu_ctx(sp->bu), s->fn.name, s->fn.component, s->fn.url,
            s->fn.line, s->fn.col, s->fn.gen);
    char key[32];
    cJSON_AddItemToObject(o, rep_key(g, "delta", key, sizeof key),
                          rep_num(s->delta_ms));
    cJSON_AddStringToObject(o, "measure",
                            s->inclusive ? "spread inclusive" : "spread self");
    cJSON_AddNumberToObject(o, "call_paths", s->npaths);
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

static cJSON *rep_spread_json(const struct ana_spreads *sp) {
  cJSON *arr = cJSON_CreateArray();
  if (!sp) return arr;
  const struct ana_ctx *c = ana_bu_ctx(sp->bu);
  for (uint32_t k = 0; k < sp->n; k++) {
    const struct ana_spread *s = &sp->v[k];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", k + 1);
    /* self time, or (issue 25) the time with its callees */
    cJSON_AddStringToObject(o, "measure", s->inclusive ? "inclusive" : "self");
    rep_loc(o, c, s->fn.name, s->fn.component, s->fn.url, s->fn.line, s->fn.col,
            s->fn.gen);
    cJSON_AddItemToObject(o, "old_self_ms", rep_num(s->fn.old_ms));
    cJSON_AddItemToObject(o, "new_self_ms", rep_num(s->fn.new_ms));
    cJSON_AddItemToObject(o, "delta_ms", rep_num(s->delta_ms));
    if (isnan(s->lo))
      cJSON_AddNullToObject(o, "ci95");
    else {
      cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
      cJSON_AddItemToArray(ci, rep_num(s->lo));
      cJSON_AddItemToArray(ci, rep_num(s->hi));
    }
    cJSON *pd = cJSON_AddArrayToObject(o, "delta_ms_per_pair");
    for (unsigned p = 0; p < s->npairs; p++)
      cJSON_AddItemToArray(pd, rep_num(s->delta_pair[p]));
    cJSON_AddNumberToObject(o, "call_paths", s->npaths);
    cJSON *cp = cJSON_AddArrayToObject(o, "costliest_paths");
    for (unsigned t = 0; t < s->ntop; t++) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddItemToObject(e, "delta_ms", rep_num(s->top[t].delta_ms));
      uint32_t len = ana_bu_path(sp->bu, s->top[t].path, NULL, 0);
      uint32_t *names = zc_xmalloc(((size_t)len + 1) * sizeof *names);
      ana_bu_path(sp->bu, s->top[t].path, names, len);
      cJSON *pa = cJSON_AddArrayToObject(e, "path");
      for (uint32_t i = 0; i < len; i++)
        cJSON_AddItemToArray(pa, cJSON_CreateString(ana_str(c, names[i])));
      free(names);
      cJSON_AddItemToArray(cp, e);
    }
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

static uint32_t rep_reachable(const struct ana_graph *g) {
  uint32_t c = 0;
  uint32_t *stack = zc_xmalloc(((size_t)g->n + 1) * sizeof *stack);
  uint32_t sp = 0;
  stack[sp++] = 0;
  while (sp) {
    uint32_t i = stack[--sp];
    c++;
    for (uint32_t k = g->nodes[i].kid; k != ANA_NONE; k = g->nodes[k].sib)
      stack[sp++] = k;
  }
  free(stack);
  return c;
}

struct cJSON *ana_report_json(const struct ana_report *r) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "schema", "zamcap-report/2");
  cJSON_AddStringToObject(root, "zamcap_version", r->version);
  cJSON_AddStringToObject(root, "zamcap_commit",
                          r->commit ? r->commit : "unknown");
  cJSON_AddStringToObject(root, "command", r->command);
  cJSON *in = cJSON_AddObjectToObject(root, "options");
  cJSON_AddNumberToObject(in, "mu_ms", r->opts->mu);
  cJSON_AddNumberToObject(in, "lcs_budget_ms", r->opts->lcs_budget_ms);
  cJSON_AddNumberToObject(in, "quorum",
                          r->opts->quorum ? r->opts->quorum : r->npairs);
  cJSON_AddBoolToObject(in, "drop_markers", r->drop_markers);
  cJSON_AddBoolToObject(in, "significance", r->opts->significance);
  cJSON_AddNumberToObject(in, "minor_share", r->opts->minor_share);
  cJSON *pairs = cJSON_AddArrayToObject(root, "pairs");
  for (unsigned p = 0; p < r->npairs; p++) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pair", p + 1);
    cJSON_AddStringToObject(o, "old_trace", r->old_files[p]);
    cJSON_AddStringToObject(o, "new_trace", r->new_files[p]);
    cJSON_AddNumberToObject(o, "old_nodes", r->old_nodes[p]);
    cJSON_AddNumberToObject(o, "new_nodes", r->new_nodes[p]);
    cJSON_AddNumberToObject(o, "graph_nodes", rep_reachable(r->pairs[p]));
    cJSON_AddNumberToObject(o, "causes", ana_graph_causes(r->pairs[p]));
    char dot[64];
    snprintf(dot, sizeof dot, "pairs/pair-%u.dot", p + 1);
    cJSON_AddStringToObject(o, "dot", dot);
    cJSON_AddItemToObject(o, "critical_graph", rep_graph(r->pairs[p]));
    cJSON_AddItemToArray(pairs, o);
  }
  cJSON *agg = cJSON_AddObjectToObject(root, "aggregate");
  cJSON_AddNumberToObject(agg, "causes", ana_graph_causes(r->agg));
  cJSON_AddNumberToObject(agg, "graph_nodes", rep_reachable(r->agg));
  cJSON_AddNumberToObject(agg, "not_significant", r->agg->noisy);
  cJSON_AddNumberToObject(agg, "moved", r->agg->moved);
  cJSON_AddNumberToObject(agg, "called_from_new", r->agg->via_new);
  cJSON_AddNumberToObject(agg, "recursions_folded", r->agg->recursive);
  cJSON_AddNumberToObject(agg, "callers_of_spread", r->agg->callers);
  cJSON_AddStringToObject(agg, "dot", "critical-graph.dot");
  cJSON_AddItemToObject(agg, "critical_graph", rep_graph(r->agg));
  cJSON_AddItemToObject(root, "regression_causes", ana_causes_json(r->agg));
  cJSON_AddItemToObject(root, "minor_causes",
                        ana_minor_json(r->agg, r->spread));
  cJSON_AddItemToObject(root, "spread_causes", rep_spread_json(r->spread));
  cJSON_AddItemToObject(root, "flame", ana_bu_flame_json(r->bu, r->agg, 50000));
  const struct ana_bu_row *rows;
  uint32_t nrows = ana_bu_rows(r->bu, &rows);
  cJSON *bu = cJSON_AddObjectToObject(root, "bottom_up");
  cJSON_AddNumberToObject(bu, "functions", nrows);
  uint32_t keep =
      r->bottomup_max && nrows > r->bottomup_max ? r->bottomup_max : nrows;
  cJSON_AddNumberToObject(bu, "shown", keep);
  cJSON *rw = cJSON_AddArrayToObject(bu, "rows");
  for (uint32_t i = 0; i < keep; i++) {
    cJSON *o = cJSON_CreateObject();
    rep_loc(o, r->agg->ctx, rows[i].name, rows[i].component, rows[i].url,
            rows[i].line, rows[i].col, rows[i].gen);
    cJSON_AddStringToObject(o, "kind", rep_kind(rows[i].kind));
    cJSON_AddItemToObject(o, "old_self_ms", rep_num(rows[i].old_ms));
    cJSON_AddItemToObject(o, "new_self_ms", rep_num(rows[i].new_ms));
    cJSON_AddItemToObject(o, "delta_ms", rep_num(rows[i].delta_ms));
    cJSON_AddItemToArray(rw, o);
  }
  cJSON *st = cJSON_AddObjectToObject(root, "matcher");
  cJSON_AddNumberToObject(st, "lcs", (double)r->stats->lcs);
  cJSON_AddNumberToObject(st, "alternate", (double)r->stats->alternate);
  cJSON_AddNumberToObject(st, "lcs_timeouts", (double)r->stats->lcs_timeouts);
  cJSON_AddItemToObject(root, "elapsed_ms", rep_num(r->elapsed_ms));
  return root;
}

static enum zc_err rep_put_text(void *arg, FILE *f) {
  const char *text = arg;
  fputs(text, f);
  fputc('\n', f);
  return ZC_OK; /* a failed write shows in ferror, which the caller checks */
}

enum zc_err ana_write_json(const struct cJSON *doc, const char *path) {
  char *text = cJSON_Print(doc);
  if (!text) return zc_fail(ZC_E_NOMEM, "%s: out of memory", path);
  enum zc_err e = zc_write_atomic(path, rep_put_text, text);
  free(text);
  return e;
}
