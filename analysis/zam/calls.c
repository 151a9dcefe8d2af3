/* Call counts (zam.h, "call counts"): V8's exact count of every
 * function's calls, taken in count pairs of their own (agent/capture's
 * calls.c writes zamcap-calls/1), laid onto the comparison's functions.
 *
 * A count file knows a function by its script, its range and its name;
 * the timelines know it by the line and column the CPU profile gives (the
 * generated ones, before a source map renamed it) and by its key. The
 * timed pairs teach the comparison which key stands at which generated
 * place (ana__calls_learn); a count file's function then counts for the
 * key of each place its range holds innermost, under the same name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "timeline.h"
#include "zam/zam.h"

/* A function's place in the timelines, as the CPU profile gives it. */
struct cplace {
  uint32_t url, name, key;
  int32_t line, col;
};

/* A function of a count file. */
struct cfn {
  int32_t line, col, end_line, end_col;
  const char *name;
  double calls;
  uint32_t hash;
};

enum { CKEY_TEXTS = 6 };

/* What the count pairs say of one key. */
struct ckey {
  uint32_t key;
  double calls[2]; /* summed over the count pairs */
  /* The texts' hashes seen on each side, distinct: more than one where
   * a file has several functions of the name (the key is name and file).
   * Past CKEY_TEXTS of them, no telling what changed. */
  uint32_t hash[2][CKEY_TEXTS];
  uint8_t nhash[2];
  uint8_t seen[2]; /* ran in some count run on that side */
  uint8_t over;
  /* The texts of its functions that were there but never called, per
   * side (count files since they list them): whether code one build calls
   * was in the other build, uncalled. */
  uint32_t idle[2][CKEY_TEXTS];
  uint8_t nidle[2], idle_over[2];
  /* In the new build, the nearest function around its own (of another
   * key), when all of its functions have the same: V8 lists no function
   * inside one it never compiled, so a function the old build never
   * listed is the old build's code when the text around it is. */
  uint32_t outer;
  uint8_t outer_set, outer_mixed;
};

struct ana__calls {
  struct cplace *place[2];
  size_t nplace[2], capplace[2];
  struct zc_htab ptab[2]; /* (url, line, col) -> place */
  int sorted[2];
  struct ckey *k;
  size_t nk, capk;
  struct zc_htab ktab; /* key -> ckey */
  unsigned pairs;
  uint32_t *urls; /* the scripts the count files hold, either side */
  size_t nurls, capurls;
  /* Each script's text hash per side, by file (ana_component: the two
   * builds are served from two origins); a file loaded twice over with
   * two texts on a side has none there. */
  struct cscript {
    uint32_t comp;
    uint32_t hash[2];
    uint8_t seen[2], mixed[2];
  } * scr;
  size_t nscr, capscr;
  /* The keys placed only in scripts no count file holds, sorted, and
   * what they were made from (remade when places or scripts grow). */
  uint32_t *ukeys;
  size_t nukeys, made_from[3];
  /* Each new timeline's functions by key, with the first sample of each
   * (the earliest of its nodes): which of two ran first. */
  struct crun {
    struct cfirst {
      uint32_t key;
      int64_t us;
    } * f;
    size_t n;
  } * run;
  size_t nruns, capruns;
};

void ana__calls_free(struct ana__calls *k) {
  if (!k) return;
  for (int s = 0; s < 2; s++) {
    free(k->place[s]);
    zc_htab_free(&k->ptab[s]);
  }
  free(k->k);
  free(k->urls);
  free(k->scr);
  free(k->ukeys);
  zc_htab_free(&k->ktab);
  for (size_t r = 0; r < k->nruns; r++)
    free(k->run[r].f);
  free(k->run);
  free(k);
}

static struct ana__calls *calls_of(struct ana_cmp *c) {
  if (!c->calls) {
    c->calls = zc_xcalloc(1, sizeof *c->calls);
    for (int s = 0; s < 2; s++)
      zc_htab_init(&c->calls->ptab[s], 256);
    zc_htab_init(&c->calls->ktab, 256);
  }
  return c->calls;
}

static uint64_t place_hash(uint32_t url, int32_t line, int32_t col) {
  return zc_mix64((uint64_t)url << 40 ^ (uint64_t)(uint32_t)line << 20 ^
                  (uint64_t)(uint32_t)col);
}

static int first_cmp(const void *a, const void *b) {
  const struct cfirst *x = a, *y = b;
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->us > y->us) - (x->us < y->us);
}

/* Keeps when each function of new timeline tl was first sampled. */
static void learn_first(struct ana__calls *k, const struct ana_timeline *tl) {
  struct cfirst *f = zc_xcalloc(tl->nnodes + 1, sizeof *f);
  size_t n = 0;
  for (uint32_t i = 1; i < tl->nnodes; i++)
    if (tl->nodes[i].kind == ANA_FUNC && tl->nodes[i].first_us != INT64_MAX)
      f[n++] = (struct cfirst){tl->nodes[i].key, tl->nodes[i].first_us};
  qsort(f, n, sizeof *f, first_cmp);
  size_t m = 0; /* the earliest of each key, which sorts first */
  for (size_t i = 0; i < n; i++)
    if (!m || f[m - 1].key != f[i].key) f[m++] = f[i];
  ZC_GROW(k->run, k->capruns, k->nruns + 1);
  k->run[k->nruns++] = (struct crun){f, m};
}

static int64_t first_of(const struct cfirst *f, size_t n, uint32_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && f[lo].key == key ? f[lo].us : INT64_MAX;
}

/* Whether function a ran before function b in most new timelines that
 * sampled both: work that comes after b cannot be what b is given. */
static int ran_before(const struct ana_cmp *c, uint32_t a, uint32_t b) {
  const struct ana__calls *k = c->calls;
  unsigned before = 0, both = 0;
  for (size_t r = 0; k && r < k->nruns; r++) {
    int64_t ta = first_of(k->run[r].f, k->run[r].n, a),
            tb = first_of(k->run[r].f, k->run[r].n, b);
    if (ta == INT64_MAX || tb == INT64_MAX) continue;
    both++;
    before += ta < tb;
  }
  return both && 2 * before > both;
}

static void make_uncounted(struct ana__calls *k);

void ana__calls_learn(struct ana_cmp *c, const struct ana_timeline *tl,
                      int side) {
  struct ana__calls *k = calls_of(c);
  if (side == 1) learn_first(k, tl);
  for (uint32_t i = 1; i < tl->nnodes; i++) {
    const struct ana_node *nd = &tl->nodes[i];
    if (nd->kind != ANA_FUNC) continue;
    struct cplace p = {.url = nd->url,
                       .name = nd->name,
                       .key = nd->key,
                       .line = nd->line,
                       .col = nd->col};
    if (nd->gen) { /* where the generated code has it */
      const struct ana_gen *g = ana_gen_get(c->ctx, nd->gen);
      p.url = g->url;
      p.name = g->name;
      p.line = g->line;
      p.col = g->col;
    }
    if (p.line < 0 || p.col < 0) continue;
    uint64_t hv = place_hash(p.url, p.line, p.col);
    size_t pos = ZC_HTAB_START;
    uint32_t j;
    int have = 0;
    while (!have && zc_htab_next(&k->ptab[side], hv, &pos, &j))
      have = k->place[side][j].url == p.url &&
             k->place[side][j].line == p.line && k->place[side][j].col == p.col;
    if (have) continue;
    ZC_GROW(k->place[side], k->capplace[side], k->nplace[side] + 1);
    k->place[side][k->nplace[side]] = p;
    zc_htab_add(&k->ptab[side], hv, pos, (uint32_t)k->nplace[side]++);
    k->sorted[side] = 0;
  }
  if (k->pairs) make_uncounted(k); /* places after the counts */
}

static int pos_cmp(int32_t la, int32_t ca, int32_t lb, int32_t cb) {
  return la != lb ? (la > lb) - (la < lb) : (ca > cb) - (ca < cb);
}

static int place_cmp(const void *a, const void *b) {
  const struct cplace *x = a, *y = b;
  if (x->url != y->url) return (x->url > y->url) - (x->url < y->url);
  return pos_cmp(x->line, x->col, y->line, y->col);
}

static int fn_cmp(const void *a, const void *b) {
  const struct cfn *x = a, *y = b;
  return pos_cmp(x->line, x->col, y->line, y->col);
}

static struct ckey *ckey_of(struct ana__calls *k, uint32_t key) {
  uint64_t hv = zc_mix64(key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&k->ktab, hv, &pos, &i))
    if (k->k[i].key == key) return &k->k[i];
  ZC_GROW(k->k, k->capk, k->nk + 1);
  memset(&k->k[k->nk], 0, sizeof k->k[k->nk]);
  k->k[k->nk].key = key;
  zc_htab_add(&k->ktab, hv, pos, (uint32_t)k->nk);
  return &k->k[k->nk++];
}

static int32_t num(const cJSON *o, const char *name) {
  double v = cJSON_GetNumberValue(cJSON_GetObjectItem(o, name));
  return v >= 0 && v < 2e9 ? (int32_t)v : -1;
}

/* One script's functions, sorted by where they start; NULL when none. */
static struct cfn *script_fns(const cJSON *fns, size_t *n) {
  size_t cap = (size_t)cJSON_GetArraySize(fns), m = 0;
  struct cfn *v = zc_xcalloc(cap ? cap : 1, sizeof *v);
  const cJSON *f;
  cJSON_ArrayForEach(f, fns) {
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(f, "name"));
    const char *h = cJSON_GetStringValue(cJSON_GetObjectItem(f, "hash"));
    double calls = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "calls"));
    struct cfn x = {.line = num(f, "line"),
                    .col = num(f, "col"),
                    .end_line = num(f, "end_line"),
                    .end_col = num(f, "end_col"),
                    .name = name,
                    .calls = calls,
                    .hash = h ? (uint32_t)strtoul(h, NULL, 16) : 0};
    if (!name || x.line < 0 || x.col < 0 || x.end_line < 0 || x.end_col < 0 ||
        !(calls >= 0) || calls > 1e15)
      continue;
    v[m++] = x;
  }
  qsort(v, m, sizeof *v, fn_cmp);
  *n = m;
  return v;
}

/* The function of fns (sorted) whose range holds (line, col) innermost,
 * or NULL. */
static const struct cfn *innermost(const struct cfn *fns, size_t n,
                                   int32_t line, int32_t col) {
  size_t lo = 0, hi = n; /* the first that starts after the place */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pos_cmp(fns[mid].line, fns[mid].col, line, col) <= 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t i = lo; i-- > 0;)
    if (pos_cmp(fns[i].end_line, fns[i].end_col, line, col) > 0) return &fns[i];
  return NULL;
}

