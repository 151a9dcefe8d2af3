/* Web vitals read from a trace, as DevTools' trace engine computes them
 * (its PageLoadMetricsHandler, LayoutShiftsHandler and
 * UserInteractionsHandler; README, Web vitals, says where zamcap
 * differs):
 *
 * - LCP: the main frame's navigations (navigationStart with a URL) and,
 *   for each, its largestContentfulPaint::Candidate with the highest
 *   candidateIndex, matched by navigationId: its ts less the navigation's.
 *   Soft navigations likewise, by performanceTimelineNavigationId.
 * - CLS: LayoutShift events without had_recent_input, in session windows
 *   that end after a 1 s gap, after 5 s, or at a main-frame navigation;
 *   the largest window's sum of weighted_score_delta.
 * - INP: EventTiming begin events with an interactionId and a duration of
 *   1 ms or more, paired with their end by id (the latest open begin); the
 *   longest begin-to-end.
 * - TBT: the main thread's RunTask events of 50 ms or more, clipped to the
 *   window, less 50 ms each (Lighthouse's TBTUtils). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

#define VIT_GAP_US   1000000 /* a session window ends after this gap */
#define VIT_CLUSTER  5000000 /* and lasts at most this long */
#define VIT_BLOCK_US 50000.0 /* a task blocks beyond 50 ms */

/* Does the string at s (inside an event ending at e) read lit" ? */
static int vit_lit(const char *s, const char *e, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(e - s) > n && !memcmp(s, lit, n) && s[n] == '"';
}

/* The events read. Whether the "loading" category was recorded (so that
 * no LayoutShift means a CLS of 0) is told by the scanner from any event
 * whose category is "loading" alone. */
static const char *const vit_names[] = {
    "navigationStart",
    "largestContentfulPaint::Candidate",
    "largestContentfulPaint::CandidateForSoftNavigation",
    "SoftNavigationStart",
    "LayoutShift",
    "EventTiming",
};
#define VIT_NNAMES (sizeof vit_names / sizeof *vit_names)

int ing_vital_wanted(const char *s, const char *e) {
  if (!strchr("nlSLE", s[0])) return 0;
  for (size_t i = 0; i < VIT_NNAMES; i++)
    if (vit_lit(s, e, vit_names[i])) return 1;
  return 0;
}

int ing_vital_is(const char *name) {
  for (size_t i = 0; i < VIT_NNAMES; i++)
    if (!strcmp(name, vit_names[i])) return 1;
  return 0;
}

/* The args' fields the vitals read, from args.data and args.context. */
struct vargs {
  char nav[64];
  int has_nav, url, outer, has_outer, loading_main;
  double cand, ptid, score, dur, iid;
  int recent, has_ptid;
};

static int vit_bool(struct jr *r) {
  int t = jr_peek(r) == 't';
  jr_skip(r);
  return t;
}

static void vit_field(struct jr *r, const char *k, size_t kn, struct vargs *a) {
  const char *s;
  size_t n;
  double d;
  int str = jr_peek(r) == '"';
  if (jr_is(k, kn, "navigationId") && str && jr_str(r, &s, &n)) {
    ing_copy(a->nav, sizeof a->nav, s, n);
    a->has_nav = 1;
  } else if (jr_is(k, kn, "documentLoaderURL") && str && jr_str(r, &s, &n)) {
    a->url = n > 0;
  } else if (jr_is(k, kn, "isOutermostMainFrame")) {
    a->outer = vit_bool(r), a->has_outer = 1;
  } else if (jr_is(k, kn, "isLoadingMainFrame")) {
    a->loading_main = vit_bool(r);
  } else if (jr_is(k, kn, "had_recent_input")) {
    a->recent = vit_bool(r);
  } else if (!str && jr_peek(r) != '{' && jr_peek(r) != '[' &&
             jr_peek(r) != 't' && jr_peek(r) != 'f' && jr_peek(r) != 'n' &&
             jr_num(r, &d)) {
    if (jr_is(k, kn, "candidateIndex")) a->cand = d;
    if (jr_is(k, kn, "performanceTimelineNavigationId"))
      a->ptid = d, a->has_ptid = 1;
    if (jr_is(k, kn, "weighted_score_delta")) a->score = d;
    if (jr_is(k, kn, "duration")) a->dur = d;
    if (jr_is(k, kn, "interactionId")) a->iid = d;
  } else {
    jr_skip(r);
  }
}

