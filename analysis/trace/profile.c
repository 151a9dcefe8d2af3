/* Profile decoding: V8 CPU profiles into profile nodes and samples, from
 * Profile and ProfileChunk events, CpuProfile events (Chrome <= 66) and
 * .cpuprofile files (the current format and the old "head" tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* The profile (pid, id), added empty if it is new. */
static struct prof *ing_prof(struct ing *g, int64_t pid, const char *id) {
  for (size_t i = 0; i < g->nprof; i++)
    if (g->prof[i].pid == pid && strcmp(g->prof[i].id, id) == 0)
      return &g->prof[i];
  ZC_GROW(g->prof, g->capprof, g->nprof + 1);
  struct prof *p = &g->prof[g->nprof++];
  memset(p, 0, sizeof *p);
  p->pid = pid;
  snprintf(p->id, sizeof p->id, "%s", id);
  zc_htab_init(&p->tab, 128);
  return p;
}

void prof_free(struct prof *p) {
  free(p->nodes);
  zc_htab_free(&p->tab);
  free(p->sid);
  free(p->sdt);
}

static struct pnode *prof_add(struct prof *p, uint32_t id) {
  size_t pos;
  struct pnode *n = prof_lookup(p, id, &pos);
  if (n) return n;
  ZC_GROW(p->nodes, p->capnodes, p->nnodes + 1);
  n = &p->nodes[p->nnodes];
  memset(n, 0, sizeof *n);
  n->id = id;
  n->tl = ANA_NONE;
  zc_htab_add(&p->tab, zc_mix64(id), pos, (uint32_t)p->nnodes++);
  return n;
}

/* A time in µs from the file, if it is one. 2^53 µs is 285 years; the
 * bound keeps sums of times and int32 deltas from overflowing. */
static int ing_time(double t, int64_t *out) {
  if (!(t > -9007199254740992.0 && t < 9007199254740992.0)) return 0;
  *out = (int64_t)t;
  return 1;
}

static int ing_u32(struct jr *r, uint32_t *out) {
  double d;
  if (!jr_num(r, &d)) return 0;
  if (d < 0 || d > 4294967295.0) return 0;
  *out = (uint32_t)d;
  return 1;
}

static uint32_t ing_kind(const struct ing *g, uint32_t name) {
  return name == g->k_root      ? ANA_ROOT
         : name == g->k_program ? ANA_PROGRAM
         : name == g->k_idle    ? ANA_IDLE
         : name == g->k_gc      ? ANA_GC
                                : ANA_FUNC;
}

static int ing_callframe(struct ing *g, struct jr *r, struct pnode *n) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  n->line = n->col = -1;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn))
      n->name = ana_intern_name(g->ctx, s, sn);
    else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn))
      n->url = ana_intern(g->ctx, s, sn);
    else if (jr_is(k, kn, "lineNumber") && jr_num(r, &d))
      n->line = d >= -1 && d < 2e9 ? (int32_t)d : -1;
    else if (jr_is(k, kn, "columnNumber") && jr_num(r, &d))
      n->col = d >= -1 && d < 2e9 ? (int32_t)d : -1;
    else if (!jr_skip(r))
      return 0;
  }
  return !r->err;
}

/* A "nodes" array: trace chunks give each node's parent, .cpuprofile
 * files its children. */