/* Whether a count file's name and V8's are one function's: the same, or
 * both anonymous ("" in coverage, "" or "(anonymous)" in a profile). */
static int same_name(const char *cov, const char *prof) {
  if (!strcmp(cov, prof)) return 1;
  return !cov[0] && !strcmp(prof, "(anonymous)");
}

/* Whether text hash h is among set's n. */
static int text_in(const uint32_t *set, unsigned n, uint32_t h) {
  for (unsigned i = 0; i < n; i++)
    if (set[i] == h) return 1;
  return 0;
}

/* Whether every one of a's na texts is among b's nb. */
static int texts_in(const uint32_t *a, unsigned na, const uint32_t *b,
                    unsigned nb) {
  for (unsigned i = 0; i < na; i++)
    if (!text_in(b, nb, a[i])) return 0;
  return 1;
}

/* Adds text hash h to a set of CKEY_TEXTS (*n of them), or sets *over
 * when it is full. */
static void text_add(uint32_t *set, uint8_t *n, uint8_t *over, uint32_t h) {
  if (text_in(set, *n, h)) return;
  if (*n == CKEY_TEXTS)
    *over = 1;
  else
    set[(*n)++] = h;
}

/* Function f's calls for key on side. */
static void count_fn(struct ana__calls *k, uint32_t key, const struct cfn *f,
                     int side) {
  struct ckey *ck = ckey_of(k, key);
  if (!(f->calls > 0)) {
    text_add(ck->idle[side], &ck->nidle[side], &ck->idle_over[side], f->hash);
    return;
  }
  text_add(ck->hash[side], &ck->nhash[side], &ck->over, f->hash);
  ck->seen[side] = 1;
  ck->calls[side] += f->calls;
}

/* Each new function's nearest enclosing function with a key of its own
 * (fns sorted by start, so nested ranges come after the range around
 * them): a stack of the ranges still open. */
static void learn_outer(struct ana__calls *k, const struct cfn *fns,
                        const uint32_t *fkey, size_t nf) {
  size_t *st = zc_xmalloc((nf + 1) * sizeof *st), sp = 0;
  for (size_t j = 0; j < nf; j++) {
    while (sp && pos_cmp(fns[st[sp - 1]].end_line, fns[st[sp - 1]].end_col,
                         fns[j].line, fns[j].col) <= 0)
      sp--;
    if (fkey[j] != UINT32_MAX) {
      size_t e = sp;
      while (e && (fkey[st[e - 1]] == UINT32_MAX || fkey[st[e - 1]] == fkey[j]))
        e--;
      struct ckey *ck = ckey_of(k, fkey[j]);
      uint32_t o = e ? fkey[st[e - 1]] : UINT32_MAX;
      if (!ck->outer_set) {
        ck->outer = o;
        ck->outer_set = 1;
      } else if (ck->outer != o) {
        ck->outer_mixed = 1;
      }
    }
    st[sp++] = j;
  }
  free(st);
}

static int url_counted(const struct ana__calls *k, uint32_t url) {
  for (size_t i = 0; i < k->nurls; i++)
    if (k->urls[i] == url) return 1;
  return 0;
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The keys whose places are all in scripts that no count file holds (a
 * worker's, which the page's coverage does not reach): their calls are
 * unknown, not none. Made once per change of the places or scripts, so
 * that a lookup is a binary search. */
static void make_uncounted(struct ana__calls *k) {
  if (k->made_from[0] == k->nplace[0] && k->made_from[1] == k->nplace[1] &&
      k->made_from[2] == k->nurls)
    return;
  size_t n = k->nplace[0] + k->nplace[1], m = 0;
  uint64_t *v = zc_xmalloc((n + 1) * sizeof *v); /* key << 1 | counted */
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < k->nplace[s]; i++) {
      const struct cplace *p = &k->place[s][i];
      v[m++] = (uint64_t)p->key << 1 | (uint64_t)url_counted(k, p->url);
    }
  qsort(v, m, sizeof *v, u64_cmp);
  free(k->ukeys);
  k->ukeys = zc_xmalloc((m + 1) * sizeof *k->ukeys);
  k->nukeys = 0;
  /* a key's places sort together, uncounted first */
  for (size_t i = 0; i < m;) {
    size_t j = i;
    int counted = 0;
    for (; j < m && v[j] >> 1 == v[i] >> 1; j++)
      counted |= (int)(v[j] & 1);
    if (!counted) k->ukeys[k->nukeys++] = (uint32_t)(v[i] >> 1);
    i = j;
  }
  free(v);
  k->made_from[0] = k->nplace[0];
  k->made_from[1] = k->nplace[1];
  k->made_from[2] = k->nurls;
}

static int uncounted(const struct ana__calls *k, uint32_t key) {
  return k->nukeys &&
         bsearch(&key, k->ukeys, k->nukeys, sizeof key, u32_cmp) != NULL;
}

/* Script file comp's text hash (hex, or NULL in files written before
 * there was one) on side. */
static void script_hash(struct ana__calls *k, uint32_t comp, const char *hex,
                        int side) {
  size_t i = 0;
  while (i < k->nscr && k->scr[i].comp != comp)
    i++;
  if (i == k->nscr) {
    ZC_GROW(k->scr, k->capscr, k->nscr + 1);
    memset(&k->scr[i], 0, sizeof k->scr[i]);
    k->scr[i].comp = comp;
    k->nscr++;
  }
  struct cscript *s = &k->scr[i];
  char *end = NULL;
  unsigned long h = hex ? strtoul(hex, &end, 16) : 0;
  if (!hex || end == hex || *end) {
    s->mixed[side] = 1; /* no hash: no telling */
    return;
  }
  if (s->seen[side] && s->hash[side] != (uint32_t)h) s->mixed[side] = 1;
  s->hash[side] = (uint32_t)h;
  s->seen[side] = 1;
}

/* 1 when function key's whole script reads the same in both builds'
 * count runs: then it is the same code, whether or not it ran. */
static int same_script(const struct ana_cmp *c, uint32_t key) {
  const struct ana__calls *k = c->calls;
  const struct ana_bu_row *r = c->bu ? ana_bu_row(c->bu, key) : NULL;
  if (!k || !r) return 0;
  for (size_t i = 0; i < k->nscr; i++) {
    const struct cscript *s = &k->scr[i];
    if (s->comp != r->component) continue;
    return s->seen[0] && s->seen[1] && !s->mixed[0] && !s->mixed[1] &&
           s->hash[0] == s->hash[1];
  }
  return 0;
}

/* One count file of side into the keys' counts. */
static enum zc_err add_file(struct ana_cmp *c, const char *path, int side) {
  struct ana__calls *k = c->calls;
  char *text = NULL;
  size_t len = 0;
  enum zc_err e = zc_read_file(path, 256u << 20, &text, &len);
  if (e) return e;
  cJSON *doc = cJSON_ParseWithLength(text, len);
  free(text);
  const char *schema = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "schema"));
  if (!doc || !schema || strcmp(schema, "zamcap-calls/1")) {
    cJSON_Delete(doc);
    return zc_fail(ZC_E_PARSE, "%s: not a zamcap-calls/1 file", path);
  }
  if (!k->sorted[side]) {
    qsort(k->place[side], k->nplace[side], sizeof *k->place[side], place_cmp);
    zc_htab_free(&k->ptab[side]); /* its indexes moved */
    zc_htab_init(&k->ptab[side], 16);
    k->sorted[side] = 1;
  }
  const struct cplace *pl = k->place[side];
  size_t np = k->nplace[side];
  const cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItem(doc, "scripts")) {
    const char *url = cJSON_GetStringValue(cJSON_GetObjectItem(s, "url"));
    if (!url) continue;
    uint32_t u = ana_intern(c->ctx, url, strlen(url));
    if (!url_counted(k, u)) {
      ZC_GROW(k->urls, k->capurls, k->nurls + 1);
      k->urls[k->nurls++] = u;
    }
    char comp[2048];
    size_t cl = ana_component(url, strlen(url), comp, sizeof comp);
    uint32_t cid = ana_intern(c->ctx, comp, cl);
    script_hash(k, cid, cJSON_GetStringValue(cJSON_GetObjectItem(s, "hash")),
                side);
    size_t nf;
    struct cfn *fns = script_fns(cJSON_GetObjectItem(s, "functions"), &nf);
    /* the places of this script: a run of the sorted array */
    size_t lo = 0, hi = np;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (pl[mid].url < u)
        lo = mid + 1;
      else
        hi = mid;
    }
    /* each function's key (its first place's), UINT32_MAX: none */
    uint32_t *fkey = zc_xmalloc((nf + 1) * sizeof *fkey);
    for (size_t j = 0; j < nf; j++)
      fkey[j] = UINT32_MAX;
    for (size_t i = lo; i < np && pl[i].url == u; i++) {
      const struct cfn *f = innermost(fns, nf, pl[i].line, pl[i].col);
      if (!f || !same_name(f->name, ana_str(c->ctx, pl[i].name))) continue;
      if (fkey[f - fns] == UINT32_MAX) fkey[f - fns] = pl[i].key;
      count_fn(k, pl[i].key, f, side);
    }
    /* A function the timed pairs never sampled on this side has no place
     * there (it ran, briefly): it counts for the key its name and file
     * make, as a timeline's unrenamed function would have. */
    for (size_t j = 0; j < nf; j++)
      if (fkey[j] == UINT32_MAX && fns[j].name[0]) {
        fkey[j] =
            ana_key(c->ctx, cid,
                    ana_intern_name(c->ctx, fns[j].name, strlen(fns[j].name)));
        count_fn(k, fkey[j], &fns[j], side);
      }
    if (side) learn_outer(k, fns, fkey, nf);
    free(fkey);
    free(fns);
  }
  cJSON_Delete(doc);
  return ZC_OK;
}

enum zc_err ana_cmp_add_calls(struct ana_cmp *c, const char *old_path,
                              const char *new_path) {
  struct ana__calls *k = calls_of(c);
  /* Both files are read before either counts: a pair counts whole. */
  struct ckey *save = k->nk ? zc_xmalloc(k->nk * sizeof *save) : NULL;
  size_t nk = k->nk, nurls = k->nurls;
  if (save) memcpy(save, k->k, nk * sizeof *save);
  enum zc_err e = add_file(c, old_path, 0);
  if (!e) e = add_file(c, new_path, 1);
  if (e) {
    /* take back what the failed pair added */
    k->nurls = nurls;
    for (size_t i = 0; i < k->nk; i++) {
      if (i < nk) {
        k->k[i] = save[i];
      } else { /* a key the failed pair made: as if never counted */
        uint32_t key = k->k[i].key;
        memset(&k->k[i], 0, sizeof k->k[i]);
        k->k[i].key = key;
      }
    }
  } else {
    k->pairs++;
    c->decided = 0; /* a verdict asked before the counts is made again */
  }
  make_uncounted(k);
  free(save);
  return e;
}

