/* The end-to-end figures read from a trace: zamcap's step marks, long
 * tasks, style and layout, and the main thread's scripting and GC time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* Keeps what the figures need of a task, a layout or a mark. Tasks of
 * 50 ms or less are not kept: only long ones count. */
void ing_figure_event(struct ing *g, char ph, const char *name, int64_t pid,
                      int64_t tid, double ts, double dur) {
  /* Bounded so that ts + dur cannot overflow. */
  if (!(ts > -4e18 && ts < 4e18)) return;
  struct fev f = {.pid = pid, .tid = tid, .ts = (int64_t)ts, .what = EV_MARK};
  if (ph == 'X') {
    if (!(dur >= 0 && dur < 4e18)) return;
    f.dur = (int64_t)dur;
    /* only tasks, style and layout: other complete events (those read for
     * the CPU share, cpu.c) come here too */
    if (!strcmp(name, "RunTask"))
      f.what = EV_TASK;
    else if (!strcmp(name, "Layout") || !strcmp(name, "UpdateLayoutTree"))
      f.what = EV_LAYOUT;
    else
      return;
    if (f.what == EV_TASK) g->saw_task = 1;
    if (f.what == EV_TASK && f.dur <= 50000) return;
  } else if (!strcmp(name, "zamcap:end")) {
    f.step = 0;
  } else {
    unsigned step;
    int at = 0;
    if (sscanf(name, "zamcap:step:%u:%n", &step, &at) != 1 || !at || !step)
      return;
    f.step = step;
    ing_copy(f.type, sizeof f.type, name + at, strlen(name + at));
  }
  ZC_GROW(g->fev, g->capfev, g->nfev + 1);
  g->fev[g->nfev++] = f;
}

/* The window of the figures: from the first step mark on, on the marks'
 * thread. Called before the profiles are built. */
void ing_fig_window(struct ing *g, int64_t *pid, int64_t *tid) {
  int found = 0;
  g->fig_t0 = INT64_MIN;
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_MARK || !f->step) continue;
    if (!found) {
      *pid = f->pid, *tid = f->tid, g->fig_t0 = f->ts;
      found = 1;
    } else if (f->pid == *pid && f->tid == *tid && f->ts < g->fig_t0) {
      g->fig_t0 = f->ts;
    }
  }
}

static int ing_by_ts(const void *a, const void *b) {
  const struct fev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->dur > y->dur) - (x->dur < y->dur);
}

static int ing_is_renderer_main(struct ing *g, const struct prof *p) {
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == p->pid && g->thr[i].tid == p->tid)
      return !strcmp(ana_str(g->ctx, g->thr[i].name), "CrRendererMain");
  return 0;
}

static int cev_by_ts(const void *a, const void *b) {
  const struct cev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->dur < y->dur) - (x->dur > y->dur); /* the outer one first */
}

/* The main thread's share of a core while it ran script: its outermost
 * script events of 1 ms or more (function calls, event dispatches, timers;
 * not the tasks around them, which hold rendering and its waits on other
 * processes too), thread time over wall time. About 1 on a machine with
 * a core to spare; a starved machine's runs show far less, and what they
 * measure says little (issue 34). NAN without such events (the context
 * did not keep them, or a trace without thread times). */
static double cpu_share(struct ing *g, int64_t pid, int64_t tid) {
  size_t m = 0;
  struct cev *v = zc_xmalloc((g->ncev ? g->ncev : 1) * sizeof *v);
  for (size_t i = 0; i < g->ncev; i++)
    if (g->cev[i].pid == pid && g->cev[i].tid == tid && g->cev[i].dur >= 1000 &&
        g->cev[i].ts + g->cev[i].dur >= g->fig_t0)
      v[m++] = g->cev[i];
  if (m) qsort(v, m, sizeof *v, cev_by_ts);
  double wall = 0, cpu = 0;
  int64_t end = INT64_MIN;
  for (size_t i = 0; i < m; i++) {
    if (v[i].ts < end) continue; /* inside the one before */
    wall += (double)v[i].dur;
    cpu += (double)v[i].dur * v[i].share;
    end = v[i].ts + v[i].dur;
  }
  free(v);
  return wall > 0 ? cpu / wall : NAN;
}