static void vit_args(struct jr *r, struct vargs *a) {
  const char *k, *k2;
  size_t kn, kn2;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if ((jr_is(k, kn, "data") || jr_is(k, kn, "context")) &&
        jr_peek(r) == '{') {
      jr_obj(r);
      while (jr_more(r, &k2, &kn2))
        vit_field(r, k2, kn2, a);
    } else {
      jr_skip(r);
    }
  }
}

void ing_vital_event(struct ing *g, struct jr *r, const char *args, char ph,
                     const char *name, const char *id, double ts) {
  if (!(ts > -4e18 && ts < 4e18)) return;
  struct vargs a;
  memset(&a, 0, sizeof a);
  if (args) {
    r->p = args;
    vit_args(r, &a);
    r->err = NULL; /* a malformed field costs that event, not the trace */
  }
  struct vev v = {.ts = (int64_t)ts, .nav = ANA_NONE, .id = ANA_NONE};
  char buf[32];
  if (!strcmp(name, "navigationStart")) {
    if (!a.has_nav) return;
    v.what = VE_NAV;
    v.main = a.url && (a.has_outer ? a.outer : a.loading_main);
    v.nav = ana_intern(g->ctx, a.nav, strlen(a.nav));
  } else if (name[0] == 'l') {
    int soft = strlen(name) > 33;
    if (soft && !a.has_ptid) return;
    if (!soft && !a.has_nav) return;
    v.what = soft ? VE_SOFTLCP : VE_LCP;
    v.v = a.cand;
    snprintf(buf, sizeof buf, "%.0f", a.ptid);
    v.nav = soft ? ana_intern(g->ctx, buf, strlen(buf))
                 : ana_intern(g->ctx, a.nav, strlen(a.nav));
  } else if (name[0] == 'S') {
    if (!a.has_ptid) return;
    v.what = VE_SOFTNAV;
    snprintf(buf, sizeof buf, "%.0f", a.ptid);
    v.nav = ana_intern(g->ctx, buf, strlen(buf));
  } else if (name[0] == 'L') {
    g->saw_loading = 1;
    v.what = VE_SHIFT;
    v.recent = (uint8_t)a.recent;
    /* A score that is no score counts as none, as the engine's missing
     * data does: a shift's score is its impact times its distance, each
     * a fraction of the viewport, so at most 1 (issue 38: up to 1e9 was
     * taken, and one event made the CLS of a run). */
    v.v = a.score >= 0 && a.score <= 1 ? a.score : 0;
  } else {
    if (ph != 'b' && ph != 'e') return;
    v.what = ph == 'b' ? VE_ETB : VE_ETE;
    v.id = ana_intern(g->ctx, id, strlen(id));
    v.v = a.dur;
    v.iid = a.iid;
    /* The engine keeps only begins of interactions that took time. */
    if (ph == 'b' && (!(a.dur >= 1) || !(a.iid != 0))) return;
  }
  ZC_GROW(g->vev, g->capvev, g->nvev + 1);
  g->vev[g->nvev++] = v;
}

static int vit_by_ts(const void *a, const void *b) {
  const struct vev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->what > y->what) - (x->what < y->what); /* begins first */
}

/* The passes below are linear in the events (issue 38: a trace of 200 000
 * navigations, of EventTiming ends that match no begin, or of many step
 * marks made them quadratic, and compare ran for minutes). Their keys
 * (a navigation's kind and id, an async event's id) go through one small
 * map to an index. */