static int ing_nodes(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    struct pnode tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.line = tmp.col = -1;
    uint32_t id = 0, kid;
    int has_id = 0, has_cf = 0;
    uint32_t *kids = g->kids;
    size_t nk = 0;
    if (!jr_obj(r)) return 0;
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "id")) {
        if (!(has_id = ing_u32(r, &id))) return 0;
      } else if (jr_is(k, kn, "parent")) {
        if (!ing_u32(r, &tmp.parent)) return 0;
      } else if (jr_is(k, kn, "callFrame")) {
        if (!(has_cf = ing_callframe(g, r, &tmp))) return 0;
      } else if (jr_is(k, kn, "children")) {
        if (!jr_arr(r)) return 0;
        while (jr_more(r, NULL, NULL)) {
          if (!ing_u32(r, &kid)) return 0;
          ZC_GROW(g->kids, g->capkids, nk + 1);
          kids = g->kids;
          kids[nk++] = kid;
        }
      } else if (!jr_skip(r)) {
        return 0;
      }
    }
    if (r->err) return 0;
    if (!has_id) {
      r->err = r->p;
      return 0;
    }
    struct pnode *n = prof_add(p, id);
    if (has_cf) {
      n->name = tmp.name;
      n->url = tmp.url;
      n->line = tmp.line;
      n->col = tmp.col;
      n->kind = (uint8_t)ing_kind(g, n->name);
    }
    if (tmp.parent) n->parent = tmp.parent;
    for (size_t i = 0; i < nk; i++)
      if (kids[i] != id) prof_add(p, kids[i])->parent = id;
  }
  return !r->err;
}

/* The old .cpuprofile format (Node <= 10, Chrome <= 57): "head", a tree
 * of nodes nested through "children", with the call frame's fields in the
 * node itself and 1-based lines (DevTools' CPUProfileDataModel converts
 * it the same way). V8 keeps at most 255 frames a sample, so a tree deeper
 * than ING_HEAD_DEPTH is not a profile. Returns the node's id, 0 on error
 * (r->err set). */
#define ING_HEAD_DEPTH 2048
static uint32_t ing_head(struct ing *g, struct prof *p, struct jr *r,
                         uint32_t parent, int depth) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  struct pnode tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.line = tmp.col = -1;
  uint32_t id = 0, nk = 0, *kids = NULL;
  int has_cf = 0, line1 = -1, col1 = -1;
  if (depth > ING_HEAD_DEPTH) {
    r->err = r->p;
    return 0;
  }
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "id")) {
      if (!ing_u32(r, &id)) goto bad;
    } else if (jr_is(k, kn, "callFrame")) {
      if (!(has_cf = ing_callframe(g, r, &tmp))) goto bad;
    } else if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn)) {
      tmp.name = ana_intern_name(g->ctx, s, sn);
    } else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn)) {
      tmp.url = ana_intern(g->ctx, s, sn);
    } else if (jr_is(k, kn, "lineNumber") && jr_num(r, &d)) {
      line1 = d >= 1 && d < 2e9 ? (int32_t)d - 1 : -1;
    } else if (jr_is(k, kn, "columnNumber") && jr_num(r, &d)) {
      col1 = d >= 1 && d < 2e9 ? (int32_t)d - 1 : -1;
    } else if (jr_is(k, kn, "children")) {
      /* A child's parent is this node, whose id may come later. */
      if (!jr_arr(r)) goto bad;
      while (jr_more(r, NULL, NULL)) {
        uint32_t kid = ing_head(g, p, r, 0, depth + 1);
        if (!kid) goto bad;
        kids = zc_xreallocarray(kids, (size_t)nk + 1, sizeof *kids);
        kids[nk++] = kid;
      }
    } else if (!jr_skip(r)) {
      goto bad;
    }
  }
  if (r->err || !id) {
    if (!r->err) r->err = r->p;
    goto bad;
  }
  struct pnode *n = prof_add(p, id);
  if (!has_cf) tmp.line = line1, tmp.col = col1;
  n->name = tmp.name;
  n->url = tmp.url;
  n->line = tmp.line;
  n->col = tmp.col;
  n->kind = (uint8_t)ing_kind(g, n->name);
  if (parent) n->parent = parent;
  for (uint32_t i = 0; i < nk; i++)
    if (kids[i] != id) prof_add(p, kids[i])->parent = id;
  free(kids);
  return id;
bad:
  free(kids);
  return 0;
}