unsigned ana_cmp_calls_pairs(const struct ana_cmp *c) {
  return c->calls ? c->calls->pairs : 0;
}

static const struct ckey *ckey_find(const struct ana_cmp *c, uint32_t key) {
  const struct ana__calls *k = c->calls;
  if (!k || !k->pairs) return NULL;
  uint64_t hv = zc_mix64(key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&k->ktab, hv, &pos, &i))
    if (k->k[i].key == key) return &k->k[i];
  return NULL;
}

double ana_calls(const struct ana_cmp *c, uint32_t key, int side) {
  if (!c->calls || !c->calls->pairs) return NAN;
  const struct ckey *ck = ckey_find(c, key);
  if (ck) return ck->calls[side] / c->calls->pairs;
  return uncounted(c->calls, key) ? NAN : 0;
}

/* ana_calls_changed, depth functions in from the first asked. */
static int changed_at(const struct ana_cmp *c, uint32_t key, unsigned depth) {
  if (same_script(c, key)) return 0;
  const struct ckey *ck = ckey_find(c, key);
  if (!ck || ck->over) return -1;
  if (!ck->seen[0] && ck->seen[1]) {
    /* never called in the old build: was the code it runs there? */
    if (ck->nidle[0] && !ck->idle_over[0]) {
      if (texts_in(ck->hash[1], ck->nhash[1], ck->idle[0], ck->nidle[0]))
        return 0;
      if (ck->nidle[0] == 1 && ck->nhash[1] == 1) return 1;
    }
    /* Never listed there (inside a function V8 never compiled): the old
     * build's code when the text around it is. */
    if (ck->outer_set && !ck->outer_mixed && ck->outer != UINT32_MAX &&
        depth < 64 && changed_at(c, ck->outer, depth + 1) == 0)
      return 0;
    return -1;
  }
  if (!ck->seen[0] || !ck->seen[1]) return -1;
  if (ck->nhash[0] == 1 && ck->nhash[1] == 1)
    return ck->hash[0][0] != ck->hash[1][0];
  /* Several functions of one name and file: the same texts on both sides
   * is the same code; a difference cannot say which of them changed. */
  if (ck->nhash[0] != ck->nhash[1]) return -1;
  return texts_in(ck->hash[0], ck->nhash[0], ck->hash[1], ck->nhash[1]) ? 0
                                                                        : -1;
}

int ana_calls_changed(const struct ana_cmp *c, uint32_t key) {
  return changed_at(c, key, 0);
}

/* ---- what the counts say of the critical graph ---- */

/* A per-call ratio of calls that grew this many times is a loop that runs
 * more often (counts are exact, but timers fire more in a longer run). */
#define FANOUT_GREW 1.5

/* A function's growth over all its call paths, split by the counts:
 * more, what its extra calls cost at the old per-call time; slower, what
 * the new calls cost beyond it (Δtime = Δcalls · per call + calls ·
 * Δper call). Means over the pairs, in ms. */
struct csplit {
  double co, cn;       /* calls per run */
  double t_old, t_new; /* inclusive ms per run */
  double more, slower;
  struct ana_stat more_st, slower_st; /* their intervals over the pairs */
};

/* 0 when the counts cannot split it (none taken, or it never ran in the
 * new build's count runs). */
static int split_of(const struct ana_cmp *c, uint32_t key, struct csplit *s) {
  memset(s, 0, sizeof *s);
  s->co = ana_calls(c, key, 0);
  s->cn = ana_calls(c, key, 1);
  if (isnan(s->co) || !(s->cn > 0)) return 0;
  double t0[ANA_SPREAD_MAX_PAIRS], t1[ANA_SPREAD_MAX_PAIRS];
  unsigned n = ana_bu_incl_values(c->bu, key, 0, t0, ANA_SPREAD_MAX_PAIRS);
  ana_bu_incl_values(c->bu, key, 1, t1, n);
  if (!n) return 0;
  double k = s->co > 0 ? s->cn / s->co : 0;
  double mp[ANA_SPREAD_MAX_PAIRS], sp[ANA_SPREAD_MAX_PAIRS];
  for (unsigned p = 0; p < n; p++) {
    s->t_old += t0[p] / n;
    s->t_new += t1[p] / n;
    /* a function the old build never called: all of it is new calls */
    mp[p] = s->co > 0 ? t0[p] * k - t0[p] : t1[p] - t0[p];
    sp[p] = s->co > 0 ? t1[p] - t0[p] * k : 0;
    s->more += mp[p] / n;
    s->slower += sp[p] / n;
  }
  ana_stat(mp, n, &s->more_st);
  ana_stat(sp, n, &s->slower_st);
  return 1;
}

static double self_growth(const struct ana_cmp *c, uint32_t key);

int ana__calls_per_call(const void *arg, uint32_t key) {
  const struct ana_cmp *c = arg;
  struct csplit s;
  if (!ana_cmp_calls_pairs(c) || !split_of(c, key, &s) || !(s.co > 0)) return 0;
  return s.cn < FANOUT_GREW * s.co && s.slower >= c->o.mu &&
         self_growth(c, key) >= c->o.mu && ana_calls_changed(c, key) == 1;
}

/* Whether function key is old code the old build had but never called:
 * 0 calls in its count runs, with a text among its uncalled ones. */
static int old_uncalled(const struct ana_cmp *c, uint32_t key) {
  return ana_calls(c, key, 0) == 0 && ana_calls_changed(c, key) == 0;
}

/* Whether parent calls child more often per call of its own: 1 yes, 0
 * no, -1 the counts cannot tell (parent never counted). A parent the old
 * build never called is new code calling child: it owns the calls. */
static int fanout_grew(const struct ana_cmp *c, uint32_t parent,
                       uint32_t child) {
  double po = ana_calls(c, parent, 0), pn = ana_calls(c, parent, 1);
  double co = ana_calls(c, child, 0), cn = ana_calls(c, child, 1);
  if (isnan(po) || !(pn > 0) || !(cn > 0)) return -1;
  if (!(po > 0)) return 1;
  if (!(co > 0)) return 1; /* it calls child where it did not */
  return cn / pn >= FANOUT_GREW * (co / po);
}

/* Whether function key ran in the old build and is called FANOUT_GREW
 * times as often or more now: a loop above it runs more. */
static int called_more(const struct ana_cmp *c, uint32_t key) {
  double po = ana_calls(c, key, 0), pn = ana_calls(c, key, 1);
  return po > 0 && pn >= FANOUT_GREW * po;
}

static struct ana_gcalls *gcalls(struct ana_graph *g) {
  if (!g->calls) {
    g->calls = zc_xcalloc((size_t)g->n + 1, sizeof *g->calls);
    for (uint32_t i = 0; i < g->n; i++) {
      g->calls[i].landed = ANA_NONE;
      g->calls[i].calls[0] = g->calls[i].calls[1] = NAN;
    }
  }
  return g->calls;
}

/* Appends function key under parent, its weights the function's over all
 * its call paths (the counts speak of functions, not of paths). */
static uint32_t graph_append(struct ana_cmp *c, struct ana_graph *g,
                             uint32_t parent, uint32_t key) {
  const struct ana_bu_row *r = ana_bu_row(c->bu, key);
  if (!r) return ANA_NONE;
  gcalls(g);
  uint32_t i = g->n++;
  size_t np = g->npairs;
  g->nodes = zc_xreallocarray(g->nodes, g->n, sizeof *g->nodes);
  g->old_w = zc_xreallocarray(g->old_w, g->n * np, sizeof *g->old_w);
  g->new_w = zc_xreallocarray(g->new_w, g->n * np, sizeof *g->new_w);
  g->same = zc_xreallocarray(g->same, g->n * np, sizeof *g->same);
  g->calls = zc_xreallocarray(g->calls, g->n, sizeof *g->calls);
  struct ana_gnode *nd = &g->nodes[i];
  memset(nd, 0, sizeof *nd);
  nd->name = r->name;
  nd->url = r->url;
  nd->component = r->component;
  nd->key = r->key;
  nd->line = r->line;
  nd->col = r->col;
  nd->gen = r->gen;
  nd->kind = r->kind;
  nd->same = NAN;
  nd->present = g->npairs;
  nd->kid = nd->sib = nd->last = ANA_NONE;
  double t0[ANA_SPREAD_MAX_PAIRS], t1[ANA_SPREAD_MAX_PAIRS];
  unsigned n = ana_bu_incl_values(c->bu, key, 0, t0, ANA_SPREAD_MAX_PAIRS);
  ana_bu_incl_values(c->bu, key, 1, t1, n);
  double per = ana_unit_desc(g->unit)->per;
  for (unsigned p = 0; p < np; p++) {
    g->old_w[(size_t)i * np + p] = p < n ? (int64_t)llround(t0[p] * per) : 0;
    g->new_w[(size_t)i * np + p] = p < n ? (int64_t)llround(t1[p] * per) : 0;
    g->same[(size_t)i * np + p] = NAN;
  }
  g->calls[i] =
      (struct ana_gcalls){.landed = ANA_NONE, .bu = 1, .calls = {NAN, NAN}};
  ana__graph_link(g, parent, i);
  return i;
}

/* Whether bottom-up path p runs under a function keyed key; *at gets the
 * nearest such path above p. */
static int under(const struct ana_bottomup *b, uint32_t p, uint32_t key,
                 uint32_t *at) {
  for (uint32_t q = ana_bu_path_parent(b, p), g = 0;
       q != UINT32_MAX && g < 100000; q = ana_bu_path_parent(b, q), g++)
    if (ana_bu_path_key(b, q, NULL, NULL) == key) {
      *at = q;
      return 1;
    }
  return 0;
}

static int named_fn(const struct ana_cmp *c, uint32_t path) {
  uint32_t name;
  uint8_t kind;
  ana_bu_path_key(c->bu, path, &name, &kind);
  return kind == ANA_FUNC && !ana_name_pruned(c->ctx, name);
}

/* Appends under graph node l the frames of bottom-up path p, from below
 * the nearest frame of l's function above p down to p itself, each frame
 * an existing child where one was appended before: a function named
 * inside new code stands at a call path that ran. Returns p's node, or
 * ANA_NONE. */