struct vmap {
  struct zc_htab t;
  uint64_t *key;
  size_t *val, n, kcap, vcap;
};

static void vmap_init(struct vmap *m) {
  memset(m, 0, sizeof *m);
  zc_htab_init(&m->t, 64);
}

static void vmap_free(struct vmap *m) {
  zc_htab_free(&m->t);
  free(m->key);
  free(m->val);
}

/* key's value (SIZE_MAX when new), added when add is set; else NULL. */
static size_t *vmap_at(struct vmap *m, uint64_t key, int add) {
  uint64_t h = zc_mix64(key + 1);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&m->t, h, &pos, &i))
    if (m->key[i] == key) return &m->val[i];
  if (!add) return NULL;
  ZC_GROW(m->key, m->kcap, m->n + 1);
  ZC_GROW(m->val, m->vcap, m->n + 1);
  m->key[m->n] = key;
  m->val[m->n] = SIZE_MAX;
  zc_htab_add(&m->t, h, pos, (uint32_t)m->n);
  return &m->val[m->n++];
}

static uint64_t vit_key(uint8_t what, uint32_t id) {
  return (uint64_t)what << 32 | id;
}

/* Marks the navigations whose id came before (the engine drops repeats)
 * as dup, and gives each other navigation its LCP into lcp[i]: its
 * candidate with the highest index, the first such in time, among those
 * timed at or after it (issue 38: one timed before gave a negative LCP);
 * NAN if none. The events are sorted. */
static void vit_navs(struct ing *g, double *lcp) {
  struct vmap m;
  vmap_init(&m);
  double *best = zc_xcalloc(g->nvev + 1, sizeof *best);
  for (size_t i = 0; i < g->nvev; i++) {
    struct vev *v = &g->vev[i];
    lcp[i] = NAN;
    if (v->what == VE_NAV || v->what == VE_SOFTNAV) {
      size_t *at = vmap_at(&m, vit_key(v->what, v->nav), 1);
      v->dup = *at != SIZE_MAX;
      if (!v->dup) *at = i;
    } else if (v->what == VE_LCP || v->what == VE_SOFTLCP) {
      uint8_t nav = v->what == VE_LCP ? VE_NAV : VE_SOFTNAV;
      size_t *at = vmap_at(&m, vit_key(nav, v->nav), 0);
      if (!at || *at == SIZE_MAX) continue; /* before its navigation */
      size_t n = *at;
      if (isnan(lcp[n]) || v->v > best[n]) {
        best[n] = v->v;
        lcp[n] = (double)(v->ts - g->vev[n].ts) / 1e3;
      }
    }
  }
  free(best);
  vmap_free(&m);
}