/* Fills tl->fig once the profiles are built. The page's main thread is the
 * marks' thread; a trace without marks (saved from DevTools) gets the
 * busiest CrRendererMain, or the busiest profile. */
void ing_figures(struct ing *g, struct ana_timeline *tl, int marks, int64_t pid,
                 int64_t tid) {
  struct ana_figures *fig = &tl->fig;
  fig->vit.lcp_ms = fig->vit.cls = fig->vit.inp_ms = fig->vit.tbt_ms = NAN;
  fig->cpu_share = fig->profile_lost_ms = NAN;
  fig->vit_why =
      ANA_VW_NO_NAV | ANA_VW_NO_LOADING | ANA_VW_NO_INPUT | ANA_VW_NO_TASKS;
  const struct prof *main = NULL;
  for (size_t i = 0; i < g->nprof; i++) {
    const struct prof *p = &g->prof[i];
    if (p->left_out) continue;
    if (marks) {
      if (p->pid == pid && (!p->has_tid || p->tid == tid)) main = p;
      continue;
    }
    int rm = ing_is_renderer_main(g, p);
    int best = main ? ing_is_renderer_main(g, main) : -1;
    if (rm > best || (rm == best && p->busy_us > main->busy_us)) main = p;
  }
  if (!marks && main) pid = main->pid, tid = main->tid;
  fig->cpu_share = marks || main ? cpu_share(g, pid, tid) : NAN;
  if (main) {
    fig->scripting_ms = (double)main->script_us / 1e3;
    fig->gc_ms = (double)main->gc_us / 1e3;
    fig->native_ms = (double)main->native_us / 1e3;
  }
  if (!marks && !main) return; /* neither marks nor samples: no thread */
  /* Keep the main thread's events in the window, in time order. */
  size_t n = 0;
  for (size_t i = 0; i < g->nfev; i++) {
    struct fev *f = &g->fev[i];
    if (f->pid == pid && f->tid == tid && f->ts + f->dur >= g->fig_t0)
      g->fev[n++] = *f;
  }
  g->nfev = n;
  if (n) qsort(g->fev, n, sizeof *g->fev, ing_by_ts); /* fev may be NULL */
  double layout = 0, tasks = 0, blocking = 0;
  /* the main profile's last sample: long-task time after it was lost */
  int64_t last = main ? main->start_us : 0, lost = 0;
  for (size_t i = 0; main && i < main->nsamp; i++)
    last += main->sdt[i];
  int64_t covered = INT64_MIN;
  int64_t first = INT64_MIN, end = INT64_MIN;
  for (size_t i = 0; i < n; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what == EV_TASK) {
      tasks++;
      blocking += (double)(f->dur - 50000);
      int64_t from = f->ts > last ? f->ts : last;
      if (f->ts + f->dur > from) lost += f->ts + f->dur - from;
    } else if (f->what == EV_LAYOUT) {
      /* Nested or overlapping events count once. */
      int64_t s = f->ts > covered ? f->ts : covered, e = f->ts + f->dur;
      if (e > s) layout += (double)(e - s);
      if (e > covered) covered = e;
    } else if (f->step) {
      if (first == INT64_MIN) first = f->ts;
      ZC_GROW(fig->steps, g->capsteps, fig->nsteps + 1);
      struct ana_step_time *st = &fig->steps[fig->nsteps++];
      st->step = f->step;
      memcpy(st->type, f->type, sizeof st->type);
      st->ms = NAN;
      st->vit.lcp_ms = st->vit.cls = st->vit.inp_ms = st->vit.tbt_ms = NAN;
      for (size_t j = i + 1; j < n; j++)
        if (g->fev[j].what == EV_MARK) {
          st->ms = (double)(g->fev[j].ts - f->ts) / 1e3;
          break;
        }
    } else if (end == INT64_MIN) {
      end = f->ts;
    }
  }
  if (main) fig->profile_lost_ms = (double)lost / 1e3;
  fig->marks = (int)fig->nsteps;
  if (first != INT64_MIN && end != INT64_MIN && end >= first)
    fig->scenario_ms = (double)(end - first) / 1e3;
  fig->style_layout_ms = layout / 1e3;
  fig->long_tasks = tasks;
  fig->blocking_ms = blocking / 1e3;
  ing_vitals(g, fig);
}