static uint32_t graph_append_path(struct ana_cmp *c, struct ana_graph *g,
                                  uint32_t l, uint32_t p) {
  const struct ana_bottomup *b = c->bu;
  uint32_t lk = g->nodes[l].key, chain[256], n = 0, q = p;
  for (; q != UINT32_MAX && n < ZC_ARRAY_LEN(chain);
       q = ana_bu_path_parent(b, q)) {
    if (ana_bu_path_key(b, q, NULL, NULL) == lk) break;
    if (named_fn(c, q) || q == p) chain[n++] = q;
  }
  if (q == UINT32_MAX || !n) return ANA_NONE;
  uint32_t at = l;
  while (n) {
    uint32_t k = ana_bu_path_key(b, chain[--n], NULL, NULL), kid;
    for (kid = g->nodes[at].kid; kid != ANA_NONE; kid = g->nodes[kid].sib)
      if (g->nodes[kid].key == k) break;
    if (kid == ANA_NONE) kid = graph_append(c, g, at, k);
    if (kid == ANA_NONE) return ANA_NONE;
    at = kid;
  }
  return at;
}

/* How an old function grew by mu over all its paths, as evidence that
 * it is a root: 1 called more often (its loop's owner is), 2 slower per
 * call with its own code changed; 0 neither. Slower per call with the
 * same code is no root: what it is given changed (its caller's doing). */
static int grew(const struct ana_cmp *c, uint32_t key, double mu) {
  struct csplit s;
  if (!split_of(c, key, &s) || !(s.co > 0)) return 0;
  if (s.more >= mu && s.slower < mu) return 1;
  if (s.slower >= mu && ana_calls_changed(c, key) == 1) return 2;
  return 0;
}

/* Whether function key's time, over all its paths, grew by mu in every
 * pair: the bar of the critical graph, which a function named in the place
 * of one of its causes must meet too. */
static int grew_every_pair(const struct ana_cmp *c, uint32_t key, double mu) {
  double t0[ANA_SPREAD_MAX_PAIRS], t1[ANA_SPREAD_MAX_PAIRS];
  unsigned n = ana_bu_incl_values(c->bu, key, 0, t0, ANA_SPREAD_MAX_PAIRS);
  if (ana_bu_incl_values(c->bu, key, 1, t1, n) != n || !n) return 0;
  for (unsigned p = 0; p < n; p++)
    if (!(t1[p] - t0[p] >= mu)) return 0;
  return 1;
}

/* The bottom-up paths under function lk (not lk's own) whose function is
 * named and passes ok(c, key, mu): np + 1 flags, 1 for those, 0 for the
 * rest (the caller's to free). */
static uint8_t *paths_under(const struct ana_cmp *c, uint32_t lk,
                            int (*ok)(const struct ana_cmp *, uint32_t, double),
                            double mu) {
  const struct ana_bottomup *b = c->bu;
  uint32_t np = ana_bu_npaths(b), at;
  uint8_t *cand = zc_xcalloc((size_t)np + 1, 1);
  for (uint32_t p = 0; p < np; p++) {
    uint32_t k = ana_bu_path_key(b, p, NULL, NULL);
    cand[p] = k != lk && named_fn(c, p) && under(b, p, lk, &at) && ok(c, k, mu);
  }
  return cand;
}

/* Inside the new function of leaf l: the lowest old functions that grew
 * by mu, each named, or the owner of its loop below l. Returns how many
 * were named under l (0: the new function stays the cause). */
static unsigned inside_new(struct ana_cmp *c, struct ana_graph *g, uint32_t l,
                           double mu) {
  const struct ana_bottomup *b = c->bu;
  uint32_t lk = g->nodes[l].key, np = ana_bu_npaths(b);
  uint8_t *cand = paths_under(c, lk, grew, mu);
  uint32_t n0 = g->n;
  /* the lowest: no candidate under them */
  for (uint32_t p = 0; p < np; p++) {
    if (!cand[p]) continue;
    for (uint32_t q = ana_bu_path_parent(b, p);
         q != UINT32_MAX && ana_bu_path_key(b, q, NULL, NULL) != lk;
         q = ana_bu_path_parent(b, q))
      if (cand[q] == 1 && ana_bu_path_key(b, q, NULL, NULL) !=
                              ana_bu_path_key(b, p, NULL, NULL))
        cand[q] = 2;
  }
  unsigned named = 0;
  uint32_t done[64];
  unsigned ndone = 0;
  for (uint32_t p = 0; p < np; p++) {
    if (cand[p] != 1) continue;
    uint32_t fk = ana_bu_path_key(b, p, NULL, NULL), nk = fk, nat = p;
    if (grew(c, fk, mu) == 1) { /* called more often: whose loop? */
      nk = lk;
      uint32_t child = fk;
      for (uint32_t q = ana_bu_path_parent(b, p);
           q != UINT32_MAX && ana_bu_path_key(b, q, NULL, NULL) != lk;
           q = ana_bu_path_parent(b, q)) {
        if (!named_fn(c, q)) continue;
        uint32_t qk = ana_bu_path_key(b, q, NULL, NULL);
        int f = fanout_grew(c, qk, child);
        if (f == 1) {
          nk = qk;
          nat = q;
          break;
        }
        if (f < 0) break;
        child = qk;
      }
      /* an owner with the same code as before, its loop run more: what
       * it is given changed, and the new code above it gives it */
      if (nk != lk && ana_calls_changed(c, nk) == 0) nk = lk;
    }
    if (nk == lk) continue; /* the new function's own loop: it stays */
    if (!grew_every_pair(c, nk, mu)) continue;
    int dup = 0;
    for (unsigned i = 0; i < ndone && !dup; i++)
      dup = done[i] == nk;
    if (dup || ndone == ZC_ARRAY_LEN(done)) continue;
    uint32_t i = graph_append_path(c, g, l, nat);
    if (i == ANA_NONE) continue;
    done[ndone++] = nk;
    g->nodes[i].cause = 1;
    g->calls[i].why = ANA_WHY_INSIDE_NEW;
    if (nk != fk) g->calls[i].landed_key = fk;
    named++;
  }
  free(cand);
  /* On another call path (one where V8 inlined a frame, say) a function
   * named here can lie under another named one: only the lowest stays. */
  for (uint32_t i = n0; i < g->n; i++)
    if (g->nodes[i].cause && g->nodes[i].nkids) {
      g->nodes[i].cause = 0;
      named--;
    }
  if (named) g->nodes[l].cause = 0;
  return named;
}

/* The path up[from..to) (lowest first) reached its thread with every
 * caller calling the one below it as often per call as before, each
 * called more itself: the loop runs above the path, in the event loop
 * (a promise chain or a timer that calls its top again, through an
 * anonymous callback the matching prunes). The highest of them whose code
 * changed drives it (pdf.js 1.7.316's getPageDict walk, `next`, re-entered
 * once per page it now fetches, over XRef_fetchAsync); ANA_NONE when
 * none did. */
static uint32_t async_owner(const struct ana_cmp *c, const struct ana_graph *g,
                            const uint32_t *up, unsigned from, unsigned to) {
  for (unsigned i = to; i-- > from;) {
    uint32_t k = g->nodes[up[i]].key;
    if (called_more(c, k) && ana_calls_changed(c, k) == 1) return up[i];
  }
  return ANA_NONE;
}

/* A cause called more often, not slower per call (or slower per call too
 * with the same code: what it is given grew as well): up its path to the
 * first function that calls the one below it more often per call of its
 * own and is not called more often itself (one that is runs in a loop
 * above it). Returns that node; the first that calls more per call of
 * its own when every one above it is called more too; or ANA_NONE. */
static uint32_t loop_owner(const struct ana_cmp *c, const struct ana_graph *g,
                           uint32_t l, double mu) {
  struct csplit s;
  uint32_t lk = g->nodes[l].key;
  if (!split_of(c, lk, &s) || !(s.co > 0) || s.more < mu) return ANA_NONE;
  /* Slower per call as well: with its own code changed, that is its own
   * doing; with the same code, what it is given changed (a longer array
   * to search), and its calls still grew in a loop above it. */
  if (s.slower >= mu && ana_calls_changed(c, lk) != 0) return ANA_NONE;
  /* Counts are a function's, over every level of a recursion: inside
   * one, the ratio of two of its functions' calls says nothing of a loop.
   * The recursion's levels right above the cause (keys that repeat with
   * a period of 1 to 4 frames) are passed, and the first caller above
   * them is asked about the top of the recursion. */
  uint32_t up[64];
  unsigned n = 0;
  for (uint32_t a = l; a != ANA_NONE && n < 64; a = g->nodes[a].parent)
    up[n++] = a;
  unsigned top = 0; /* the recursion's top, as an index into up */
  for (unsigned per = 1; per <= 4; per++) {
    unsigned k = per;
    while (k < n && g->nodes[up[k]].kind == ANA_FUNC &&
           g->nodes[up[k]].key == g->nodes[up[k - per]].key)
      k++;
    if (k - 1 >= 2 * per - 1 && k - 1 > top) top = k - 1;
  }
  uint32_t first = ANA_NONE;
  for (unsigned i = top + 1; i < n; i++) {
    if (g->nodes[up[i]].kind != ANA_FUNC)
      return first != ANA_NONE ? first : async_owner(c, g, up, top + 1, i);
    int f = fanout_grew(c, g->nodes[up[i]].key, g->nodes[up[i - 1]].key);
    if (f < 0) return first;
    if (f != 1) continue;
    /* an owner called more often itself is in a loop above it */
    if (!called_more(c, g->nodes[up[i]].key)) return up[i];
    if (first == ANA_NONE) first = up[i];
  }
  return first;
}

/* An old function the old build had but never called, called now: up its
 * path, past callers that are such functions too (and a recursion's own
 * levels), to the first that ran in the old build, or is new code, and
 * whose own calls did not grow: it calls the function below it where it
 * did not. ANA_NONE when that caller's code is the same as before (what
 * it is given changed: upstream_roots asks) or the counts cannot say. */
static uint32_t new_caller(const struct ana_cmp *c, const struct ana_graph *g,
                           uint32_t l) {
  uint32_t child = l;
  for (uint32_t a = g->nodes[l].parent; a != ANA_NONE; a = g->nodes[a].parent) {
    if (g->nodes[a].kind != ANA_FUNC) return ANA_NONE;
    uint32_t k = g->nodes[a].key;
    if (k == g->nodes[child].key) continue;
    double po = ana_calls(c, k, 0), pn = ana_calls(c, k, 1);
    if (isnan(po) || !(pn > 0)) return ANA_NONE;
    int changed = ana_calls_changed(c, k);
    if (!(po > 0) && changed == 0) { /* old code newly called as well */
      child = a;
      continue;
    }
    if (called_more(c, k)) { /* called more: whose loop? */
      child = a;
      continue;
    }
    return changed == 0 ? ANA_NONE : a;
  }
  return ANA_NONE;
}

/* The top of the call path new to the build that cause l stands on, where
 * that path is old code newly called: up from l while the path node had no
 * match in the old timelines in any pair, the highest function the old
 * build's count runs never called. ANA_NONE when none was, or when one of
 * those never called is not the old build's code (new code, or no
 * telling: then the new code is where to look). */