/* The first event at or after ts a. */
static size_t vit_from(const struct ing *g, int64_t a) {
  size_t lo = 0, hi = g->nvev;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->vev[mid].ts < a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* LCP of the first main-frame navigation in [a, b), else of the first
 * soft navigation; *nav says whether there was one. */
static double vit_lcp_in(const struct ing *g, const double *lcp, int64_t a,
                         int64_t b, int *nav) {
  size_t from = vit_from(g, a);
  for (int soft = 0; soft < 2; soft++)
    for (size_t i = from; i < g->nvev && g->vev[i].ts < b; i++) {
      const struct vev *v = &g->vev[i];
      if (v->dup) continue;
      if ((!soft && v->what == VE_NAV && v->main) ||
          (soft && v->what == VE_SOFTNAV)) {
        *nav = 1;
        return lcp[i];
      }
    }
  *nav = 0;
  return NAN;
}

/* The largest session window of the shifts in [a, b). A navigation
 * between two shifts ends a window: the main frame's last navigation
 * before each shift is followed from the window's start (one before it
 * changes nothing, as the first shift opens a window anyway). */
static double vit_cls(const struct ing *g, int64_t a, int64_t b) {
  double best = 0, cur = 0;
  int64_t first = 0, last = 0;
  long last_nav = -1, cn = -1;            /* the main frame's last navigation */
  size_t from = vit_from(g, a), j = from; /* before the shift, strictly */
  int have = 0;
  for (size_t i = from; i < g->nvev && g->vev[i].ts < b; i++) {
    const struct vev *v = &g->vev[i];
    if (v->what != VE_SHIFT || v->recent) continue;
    for (; j < g->nvev && g->vev[j].ts < v->ts; j++)
      if (g->vev[j].what == VE_NAV && g->vev[j].main && !g->vev[j].dup)
        cn = (long)j;
    int navigated = last_nav != cn && cn != -1;
    if (!have || v->ts - first > VIT_CLUSTER || v->ts - last > VIT_GAP_US ||
        navigated) {
      if (cur > best) best = cur;
      cur = 0, first = v->ts, have = 1;
    }
    cur += v->v;
    last = v->ts, last_nav = cn;
  }
  return cur > best ? cur : best;
}

/* The longest interaction that began in [a, b); NAN if none. The begins
 * and ends are paired once, the pairs' durations kept in ETB's iid. */
static double vit_inp(const struct ing *g, int64_t a, int64_t b) {
  double best = NAN;
  for (size_t i = vit_from(g, a); i < g->nvev && g->vev[i].ts < b; i++) {
    const struct vev *v = &g->vev[i];
    if (v->what != VE_ETB || v->recent != 2) continue;
    if (isnan(best) || v->iid > best) best = v->iid;
  }
  return best;
}

/* Pairs each end with the latest open begin of its id: the begin gets
 * recent = 2 and iid = the interaction's duration in ms. Each id's open
 * begins are a stack (prev links them), found through the map. */
static void vit_pair(struct ing *g) {
  struct vmap m;
  vmap_init(&m);
  size_t *prev = zc_xmalloc((g->nvev + 1) * sizeof *prev);
  for (size_t i = 0; i < g->nvev; i++) {
    struct vev *e = &g->vev[i];
    if (e->what == VE_ETB) {
      size_t *top = vmap_at(&m, e->id, 1);
      prev[i] = *top;
      *top = i;
    } else if (e->what == VE_ETE) {
      size_t *top = vmap_at(&m, e->id, 0);
      if (!top || *top == SIZE_MAX) continue; /* another entry's end */
      struct vev *b = &g->vev[*top];
      b->recent = 2;
      b->iid = (double)(e->ts - b->ts) / 1e3;
      *top = prev[*top];
    }
  }
  free(prev);
  vmap_free(&m);
}

/* A long task's blocking time in [a, b): clipped to it, less 50 ms. */
static double vit_block(const struct fev *f, int64_t a, int64_t b) {
  if (f->ts + f->dur < a || f->ts > b) return 0;
  int64_t s = f->ts > a ? f->ts : a, e = f->ts + f->dur;
  if (e > b) e = b;
  double d = (double)(e - s);
  return d >= VIT_BLOCK_US ? d - VIT_BLOCK_US : 0;
}

/* Blocking time of the long tasks in [a, b), in ms. */
static double vit_tbt(const struct ing *g, int64_t a, int64_t b) {
  double sum = 0;
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what == EV_TASK && (double)f->dur >= VIT_BLOCK_US)
      sum += vit_block(f, a, b);
  }
  return sum / 1e3;
}

/* The first of the nw windows (disjoint, in order) whose end is at or
 * after t (by b), or the last whose start is at or before t (by a: that
 * one's index + 1). */
