/* Renaming a timeline's functions through source maps. See smap.h. */
#include <stdlib.h>
#include <string.h>

#include "smap.h"
#include "timeline.h"

struct sym_script {
  char *url;
  struct ana_smap *map; /* NULL: none, or broken (warned) */
  char *text;           /* the generated script, or NULL */
  size_t textn;
  int ascii;
  uint32_t *line0; /* byte offsets of the text's lines, made on demand */
  size_t nlines;
  /* The long lines that are not all ASCII, indexed once each (by line
   * number in ltab), so that a frame's column is found without walking
   * the line up to it: issue 26.7. */
  struct sym_lidx {
    uint32_t line;
    struct ana_smap_line l;
  } * li;
  size_t nli, capli;
  struct zc_htab ltab;
};

struct ana_maps {
  ana_map_find find;
  ana_map_usable usable; /* or NULL */
  void *arg;
  struct ana_smap_budget budget; /* what the maps still to come may use */
  struct sym_script *s;
  size_t n, cap;
  struct zc_htab tab; /* hash of url -> index */
};

struct ana_maps *ana_maps_new(ana_map_find find, void *arg) {
  struct ana_maps *s = zc_xcalloc(1, sizeof *s);
  s->find = find;
  s->arg = arg;
  ana_smap_budget_init(&s->budget);
  zc_htab_init(&s->tab, 16);
  return s;
}

void ana_maps_on_usable(struct ana_maps *s, ana_map_usable fn) {
  s->usable = fn;
}

void ana_maps_free(struct ana_maps *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->s[i].url);
    ana_smap_free(s->s[i].map);
    free(s->s[i].text);
    free(s->s[i].line0);
    for (size_t k = 0; k < s->s[i].nli; k++)
      ana_smap_line_free(&s->s[i].li[k].l);
    free(s->s[i].li);
    zc_htab_free(&s->s[i].ltab);
  }
  free(s->s);
  zc_htab_free(&s->tab);
  free(s);
}

static struct sym_script *sym_get(struct ana_maps *s, const char *url,
                                  size_t *pos, uint64_t *hv) {
  *hv = zc_mix64(zc_hash(url, strlen(url), 0x5eed));
  *pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&s->tab, *hv, pos, &i))
    if (!strcmp(s->s[i].url, url)) return &s->s[i];
  return NULL;
}

static struct sym_script *sym_put(struct ana_maps *s, const char *url,
                                  size_t pos, uint64_t hv,
                                  struct ana_map_src *src, int found) {
  ZC_GROW(s->s, s->cap, s->n + 1);
  struct sym_script *sc = &s->s[s->n];
  memset(sc, 0, sizeof *sc);
  sc->url = zc_xstrdup(url);
  zc_htab_init(&sc->ltab, 4);
  zc_htab_add(&s->tab, hv, pos, (uint32_t)s->n++);
  if (!src || !src->map) return sc;
  struct ana_smap *m = NULL;
  size_t gen_lines = 0;
  for (const char *t = src->text, *e = t + src->textn;
       t && (t = memchr(t, '\n', (size_t)(e - t))); t++)
    gen_lines++;
  if (ana_smap_parse_within(src->map, src->mapn,
                            src->map_url ? src->map_url : url, gen_lines + 1,
                            &s->budget, &m)) {
    char u[600];
    snprintf(u, sizeof u, "%s", src->map_url ? src->map_url : "(inline)");
    zc_scrub(u);
    char su[600];
    snprintf(su, sizeof su, "%s", url);
    zc_scrub(su);
    zc_log(1,
           "warning: %s: its source map %s is not usable (%s); its "
           "functions keep their minified names",
           su, u, zc_errmsg());
  } else {
    sc->map = m;
    size_t dropped = 0;
    ana_smap_texts(m, &dropped);
    if (dropped) {
      char su[600];
      snprintf(su, sizeof su, "%s", url);
      zc_scrub(su);
      zc_log(1,
             "warning: %s: %zu of its source map's source texts are over "
             "the source-map budget; names are not read from them",
             su, dropped);
    }
    if (found && s->usable) s->usable(s->arg, url, src);
    if (src->text) {
      sc->text = src->text;
      sc->textn = src->textn;
      src->text = NULL;
      sc->ascii = 1;
      for (size_t i = 0; i < sc->textn; i++)
        if ((unsigned char)sc->text[i] >= 0x80) {
          sc->ascii = 0;
          break;
        }
    }
  }
  return sc;
}

static void src_free(struct ana_map_src *src) {
  free(src->map);
  free(src->map_url);
  free(src->text);
  memset(src, 0, sizeof *src);
}

void ana_maps_add(struct ana_maps *s, const char *script_url, const char *map,
                  size_t mapn, const char *map_url, const char *text,
                  size_t textn) {
  size_t pos;
  uint64_t hv;
  if (sym_get(s, script_url, &pos, &hv)) return;
  struct ana_map_src src = {
      zc_xstrndup(map, mapn), map_url ? zc_xstrdup(map_url) : NULL,
      text ? zc_xstrndup(text, textn) : NULL, mapn, textn};
  sym_put(s, script_url, pos, hv, &src, 0);
  src_free(&src);
}

