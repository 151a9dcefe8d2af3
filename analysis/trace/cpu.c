/* Samples weighed by the CPU their thread had (issue 25). V8's sampler
 * ticks on wall-clock time: on a loaded machine a function's thread waits
 * for a core between ticks, and every tick it is on the stack lasts longer.
 * Chrome's complete events carry the thread's own CPU time (tdur) beside
 * the wall time (dur); the samples inside an event are weighed by its
 * tdur / dur, the innermost such event's. On an idle machine that share is
 * about 1 and nothing changes; under load the wall-clock stretch leaves. */
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* The events whose thread time tells about the JavaScript inside them:
 * the task, and what runs script within it. */
static const char *const cpu_names[] = {
    "RunTask",        "FunctionCall",       "EventDispatch",
    "TimerFire",      "FireAnimationFrame", "RunMicrotasks",
    "EvaluateScript", "FireIdleCallback",   "v8.callFunction",
};

int ing_cpu_wanted(const char *name, size_t n) {
  for (size_t i = 0; i < sizeof cpu_names / sizeof *cpu_names; i++)
    if (strlen(cpu_names[i]) == n && !memcmp(cpu_names[i], name, n)) return 1;
  return 0;
}

void ing_cpu_event(struct ing *g, int64_t pid, int64_t tid, double ts,
                   double dur, double tdur, int js) {
  if (!(ts > -4e18 && ts < 4e18) || !(dur > 0 && dur < 4e18) || !(tdur >= 0))
    return;
  ZC_GROW(g->cev, g->capcev, g->ncev + 1);
  double s = tdur / dur;
  g->cev[g->ncev++] = (struct cev){
      pid,           tid, (int64_t)ts, (int64_t)dur, (float)(s < 1 ? s : 1),
      (uint8_t) !!js};
}

static int cev_cmp(const void *a, const void *b) {
  const struct cev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->dur < y->dur) - (x->dur > y->dur); /* the outer one first */
}

int ing_cpu_shares(struct ing *g, const struct prof *p, const int64_t *ts,
                   const uint32_t *order, float *share) {
  if (!p->has_tid || !g->ncev) return 0;
  size_t m = 0;
  struct cev *v = zc_xmalloc(g->ncev * sizeof *v);
  for (size_t i = 0; i < g->ncev; i++)
    if (g->cev[i].pid == p->pid && g->cev[i].tid == p->tid) v[m++] = g->cev[i];
  if (!m) {
    free(v);
    return 0;
  }
  qsort(v, m, sizeof *v, cev_cmp);
  /* One pass over samples and events in time order, with the events open
   * at the sample on a stack; the innermost is on top. */
  size_t *st = zc_xmalloc(m * sizeof *st), sp = 0, j = 0;
  for (size_t k = 0; k < p->nsamp; k++) {
    size_t i = order ? order[k] : k;
    int64_t t = ts[i];
    for (; j < m && v[j].ts <= t; j++) {
      while (sp && v[st[sp - 1]].ts + v[st[sp - 1]].dur <= v[j].ts)
        sp--;
      st[sp++] = j;
    }
    while (sp && v[st[sp - 1]].ts + v[st[sp - 1]].dur <= t)
      sp--;
    share[i] = sp ? v[st[sp - 1]].share : 1.0f;
  }
  free(st);
  free(v);
  return 1;
}
