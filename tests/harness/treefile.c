/* Indented-text call trees for tests. See treefile.h. */
#include "treefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "timeline.h"

/* A node's self time as CPU samples of 1 ms (the last one shorter). */
static void samples(struct ana_timeline *tl, uint32_t node, int64_t ts,
                    int64_t self) {
  for (; self > 0; self -= 1000)
    ana_tl_sample(tl, node, ts, self < 1000 ? self : 1000);
}

struct ana_timeline *zt_tree_parse(struct ana_ctx *c, const char *name,
                                   const char *text) {
  struct ana_timeline *tl = ana_tl_new(c, name);
  enum { MAXD = 1024 }; /* levels */
  uint32_t stack[MAXD], depth = 0, thread;
  int64_t total[MAXD], kids[MAXD];
  thread = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  stack[0] = thread;
  total[0] = kids[0] = 0;
  int lineno = 0;
  /* Self times are known only once a node's children are read: keep the
   * open nodes on a stack and settle each when it closes. */
  uint32_t node_at[MAXD];
  int64_t ts[MAXD];
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[2 * MAXD + 512];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    p += len + (e ? 1 : 0);
    lineno++;
    size_t ind = strspn(line, " ");
    if (!line[ind] || line[ind] == '#') continue;
    uint32_t d = (uint32_t)(ind / 2) + 1;
    /* Close nodes at this depth and deeper. */
    while (depth >= d) {
      int64_t self = total[depth] - kids[depth];
      if (self < 0) {
        fprintf(stderr, "%s:%d: children longer than their parent\n", name,
                lineno);
        ana_timeline_free(tl);
        return NULL;
      }
      samples(tl, node_at[depth], ts[depth], self);
      depth--;
    }
    if (strncmp(line + ind, "thread ", 7) == 0) {
      thread = ana_tl_child(tl, 0, ANA_THREAD, line + ind + 7, NULL, -1, -1);
      stack[0] = thread;
      depth = 0;
      continue;
    }
    if (d != depth + 1 || d >= MAXD - 1) {
      fprintf(stderr, "%s:%d: bad indent\n", name, lineno);
      ana_timeline_free(tl);
      return NULL;
    }
    char fn[256], file[256] = "";
    double ms;
    int ln = 0;
    if (sscanf(line + ind, "%255s %lf", fn, &ms) != 2) {
      fprintf(stderr, "%s:%d: want 'name[@file[:line]] ms'\n", name, lineno);
      ana_timeline_free(tl);
      return NULL;
    }
    char *at = strchr(fn, '@');
    if (at) {
      *at = '\0';
      snprintf(file, sizeof file, "%s", at + 1);
      char *colon = strchr(file, ':');
      if (colon) *colon = '\0', ln = atoi(colon + 1);
    }
    enum ana_kind kind = !strcmp(fn, "(idle)")                ? ANA_IDLE
                         : !strcmp(fn, "(program)")           ? ANA_PROGRAM
                         : !strcmp(fn, "(garbage collector)") ? ANA_GC
                                                              : ANA_FUNC;
    char url[300];
    snprintf(url, sizeof url, "http://127.0.0.1:8000/%s", file);
    uint32_t parent = depth ? node_at[depth] : stack[0];
    uint32_t n =
        ana_tl_child(tl, parent, kind, fn, file[0] ? url : NULL, ln - 1, 0);
    int64_t us = (int64_t)(ms * 1000 + 0.5);
    if (depth) kids[depth] += us;
    depth = d;
    node_at[depth] = n;
    total[depth] = us;
    kids[depth] = 0;
    ts[depth] = lineno;
  }
  while (depth >= 1) {
    samples(tl, node_at[depth], ts[depth], total[depth] - kids[depth]);
    depth--;
  }
  ana_tl_finish(tl);
  return tl;
}

struct ana_timeline *zt_tree_load(struct ana_ctx *c, const char *path) {
  char *text = zt_read(path);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", path);
    return NULL;
  }
  struct ana_timeline *tl = zt_tree_parse(c, path, text);
  free(text);
  return tl;
}

char *zt_graph_text(const struct ana_graph *g) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 24);
  struct item {
    uint32_t i, d;
  } *stack = malloc(((size_t)g->n + 1) * sizeof *stack);
  uint32_t sp = 0;
  stack[sp++] = (struct item){0, 0};
  while (sp) {
    struct item it = stack[--sp];
    const struct ana_gnode *n = &g->nodes[it.i];
    ZT_INT(
        zc_buf_printf(&b, "%*s%s", (int)(2 * it.d), "",
                      n->kind == ANA_ROOT ? "root" : ana_str(g->ctx, n->name)),
        ZC_OK);
    if (n->kind != ANA_ROOT && n->kind != ANA_THREAD) {
      double o, nw, d;
      ana_gnode_means(g, it.i, &o, &nw, &d);
      if (n->isnew == n->present)
        ZT_INT(zc_buf_printf(&b, " new %.1f", nw), ZC_OK);
      else
        ZT_INT(zc_buf_printf(&b, " %.1f -> %.1f", o, nw), ZC_OK);
    }
    if (n->cause) ZT_INT(zc_buf_printf(&b, " *"), ZC_OK);
    if (n->present < g->npairs)
      ZT_INT(zc_buf_printf(&b, " [%u/%u]", n->present, g->npairs), ZC_OK);
    ZT_INT(zc_buf_addc(&b, '\n'), ZC_OK);
    uint32_t k0 = sp;
    for (uint32_t k = n->kid; k != ANA_NONE; k = g->nodes[k].sib)
      stack[sp++] = (struct item){k, it.d + 1};
    for (uint32_t x = k0, y = sp; x + 1 < y; x++, y--) {
      struct item t = stack[x];
      stack[x] = stack[y - 1];
      stack[y - 1] = t;
    }
  }
  free(stack);
  return zc_buf_take(&b);
}