static struct sym_script *sym_find(struct ana_maps *s, const char *url) {
  size_t pos;
  uint64_t hv;
  struct sym_script *sc = sym_get(s, url, &pos, &hv);
  if (sc) return sc;
  struct ana_map_src src;
  memset(&src, 0, sizeof src);
  /* After SIGINT or SIGTERM nothing more is looked for. */
  int got = !zc_interrupted && s->find && s->find(s->arg, url, &src);
  sc = sym_put(s, url, pos, hv, got ? &src : NULL, 1);
  src_free(&src);
  return sc;
}

/* The generated line's text, or NULL. */
static const char *sym_line(struct sym_script *sc, uint32_t line, size_t *n) {
  if (!sc->text) return NULL;
  if (!sc->line0) {
    size_t cap = 0;
    ZC_GROW(sc->line0, cap, 2);
    sc->line0[sc->nlines++] = 0;
    for (size_t i = 0; i < sc->textn; i++)
      if (sc->text[i] == '\n') {
        ZC_GROW(sc->line0, cap, sc->nlines + 2);
        sc->line0[sc->nlines++] = (uint32_t)(i + 1);
      }
    sc->line0[sc->nlines] = (uint32_t)sc->textn + 1;
  }
  if (line >= sc->nlines) return NULL;
  size_t b = sc->line0[line], e = sc->line0[line + 1] - 1;
  if (e > b && sc->text[e - 1] == '\r') e--;
  *n = e - b;
  return sc->text + b;
}

/* Line `line` of the script (text and tn from sym_line) as resolve reads
 * it: *tmp for a short or ASCII line, else its index, built once. */
static const struct ana_smap_line *sym_indexed(struct sym_script *sc,
                                               uint32_t line, const char *text,
                                               size_t tn,
                                               struct ana_smap_line *tmp) {
  if (!text) return NULL;
  if (sc->ascii || tn < 2 * ANA_SM_CK) {
    *tmp = (struct ana_smap_line){.text = text, .n = tn, .ascii = sc->ascii};
    return tmp;
  }
  uint64_t hv = zc_mix64(line);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&sc->ltab, hv, &pos, &i))
    if (sc->li[i].line == line) return &sc->li[i].l;
  ZC_GROW(sc->li, sc->capli, sc->nli + 1);
  struct sym_lidx *x = &sc->li[sc->nli];
  x->line = line;
  ana_smap_line_init(&x->l, text, tn, 0);
  zc_htab_add(&sc->ltab, hv, pos, (uint32_t)sc->nli++);
  return &x->l;
}

void ana_symbolize(struct ana_timeline *tl, struct ana_maps *s,
                   struct ana_sym_stats *st) {
  struct ana_sym_stats z;
  if (!st) st = &z;
  memset(st, 0, sizeof *st);
  if (!s) return;
  struct ana_ctx *c = tl->ctx;
  uint32_t last_url = ANA_NONE;
  struct sym_script *sc = NULL;
  char comp[2048];
  for (uint32_t i = 0; i < tl->nnodes && !zc_interrupted; i++) {
    struct ana_node *n = &tl->nodes[i];
    if (n->kind != ANA_FUNC || !n->url || n->line < 0 || n->col < 0 || n->gen)
      continue;
    if (n->url != last_url) {
      sc = sym_find(s, ana_str(c, n->url));
      last_url = n->url;
    }
    if (!sc->map) continue;
    st->frames++;
    const char *v8 = ana_str(c, n->name);
    size_t tn = 0;
    const char *text = sym_line(sc, (uint32_t)n->line, &tn);
    struct ana_smap_line tmp;
    const struct ana_smap_line *l =
        sym_indexed(sc, (uint32_t)n->line, text, tn, &tmp);
    struct ana_smap_pos p;
    if (!ana_smap_resolve_line(sc->map, l, v8, (uint32_t)n->line,
                               (uint32_t)n->col, &p))
      continue;
    struct ana_gen g = {
        .name = n->name, .url = n->url, .line = n->line, .col = n->col};
    n->gen = ana_gen_add(c, &g);
    if (p.name) {
      n->name = ana_intern_name(c, p.name, strlen(p.name));
      st->renamed++;
    } else {
      st->sourced++;
    }
    n->url = ana_intern(c, p.source, strlen(p.source));
    size_t len = ana_component(p.source, strlen(p.source), comp, sizeof comp);
    /* webpack://app/./src/x.ts: the "./" says nothing */
    for (char *d; (d = strstr(comp, "/./"));) {
      memmove(d, d + 2, len - (size_t)(d + 2 - comp) + 1);
      len -= 2;
    }
    n->component = ana_intern(c, comp, len);
    n->line = p.line;
    n->col = -1; /* the original column is not kept */
    n->key = ana_key(c, n->component, n->name);
  }
  st->scripts = (uint32_t)s->n;
  for (size_t i = 0; i < s->n; i++)
    st->mapped += s->s[i].map != NULL;
}