static uint32_t new_path_top(const struct ana_cmp *c, const struct ana_graph *g,
                             uint32_t l) {
  uint32_t top = ANA_NONE;
  for (uint32_t a = l; a != ANA_NONE; a = g->nodes[a].parent) {
    const struct ana_gnode *nd = &g->nodes[a];
    if (nd->kind != ANA_FUNC || !ana_gnode_new_everywhere(nd)) break;
    if (!(ana_calls(c, nd->key, 0) == 0)) continue;
    if (ana_calls_changed(c, nd->key) != 0) return ANA_NONE;
    top = a;
  }
  return top;
}

/* A function's own (self) time growth over all its paths, the mean over
 * the pairs (ms). */
static double self_growth(const struct ana_cmp *c, uint32_t key) {
  double d[ANA_SPREAD_MAX_PAIRS], s = 0;
  unsigned n = ana_bu_deltas(c->bu, key, d, ANA_SPREAD_MAX_PAIRS);
  for (unsigned p = 0; p < n; p++)
    s += d[p];
  return n ? s / n : 0;
}

/* A function whose own time is under this share of the growth of its
 * time with its callees does little itself: a conduit to its callees. */
#define CONDUIT_SHARE 0.1
/* A new function called this many times or more per call of its new
 * caller runs in the caller's loop (a walk, a recursion): the caller's
 * work. */
#define NEW_LOOP 4

/* Whether function key, in the new build's count runs, is called NEW_LOOP
 * times or more per call of caller. */
static int in_loop_of(const struct ana_cmp *c, uint32_t key, uint32_t caller) {
  return ana_calls(c, key, 1) >= NEW_LOOP * ana_calls(c, caller, 1);
}

/* A cause new to the run (never called in the old count runs) that does
 * little itself (its own time grew by under CONDUIT_SHARE of its
 * growth on the path) is a conduit: its time is old code's, run for the
 * new code above it. One called NEW_LOOP times or more per call of its
 * new caller is that caller's loop. Up its path while the caller is new
 * to the run too, and new code (not the old build's, uncalled); returns
 * the entry of the new code (the cause itself
 * when it does work of its own outside a new caller's loop, or its
 * caller ran before). */
static uint32_t new_code_entry(const struct ana_cmp *c,
                               const struct ana_graph *g, uint32_t l) {
  uint32_t cur = l;
  for (unsigned k = 0; k < 10000; k++) {
    double o, n, d;
    ana_gnode_means(g, cur, &o, &n, &d);
    uint32_t p = g->nodes[cur].parent;
    if (p == ANA_NONE || g->nodes[p].kind != ANA_FUNC ||
        !(ana_calls(c, g->nodes[p].key, 0) == 0) ||
        !(ana_calls(c, g->nodes[p].key, 1) > 0) ||
        ana_calls_changed(c, g->nodes[p].key) == 0) /* old code, uncalled */
      break;
    /* work of its own, and not its new caller's loop: it is the entry;
     * old code the old build had, uncalled, has no work of its own that
     * changed: the new code that calls it is the entry. A function that
     * calls itself is counted over every level of its recursion: the
     * ratio to its caller's calls says nothing of a loop there (@vue/
     * reactivity 3.5's notify, 125 million calls a run under 6 of the
     * new trigger's, through the computeds' diamond). */
    uint32_t ck = g->nodes[cur].key;
    if (self_growth(c, ck) >= CONDUIT_SHARE * d &&
        (!in_loop_of(c, ck, g->nodes[p].key) ||
         ana_bu_calls_into(c->bu, ck, ck)) &&
        !old_uncalled(c, ck))
      break;
    cur = p;
  }
  return cur;
}

/* The caller of new code e on the path where e is a function defined
 * inside that caller's own text (the nearest around it in the new build),
 * and the caller ran before, as often, with code that changed: e is part
 * of the caller's change, whose text holds e's. ANA_NONE otherwise. */
static uint32_t enclosing_caller(const struct ana_cmp *c,
                                 const struct ana_graph *g, uint32_t e) {
  uint32_t p = g->nodes[e].parent;
  if (p == ANA_NONE || g->nodes[p].kind != ANA_FUNC) return ANA_NONE;
  uint32_t pk = g->nodes[p].key;
  const struct ckey *ck = ckey_find(c, g->nodes[e].key);
  if (!ck || !ck->outer_set || ck->outer_mixed || ck->outer != pk)
    return ANA_NONE;
  if (!(ana_calls(c, pk, 0) > 0) || called_more(c, pk) ||
      ana_calls_changed(c, pk) != 1)
    return ANA_NONE;
  return p;
}

/* Whether function key, split by s, is slower per call (not called more
 * often) by mu with the same code as before: what it is given changed. */
static int given_more(const struct ana_cmp *c, const struct csplit *s,
                      uint32_t key, double mu) {
  return s->slower >= mu && s->more < mu && ana_calls_changed(c, key) == 0;
}

/* Whether cause l's own code says it is not where the change is: it is
 * slower per call (not called more often) with the same code as before,
 * or it is an old function newly called by a caller whose code and calls
 * are the same, or a built-in (no script: the browser's code, the same in
 * both runs; V8 counts none of its calls) on a call path it ran on
 * before, under a caller called about as often as before. Then what it
 * is given changed. */
static int input_changed(const struct ana_cmp *c, const struct ana_graph *g,
                         uint32_t l, double mu) {
  uint32_t k = g->nodes[l].key, p = g->nodes[l].parent;
  int builtin = !ana_str(c->ctx, g->nodes[l].url)[0];
  if (builtin) {
    if (ana_gnode_new_everywhere(&g->nodes[l])) return 0;
  } else {
    struct csplit s;
    if (!split_of(c, k, &s)) return 0;
    if (s.co > 0) return given_more(c, &s, k, mu);
  }
  if (p == ANA_NONE || g->nodes[p].kind != ANA_FUNC) return 0;
  double po = ana_calls(c, g->nodes[p].key, 0),
         pn = ana_calls(c, g->nodes[p].key, 1);
  return po > 0 && pn < po * FANOUT_GREW &&
         (builtin || ana_calls_changed(c, g->nodes[p].key) == 0);
}

/* Whether function key's code is not the old build's: its text changed,
 * or it is new code the old build's count runs never called (and not old
 * code there uncalled). Built-ins, whose calls V8 does not count, are
 * not. */
static int code_changed(const struct ana_cmp *c, uint32_t key) {
  if (!(ana_calls(c, key, 1) > 0)) return 0;
  int ch = ana_calls_changed(c, key);
  return ch == 1 || (ch != 0 && ana_calls(c, key, 0) == 0);
}

/* Whether function key's code changed and its time, over all its paths,
 * grew by mu in every pair. */
static int changed_and_grew(const struct ana_cmp *c, uint32_t key, double mu) {
  return code_changed(c, key) && grew_every_pair(c, key, mu);
}

/* Cause l is slower per call with the same code as before: either what it
 * is given changed, or what it calls did. Under it, the highest functions
 * whose code changed (no such function between them and l) and whose
 * time, over all their paths, grew by mu in every pair are named in its
 * place, each at the first call path under l that reaches it. Returns how
 * many were named (0: l stays, and upstream_roots asks about its input). */
static unsigned changed_below(struct ana_cmp *c, struct ana_graph *g,
                              uint32_t l, double mu) {
  const struct ana_bottomup *b = c->bu;
  uint32_t lk = g->nodes[l].key, np = ana_bu_npaths(b);
  uint8_t *cand = paths_under(c, lk, changed_and_grew, mu);
  unsigned named = 0;
  uint32_t done[16];
  unsigned ndone = 0;
  for (uint32_t p = 0; p < np; p++) {
    if (!cand[p]) continue;
    uint32_t k = ana_bu_path_key(b, p, NULL, NULL);
    int top = 1, dup = 0;
    for (uint32_t q = ana_bu_path_parent(b, p);
         q != UINT32_MAX && ana_bu_path_key(b, q, NULL, NULL) != lk && top;
         q = ana_bu_path_parent(b, q))
      top = !(cand[q] && ana_bu_path_key(b, q, NULL, NULL) != k);
    for (unsigned i = 0; i < ndone && !dup; i++)
      dup = done[i] == k;
    if (!top || dup || ndone == ZC_ARRAY_LEN(done)) continue;
    uint32_t i = graph_append_path(c, g, l, p);
    if (i == ANA_NONE) continue;
    done[ndone++] = k;
    g->nodes[i].cause = 1;
    g->calls[i].why = ANA_WHY_CHANGED_BELOW;
    g->calls[i].landed = l;
    named++;
  }
  free(cand);
  if (named) g->nodes[l].cause = 0;
  return named;
}

/* The new work upstream of cause l: up its path, under the nearest
 * ancestor that has some, the function whose calls appear only in the new
 * build (not on l's path, not under l, first run before l) with the most
 * time in the new build; *where gets that ancestor. 0 when there is
 * none. */
static uint32_t upstream_of(const struct ana_cmp *c, const struct ana_graph *g,
                            uint32_t l, uint32_t *where, uint32_t *path) {
  const struct ana_bottomup *b = c->bu;
  uint32_t np = ana_bu_npaths(b), at;
  uint32_t onpath[256];
  unsigned non = 0;
  for (uint32_t a = l; a != ANA_NONE && non < 256; a = g->nodes[a].parent)
    onpath[non++] = g->nodes[a].key;
  for (uint32_t a = g->nodes[l].parent; a != ANA_NONE; a = g->nodes[a].parent) {
    if (g->nodes[a].kind != ANA_FUNC) return 0;
    uint32_t ak = g->nodes[a].key, best = 0, best_p = UINT32_MAX;
    double best_t = 0;
    for (uint32_t p = 0; p < np; p++) {
      uint32_t k = ana_bu_path_key(b, p, NULL, NULL);
      int skip = !named_fn(c, p) || !under(b, p, ak, &at) ||
                 !(ana_calls(c, k, 0) == 0) || !(ana_calls(c, k, 1) > 0);
      for (unsigned i = 0; i < non && !skip; i++)
        skip = k == onpath[i];
      /* not below l: l's own work is l's */
      uint32_t t;
      if (!skip && under(b, p, g->nodes[l].key, &t)) skip = 1;
      /* what runs after l cannot be what l is given */
      if (!skip && !ran_before(c, k, g->nodes[l].key)) skip = 1;
      if (skip) continue;
      double v[ANA_SPREAD_MAX_PAIRS], sum = 0;
      unsigned n = ana_bu_incl_values(b, k, 1, v, ANA_SPREAD_MAX_PAIRS);
      for (unsigned i = 0; i < n; i++)
        sum += v[i];
      /* work no sample saw in the new build shows nothing of it */
      if (sum > 0 && (!best || sum > best_t))
        best = k, best_t = sum, best_p = p;
    }
    if (best) {
      *where = a;
      *path = best_p;
      return best;
    }
  }
  return 0;
}

