/* Searching a flow's inputs for the one that exposes a regression (seed
 * 003's first half), as candidates asked for and told their fitness one
 * at a time: the command that measures them (cmd-explore.c) decides what
 * a fitness is and when to stop. Three strategies (scn.h): a pairwise
 * covering design then an evolution (cover, the default), PERFImpACT's
 * genetic algorithm (ga), and random draws (random). Everything is drawn
 * from one seeded generator: the same seed, parameters and fitnesses make
 * the same candidates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"

enum {
  LEVELS = 4,        /* a range's or a string's levels in the design */
  MAX_CHOICE_LV = 6, /* a choice's levels in the design, at most */
  TOURNAMENT = 3,
  GA_POP = 30,
  TRIES = 64, /* draws before a fresh candidate is given up on */
};
#define GA_CROSSOVER 0.3
#define GA_MUTATION  0.1

/* A candidate: per parameter, a choice's index or an integer (i), or a
 * string (s); its values as text; its fitness once told. */
struct gene {
  long long i;
  char *s;
};
struct cand {
  struct gene *g;
  char **v;
  uint64_t hash;
  double fit;
  int told;
};

struct scn_search {
  const struct scn_param *p;
  size_t n;
  enum scn_strategy kind;
  uint64_t rng;
  unsigned expect;
  struct cand *c;
  size_t nc, cap;
  struct zc_htab seen; /* hash of the values -> candidate */
  double space;        /* how many combinations there are (may be inf) */
  /* cover: the design's rows still to give, each a level per parameter */
  struct gene **design;
  size_t ndesign, next_design;
  /* ga: the population (candidate indices) and the offspring queued */
  size_t *pop, npop;
  size_t *queue, nqueue, qnext;
  size_t *offspring, noff;
  int gen_started;
};

static const char *const names[] = {"cover", "ga", "random"};

const char *scn_strategy_name(enum scn_strategy k) {
  return (size_t)k < ZC_ARRAY_LEN(names) ? names[k] : "?";
}

int scn_strategy_parse(const char *s, enum scn_strategy *out) {
  for (size_t k = 0; k < ZC_ARRAY_LEN(names); k++)
    if (!strcmp(s, names[k])) {
      *out = (enum scn_strategy)k;
      return 1;
    }
  return 0;
}

/* ---- the generator: SplitMix64 ---- */

