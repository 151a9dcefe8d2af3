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
     * data does. */
    v.v = a.score >= 0 && a.score < 1e9 ? a.score : 0;
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

/* The LCP of navigation i (a VE_NAV or VE_SOFTNAV): its candidate with the
 * highest index, the first such in time; NAN if none. */
static double vit_lcp(const struct ing *g, size_t i) {
  const struct vev *nv = &g->vev[i];
  uint8_t want = nv->what == VE_NAV ? VE_LCP : VE_SOFTLCP;
  const struct vev *best = NULL;
  for (size_t j = 0; j < g->nvev; j++) {
    const struct vev *c = &g->vev[j];
    if (c->what == want && c->nav == nv->nav && (!best || c->v > best->v))
      best = c;
  }
  return best ? (double)(best->ts - nv->ts) / 1e3 : NAN;
}

/* Marks the navigations whose id came before (the engine drops repeats)
 * as dup; called once, the events sorted. The navigations are few. */
static void vit_dups(struct ing *g) {
  for (size_t i = 0; i < g->nvev; i++) {
    struct vev *v = &g->vev[i];
    if (v->what != VE_NAV && v->what != VE_SOFTNAV) continue;
    for (size_t j = 0; j < i && !v->dup; j++)
      v->dup = g->vev[j].what == v->what && g->vev[j].nav == v->nav;
  }
}

/* LCP of the first main-frame navigation in [a, b), else of the first
 * soft navigation; *nav says whether there was one. */
static double vit_lcp_in(const struct ing *g, int64_t a, int64_t b, int *nav) {
  for (int soft = 0; soft < 2; soft++)
    for (size_t i = 0; i < g->nvev; i++) {
      const struct vev *v = &g->vev[i];
      if (v->ts < a || v->ts >= b || v->dup) continue;
      if ((!soft && v->what == VE_NAV && v->main) ||
          (soft && v->what == VE_SOFTNAV)) {
        *nav = 1;
        return vit_lcp(g, i);
      }
    }
  *nav = 0;
  return NAN;
}

/* The largest session window of the shifts in [a, b). */
static double vit_cls(const struct ing *g, int64_t a, int64_t b) {
  double best = 0, cur = 0;
  int64_t first = 0, last = 0;
  long last_nav = -1, cn = -1; /* the main frame's last navigation */
  size_t j = 0;                /* before the shift, strictly */
  int have = 0;
  for (size_t i = 0; i < g->nvev; i++) {
    const struct vev *v = &g->vev[i];
    if (v->what != VE_SHIFT || v->recent || v->ts < a || v->ts >= b) continue;
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
 * and ends are paired once, the pairs' durations kept in ETB's v. */
static double vit_inp(const struct ing *g, int64_t a, int64_t b) {
  double best = NAN;
  for (size_t i = 0; i < g->nvev; i++) {
    const struct vev *v = &g->vev[i];
    if (v->what != VE_ETB || v->recent != 2 || v->ts < a || v->ts >= b)
      continue;
    if (isnan(best) || v->iid > best) best = v->iid;
  }
  return best;
}

/* Pairs each end with the latest open begin of its id: the begin gets
 * recent = 2 and iid = the interaction's duration in ms. The open begins
 * (interactions only) are few; most ends are of other entries. */
static void vit_pair(struct ing *g) {
  size_t *open = NULL, nopen = 0, cap = 0;
  for (size_t i = 0; i < g->nvev; i++) {
    struct vev *e = &g->vev[i];
    if (e->what == VE_ETB) {
      ZC_GROW(open, cap, nopen + 1);
      open[nopen++] = i;
      continue;
    }
    if (e->what != VE_ETE) continue;
    for (size_t k = nopen; k-- > 0;) {
      struct vev *b = &g->vev[open[k]];
      if (b->id != e->id) continue;
      b->recent = 2;
      b->iid = (double)(e->ts - b->ts) / 1e3;
      memmove(open + k, open + k + 1, (nopen - k - 1) * sizeof *open);
      nopen--;
      break;
    }
  }
  free(open);
}

/* Blocking time of the long tasks in [a, b), clipped to it, in ms. */
static double vit_tbt(const struct ing *g, int64_t a, int64_t b) {
  double sum = 0;
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_TASK || (double)f->dur < VIT_BLOCK_US) continue;
    int64_t s = f->ts > a ? f->ts : a, e = f->ts + f->dur;
    if (e > b) e = b;
    if (f->ts + f->dur < a || f->ts > b) continue;
    double d = (double)(e - s);
    if (d >= VIT_BLOCK_US) sum += d - VIT_BLOCK_US;
  }
  return sum / 1e3;
}

static void vit_window(struct ing *g, int64_t a, int64_t b,
                       struct ana_vitals *v, int *nav) {
  v->lcp_ms = vit_lcp_in(g, a, b, nav);
  v->cls = g->saw_loading ? vit_cls(g, a, b) : NAN;
  v->inp_ms = vit_inp(g, a, b);
  v->tbt_ms = g->saw_task ? vit_tbt(g, a, b) : NAN;
}

void ing_vitals(struct ing *g, struct ana_figures *fig) {
  if (g->nvev) qsort(g->vev, g->nvev, sizeof *g->vev, vit_by_ts);
  vit_dups(g);
  vit_pair(g);
  int64_t t0 = g->fig_t0;
  int nav;
  vit_window(g, t0, INT64_MAX, &fig->vit, &nav);
  fig->vit_why = 0;
  if (isnan(fig->vit.lcp_ms))
    fig->vit_why |= nav ? ANA_VW_NO_LCP : ANA_VW_NO_NAV;
  if (!g->saw_loading) fig->vit_why |= ANA_VW_NO_LOADING;
  if (isnan(fig->vit.inp_ms)) fig->vit_why |= ANA_VW_NO_INPUT;
  if (!g->saw_task) fig->vit_why |= ANA_VW_NO_TASKS;
  /* Each step's window: its mark to the next mark (g->fev is the marks'
   * thread's, sorted); the last step's runs to the end. */
  uint32_t k = 0;
  for (size_t i = 0; i < g->nfev && k < fig->nsteps; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_MARK || !f->step) continue;
    int64_t end = INT64_MAX;
    for (size_t j = i + 1; j < g->nfev; j++)
      if (g->fev[j].what == EV_MARK) {
        end = g->fev[j].ts;
        break;
      }
    vit_window(g, f->ts, end, &fig->steps[k++].vit, &nav);
  }
}