/* An array of times in µs (the old format's "timestamps") into v. */
static int ing_times(struct jr *r, int64_t **v, size_t *n, size_t *cap) {
  *n = 0;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    double d;
    int64_t t;
    if (!jr_num(r, &d)) return 0;
    if (!ing_time(d, &t)) {
      r->err = r->p;
      return 0;
    }
    ZC_GROW(*v, *cap, *n + 1);
    (*v)[(*n)++] = t;
  }
  return !r->err;
}

/* An array of integers (sample ids or time deltas) into v. */
static int ing_ints(struct jr *r, int32_t **v, size_t *n, size_t *cap) {
  *n = 0;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    double d;
    if (!jr_num(r, &d)) return 0;
    if (d > 2147483647.0 || d < -2147483648.0) {
      r->err = r->p;
      return 0;
    }
    ZC_GROW(*v, *cap, *n + 1);
    (*v)[(*n)++] = (int32_t)d;
  }
  return !r->err;
}

/* Appends the pending sample ids and deltas to p, pairwise. */
static enum zc_err ing_flush_samples(struct ing *g, struct prof *p,
                                     uint64_t off) {
  size_t n = g->nsid < g->ndt ? g->nsid : g->ndt;
  if (g->nsid != g->ndt)
    zc_log(2, "%s: byte %llu: %zu samples but %zu time deltas; using %zu",
           g->path, (unsigned long long)off, g->nsid, g->ndt, n);
  ZC_GROW(p->sid, p->capsamp, p->nsamp + n);
  p->sdt = zc_xreallocarray(p->sdt, p->capsamp, sizeof *p->sdt);
  for (size_t i = 0; i < n; i++) {
    if (g->sid[i] < 0)
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: sample %zu is not a node "
                     "id",
                     g->path, (unsigned long long)off, i);
    p->sid[p->nsamp] = (uint32_t)g->sid[i];
    p->sdt[p->nsamp++] = g->dt[i];
  }
  g->nsid = g->ndt = 0;
  return ZC_OK;
}

/* A profile's "source" string (Profile and ProfileChunk events). */
static int ing_source(struct jr *r, struct prof *p) {
  const char *s;
  size_t n;
  if (!jr_str(r, &s, &n)) return 0;
  p->source = jr_is(s, n, "Internal")    ? PS_INTERNAL
              : jr_is(s, n, "Inspector") ? PS_INSPECTOR
                                         : PS_OTHER;
  return 1;
}

/* args.data of a ProfileChunk: {cpuProfile: {nodes, samples}, timeDeltas,
 * endTime?}. */
