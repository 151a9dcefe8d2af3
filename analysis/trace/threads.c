/* Threads: what each process and thread is (thread names, frames'
 * URLs, workers' scripts), one profile kept per thread, and the label each
 * thread's node gets in the timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* Notes what a process (a renderer's frame) or a worker thread is. A main
 * frame's URL wins over a subframe's, and a later commit of a main frame
 * over an earlier one; blank pages say nothing. */
static void ing_place_add(struct place **v, size_t *n, size_t *cap, int64_t pid,
                          int64_t tid, uint32_t url, int main) {
  for (size_t i = 0; i < *n; i++) {
    struct place *pl = &(*v)[i];
    if (pl->pid != pid || pl->tid != tid) continue;
    if (main) pl->url = url, pl->main = 1;
    return;
  }
  ZC_GROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = (struct place){pid, tid, url, main};
}

/* A frame object of TracingStartedInBrowser/InPage or the data of
 * FrameCommittedInBrowser: {frame, url, processId?, parent?,
 * isOutermostMainFrame?}; pid is the event's, for frames without a
 * processId. */
static int ing_frame(struct ing *g, struct jr *r, int64_t pid) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  uint32_t url = 0;
  int parent = 0, outer = -1;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "url") && jr_peek(r) == '"') {
      if (!jr_str(r, &s, &sn)) return 0;
      if (sn && !(sn >= 6 && !memcmp(s, "about:", 6)))
        url = ana_intern(g->ctx, s, sn);
    } else if (jr_is(k, kn, "processId") && jr_peek(r) != '"') {
      if (!jr_num(r, &d)) return 0;
      if (d > -9e18 && d < 9e18) pid = (int64_t)d;
    } else if (jr_is(k, kn, "parent")) {
      parent = jr_peek(r) != 'n'; /* null: none */
      if (!jr_skip(r)) return 0;
    } else if (jr_is(k, kn, "isOutermostMainFrame") ||
               jr_is(k, kn, "isMainFrame")) {
      outer = jr_peek(r) == 't';
      if (!jr_skip(r)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  if (r->err) return 0;
  if (url)
    ing_place_add(&g->frames, &g->nframes, &g->capframes, pid, 0, url,
                  outer >= 0 ? outer : !parent);
  return 1;
}

/* The events that say what a process or a thread is. */
void ing_meta_event(struct ing *g, struct jr *r, const char *name,
                    int64_t pid) {
  const char *k, *s;
  size_t kn, sn;
  if (!ing_find(r, "data")) return;
  if (!strcmp(name, "FrameCommittedInBrowser") || !strcmp(name, "CommitLoad")) {
    ing_frame(g, r, pid);
    return;
  }
  if (!strcmp(name, "TracingSessionIdForWorker")) {
    double tid = -1;
    uint32_t url = 0;
    if (!jr_obj(r)) return;
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "url") && jr_peek(r) == '"' && jr_str(r, &s, &sn))
        url = sn ? ana_intern(g->ctx, s, sn) : 0;
      else if (jr_is(k, kn, "workerThreadId") && jr_peek(r) != '"')
        jr_num(r, &tid);
      else if (!jr_skip(r))
        return;
    }
    if (url && tid >= 0 && tid < 9e18)
      ing_place_add(&g->workers, &g->nworkers, &g->capworkers, pid,
                    (int64_t)tid, url, 1);
    return;
  }
  /* TracingStartedInBrowser, TracingStartedInPage: {frames: [...]} */
  if (!ing_find(r, "frames") || !jr_arr(r)) return;
  while (jr_more(r, NULL, NULL))
    if (!ing_frame(g, r, pid)) return;
}

int ing_is_meta(const char *name) {
  return !strcmp(name, "TracingStartedInBrowser") ||
         !strcmp(name, "CommitLoad") || !strcmp(name, "TracingStartedInPage") ||
         !strcmp(name, "FrameCommittedInBrowser") ||
         !strcmp(name, "TracingSessionIdForWorker");
}

void ing_thread_name(struct ing *g, int64_t pid, int64_t tid, const char *name,
                     size_t n) {
  uint32_t id = ana_intern_name(g->ctx, name, n);
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == pid && g->thr[i].tid == tid) {
      g->thr[i].name = id;
      return;
    }
  ZC_GROW(g->thr, g->capthr, g->nthr + 1);
  g->thr[g->nthr++] = (struct thr){pid, tid, id};
}

static uint32_t ing_thread_of(struct ing *g, const struct prof *p) {
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == p->pid && g->thr[i].tid == p->tid)
      return g->thr[i].name;
  char b[64];
  if (!p->has_tid)
    snprintf(b, sizeof b, "main");
  else
    snprintf(b, sizeof b, "thread %lld", (long long)p->tid);
  return ana_intern(g->ctx, b, strlen(b));
}