static uint64_t next64(struct scn_search *s) {
  uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double unif(struct scn_search *s) { /* [0, 1) */
  return (double)(next64(s) >> 11) * 0x1.0p-53;
}

static size_t below(struct scn_search *s, size_t n) { /* [0, n) */
  return n ? (size_t)(unif(s) * (double)n) % n : 0;
}

static double gauss(struct scn_search *s) {
  double u = unif(s), v = unif(s);
  return sqrt(-2 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

/* ---- values: a range's position t in [0, 1] (its log for a log scale),
 * strings of the alphabet ---- */

static long long int_at(const struct scn_param *p, double t) {
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  double x;
  if (p->log)
    x = exp(log((double)p->lo) +
            t * (log((double)p->hi + 1) - log((double)p->lo)));
  else
    x = (double)p->lo + t * ((double)p->hi - (double)p->lo + 1);
  long long v = (long long)floor(x);
  return v < p->lo ? p->lo : v > p->hi ? p->hi : v;
}

static double int_t(const struct scn_param *p, long long v) {
  if (p->hi == p->lo) return 0;
  if (p->log)
    return (log((double)v + 0.5) - log((double)p->lo)) /
           (log((double)p->hi + 1) - log((double)p->lo));
  return ((double)v - (double)p->lo + 0.5) /
         ((double)p->hi - (double)p->lo + 1);
}

/* A string of len characters of the alphabet; with all set and room
 * enough, every character of it at least once, in a random order. */
static char *make_string(struct scn_search *s, const struct scn_param *p,
                         unsigned len, int all) {
  size_t *pick = zc_xcalloc(len + 1, sizeof *pick), bytes = 1;
  for (unsigned i = 0; i < len; i++)
    pick[i] =
        all && len >= p->nalpha && i < p->nalpha ? i : below(s, p->nalpha);
  for (unsigned i = len; i > 1; i--) { /* Fisher-Yates */
    size_t j = below(s, i), t = pick[i - 1];
    pick[i - 1] = pick[j];
    pick[j] = t;
  }
  for (unsigned i = 0; i < len; i++)
    bytes += strlen(p->alpha[pick[i]]);
  char *out = zc_xmalloc(bytes), *w = out;
  for (unsigned i = 0; i < len; i++) {
    size_t l = strlen(p->alpha[pick[i]]);
    memcpy(w, p->alpha[pick[i]], l);
    w += l;
  }
  *w = '\0';
  free(pick);
  return out;
}

static unsigned str_chars(const char *v) {
  unsigned c = 0;
  for (; *v; v++)
    c += ((unsigned char)*v & 0xc0) != 0x80;
  return c;
}

/* The byte offset of character k of v. */
static size_t char_at(const char *v, unsigned k) {
  size_t b = 0;
  for (unsigned c = 0; v[b]; b++)
    if (((unsigned char)v[b] & 0xc0) != 0x80 && c++ == k) return b;
  return b;
}

static void gene_random(struct scn_search *s, const struct scn_param *p,
                        struct gene *g) {
  switch (p->kind) {
  case SCN_PARAM_CHOICE: g->i = (long long)below(s, p->nchoice); break;
  case SCN_PARAM_INT: g->i = int_at(p, unif(s)); break;
  case SCN_PARAM_STRING:
    g->s = make_string(
        s, p, p->minlen + (unsigned)below(s, p->maxlen - p->minlen + 1), 0);
    break;
  }
}

static void gene_copy(const struct scn_param *p, struct gene *d,
                      const struct gene *g) {
  d->i = g->i;
  d->s = p->kind == SCN_PARAM_STRING ? zc_xstrdup(g->s) : NULL;
}

static void genes_free(struct gene *g, size_t n) {
  for (size_t k = 0; g && k < n; k++)
    free(g[k].s);
  free(g);
}

/* A string one edit away: a character replaced, inserted or taken out,
 * or a string drawn afresh. */
static void mutate_string(struct scn_search *s, const struct scn_param *p,
                          struct gene *g) {
  unsigned len = str_chars(g->s);
  size_t op = below(s, 4);
  if ((op == 1 && len >= p->maxlen) || (op == 2 && len <= p->minlen) ||
      (op == 0 && !len))
    op = 3;
  if (op == 3) {
    free(g->s);
    gene_random(s, p, g);
    return;
  }
  unsigned at = (unsigned)below(s, op == 1 ? len + 1 : len);
  size_t b = char_at(g->s, at), e = op == 1 ? b : char_at(g->s, at + 1);
  const char *ins = op == 2 ? "" : p->alpha[below(s, p->nalpha)];
  size_t n = strlen(g->s), il = strlen(ins);
  char *r = zc_xmalloc(n - (e - b) + il + 1);
  memcpy(r, g->s, b);
  memcpy(r + b, ins, il);
  memcpy(r + b + il, g->s + e, n - e + 1);
  free(g->s);
  g->s = r;
}

/* A small change of one gene: another choice; a step in the range's own
 * scale (a sixth of it, on average); a string edit. */
static void mutate(struct scn_search *s, const struct scn_param *p,
                   struct gene *g) {
  switch (p->kind) {
  case SCN_PARAM_CHOICE:
    if (p->nchoice > 1)
      g->i = (g->i + 1 + (long long)below(s, p->nchoice - 1)) %
             (long long)p->nchoice;
    break;
  case SCN_PARAM_INT: {
    long long was = g->i;
    g->i = int_at(p, int_t(p, g->i) + gauss(s) / 6);
    if (g->i == was && p->hi > p->lo)
      g->i = was < p->hi && (was == p->lo || below(s, 2)) ? was + 1 : was - 1;
    break;
  }
  case SCN_PARAM_STRING: mutate_string(s, p, g); break;
  }
}

/* ---- candidates ---- */

static char *gene_text(const struct scn_param *p, const struct gene *g) {
  char num[32];
  if (p->kind == SCN_PARAM_CHOICE) return zc_xstrdup(p->choice[g->i]);
  if (p->kind == SCN_PARAM_STRING) return zc_xstrdup(g->s);
  snprintf(num, sizeof num, "%lld", g->i);
  return zc_xstrdup(num);
}

static uint64_t genes_hash(const struct scn_search *s, const struct gene *g) {
  uint64_t h = 0x5a17;
  for (size_t k = 0; k < s->n; k++) {
    if (s->p[k].kind == SCN_PARAM_STRING)
      h = zc_hash(g[k].s, strlen(g[k].s) + 1, h);
    else
      h = zc_hash(&g[k].i, sizeof g[k].i, h);
  }
  return zc_mix64(h);
}

static int genes_equal(const struct scn_search *s, const struct gene *a,
                       const struct gene *b) {
  for (size_t k = 0; k < s->n; k++)
    if (s->p[k].kind == SCN_PARAM_STRING ? strcmp(a[k].s, b[k].s)
                                         : a[k].i != b[k].i)
      return 0;
  return 1;
}

/* The candidate with these genes, or -1. */
static long find(const struct scn_search *s, const struct gene *g, uint64_t h,
                 size_t *pos) {
  uint32_t i;
  *pos = ZC_HTAB_START;
  while (zc_htab_next(&s->seen, h, pos, &i))
    if (genes_equal(s, s->c[i].g, g)) return i;
  return -1;
}

/* Adds g (taken) as a new candidate; -1 (g freed) when it was tried. */
static long add(struct scn_search *s, struct gene *g) {
  uint64_t h = genes_hash(s, g);
  size_t pos;
  if (find(s, g, h, &pos) >= 0) {
    genes_free(g, s->n);
    return -1;
  }
  ZC_GROW(s->c, s->cap, s->nc + 1);
  struct cand *c = &s->c[s->nc];
  memset(c, 0, sizeof *c);
  c->g = g;
  c->hash = h;
  c->fit = NAN;
  c->v = zc_xcalloc(s->n + 1, sizeof *c->v);
  for (size_t k = 0; k < s->n; k++)
    c->v[k] = gene_text(&s->p[k], &g[k]);
  zc_htab_add(&s->seen, h, pos, (uint32_t)s->nc);
  return (long)s->nc++;
}

static struct gene *random_genes(struct scn_search *s) {
  struct gene *g = zc_xcalloc(s->n + 1, sizeof *g);
  for (size_t k = 0; k < s->n; k++)
    gene_random(s, &s->p[k], &g[k]);
  return g;
}

static long add_random(struct scn_search *s) {
  if ((double)s->nc >= s->space) return -1; /* every combination tried */
  for (int t = 0; t < TRIES; t++) {
    long id = add(s, random_genes(s));
    if (id >= 0) return id;
  }
  return -1;
}

/* How many combinations the parameters make (HUGE_VAL past 1e15). */
static double space_size(const struct scn_param *p, size_t n) {
  double total = 1;
  for (size_t k = 0; k < n && total < 1e15; k++) {
    double m = 0;
    if (p[k].kind == SCN_PARAM_CHOICE) m = (double)p[k].nchoice;
    if (p[k].kind == SCN_PARAM_INT) m = (double)p[k].hi - (double)p[k].lo + 1;
    if (p[k].kind == SCN_PARAM_STRING)
      for (unsigned l = p[k].minlen; l <= p[k].maxlen && m < 1e15; l++)
        m += pow((double)p[k].nalpha, l);
    total *= m;
  }
  return total < 1e15 ? total : HUGE_VAL;
}

/* ---- cover: a pairwise covering design over a few levels ---- */

/* A parameter's levels in the design, the likeliest to expose a
 * regression first: its rank is its index, but for a choice's, which
 * are all alike (0). */
struct levels {
  struct gene lv[MAX_CHOICE_LV];
  size_t n;
  int ranked;
};

static void add_level(const struct scn_param *p, struct levels *l,
                      struct gene g) {
  for (size_t k = 0; k < l->n; k++)
    if (p->kind == SCN_PARAM_STRING ? !strcmp(l->lv[k].s, g.s)
                                    : l->lv[k].i == g.i) {
      free(g.s);
      return;
    }
  l->lv[l->n++] = g;
}

/* A range's ends and a point in each half between; a string's longest
 * (holding every character of the alphabet when it can), shortest and
 * lengths between; every choice, or six of them. A regression that grows
 * with an input's size shows at its top end first ("slow only past 1 000
 * rows"): the top end is a range's first level, the longest a string's;
 * then the upper point, the lower, the low end. */
static void make_levels(struct scn_search *s, const struct scn_param *p,
                        struct levels *l) {
  l->n = 0;
  l->ranked = p->kind != SCN_PARAM_CHOICE;
  if (p->kind == SCN_PARAM_CHOICE) {
    size_t *ix = zc_xcalloc(p->nchoice, sizeof *ix);
    for (size_t k = 0; k < p->nchoice; k++)
      ix[k] = k;
    for (size_t k = 0; k < p->nchoice && k < MAX_CHOICE_LV; k++) {
      size_t j = k + below(s, p->nchoice - k), t = ix[k];
      ix[k] = ix[j];
      ix[j] = t;
      add_level(p, l, (struct gene){.i = (long long)ix[k]});
    }
    free(ix);
  } else if (p->kind == SCN_PARAM_INT) {
    double t[LEVELS] = {1, 0.5 + 0.35 * unif(s), 0.15 + 0.35 * unif(s), 0};
    for (int k = 0; k < LEVELS; k++)
      add_level(p, l, (struct gene){.i = int_at(p, t[k])});
  } else {
    unsigned span = p->maxlen - p->minlen;
    unsigned len[LEVELS] = {
        p->maxlen, p->minlen + (unsigned)(span * (0.5 + 0.35 * unif(s))),
        p->minlen + (unsigned)(span * (0.15 + 0.35 * unif(s))), p->minlen};
    for (int k = 0; k < LEVELS; k++)
      add_level(p, l, (struct gene){.s = make_string(s, p, len[k], k == 0)});
  }
}

/* The design's coverage: for each two parameters i < j, which pairs of
 * their levels some row holds. */
struct cover {
  const struct levels *lv;
  size_t n;
  uint8_t **got; /* i * n + j: lv[i].n * lv[j].n flags */
  size_t left;
};

static uint8_t *got_of(const struct cover *c, size_t i, size_t j) {
  return c->got[i * c->n + j];
}

/* A pair's weight in the design: a quarter less for each step its two
 * levels are from their parameters' first (the likeliest to expose). */
static double weight(const struct cover *c, size_t i, size_t a, size_t j,
                     size_t b) {
  size_t rk = (c->lv[i].ranked ? a : 0) + (c->lv[j].ranked ? b : 0);
  return pow(0.25, (double)rk);
}

/* The weight of the pairs a row (levels r, SIZE_MAX unset) would newly
 * cover with parameter k at level a. */
static double gain(const struct cover *c, const size_t *r, size_t k, size_t a) {
  double g = 0;
  for (size_t j = 0; j < c->n; j++) {
    if (j == k || r[j] == SIZE_MAX) continue;
    size_t i0 = k < j ? k : j, j0 = k < j ? j : k;
    size_t li = k < j ? a : r[j], lj = k < j ? r[j] : a;
    if (!got_of(c, i0, j0)[li * c->lv[j0].n + lj])
      g += weight(c, i0, li, j0, lj);
  }
  return g;
}

/* One row: the heaviest pair not covered yet (one of the ties at
 * random), then each other parameter at the level whose new pairs weigh
 * most; returns what the row's new pairs weigh. */
static double draft_row(struct scn_search *s, const struct cover *c,
                        size_t *r) {
  for (size_t k = 0; k < c->n; k++)
    r[k] = SIZE_MAX;
  size_t i0 = 0, j0 = 0, a0 = 0, b0 = 0, ties = 0;
  double top = 0;
  for (size_t i = 0; i < c->n; i++)
    for (size_t j = i + 1; j < c->n; j++)
      for (size_t q = 0; q < c->lv[i].n * c->lv[j].n; q++) {
        size_t a = q / c->lv[j].n, b = q % c->lv[j].n;
        double w = weight(c, i, a, j, b);
        if (got_of(c, i, j)[q] || w < top) continue;
        ties = w > top ? 1 : ties + 1;
        top = w;
        if (below(s, ties) == 0) i0 = i, j0 = j, a0 = a, b0 = b;
      }
  if (ties) r[i0] = a0, r[j0] = b0;
  double total = top;
  for (size_t t = 0, k0 = below(s, c->n); t < c->n; t++) {
    size_t k = (k0 + t) % c->n, best = 0;
    double bg = 0;
    if (r[k] != SIZE_MAX) continue;
    for (size_t a = 0, nt = 0; a < c->lv[k].n; a++) {
      double g = gain(c, r, k, a);
      if (a == 0 || g > bg)
        best = a, bg = g, nt = 1;
      else if (g == bg && below(s, ++nt) == 0)
        best = a;
    }
    r[k] = best;
    total += bg;
  }
  return total;
}

static void cover_mark(struct cover *c, const size_t *r) {
  for (size_t i = 0; i < c->n; i++)
    for (size_t j = i + 1; j < c->n; j++) {
      uint8_t *f = &got_of(c, i, j)[r[i] * c->lv[j].n + r[j]];
      c->left -= !*f;
      *f = 1;
    }
}

/* The rows of a greedy pairwise covering design (AETG's way: of a few
 * drafts, the one whose new pairs weigh most), at most cap; one row a
 * level with a single parameter. */
static void make_design(struct scn_search *s, const struct levels *lv,
                        size_t cap) {
  struct cover c = {.lv = lv, .n = s->n};
  c.got = zc_xcalloc(s->n * s->n + 1, sizeof *c.got);
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++) {
      c.got[i * s->n + j] = zc_xcalloc(lv[i].n * lv[j].n, 1);
      c.left += lv[i].n * lv[j].n;
    }
  size_t *r = zc_xcalloc(s->n, sizeof *r), *best = zc_xcalloc(s->n, sizeof *r);
  size_t rows = s->n == 1 ? lv[0].n : 0;
  for (size_t k = 0; s->n == 1 && k < rows && k < cap; k++) {
    s->design = zc_xreallocarray(s->design, k + 1, sizeof *s->design);
    s->design[k] = zc_xcalloc(2, sizeof **s->design);
    gene_copy(&s->p[0], &s->design[k][0], &lv[0].lv[k]);
    s->ndesign = k + 1;
  }
  while (s->n > 1 && c.left && s->ndesign < cap) {
    double bg = 0;
    for (int t = 0; t < 24; t++) {
      double g = draft_row(s, &c, r);
      if (t == 0 || g > bg) bg = g, memcpy(best, r, s->n * sizeof *r);
    }
    cover_mark(&c, best);
    struct gene *g = zc_xcalloc(s->n + 1, sizeof *g);
    for (size_t k = 0; k < s->n; k++)
      gene_copy(&s->p[k], &g[k], &lv[k].lv[best[k]]);
    s->design = zc_xreallocarray(s->design, s->ndesign + 1, sizeof *s->design);
    s->design[s->ndesign++] = g;
  }
  for (size_t i = 0; i < s->n * s->n; i++)
    free(c.got[i]);
  free(c.got);
  free(r);
  free(best);
}

static void cover_start(struct scn_search *s) {
  struct levels *lv = zc_xcalloc(s->n + 1, sizeof *lv);
  for (size_t k = 0; k < s->n; k++)
    make_levels(s, &s->p[k], &lv[k]);
  size_t cap = s->expect ? (s->expect + 1) / 2 : SIZE_MAX;
  make_design(s, lv, cap ? cap : 1);
  for (size_t k = 0; k < s->n; k++)
    for (size_t q = 0; q < lv[k].n; q++)
      free(lv[k].lv[q].s);
  free(lv);
}

/* ---- cover, after the design: the fittest evolved ---- */

/* The fittest of a few candidates measured, drawn at random; -1 none. */
static long tournament(struct scn_search *s) {
  long best = -1;
  size_t ok = 0;
  for (size_t i = 0; i < s->nc; i++)
    ok += s->c[i].told && !isnan(s->c[i].fit);
  if (!ok) return -1;
  for (int t = 0; t < TOURNAMENT; t++) {
    size_t k = below(s, ok), i = 0;
    for (;; i++)
      if (s->c[i].told && !isnan(s->c[i].fit) && k-- == 0) break;
    if (best < 0 || s->c[i].fit > s->c[best].fit) best = (long)i;
  }
  return best;
}

/* How far apart two candidates are, each parameter counting at most 1:
 * another choice 1; a range's positions' difference; a string's lengths'
 * difference over its span, and a quarter for other characters. */
static double distance(const struct scn_search *s, const struct gene *a,
                       const struct gene *b) {
  double d = 0;
  for (size_t k = 0; k < s->n; k++) {
    const struct scn_param *p = &s->p[k];
    if (p->kind == SCN_PARAM_CHOICE) d += a[k].i != b[k].i;
    if (p->kind == SCN_PARAM_INT)
      d += fabs(int_t(p, a[k].i) - int_t(p, b[k].i));
    if (p->kind == SCN_PARAM_STRING)
      d += fabs((double)str_chars(a[k].s) - (double)str_chars(b[k].s)) /
               (p->maxlen - p->minlen + 1) +
           0.25 * (strcmp(a[k].s, b[k].s) != 0);
  }
  return d;
}

/* Exploring: of a few random candidates, the one farthest from every
 * candidate tried (maximin), so that draws spread where none was. */
static long explore(struct scn_search *s) {
  struct gene *best = NULL;
  double bd = -1;
  for (int t = 0; t < 8; t++) {
    struct gene *g = random_genes(s);
    double d = HUGE_VAL;
    for (size_t i = 0; i < s->nc && d > 0; i++) {
      double x = distance(s, g, s->c[i].g);
      if (x < d) d = x;
    }
    if (d > bd) {
      genes_free(best, s->n);
      best = g, bd = d;
    } else {
      genes_free(g, s->n);
    }
  }
  long id = add(s, best);
  return id >= 0 ? id : add_random(s);
}

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Whether the fittest stands out of the noise: above the median by six
 * times the fitnesses' robust spread (the median absolute deviation as a
 * standard deviation). Until one does, the fittest is noise, and
 * following it is no better than a random walk. */
static int stands_out(const struct scn_search *s) {
  double *f = zc_xcalloc(s->nc + 1, sizeof *f), *dev;
  size_t n = 0;
  for (size_t i = 0; i < s->nc; i++)
    if (s->c[i].told && !isnan(s->c[i].fit)) f[n++] = s->c[i].fit;
  if (n < 4) {
    free(f);
    return 0;
  }
  qsort(f, n, sizeof *f, by_double);
  double med = f[n / 2], top = f[n - 1];
  dev = zc_xcalloc(n, sizeof *dev);
  for (size_t i = 0; i < n; i++)
    dev[i] = fabs(f[i] - med);
  qsort(dev, n, sizeof *dev, by_double);
  double mad = 1.4826 * dev[n / 2];
  free(f);
  free(dev);
  return top > med + 6 * mad && top > med;
}

/* The fittest evolved once they stand out of the noise (a quarter of the
 * time still exploring, for a second regression elsewhere); until then,
 * exploring. */
static long evolve(struct scn_search *s) {
  if (!stands_out(s) || unif(s) < 0.25) return explore(s);
  for (int t = 0; t < TRIES && (double)s->nc < s->space; t++) {
    long p1 = tournament(s), p2 = tournament(s);
    if (p1 < 0) break;
    struct gene *g = zc_xcalloc(s->n + 1, sizeof *g);
    int cross = p2 >= 0 && p2 != p1 && unif(s) < 0.5, changed = 0;
    for (size_t k = 0; k < s->n; k++)
      gene_copy(&s->p[k], &g[k], &s->c[cross && below(s, 2) ? p2 : p1].g[k]);
    for (size_t k = 0; k < s->n; k++)
      if (unif(s) < 1.0 / (double)s->n) mutate(s, &s->p[k], &g[k]), changed = 1;
    if (!changed && !cross) {
      size_t k = below(s, s->n);
      mutate(s, &s->p[k], &g[k]);
    }
    long id = add(s, g);
    if (id >= 0) return id;
  }
  return add_random(s);
}

static long cover_next(struct scn_search *s) {
  if (!s->gen_started) {
    s->gen_started = 1;
    cover_start(s);
  }
  while (s->next_design < s->ndesign) {
    struct gene *row = s->design[s->next_design];
    s->design[s->next_design++] = NULL;
    long id = add(s, row);
    if (id >= 0) return id;
  }
  return evolve(s);
}

/* ---- ga: PERFImpACT's genetic algorithm (seed 003, Alg. 1) ---- */

static int by_fit(const void *a, const void *b, void *arg) {
  const struct scn_search *s = arg;
  double x = s->c[*(const size_t *)a].fit, y = s->c[*(const size_t *)b].fit;
  if (x != y) return x > y ? -1 : 1;
  return (*(const size_t *)a > *(const size_t *)b) -
         (*(const size_t *)a < *(const size_t *)b);
}

/* Insertion sort by fitness, largest first (qsort has no argument). */
static void sort_fit(struct scn_search *s, size_t *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && by_fit(&v[j], &v[j - 1], s) < 0; j--) {
      size_t t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}

/* selectPopulation: the fittest GA_POP of the population and the
 * offspring measured (a failed one is never kept). */
static void ga_select(struct scn_search *s) {
  size_t *pool = zc_xcalloc(s->npop + s->noff + 1, sizeof *pool), n = 0;
  for (size_t i = 0; i < s->npop; i++)
    pool[n++] = s->pop[i];
  for (size_t i = 0; i < s->noff; i++)
    if (s->c[s->offspring[i]].told && !isnan(s->c[s->offspring[i]].fit))
      pool[n++] = s->offspring[i];
  sort_fit(s, pool, n);
  s->npop = n < GA_POP ? n : GA_POP;
  memcpy(s->pop, pool, s->npop * sizeof *pool);
  free(pool);
  s->noff = 0;
}

/* crossover(I, 0.3) and mutation(I, 0.1, I_all) on the population:
 * pairs cut at one point and their tails swapped, each gene then drawn
 * afresh with probability 0.1; the offspring not tried before are
 * queued. */
static void ga_breed(struct scn_search *s) {
  size_t n = s->npop;
  size_t *ord = zc_xcalloc(n + 1, sizeof *ord);
  for (size_t i = 0; i < n; i++)
    ord[i] = s->pop[i];
  for (size_t i = n; i > 1; i--) {
    size_t j = below(s, i), t = ord[i - 1];
    ord[i - 1] = ord[j];
    ord[j] = t;
  }
  for (size_t i = 0; i < n; i += 2) {
    struct gene *kid[2];
    size_t b = i + 1 < n ? i + 1 : i;
    size_t cut =
        s->n > 1 && unif(s) < GA_CROSSOVER ? 1 + below(s, s->n - 1) : s->n;
    for (int h = 0; h < 2; h++) {
      kid[h] = zc_xcalloc(s->n + 1, sizeof *kid[h]);
      for (size_t k = 0; k < s->n; k++)
        gene_copy(&s->p[k], &kid[h][k],
                  &s->c[ord[(k < cut) == (h == 0) ? i : b]].g[k]);
      for (size_t k = 0; k < s->n; k++)
        if (unif(s) < GA_MUTATION) {
          free(kid[h][k].s);
          kid[h][k].s = NULL;
          gene_random(s, &s->p[k], &kid[h][k]);
        }
      long id = add(s, kid[h]);
      if (id < 0) continue;
      s->queue[s->nqueue++] = (size_t)id;
      s->offspring[s->noff++] = (size_t)id;
    }
  }
  free(ord);
}

static long ga_next(struct scn_search *s) {
  if (s->qnext < s->nqueue) return (long)s->queue[s->qnext++];
  s->qnext = s->nqueue = 0;
  if (!s->gen_started) { /* the first population: random individuals */
    s->gen_started = 1;
    for (int i = 0; i < GA_POP; i++) {
      long id = add_random(s);
      if (id < 0) break;
      s->queue[s->nqueue++] = (size_t)id;
      s->offspring[s->noff++] = (size_t)id;
    }
  } else {
    for (int t = 0; t < TRIES && !s->nqueue; t++) {
      ga_select(s);
      if (!s->npop) break;
      ga_breed(s);
    }
  }
  if (s->qnext < s->nqueue) return (long)s->queue[s->qnext++];
  /* nothing new bred: an immigrant */
  long id = add_random(s);
  if (id >= 0) s->offspring[s->noff++] = (size_t)id;
  return id;
}

/* ---- the search ---- */

struct scn_search *scn_search_new(const struct scn_param *p, size_t n,
                                  enum scn_strategy k, uint64_t seed,
                                  unsigned expect) {
  struct scn_search *s = zc_xcalloc(1, sizeof *s);
  s->p = p;
  s->n = n;
  s->kind = k;
  s->rng = seed ^ 0x243f6a8885a308d3ULL;
  s->expect = expect;
  s->space = space_size(p, n);
  zc_htab_init(&s->seen, 64);
  s->pop = zc_xcalloc(GA_POP * 2 + 2, sizeof *s->pop);
  s->queue = zc_xcalloc(GA_POP * 2 + 2, sizeof *s->queue);
  s->offspring = zc_xcalloc(GA_POP * 2 + 2, sizeof *s->offspring);
  return s;
}

void scn_search_free(struct scn_search *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nc; i++) {
    genes_free(s->c[i].g, s->n);
    for (size_t k = 0; k < s->n; k++)
      free(s->c[i].v[k]);
    free(s->c[i].v);
  }
  free(s->c);
  for (size_t i = 0; i < s->ndesign; i++)
    genes_free(s->design[i], s->n);
  free(s->design);
  zc_htab_free(&s->seen);
  free(s->pop);
  free(s->queue);
  free(s->offspring);
  free(s);
}

long scn_search_next(struct scn_search *s, const char *const **values) {
  *values = NULL;
  long id = s->kind == SCN_SEARCH_COVER ? cover_next(s)
            : s->kind == SCN_SEARCH_GA  ? ga_next(s)
                                        : add_random(s);
  if (id >= 0) *values = (const char *const *)s->c[id].v;
  return id;
}

void scn_search_tell(struct scn_search *s, long id, double fitness) {
  if (id < 0 || (size_t)id >= s->nc) return;
  s->c[id].fit = fitness;
  s->c[id].told = 1;
}