/* The nearest caller up cause l's path whose own code changed (the code
 * hashes of the count runs differ): what it passes down is the likeliest
 * change of l's input. ANA_NONE when none on the path did. */
static uint32_t changed_caller(const struct ana_cmp *c,
                               const struct ana_graph *g, uint32_t l) {
  for (uint32_t a = g->nodes[l].parent; a != ANA_NONE; a = g->nodes[a].parent) {
    if (g->nodes[a].kind != ANA_FUNC) return ANA_NONE;
    if (ana_calls_changed(c, g->nodes[a].key) == 1) return a;
  }
  return ANA_NONE;
}

/* Whether graph node a is above node l, on its path. */
static int above(const struct ana_graph *g, uint32_t a, uint32_t l) {
  for (uint32_t x = g->nodes[l].parent; x != ANA_NONE; x = g->nodes[x].parent)
    if (x == a) return 1;
  return 0;
}

/* Causes whose input changed are consequences of a change upstream: the
 * new work that ran before them (a function called only in the new
 * build), else the nearest caller whose code changed, is named as a root
 * beside them (whatever its own growth: it is why theirs happened), and
 * they are ranked after it; so is a loop's owner with the same code as
 * before. Returns the roots added. */
static uint32_t upstream_roots(struct ana_cmp *c, struct ana_graph *g,
                               uint32_t n0, double mu) {
  uint32_t added = 0;
  for (uint32_t l = 0; l < n0; l++) {
    if (!g->nodes[l].cause || g->nodes[l].kind != ANA_FUNC) continue;
    /* a loop's owner with the same code as before: its loop runs more
     * because what it is given changed */
    int owner = g->calls[l].why == ANA_WHY_LOOP &&
                ana_calls_changed(c, g->nodes[l].key) == 0;
    if (g->calls[l].why && !owner) continue;
    if (!owner && !input_changed(c, g, l, mu)) continue;
    uint32_t r = ANA_NONE, at = ANA_NONE, p = UINT32_MAX;
    uint32_t rk = upstream_of(c, g, l, &at, &p);
    if (!rk && (r = changed_caller(c, g, l)) == ANA_NONE) continue;
    if (r != ANA_NONE && !g->nodes[r].cause) {
      g->nodes[r].cause = 1;
      added++;
    }
    for (uint32_t i = 0; i < g->n && r == ANA_NONE; i++)
      if (g->nodes[i].key == rk && g->nodes[i].cause) r = i;
    if (r == ANA_NONE) { /* at a call path that ran, in a node of its own */
      uint32_t n1 = g->n;
      r = graph_append_path(c, g, at, p);
      if (r != ANA_NONE && r < n1) r = graph_append(c, g, at, rk);
      if (r == ANA_NONE) continue;
      g->nodes[r].cause = 1;
      added++;
    }
    if (!g->calls[r].why) {
      g->calls[r].why = ANA_WHY_UPSTREAM;
      g->calls[r].landed = l;
    }
    /* A root up l's own path: l is where its time landed, as a loop's
     * callee is, and no cause of its own. One off the path ran before
     * l, elsewhere: l stays, ranked after it. */
    if (g->calls[r].landed == l && above(g, r, l))
      g->nodes[l].cause = 0;
    else
      g->nodes[l].effect = 1;
  }
  return added;
}

/* The nearest frame above bottom-up path q that the graph can hold (a
 * named function, a thread), or UINT32_MAX. */
static uint32_t frame_up(const struct ana_cmp *c, uint32_t q) {
  for (q = ana_bu_path_parent(c->bu, q); q != UINT32_MAX;
       q = ana_bu_path_parent(c->bu, q)) {
    uint8_t kind;
    ana_bu_path_key(c->bu, q, NULL, &kind);
    if (kind == ANA_THREAD || named_fn(c, q)) return q;
  }
  return UINT32_MAX;
}

/* Whether graph node i stands at bottom-up path a: its function or
 * thread, and every one above it, are a's frames. */
static int graph_at(const struct ana_cmp *c, const struct ana_graph *g,
                    uint32_t i, uint32_t a) {
  uint8_t kind;
  uint32_t q = a, x = i;
  for (; x != ANA_NONE && q != UINT32_MAX;
       x = g->nodes[x].parent, q = frame_up(c, q))
    if (g->nodes[x].key != ana_bu_path_key(c->bu, q, NULL, &kind) ||
        g->nodes[x].kind != kind)
      return 0;
  return q == UINT32_MAX && (x == ANA_NONE || g->nodes[x].kind == ANA_ROOT);
}

/* The graph node at bottom-up path p (a named function's): the node
 * standing there, or, where the graph does not hold p, p's frames
 * appended under the lowest graph node standing at one of p's callers (or
 * its thread). ANA_NONE when there is none. */
static uint32_t graph_node_at(struct ana_cmp *c, struct ana_graph *g,
                              uint32_t p) {
  for (uint32_t a = p; a != UINT32_MAX; a = frame_up(c, a))
    for (uint32_t i = 0; i < g->n; i++)
      if (graph_at(c, g, i, a))
        return a == p ? i : graph_append_path(c, g, i, p);
  return ANA_NONE;
}

/* Up spread-out cause k's call path p (a recursion's own levels passed):
 * the first function that calls the one below it more often per call of
 * its own (more: k is called more often), or the first whose code changed
 * (k does more per call with the same code: what it is given changed).
 * Old code the old build had but never called owns no loop: the caller
 * that calls it does. UINT32_MAX when the counts cannot say. */
static uint32_t spread_owner(const struct ana_cmp *c, uint32_t p, uint32_t k,
                             int more) {
  uint32_t child = k;
  for (uint32_t q = frame_up(c, p); q != UINT32_MAX; q = frame_up(c, q)) {
    if (!named_fn(c, q)) return UINT32_MAX; /* its thread: none is */
    uint32_t qk = ana_bu_path_key(c->bu, q, NULL, NULL);
    if (qk == child || qk == k) continue;
    if (!more) {
      if (ana_calls_changed(c, qk) == 1) return q;
      continue;
    }
    /* old code the old build had, uncalled, calls it for a caller above */
    int f = old_uncalled(c, qk) ? 0 : fanout_grew(c, qk, child);
    if (f == 1) return q;
    if (f < 0) return UINT32_MAX;
    child = qk;
  }
  return UINT32_MAX;
}

/* A spread-out cause is a cause as a leaf of the graph is: called more
 * often, not slower per call, it is its loop's owner's doing; slower per
 * call with the same code, its input's. Up each of its costliest call
 * paths, that owner, or the nearest caller whose code changed; one whose
 * paths together grew by mu is named in the graph as a root at the first
 * of them, the time landed in the spread-out cause (which stays in the
 * report as such). Returns the roots added. */
static uint32_t spread_roots(struct ana_cmp *c, struct ana_graph *g,
                             double mu) {
  uint32_t added = 0;
  for (uint32_t i = 0; i < c->sp.n; i++) {
    const struct ana_spread *v = &c->sp.v[i];
    uint32_t k = v->fn.key;
    struct csplit s;
    if (!split_of(c, k, &s) || !(s.co > 0)) continue;
    int more = s.more >= mu && s.slower < mu;
    int given = given_more(c, &s, k, mu);
    if (!more && !given) continue;
    uint32_t at[ANA_SPREAD_TOP], key[ANA_SPREAD_TOP];
    double sum[ANA_SPREAD_TOP];
    unsigned n = 0;
    for (unsigned t = 0; t < v->ntop; t++) {
      uint32_t q = spread_owner(c, v->top[t].path, k, more), j = 0;
      if (q == UINT32_MAX) continue;
      uint32_t qk = ana_bu_path_key(c->bu, q, NULL, NULL);
      while (j < n && key[j] != qk)
        j++;
      if (j == n) at[n] = q, key[n] = qk, sum[n++] = 0;
      sum[j] += v->top[t].delta_ms;
    }
    for (unsigned j = 0; j < n; j++) {
      uint32_t r = sum[j] >= mu ? graph_node_at(c, g, at[j]) : ANA_NONE;
      if (r == ANA_NONE) continue;
      if (!g->nodes[r].cause) {
        g->nodes[r].cause = 1;
        added++;
      }
      if (g->calls[r].why) continue;
      g->calls[r].why = (uint8_t)(more ? ANA_WHY_LOOP : ANA_WHY_UPSTREAM);
      g->calls[r].landed = ANA_NONE;
      g->calls[r].landed_key = k;
    }
  }
  return added;
}

/* The function a loop's owner's time landed in, or 0. */
static uint32_t landed_fn(const struct ana_graph *g, uint32_t i) {
  const struct ana_gcalls *gc = &g->calls[i];
  if (gc->why != ANA_WHY_LOOP && gc->why != ANA_WHY_INSIDE_NEW) return 0;
  if (gc->landed_key) return gc->landed_key;
  return gc->landed != ANA_NONE ? g->nodes[gc->landed].key : 0;
}

/* Owners named for the same landing function on different call paths:
 * one path can lack a frame V8 inlined there (layoutBars > computeGap
 * beside layoutBars > barWidth > computeGap), and every caller up a path
 * calls the landing function more often per call of its own. Where one
 * owner's code changed and another's did not, the one whose code did not
 * change only loops over the changed one: it is dropped. Returns how
 * many. */
static uint32_t same_landing(const struct ana_cmp *c, struct ana_graph *g) {
  uint32_t dropped = 0;
  for (uint32_t i = 0; i < g->n; i++) {
    uint32_t k = g->nodes[i].cause ? landed_fn(g, i) : 0;
    if (!k || ana_calls_changed(c, g->nodes[i].key) != 0) continue;
    for (uint32_t j = 0; j < g->n; j++) {
      if (j == i || !g->nodes[j].cause || landed_fn(g, j) != k ||
          g->nodes[j].key == g->nodes[i].key ||
          ana_calls_changed(c, g->nodes[j].key) != 1)
        continue;
      g->nodes[i].cause = 0;
      dropped++;
      break;
    }
  }
  return dropped;
}

/* Names node to in the place of cause l, for why, the time landing in l;
 * 1 when to was no cause before. */
static uint32_t move_cause(struct ana_graph *g, uint32_t l, uint32_t to,
                           enum ana_why why) {
  uint32_t added = !g->nodes[to].cause;
  g->nodes[l].cause = 0;
  g->nodes[to].cause = 1;
  g->calls[to].why = (uint8_t)why;
  g->calls[to].landed = l;
  return added;
}