/* A worker thread is named by its script (DESIGN.md): the URL of its
 * TracingSessionIdForWorker event when the trace has one, else the
 * component of the first top-level function, in V8's order of discovery,
 * with a URL. */
static uint32_t ing_worker_name(struct ing *g, const struct prof *p,
                                uint32_t name) {
  const char *tn = ana_str(g->ctx, name);
  if (!strstr(tn, "Worker")) return name;
  uint32_t url = 0;
  for (size_t i = 0; i < g->nworkers && !url; i++)
    if (g->workers[i].pid == p->pid && g->workers[i].tid == p->tid)
      url = g->workers[i].url;
  for (size_t i = 0; i < p->nnodes && !url; i++) {
    const struct pnode *n = &p->nodes[i];
    const struct pnode *up = n->parent ? prof_find(p, n->parent) : NULL;
    if (n->url && up && up->kind == ANA_ROOT) url = n->url;
  }
  if (!url) return name;
  const char *u = ana_str(g->ctx, url);
  char comp[1024], b[1200];
  ana_component(u, strlen(u), comp, sizeof comp);
  snprintf(b, sizeof b, "%s %s", tn, comp);
  return ana_intern(g->ctx, b, strlen(b));
}

/* The scheme and host of the frame a process renders ("http://a.test"),
 * or 0. Not the port: zamcap serves the old and the new build on ports of
 * their own, and their threads must match. */
static uint32_t ing_origin(struct ing *g, int64_t pid) {
  for (size_t i = 0; i < g->nframes; i++) {
    if (g->frames[i].pid != pid) continue;
    const char *u = ana_str(g->ctx, g->frames[i].url);
    const char *h = strstr(u, "://");
    if (!h) return ana_intern(g->ctx, u, strcspn(u, "/?#"));
    h += 3;
    size_t n = strcspn(h, "/?#");
    const char *at = memchr(h, '@', n); /* user:password@ */
    if (at) n -= (size_t)(at + 1 - h), h = at + 1;
    const char *colon = h[0] == '[' ? memchr(h, ']', n) : h;
    colon = colon ? memchr(colon, ':', n - (size_t)(colon - h)) : NULL;
    if (colon) n = (size_t)(colon - h);
    char b[600];
    snprintf(b, sizeof b, "%.*s%.*s", (int)(strstr(u, "://") + 3 - u), u,
             (int)(n < 500 ? n : 500), h);
    return ana_intern(g->ctx, b, strlen(b));
  }
  return 0;
}

/* How likely a process is the page's: a web page's renderer (2) before
 * one of unknown frames (1) before Chrome's own pages (0: the omnibox
 * popup, DevTools, extensions), which can be busier than the page. */
static int ing_rank(struct ing *g, int64_t pid) {
  uint32_t o = ing_origin(g, pid);
  if (!o) return 1;
  const char *u = ana_str(g->ctx, o);
  return !strncmp(u, "http://", 7) || !strncmp(u, "https://", 8) ||
                 !strncmp(u, "file://", 7)
             ? 2
             : 0;
}

/* Samples of work (neither idle nor the root), to find the busiest of
 * threads that share a name. */
static size_t ing_busy(const struct prof *p) {
  size_t n = 0;
  uint32_t last_id = 0;
  const struct pnode *last = NULL;
  for (size_t i = 0; i < p->nsamp; i++) {
    const struct pnode *nd =
        last && p->sid[i] == last_id ? last : prof_find(p, p->sid[i]);
    last_id = p->sid[i];
    last = nd;
    n += nd && nd->kind != ANA_IDLE && nd->kind != ANA_ROOT;
  }
  return n;
}

int ing_built(const struct prof *p) {
  return p->nsamp && !p->left_out;
}

/* Labels every thread that gets a node: its name (a worker's with its
 * script). Where threads share a name, the page's (the one with zamcap's
 * step marks, else the busiest of those rendering web pages) keeps it,
 * and each other says what it is:
 * its renderer's frame origin, then its process id, then its thread id
 * ("CrRendererMain (http://b.test)", "CrRendererMain (pid 123)"). Old and
 * new threads are matched by these labels, so the page's main thread is
 * "CrRendererMain" whether or not the trace has other renderers. */
