/* Timelines: building the top-down aggregated call tree, pruning, printing.
 * Nodes live in one array; children are index ranges into tl->kids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam/io.h"

struct ana__build {
  struct zc_htab tab; /* (parent, frame) -> node index */
};

static uint64_t ana__nodehash(uint32_t parent, uint8_t kind, uint32_t name,
                              uint32_t url, int32_t line, int32_t col) {
  uint64_t h = zc_mix64((uint64_t)parent << 32 | name);
  h = zc_mix64(h ^ ((uint64_t)url << 8 | kind));
  return zc_mix64(h ^ ((uint64_t)(uint32_t)line << 32 | (uint32_t)col));
}

struct ana_timeline *ana_tl_new(struct ana_ctx *c, const char *source) {
  struct ana_timeline *tl = zc_xcalloc(1, sizeof *tl);
  tl->ctx = c;
  tl->source = zc_xstrdup(source ? source : "");
  tl->build = zc_xcalloc(1, sizeof *tl->build);
  zc_htab_init(&tl->build->tab, 512);
  ZC_GROW(tl->nodes, tl->capnodes, 1);
  struct ana_node *r = &tl->nodes[0];
  memset(r, 0, sizeof *r);
  r->kind = ANA_ROOT;
  r->parent = ANA_NONE;
  r->line = r->col = -1;
  r->first_us = INT64_MAX;
  tl->nnodes = 1;
  struct ana_figures *f = &tl->fig;
  f->scenario_ms = f->scripting_ms = f->gc_ms = f->style_layout_ms = NAN;
  f->native_ms = NAN;
  f->long_tasks = f->blocking_ms = f->cpu_share = f->profile_lost_ms = NAN;
  return tl;
}

void ana_timeline_free(struct ana_timeline *tl) {
  if (!tl) return;
  ana__io_run_free(tl->io);
  if (tl->build) zc_htab_free(&tl->build->tab);
  free(tl->build);
  free(tl->nodes);
  free(tl->kids);
  free(tl->source);
  free(tl->what);
  for (uint32_t i = 0; i < tl->nembedded; i++) {
    free(tl->embedded[i].url);
    free(tl->embedded[i].map_url);
    free(tl->embedded[i].map);
  }
  free(tl->embedded);
  free(tl->fig.steps);
  free(tl);
}

static uint32_t ana__child(struct ana_timeline *tl, uint32_t parent,
                           enum ana_kind kind, uint32_t name, uint32_t url,
                           int32_t line, int32_t col) {
  struct ana__build *b = tl->build;
  uint8_t k = (uint8_t)kind;
  uint64_t hv = ana__nodehash(parent, k, name, url, line, col);
  size_t pos = ZC_HTAB_START;
  uint32_t id;
  while (zc_htab_next(&b->tab, hv, &pos, &id)) {
    const struct ana_node *n = &tl->nodes[id];
    if (n->parent == parent && n->kind == k && n->name == name &&
        n->url == url && n->line == line && n->col == col)
      return id;
  }
  ZC_GROW(tl->nodes, tl->capnodes, (size_t)tl->nnodes + 1);
  uint32_t i = tl->nnodes++;
  struct ana_node *n = &tl->nodes[i];
  memset(n, 0, sizeof *n);
  n->name = name;
  n->url = url;
  n->kind = k;
  n->line = line;
  n->col = col;
  n->parent = parent;
  n->first_us = INT64_MAX;
  if (kind == ANA_FUNC && url != 0) {
    const char *u = ana_str(tl->ctx, url);
    char comp[2048];
    size_t len = ana_component(u, strlen(u), comp, sizeof comp);
    n->component = ana_intern(tl->ctx, comp, len);
  }
  n->key = ana_key(tl->ctx, n->component, n->name);
  zc_htab_add(&b->tab, hv, pos, i);
  return i;
}

uint32_t ana_tl_child(struct ana_timeline *tl, uint32_t parent,
                      enum ana_kind kind, const char *name, const char *url,
                      int32_t line, int32_t col) {
  uint32_t nm = ana_intern_name(tl->ctx, name, strlen(name));
  uint32_t u = url ? ana_intern(tl->ctx, url, strlen(url)) : 0;
  return ana__child(tl, parent, kind, nm, u, line, col);
}

/* Same as ana_tl_child with interned ids; for the trace loader. */
uint32_t ana__tl_child_ids(struct ana_timeline *tl, uint32_t parent,
                           enum ana_kind kind, uint32_t name, uint32_t url,
                           int32_t line, int32_t col) {
  return ana__child(tl, parent, kind, name, url, line, col);
}