uint32_t ana__calls_explain(struct ana_cmp *c) {
  struct ana_graph *g = c->agg;
  if (!g || !ana_cmp_calls_pairs(c) || g->unit != ANA_UNIT_TIME) return 0;
  double mu = c->o.mu;
  uint32_t moved = 0, n0 = g->n;
  gcalls(g);
  for (uint32_t l = 0; l < n0; l++) {
    struct ana_gnode *nd = &g->nodes[l];
    if (!nd->cause || nd->kind != ANA_FUNC) continue;
    /* On a call path new to the build whose top is old code, there but
     * never called: whose call is new? */
    uint32_t top = new_path_top(c, g, l);
    if (top != ANA_NONE) {
      uint32_t o = new_caller(c, g, top);
      if (o != ANA_NONE) moved += move_cause(g, l, o, ANA_WHY_LOOP);
      continue;
    }
    /* never called before */
    if (nd->isnew == nd->present && ana_calls(c, nd->key, 0) == 0) {
      /* new code: what inside it grew */
      if (inside_new(c, g, l, mu)) {
        moved++;
        continue;
      }
      uint32_t e = new_code_entry(c, g, l);
      uint32_t p = enclosing_caller(c, g, e);
      if (p != ANA_NONE)
        moved += move_cause(g, l, p, ANA_WHY_ENCLOSING);
      else if (e != l)
        moved += move_cause(g, l, e, ANA_WHY_ENTRY);
      else if (old_uncalled(c, nd->key) &&
               (p = new_caller(c, g, l)) != ANA_NONE)
        /* old code the old build never called, its text the same, under
         * old code that calls it where it did not (called more): whoever
         * calls that chain where it did not, its code changed, makes the
         * calls (trumbowyg 2.28's redrawResizeLayers, reaching jQuery's
         * style through css and access) */
        moved += move_cause(g, l, p, ANA_WHY_LOOP);
      continue;
    }
    uint32_t o = loop_owner(c, g, l, mu);
    if (o != ANA_NONE) {
      moved += move_cause(g, l, o, ANA_WHY_LOOP);
      /* Its own code changed as well: the change can be in it too (what
       * a call of it does, or leaves for the next), and it stays named
       * beside its loop's owner. The same code cannot be the change. */
      if (ana_calls_changed(c, nd->key) == 1) nd->cause = 1;
      continue;
    }
    /* slower per call with the same code: did what it calls change? */
    struct csplit s;
    if (split_of(c, nd->key, &s) && s.co > 0 &&
        given_more(c, &s, nd->key, mu) && changed_below(c, g, l, mu))
      moved++;
  }
  moved += upstream_roots(c, g, n0, mu);
  moved += spread_roots(c, g, mu);
  moved += same_landing(c, g);
  /* What every node's function was called, and each cause's evidence in
   * words, for the writers that see the graph alone (DOT, terminal,
   * summary.md). */
  for (uint32_t i = 0; i < g->n; i++) {
    if (g->nodes[i].kind != ANA_FUNC) continue;
    g->calls[i].calls[0] = ana_calls(c, g->nodes[i].key, 0);
    g->calls[i].calls[1] = ana_calls(c, g->nodes[i].key, 1);
    if (!g->nodes[i].cause) continue;
    char w[1024];
    ana__calls_words(c, i, w, sizeof w);
    if (w[0]) g->calls[i].words = zc_xstrdup(w);
  }
  return moved;
}

/* ---- the evidence, for the reports ---- */

/* A figure to four significant digits (per-call times run to µs and
 * below), or null. */
static cJSON *num_or_null(double v) {
  if (isnan(v)) return cJSON_CreateNull();
  if (v == 0) return cJSON_CreateNumber(0);
  double m = pow(10, 3 - floor(log10(fabs(v))));
  return cJSON_CreateNumber(round(v * m) / m);
}

/* "340" or "2.5": a count as people read it. */
static void count_text(double v, char *out, size_t cap) {
  if (fabs(v - round(v)) < 0.05)
    snprintf(out, cap, "%.0f", v);
  else
    snprintf(out, cap, "%.1f", v);
}

/* The function a loop's owner i calls more often, where it is not the one
 * the time landed in: its child on the path down to that node; ANA_NONE
 * otherwise. */
static uint32_t loop_callee(const struct ana_graph *g, uint32_t i) {
  const struct ana_gcalls *gc = &g->calls[i];
  if (gc->why != ANA_WHY_LOOP || gc->landed == ANA_NONE) return ANA_NONE;
  uint32_t j = gc->landed;
  while (j != ANA_NONE && g->nodes[j].parent != i)
    j = g->nodes[j].parent;
  if (j == ANA_NONE || j == gc->landed || g->nodes[j].kind != ANA_FUNC)
    return ANA_NONE;
  return j;
}

/* The evidence of loop's owner i whose callee on the path is not where
 * the time landed (function lk): the call that grew, and the landing.
 * 0 when there is no such callee. */
static int callee_words(const struct ana_cmp *c, uint32_t i, uint32_t lk,
                        char *out, size_t cap) {
  const struct ana_graph *g = c->agg;
  uint32_t ch = loop_callee(g, i);
  if (ch == ANA_NONE) return 0;
  const struct ana_ctx *x = c->ctx;
  const struct ana_bu_row *r = ana_bu_row(c->bu, lk);
  uint32_t ok = g->nodes[i].key, ck = g->nodes[ch].key;
  double oo = ana_calls(c, ok, 0), on = ana_calls(c, ok, 1);
  double co = ana_calls(c, ck, 0), cn = ana_calls(c, ck, 1);
  char pa[32], pb[32], ca[32], cb[32], la[32], lb[32], k[64] = "more often";
  count_text(oo, pa, sizeof pa);
  count_text(on, pb, sizeof pb);
  count_text(co, ca, sizeof ca);
  count_text(cn, cb, sizeof cb);
  count_text(ana_calls(c, lk, 0), la, sizeof la);
  count_text(ana_calls(c, lk, 1), lb, sizeof lb);
  if (co > 0 && oo > 0 && on > 0)
    snprintf(k, sizeof k, "%.3g times as often", (cn / on) / (co / oo));
  snprintf(out, cap,
           "%s (called %s times a run, %s before) calls %s %s per call of "
           "its own (%s times a run instead of %s): a loop that runs more, or "
           "a lost cache; the time landed in %s, called %s times a run "
           "instead of %s",
           ana_str(x, g->nodes[i].name), pb, pa, ana_str(x, g->nodes[ch].name),
           k, cb, ca, r ? ana_str(x, r->name) : "?", lb, la);
  return 1;
}

/* The words of changed code named below a cause slower per call with the
 * same code (ANA_WHY_CHANGED_BELOW). */
static void below_words(const struct ana_cmp *c, uint32_t i, char *out,
                        size_t cap) {
  const struct ana_graph *g = c->agg;
  const struct ana_gcalls *gc = &g->calls[i];
  uint32_t ak = g->nodes[gc->landed].key;
  struct csplit s;
  if (!split_of(c, ak, &s) || !(s.co > 0) || !(s.cn > 0)) return;
  char a[32], b[32], head[160];
  double ro = ana_calls(c, g->nodes[i].key, 0),
         rn = ana_calls(c, g->nodes[i].key, 1);
  count_text(rn, b, sizeof b);
  if (ro > 0) {
    count_text(ro, a, sizeof a);
    snprintf(head, sizeof head,
             "its code changed (called %s times a run, %s before)", b, a);
  } else {
    snprintf(head, sizeof head, "new code: called %s times a run, never before",
             b);
  }
  snprintf(out, cap,
           "%s; above it, %s is slower per call with the same code "
           "(%.3g -> %.3g ms a call): it calls this changed code, and the "
           "time is this code's",
           head, ana_str(c->ctx, g->nodes[gc->landed].name), s.t_old / s.co,
           s.t_new / s.cn);
}

/* The words of a changed function named for new code defined inside it
 * (ANA_WHY_ENCLOSING). */
static void enclosing_words(const struct ana_cmp *c, uint32_t i, char *out,
                            size_t cap) {
  const struct ana_graph *g = c->agg;
  uint32_t l = g->calls[i].landed;
  char a[32], b[32], n[32];
  count_text(ana_calls(c, g->nodes[i].key, 0), a, sizeof a);
  count_text(ana_calls(c, g->nodes[i].key, 1), b, sizeof b);
  count_text(ana_calls(c, g->nodes[l].key, 1), n, sizeof n);
  snprintf(out, cap,
           "its code changed (called %s times a run, %s before): %s, called "
           "%s times a run and never before, is new code defined inside it, "
           "part of its change",
           b, a, ana_str(c->ctx, g->nodes[l].name), n);
}

/* Cause i was never called before: where its caller on the path ran
 * before, as often as now, with code that changed, that caller makes the
 * new calls, and the words say so after out (whichever of the two the
 * fix goes to: the changed caller, or the new code it calls). */
static void caller_words(const struct ana_cmp *c, uint32_t i, char *out,
                         size_t cap) {
  const struct ana_graph *g = c->agg;
  uint32_t p = g->nodes[i].parent;
  if (p == ANA_NONE || g->nodes[p].kind != ANA_FUNC ||
      !(ana_calls(c, g->nodes[i].key, 0) == 0))
    return;
  uint32_t pk = g->nodes[p].key;
  double po = ana_calls(c, pk, 0), pn = ana_calls(c, pk, 1);
  if (!(po > 0) || called_more(c, pk) || ana_calls_changed(c, pk) != 1) return;
  char a[32], b[32];
  count_text(pn, b, sizeof b);
  count_text(po, a, sizeof a);
  size_t l = strlen(out);
  snprintf(out + l, cap - l,
           "; its caller %s, whose code changed (called %s times a run, %s "
           "before), calls it where it did not",
           ana_str(c->ctx, g->nodes[p].name), b, a);
}