void ing_labels(struct ing *g, int marks, int64_t mpid, int64_t mtid) {
  size_t n = g->nprof;
  uint32_t *base = zc_xcalloc(n ? n : 1, sizeof *base);
  uint8_t *parts = zc_xcalloc(n ? n : 1, 1), *dup = zc_xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++)
    if (ing_built(&g->prof[i]))
      g->prof[i].label = base[i] =
          ing_worker_name(g, &g->prof[i], ing_thread_of(g, &g->prof[i]));
  /* In each group of one name, the page's thread keeps it; the others are
   * marked (dup 1). seen: grouped already. */
  uint8_t *seen = zc_xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++) {
    if (!ing_built(&g->prof[i]) || seen[i]) continue;
    size_t keep = SIZE_MAX, members = 0, best = 0;
    for (size_t j = i; j < n; j++) {
      const struct prof *q = &g->prof[j];
      if (!ing_built(q) || base[j] != base[i]) continue;
      members++;
      seen[j] = 1;
      if (marks && q->pid == mpid && q->tid == mtid) keep = j;
    }
    if (members < 2) continue;
    int rank = -1;
    for (size_t j = i, by_marks = keep != SIZE_MAX; j < n && !by_marks; j++) {
      if (!ing_built(&g->prof[j]) || base[j] != base[i]) continue;
      int r = ing_rank(g, g->prof[j].pid);
      if (r < rank) continue;
      size_t b = ing_busy(&g->prof[j]);
      if (r > rank || b > best) best = b, keep = j, rank = r;
    }
    for (size_t j = i; j < n; j++)
      if (ing_built(&g->prof[j]) && base[j] == base[i] && j != keep) dup[j] = 1;
  }
  free(seen);
  /* Each round adds one part to the labels of the others still shared. */
  for (int round = 0; round < 3; round++) {
    for (size_t i = 0; i < n; i++) {
      struct prof *p = &g->prof[i];
      if (!dup[i]) continue;
      uint32_t o = ing_origin(g, p->pid);
      if (round == 0 && !o) continue;
      parts[i] |= (uint8_t)(1u << round);
      /* Bounded widths: b always holds the whole label. */
      char b[1400];
      int k = snprintf(b, sizeof b, "%.1000s (", ana_str(g->ctx, base[i]));
      const char *sep = "";
      if (parts[i] & 1) {
        k +=
            snprintf(b + k, sizeof b - (size_t)k, "%.200s", ana_str(g->ctx, o));
        sep = ", ";
      }
      if (parts[i] & 2) {
        k += snprintf(b + k, sizeof b - (size_t)k, "%spid %lld", sep,
                      (long long)p->pid);
        sep = ", ";
      }
      if (parts[i] & 4)
        k += snprintf(b + k, sizeof b - (size_t)k, "%stid %lld", sep,
                      (long long)p->tid);
      snprintf(b + k, sizeof b - (size_t)k, ")");
      p->label = ana_intern(g->ctx, b, strlen(b));
    }
    int any = 0;
    for (size_t i = 0; i < n; i++) {
      if (!dup[i]) continue;
      int k = 0;
      for (size_t j = 0; j < n && !k; j++)
        k = j != i && ing_built(&g->prof[j]) &&
            g->prof[j].label == g->prof[i].label;
      dup[i] = (uint8_t)k;
      any |= k;
    }
    if (!any) break;
  }
  free(base);
  free(parts);
  free(dup);
}

/* One profile per thread, as DevTools keeps: console.profile() during a
 * recording starts a second profile on the page's main thread, and adding
 * both would count its time twice. The recording's own ("Internal") is
 * kept, else the inspector's, else the first in the file. */
void ing_choose(struct ing *g) {
  for (size_t i = 0; i < g->nprof; i++) {
    struct prof *p = &g->prof[i];
    if (!p->has_tid || p->left_out) continue;
    struct prof *keep = p;
    int n = 1;
    for (size_t j = i + 1; j < g->nprof; j++) {
      struct prof *q = &g->prof[j];
      if (!q->has_tid || q->pid != p->pid || q->tid != p->tid) continue;
      n++;
      if ((q->source == PS_INTERNAL && keep->source != PS_INTERNAL) ||
          (q->source == PS_INSPECTOR && keep->source != PS_INTERNAL &&
           keep->source != PS_INSPECTOR))
        keep = q;
    }
    if (n == 1) continue;
    for (size_t j = i; j < g->nprof; j++) {
      struct prof *q = &g->prof[j];
      if (q == keep || !q->has_tid || q->pid != p->pid || q->tid != p->tid)
        continue;
      q->left_out = 1;
      zc_log(1,
             "%s: thread %lld of process %lld has %d CPU profiles; kept "
             "%s%s (%zu samples), left out %s%s (%zu samples)",
             g->path, (long long)p->tid, (long long)p->pid, n, keep->id,
             keep->source == PS_INTERNAL    ? ", the recording's"
             : keep->source == PS_INSPECTOR ? ", console.profile()'s"
                                            : "",
             keep->nsamp, q->id,
             q->source == PS_INSPECTOR ? ", console.profile()'s" : "",
             q->nsamp);
    }
  }
}