static int ing_chunk_data(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "cpuProfile")) {
      if (!jr_obj(r)) return 0;
      while (jr_more(r, &k, &kn)) {
        if (jr_is(k, kn, "nodes")) {
          if (!ing_nodes(g, p, r)) return 0;
        } else if (jr_is(k, kn, "samples")) {
          if (!ing_ints(r, &g->sid, &g->nsid, &g->capsid)) return 0;
        } else if (jr_is(k, kn, "endTime")) {
          if (!jr_num(r, &t)) return 0;
          if (ing_time(t, &p->end_us)) p->has_end = 1;
        } else if (!jr_skip(r)) {
          return 0;
        }
      }
    } else if (jr_is(k, kn, "timeDeltas")) {
      if (!ing_ints(r, &g->dt, &g->ndt, &g->capdt)) return 0;
    } else if (jr_is(k, kn, "endTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->end_us)) p->has_end = 1;
    } else if (jr_is(k, kn, "source") && jr_peek(r) == '"') {
      if (!ing_source(r, p)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* args.data of a Profile event: startTime and source. */
static int ing_profile_data(struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "startTime") && jr_peek(r) != '"') {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->dstart_us)) p->has_dstart = 1;
    } else if (jr_is(k, kn, "source") && jr_peek(r) == '"') {
      if (!ing_source(r, p)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* args.data.cpuProfile of a CpuProfile event (Chrome <= 66): the whole
 * profile at once, {nodes, samples, timeDeltas, startTime, endTime}, its
 * times in the trace's clock. */
static int ing_whole_profile(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "nodes")) {
      if (!ing_nodes(g, p, r)) return 0;
    } else if (jr_is(k, kn, "samples")) {
      if (!ing_ints(r, &g->sid, &g->nsid, &g->capsid)) return 0;
    } else if (jr_is(k, kn, "timeDeltas")) {
      if (!ing_ints(r, &g->dt, &g->ndt, &g->capdt)) return 0;
    } else if (jr_is(k, kn, "startTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->dstart_us)) {
        p->has_dstart = p->has_start = 1;
        p->start_us = p->dstart_us;
      }
    } else if (jr_is(k, kn, "endTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->end_us)) p->has_end = 1;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* A CpuProfile event (Chrome <= 66): one event, the whole profile (ph I
 * or P; the DevTools engine's own CPU profiles as X). Each is a profile of
 * its own. */
enum zc_err ing_cpuprofile_event(struct ing *g, struct jr *r, const char *args,
                                 int64_t pid, int64_t tid, uint64_t off) {
  char pn[48];
  snprintf(pn, sizeof pn, "CpuProfile#%u", g->ncpuprofile_events++);
  struct prof *p = ing_prof(g, pid, pn);
  p->tid = tid;
  p->has_tid = 1;
  g->nsid = g->ndt = 0;
  if (args) {
    r->p = args;
    if (ing_find(r, "data") && ing_find(r, "cpuProfile"))
      ing_whole_profile(g, p, r);
    if (r->err) return ZC_OK;
  }
  return ing_flush_samples(g, p, off);
}

/* A Profile event, r at its args: the profile's thread and start. */
void ing_profile_event(struct ing *g, struct jr *r, int64_t pid, int64_t tid,
                       const char *id, int has_ts, double ts) {
  struct prof *p = ing_prof(g, pid, id);
  p->tid = tid;
  p->has_tid = 1;
  /* The event's ts is in the trace's clock, as every other event;
   * startTime is V8's (DevTools' engine takes ts for the same reason). */
  if (has_ts && ing_time(ts, &p->start_us)) p->has_start = 1;
  if (ing_find(r, "data")) ing_profile_data(p, r);
  if (!p->has_start && p->has_dstart)
    p->start_us = p->dstart_us, p->has_start = 1;
  r->err = NULL; /* a Profile without startTime is not malformed */
}

/* A ProfileChunk event, r at its args: nodes, samples and deltas. */
enum zc_err ing_profile_chunk(struct ing *g, struct jr *r, int64_t pid,
                              const char *id, uint64_t off) {
  struct prof *p = ing_prof(g, pid, id);
  g->nsid = g->ndt = 0;
  if (ing_find(r, "data")) ing_chunk_data(g, p, r);
  if (r->err) return ZC_OK;
  return ing_flush_samples(g, p, off);
}

/* One top-level field of a .cpuprofile: 0 nodes, 1 samples, 2 timeDeltas,
 * 3 startTime, 4 endTime, 5 head, 6 timestamps. */
enum zc_err ing_cpuprofile_field(struct ing *g, int f, const struct val *v) {
  struct jr r;
  jr_init(&r, g->buf + v->s, v->e - v->s);
  if (f == 1) {
    /* Samples that are objects are another tool's (a heap profile's
     * allocations, a trace-event file's own stack samples): noted, so
     * that the message can say what the file holds. */
    jr_arr(&r);
    if (jr_more(&r, NULL, NULL) && jr_peek(&r) == '{') {
      g->other_samples = 1;
      jr_done(&r);
      return ZC_OK;
    }
    jr_init(&r, g->buf + v->s, v->e - v->s);
  }
  if (!g->cpuprofile) g->cpuprofile = ing_prof(g, 0, "cpuprofile");
  struct prof *p = g->cpuprofile;
  double t;
  if (f == 0)
    ing_nodes(g, p, &r);
  else if (f == 1)
    ing_ints(&r, &g->sid, &g->nsid, &g->capsid);
  else if (f == 2)
    ing_ints(&r, &g->dt, &g->ndt, &g->capdt);
  else if (f == 5)
    g->cp_head = ing_head(g, p, &r, 0, 0) != 0;
  else if (f == 6)
    ing_times(&r, &g->cp_ts, &g->ncp_ts, &g->capcp_ts);
  else if (jr_num(&r, &t) && f == 3)
    g->cp_start = t, g->cp_has_start = 1;
  else if (!r.err)
    g->cp_end = t, g->cp_has_end = 1;
  const char *at = r.err;
  jr_done(&r);
  if (at && r.toobig)
    return zc_fail(ZC_E_TOOBIG,
                   "%s: byte %llu: a string over %zu MiB in a "
                   "CPU profile field",
                   g->path,
                   (unsigned long long)(g->base + (uint64_t)(at - g->buf)),
                   ana__jr_strmax >> 20);
  if (at)
    return zc_fail(ZC_E_PARSE,
                   "%s: byte %llu: malformed CPU profile field "
                   "(bad JSON or an unexpected value at byte %llu)",
                   g->path, (unsigned long long)(g->base + v->s),
                   (unsigned long long)(g->base + (uint64_t)(at - g->buf)));
  g->parsed++;
  return ZC_OK;
}

/* The end of a .cpuprofile: its times resolved, its samples added. The
 * old format ("head") gives startTime and endTime in seconds and each
 * sample's absolute time in "timestamps"; older still, no times at all,
 * and DevTools spreads the samples evenly from start to end. */
enum zc_err ing_cpuprofile_done(struct ing *g) {
  struct prof *p = g->cpuprofile;
  double scale = g->cp_head ? 1e6 : 1;
  if (g->cp_has_start && ing_time(g->cp_start * scale, &p->start_us))
    p->has_start = p->has_dstart = 1, p->dstart_us = p->start_us;
  if (g->cp_has_end && ing_time(g->cp_end * scale, &p->end_us)) p->has_end = 1;
  if (!g->ndt && g->ncp_ts && g->ncp_ts == g->nsid + 1 && g->nsid) {
    /* One time more than samples: the last sample's end (DevTools reads
     * it so). */
    p->end_us = g->cp_ts[--g->ncp_ts];
    p->has_end = p->exact_end = 1;
  }
  if (!g->ndt && g->ncp_ts) {
    /* Deltas from the start; from the first sample if the start is in
     * another clock (or missing). */
    int64_t prev = p->has_start ? p->start_us : g->cp_ts[0];
    if (g->cp_ts[0] - prev < 0 || g->cp_ts[0] - prev > INT32_MAX)
      prev = g->cp_ts[0];
    p->start_us = p->dstart_us = prev;
    p->has_start = p->has_dstart = 1;
    for (size_t i = 0; i < g->ncp_ts; i++) {
      int64_t d = g->cp_ts[i] - prev;
      if (d < INT32_MIN || d > INT32_MAX)
        return zc_fail(ZC_E_PARSE,
                       "%s: sample %zu's timestamp is %.0f s "
                       "away from the one before",
                       g->path, i, (double)d / 1e6);
      ZC_GROW(g->dt, g->capdt, g->ndt + 1);
      g->dt[g->ndt++] = (int32_t)d;
      prev = g->cp_ts[i];
    }
  } else if (!g->ndt && g->nsid && p->has_start && p->has_end &&
             p->end_us > p->start_us) {
    int64_t step = (p->end_us - p->start_us) / (int64_t)g->nsid;
    if (step > INT32_MAX) step = 0;
    ZC_GROW(g->dt, g->capdt, g->nsid);
    for (size_t i = 0; i < g->nsid; i++)
      g->dt[i] = i ? (int32_t)step : 0;
    g->ndt = g->nsid;
    p->exact_end = 1; /* spread evenly up to the end, as DevTools does */
  }
  return ing_flush_samples(g, p, 0);
}