static size_t vit_win(const int64_t *w, size_t nw, int64_t t, int by_end) {
  size_t lo = 0, hi = nw;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (by_end ? w[mid] < t : w[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Each step window's blocking time (ms) into tbt[]: a task adds to the
 * one or two windows it overlaps in part, and to each window it covers
 * whole the same as any other task would, counted once per window through
 * a difference array: a task over many windows costs what a short one
 * does. */
static void vit_tbt_steps(const struct ing *g, const int64_t *a,
                          const int64_t *b, size_t nw, double *tbt) {
  long *cover = zc_xcalloc(nw + 1, sizeof *cover);
  for (size_t w = 0; w < nw; w++)
    tbt[w] = 0;
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_TASK || (double)f->dur < VIT_BLOCK_US) continue;
    size_t w0 = vit_win(b, nw, f->ts, 1);
    size_t w1 = vit_win(a, nw, f->ts + f->dur, 0); /* one past */
    if (w0 >= w1) continue;
    tbt[w0] += vit_block(f, a[w0], b[w0]);
    if (w1 - 1 > w0) tbt[w1 - 1] += vit_block(f, a[w1 - 1], b[w1 - 1]);
    if (w1 - 1 > w0 + 1) cover[w0 + 1]++, cover[w1 - 1]--;
  }
  long c = 0;
  for (size_t w = 0; w < nw; w++) {
    c += cover[w];
    double d = (double)(b[w] - a[w]);
    if (c && d >= VIT_BLOCK_US) tbt[w] += (double)c * (d - VIT_BLOCK_US);
    tbt[w] /= 1e3;
  }
  free(cover);
}

static void vit_window(struct ing *g, const double *lcp, int64_t a, int64_t b,
                       double tbt, struct ana_vitals *v, int *nav) {
  v->lcp_ms = vit_lcp_in(g, lcp, a, b, nav);
  v->cls = g->saw_loading ? vit_cls(g, a, b) : NAN;
  v->inp_ms = vit_inp(g, a, b);
  v->tbt_ms = g->saw_task ? tbt : NAN;
}

void ing_vitals(struct ing *g, struct ana_figures *fig) {
  if (g->nvev) qsort(g->vev, g->nvev, sizeof *g->vev, vit_by_ts);
  double *lcp = zc_xmalloc((g->nvev + 1) * sizeof *lcp);
  vit_navs(g, lcp);
  vit_pair(g);
  int64_t t0 = g->fig_t0;
  int nav;
  vit_window(g, lcp, t0, INT64_MAX, vit_tbt(g, t0, INT64_MAX), &fig->vit, &nav);
  fig->vit_why = 0;
  if (isnan(fig->vit.lcp_ms))
    fig->vit_why |= nav ? ANA_VW_NO_LCP : ANA_VW_NO_NAV;
  if (!g->saw_loading) fig->vit_why |= ANA_VW_NO_LOADING;
  if (isnan(fig->vit.inp_ms)) fig->vit_why |= ANA_VW_NO_INPUT;
  if (!g->saw_task) fig->vit_why |= ANA_VW_NO_TASKS;
  /* Each step's window: its mark to the next mark (g->fev is the marks'
   * thread's, sorted); the last step's runs to the end. The windows are
   * disjoint and in order. */
  size_t nw = 0;
  int64_t *a = zc_xmalloc((fig->nsteps + 1) * sizeof *a);
  int64_t *b = zc_xmalloc((fig->nsteps + 1) * sizeof *b);
  for (size_t i = 0; i < g->nfev && nw < fig->nsteps; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_MARK || !f->step) continue;
    a[nw] = f->ts;
    b[nw] = INT64_MAX;
    for (size_t j = i + 1; j < g->nfev; j++)
      if (g->fev[j].what == EV_MARK) {
        b[nw] = g->fev[j].ts;
        break;
      }
    nw++;
  }
  double *tbt = zc_xmalloc((nw + 1) * sizeof *tbt);
  vit_tbt_steps(g, a, b, nw, tbt);
  for (size_t k = 0; k < nw; k++)
    vit_window(g, lcp, a[k], b[k], tbt[k], &fig->steps[k].vit, &nav);
  free(tbt);
  free(a);
  free(b);
  free(lcp);
}