void ana__calls_words(const struct ana_cmp *c, uint32_t i, char *out,
                      size_t cap) {
  out[0] = '\0';
  const struct ana_graph *g = c->agg;
  if (!g || !g->calls || i >= g->n) return;
  const struct ana_gcalls *gc = &g->calls[i];
  uint32_t lk = gc->why == ANA_WHY_LOOP && gc->landed != ANA_NONE
                    ? g->nodes[gc->landed].key
                    : gc->landed_key;
  const struct ana_ctx *x = c->ctx;
  char a[32], b[32], pa[32], pb[32];
  const struct ana_bu_row *lr = lk ? ana_bu_row(c->bu, lk) : NULL;
  if (gc->why == ANA_WHY_UPSTREAM && (gc->landed != ANA_NONE || lr)) {
    double ro = ana_calls(c, g->nodes[i].key, 0),
           rn = ana_calls(c, g->nodes[i].key, 1);
    const char *ln = ana_str(
        x, gc->landed != ANA_NONE ? g->nodes[gc->landed].name : lr->name);
    count_text(rn, b, sizeof b);
    if (ro > 0) {
      count_text(ro, a, sizeof a);
      snprintf(out, cap,
               "its code changed (called %s times a run, %s before); under "
               "it, %s does more with the same code: what it is given "
               "changed",
               b, a, ln);
    } else {
      snprintf(out, cap,
               "new work: called %s times a run, never before; after it, %s "
               "does more with the same code: what it is given changed",
               b, ln);
    }
    return;
  }
  if (gc->why == ANA_WHY_CHANGED_BELOW && gc->landed != ANA_NONE) {
    below_words(c, i, out, cap);
    return;
  }
  if (gc->why == ANA_WHY_ENCLOSING && gc->landed != ANA_NONE) {
    enclosing_words(c, i, out, cap);
    return;
  }
  if (gc->why == ANA_WHY_ENTRY && gc->landed != ANA_NONE) {
    uint32_t lkey = g->nodes[gc->landed].key;
    count_text(ana_calls(c, lkey, 1), b, sizeof b);
    count_text(ana_calls(c, g->nodes[i].key, 1), pb, sizeof pb);
    snprintf(out, cap,
             "new code: called %s times a run, never before; it calls %s "
             "(%s times a run, never before), %s",
             pb, ana_str(x, g->nodes[gc->landed].name), b,
             in_loop_of(c, lkey, g->nodes[i].key)
                 ? "in a loop or a walk of its own: the time is that loop's"
             : ana_calls_changed(c, lkey) == 0
                 ? "code the old build had but never called: the time is "
                   "this new code's call of it"
                 : "which does little itself: the time is the old code "
                   "that runs under it");
    caller_words(c, i, out, cap);
    return;
  }
  if (lk) {
    double lo = ana_calls(c, lk, 0), ln = ana_calls(c, lk, 1);
    if (lo > 0 && callee_words(c, i, lk, out, cap)) return;
    double oo = ana_calls(c, g->nodes[i].key, 0),
           on = ana_calls(c, g->nodes[i].key, 1);
    count_text(lo, a, sizeof a);
    count_text(ln, b, sizeof b);
    count_text(oo, pa, sizeof pa);
    count_text(on, pb, sizeof pb);
    char k[64] = "more often";
    if (lo > 0 && oo > 0 && on > 0)
      snprintf(k, sizeof k, "%.3g times as often", (ln / on) / (lo / oo));
    if (!(lo > 0) && gc->why == ANA_WHY_LOOP)
      snprintf(out, cap,
               "%s called %s times a run, never before, though the old build "
               "had the same code: %s (called %s times, %s before) calls it "
               "where it did not",
               lr ? ana_str(x, lr->name) : "?", b, ana_str(x, g->nodes[i].name),
               pb, pa);
    else
      snprintf(out, cap,
               "%s called %s times a run instead of %s, under %s (called %s "
               "times, %s before), which calls it %s per call of its own: a "
               "loop that runs more, or a lost cache",
               lr ? ana_str(x, lr->name) : "?", b, a,
               ana_str(x, g->nodes[i].name), pb, pa, k);
    return;
  }
  if (isnan(ana_calls(c, g->nodes[i].key, 1))) {
    snprintf(out, cap,
             "no call counts: %s is not in V8's coverage of the page (a "
             "worker's script is not); named on its time alone",
             ana_str(x, g->nodes[i].component));
    return;
  }
  struct csplit s;
  if (!split_of(c, g->nodes[i].key, &s)) return;
  count_text(s.co, a, sizeof a);
  count_text(s.cn, b, sizeof b);
  if (!(s.co > 0)) {
    snprintf(out, cap, "%s times a run, never called before", b);
    caller_words(c, i, out, cap);
  } else if (s.slower >= s.more)
    snprintf(out, cap,
             "slower per call: %.3f -> %.3f ms a call, %s calls a run (%s "
             "before)%s",
             s.t_old / s.co, s.t_new / s.cn, b, a,
             ana_calls_changed(c, g->nodes[i].key) == 0
                 ? "; its code is the same: what it is given changed"
                 : "");
  else
    snprintf(out, cap,
             "called more often: %s times a run instead of %s, %.3f ms a "
             "call%s",
             b, a, s.t_old / s.co,
             ana_calls_changed(c, g->nodes[i].key) == 1
                 ? "; its code changed too"
                 : "");
}

/* One path node's counts. */
static cJSON *node_calls(const struct ana_cmp *c, const struct ana_gnode *nd) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "function", ana_str(c->ctx, nd->name));
  struct csplit s;
  int ok = split_of(c, nd->key, &s);
  double co = ana_calls(c, nd->key, 0), cn = ana_calls(c, nd->key, 1);
  cJSON_AddItemToObject(o, "old", num_or_null(co));
  cJSON_AddItemToObject(o, "new", num_or_null(cn));
  cJSON *pc = cJSON_AddArrayToObject(o, "per_call_ms");
  cJSON_AddItemToArray(pc, num_or_null(ok && s.co > 0 ? s.t_old / s.co : NAN));
  cJSON_AddItemToArray(pc, num_or_null(ok ? s.t_new / s.cn : NAN));
  int ch = ana_calls_changed(c, nd->key);
  if (ch < 0)
    cJSON_AddNullToObject(o, "changed");
  else
    cJSON_AddBoolToObject(o, "changed", ch);
  return o;
}

/* Whether node i of the aggregate is a regression cause whose calls are
 * unknown (its script is in no count file). */
static int uncounted_cause(const struct ana_cmp *c, uint32_t i) {
  const struct ana_gnode *nd = &c->agg->nodes[i];
  return nd->cause && nd->kind == ANA_FUNC && isnan(ana_calls(c, nd->key, 1));
}

const char *ana_cmp_uncounted(struct ana_cmp *c) {
  if (!ana_cmp_calls_pairs(c)) return NULL;
  ana__cmp_aggregate(c);
  for (uint32_t i = 0; c->agg && i < c->agg->n; i++)
    if (uncounted_cause(c, i))
      return ana_str(c->ctx, c->agg->nodes[i].component);
  return NULL;
}

/* A function named on a cause's row (where its time landed, the call
 * that grew): {name, file, calls_old, calls_new} under field. */
static void fn_calls_json(const struct ana_cmp *c, cJSON *o, const char *field,
                          uint32_t name, uint32_t component, uint32_t key) {
  cJSON *l = cJSON_AddObjectToObject(o, field);
  cJSON_AddStringToObject(l, "name", ana_str(c->ctx, name));
  cJSON_AddStringToObject(l, "file", ana_str(c->ctx, component));
  cJSON_AddItemToObject(l, "calls_old", num_or_null(ana_calls(c, key, 0)));
  cJSON_AddItemToObject(l, "calls_new", num_or_null(ana_calls(c, key, 1)));
}

void ana__calls_json(const struct ana_cmp *c, cJSON *doc) {
  const struct ana_graph *g = c->agg;
  if (!g || !ana_cmp_calls_pairs(c)) return;
  cJSON *cj = cJSON_AddObjectToObject(doc, "counts");
  cJSON_AddNumberToObject(cj, "pairs", ana_cmp_calls_pairs(c));
  /* the scripts of causes the counts could not reach, once each */
  cJSON *un = NULL;
  for (uint32_t i = 0; i < g->n; i++) {
    if (!uncounted_cause(c, i)) continue;
    const char *f = ana_str(c->ctx, g->nodes[i].component);
    if (!un) un = cJSON_AddArrayToObject(cj, "uncounted");
    int dup = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, un) dup |= !strcmp(x->valuestring, f);
    if (!dup) cJSON_AddItemToArray(un, cJSON_CreateString(f));
  }
  cJSON *arr = cJSON_GetObjectItem(doc, "regression_causes");
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  cJSON *o = arr ? arr->child : NULL;
  for (uint32_t k = 0; k < n && o; k++, o = o->next) {
    uint32_t i = cs[k].node;
    uint32_t path[4096], len = 0;
    for (uint32_t j = i; j != ANA_NONE && len < 4096; j = g->nodes[j].parent)
      if (g->nodes[j].kind == ANA_FUNC) path[len++] = j;
    cJSON *pa = cJSON_AddArrayToObject(o, "calls");
    while (len)
      cJSON_AddItemToArray(pa, node_calls(c, &g->nodes[path[--len]]));
    struct csplit s;
    if (split_of(c, g->nodes[i].key, &s)) {
      cJSON *sp = cJSON_AddObjectToObject(o, "split");
      cJSON_AddItemToObject(sp, "calls_ms", num_or_null(s.more));
      cJSON_AddItemToObject(sp, "per_call_ms", num_or_null(s.slower));
      /* each part's 95 % interval over the pairs (the counts are the
       * count pairs' mean, the times each pair's) */
      const struct ana_stat *st[2] = {&s.more_st, &s.slower_st};
      static const char *const key[2] = {"calls_ci95", "per_call_ci95"};
      for (int q = 0; q < 2; q++) {
        cJSON *ci = cJSON_AddArrayToObject(sp, key[q]);
        cJSON_AddItemToArray(ci, num_or_null(st[q]->lo));
        cJSON_AddItemToArray(ci, num_or_null(st[q]->hi));
      }
    }
    char words[1024];
    ana__calls_words(c, i, words, sizeof words);
    if (words[0]) cJSON_AddStringToObject(o, "evidence", words);
    const struct ana_gcalls *gc = g->calls ? &g->calls[i] : NULL;
    static const char *const why_name[] = {
        "",         "loop_owner",    "inside_new_code", "new_code_entry",
        "upstream", "changed_below", "enclosing"};
    if (gc && gc->why && gc->why < ZC_ARRAY_LEN(why_name))
      cJSON_AddStringToObject(o, "named_by", why_name[gc->why]);
    if (gc && gc->bu) cJSON_AddStringToObject(o, "measure", "function");
    uint32_t lk = gc && gc->why != ANA_WHY_INSIDE_NEW && gc->landed != ANA_NONE
                      ? g->nodes[gc->landed].key
                  : gc ? gc->landed_key
                       : 0;
    uint32_t ch = gc ? loop_callee(g, i) : ANA_NONE;
    if (ch != ANA_NONE)
      fn_calls_json(c, o, "calls_more", g->nodes[ch].name,
                    g->nodes[ch].component, g->nodes[ch].key);
    const struct ana_bu_row *r = lk ? ana_bu_row(c->bu, lk) : NULL;
    if (r) fn_calls_json(c, o, "landed", r->name, r->component, lk);
  }
  free(cs);
}