void ana_tl_sample(struct ana_timeline *tl, uint32_t node, int64_t ts_us,
                   int64_t dur_us) {
  struct ana_node *n = &tl->nodes[node];
  n->self += dur_us;
  if (ts_us < n->first_us) n->first_us = ts_us;
  tl->samples++;
}

static int ana__byfirst(const void *pa, const void *pb, void *arg) {
  const struct ana_node *nodes = arg;
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  if (nodes[a].first_us != nodes[b].first_us)
    return nodes[a].first_us < nodes[b].first_us ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* qsort_r is a GNU/BSD extension with two signatures; a tiny merge sort of
 * our own keeps the code portable and stable. */
static void ana__sortkids(uint32_t *v, uint32_t n, const struct ana_node *nd,
                          uint32_t *tmp) {
  if (n < 2) return;
  if (n <= 16) {
    for (uint32_t i = 1; i < n; i++) {
      uint32_t x = v[i], j = i;
      while (j > 0 && ana__byfirst(&v[j - 1], &x, (void *)nd) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return;
  }
  uint32_t h = n / 2;
  ana__sortkids(v, h, nd, tmp);
  ana__sortkids(v + h, n - h, nd, tmp);
  uint32_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = ana__byfirst(&v[j], &v[i], (void *)nd) < 0 ? v[j++] : v[i++];
  while (i < h)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

static void ana__sortall(struct ana_timeline *tl) {
  uint32_t *tmp = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *tmp);
  for (uint32_t i = 0; i < tl->nnodes; i++) {
    struct ana_node *n = &tl->nodes[i];
    ana__sortkids(tl->kids + n->kid0, n->nkids, tl->nodes, tmp);
  }
  free(tmp);
}

void ana_tl_finish(struct ana_timeline *tl) {
  struct ana_node *nd = tl->nodes;
  uint32_t nn = tl->nnodes;
  /* Children are always created after their parent, so one reverse pass
   * sums totals and first samples bottom-up. */
  for (uint32_t i = 0; i < nn; i++)
    nd[i].total = nd[i].self;
  for (uint32_t i = nn; i-- > 1;) {
    struct ana_node *p = &nd[nd[i].parent];
    p->total += nd[i].total;
    if (nd[i].first_us < p->first_us) p->first_us = nd[i].first_us;
  }
  /* Children lists: counting sort by parent, then order by first sample. */
  for (uint32_t i = 0; i < nn; i++)
    nd[i].nkids = 0;
  for (uint32_t i = 1; i < nn; i++)
    nd[nd[i].parent].nkids++;
  uint32_t off = 0;
  for (uint32_t i = 0; i < nn; i++) {
    nd[i].kid0 = off;
    off += nd[i].nkids;
    nd[i].nkids = 0;
  }
  free(tl->kids);
  tl->kids = zc_xmalloc(((size_t)nn + 1) * sizeof *tl->kids);
  for (uint32_t i = 1; i < nn; i++) {
    struct ana_node *p = &nd[nd[i].parent];
    tl->kids[p->kid0 + p->nkids++] = i;
  }
  ana__sortall(tl);
  if (tl->build) zc_htab_free(&tl->build->tab);
  free(tl->build);
  tl->build = NULL;
}

int ana_name_pruned(const struct ana_ctx *c, uint32_t name) {
  const char *s = ana_str(c, name);
  if (!strcmp(s, "(anonymous)")) return 1;
  size_t chars = 0; /* one UTF-8 character or none */
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80 && ++chars > 1) return 0;
  return 1;
}

const char *ana_shown_name(const struct ana_ctx *c, uint32_t name, int func) {
  const char *s = ana_str(c, name);
  return func && !*s ? "(anonymous)" : s;
}

void ana_prune(struct ana_timeline *tl, unsigned what) {
  struct ana_node *nd = tl->nodes;
  uint32_t nn = tl->nnodes;
  for (uint32_t i = 1; i < nn; i++) {
    struct ana_node *n = &nd[i];
    if (n->kind == ANA_FUNC && (what & ANA_PRUNE_NAMES))
      n->pruned = (uint8_t)ana_name_pruned(tl->ctx, n->name);
    else if (n->kind != ANA_THREAD && n->kind != ANA_FUNC &&
             (what & ANA_PRUNE_MARKERS))
      n->pruned = 2; /* a marker goes with whatever hangs below it */
  }
  /* New children lists: a pruned child is replaced by its own (effective)
   * children, depth first, with an explicit stack since trees can be deep. */
  uint32_t *kids = zc_xmalloc(((size_t)nn + 1) * sizeof *kids);
  uint32_t *stack = zc_xmalloc(((size_t)nn + 1) * sizeof *stack);
  uint32_t off = 0, pruned = 0;
  for (uint32_t i = 0; i < nn; i++) {
    struct ana_node *n = &nd[i];
    if (n->pruned) {
      pruned++;
      continue;
    }
    uint32_t start = off, sp = 0;
    for (uint32_t k = n->nkids; k-- > 0;)
      stack[sp++] = tl->kids[n->kid0 + k];
    while (sp) {
      uint32_t c = stack[--sp];
      if (nd[c].pruned == 1) {
        for (uint32_t k = nd[c].nkids; k-- > 0;)
          stack[sp++] = tl->kids[nd[c].kid0 + k];
      } else if (!nd[c].pruned) {
        kids[off++] = c;
        nd[c].parent = i;
      }
    }
    n->kid0 = start;
    n->nkids = off - start;
  }
  free(stack);
  /* Removed nodes keep their times (the bottom-up view reads them) but no
   * children: their ranges pointed into the old array. */
  for (uint32_t i = 0; i < nn; i++)
    if (nd[i].pruned) nd[i].kid0 = nd[i].nkids = 0;
  free(tl->kids);
  tl->kids = kids;
  tl->pruned_nodes = pruned;
  ana__sortall(tl);
}

uint32_t ana_tl_reachable(const struct ana_timeline *tl) {
  /* Each node lists its children once, so the reachable count is one plus
   * the children of reachable nodes; walk with an explicit stack. */
  uint32_t *stack = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *stack);
  uint32_t sp = 0, count = 0;
  stack[sp++] = 0;
  while (sp) {
    const struct ana_node *n = &tl->nodes[stack[--sp]];
    count++;
    for (uint32_t k = 0; k < n->nkids; k++)
      stack[sp++] = tl->kids[n->kid0 + k];
  }
  free(stack);
  return count;
}

static const char *ana__kindtag(uint8_t kind) {
  switch (kind) {
  case ANA_THREAD: return " [thread]";
  case ANA_PROGRAM:
  case ANA_GC:
  case ANA_IDLE: return " [non-script]";
  default: return "";
  }
}

static const struct ana_unit_desc units[] = {
    [ANA_UNIT_TIME] = {.name = "time", .shown = "ms", .key = "ms", .per = 1000},
    [ANA_UNIT_BYTES] = {.name = "bytes",
                        .shown = "KB",
                        .key = "kb",
                        .per = 1024},
    [ANA_UNIT_COUNT] = {.name = "count", .shown = "", .key = "count", .per = 1},
};

const struct ana_unit_desc *ana_unit_desc(unsigned unit) {
  return &units[unit < sizeof units / sizeof *units ? unit : ANA_UNIT_TIME];
}

void ana_tl_print(const struct ana_timeline *tl, double min_ms, FILE *f) {
  const struct ana_unit_desc *u = ana_unit_desc(tl->unit);
  struct item {
    uint32_t node, depth;
  };
  struct item *stack = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *stack);
  uint32_t sp = 0;
  const struct ana_node *root = &tl->nodes[0];
  zc_term_put(f, tl->source, SIZE_MAX);
  fprintf(f, "  %.1f %s in %u threads\n", (double)root->total / u->per,
          u->shown, root->nkids);
  for (uint32_t k = root->nkids; k-- > 0;)
    stack[sp++] = (struct item){tl->kids[root->kid0 + k], 1};
  while (sp) {
    struct item it = stack[--sp];
    const struct ana_node *n = &tl->nodes[it.node];
    if ((double)n->total / u->per < min_ms && n->kind != ANA_THREAD) continue;
    /* Past 40 levels the indent stops growing and the depth is shown. */
    if (it.depth > 40)
      fprintf(f, "%80s[%u] ", "", it.depth);
    else
      fprintf(f, "%*s", (int)(2 * it.depth), "");
    /* names and URLs from the page, shown escaped on the terminal */
    zc_term_put(f, ana_shown_name(tl->ctx, n->name, n->kind == ANA_FUNC),
                SIZE_MAX);
    fprintf(f, "  %.1f %s (self %.1f)", (double)n->total / u->per, u->shown,
            (double)n->self / u->per);
    if (n->component) {
      fputs("  ", f);
      zc_term_put(f, ana_str(tl->ctx, n->component), SIZE_MAX);
      fprintf(f, ":%d", n->line + 1);
    }
    fprintf(f, "%s\n", ana__kindtag(n->kind));
    for (uint32_t k = n->nkids; k-- > 0;)
      stack[sp++] = (struct item){tl->kids[n->kid0 + k], it.depth + 1};
  }
  free(stack);
}
