/* I/O per call path (zam/io.h): the reports of the I/O comparison, beside
 * the time comparison's. report.json's io (its causes with SPECTRAPERF's
 * columns, its rows end to end and per step, the requests per step and
 * URL pattern, a flame graph in requests, the caps reached), each I/O
 * run's figures as runs[].io, and the terminal's and summary.md's
 * lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "timeline.h"
#include "zam/io.h"

enum { IO_SHOWN = 5, IO_FLAME_NODES = 20000, IO_TABLE_ROWS = 200 };

static cJSON *io_num(double v) {
  return isnan(v) || isinf(v) ? cJSON_CreateNull()
                              : cJSON_CreateNumber(round(v * 1000) / 1000);
}

/* "2 I/O regression-causes (≥ 5 requests or ≥ 100 KB more a run, in
 * all 3 pairs)". */
static void io_headline(struct ana_io *io, unsigned n, unsigned undecided,
                        char *out, size_t cap) {
  char in[64];
  unsigned q = io->o.quorum && io->o.quorum < io->n ? io->o.quorum : 0;
  if (io->n == 1)
    snprintf(in, sizeof in, "in the one pair");
  else if (q)
    snprintf(in, sizeof in, "in at least %u of %u pairs", q, io->n);
  else
    snprintf(in, sizeof in, "in all %u pairs", io->n);
  if (n)
    snprintf(out, cap,
             "%u I/O regression-cause%s (≥ %g requests or writes, or ≥ %g "
             "KB, more a run %s)",
             n, n == 1 ? "" : "s", io->mu_requests, io->mu_kb, in);
  else if (undecided)
    snprintf(
        out, cap, "I/O inconclusive (%u candidate%s undecided after %u pair%s)",
        undecided, undecided == 1 ? "" : "s", io->n, io->n == 1 ? "" : "s");
  else
    snprintf(out, cap,
             "No I/O regression-cause (no call path made ≥ %g more requests "
             "or writes, or ≥ %g KB more, %s)",
             io->mu_requests, io->mu_kb, in);
}

/* ---- report.json ---- */

static cJSON *cause_json(const struct io_cause *c, unsigned n, unsigned k) {
  const struct io_cause *x = &c[k];
  const struct io_measure *d = &ana__io_measures[x->measure];
  cJSON *o = cJSON_CreateObject();
  char words[1024];
  ana__io_cause_words(c, n, k, words, sizeof words);
  cJSON_AddNumberToObject(o, "rank", k + 1);
  cJSON_AddStringToObject(o, "name", x->name);
  cJSON_AddStringToObject(o, "kind", d->storage ? "storage" : "network");
  cJSON_AddStringToObject(o, "what", x->what ? x->what : "");
  if (x->url)
    cJSON_AddStringToObject(o, "url", x->url);
  else
    cJSON_AddNullToObject(o, "url");
  char comp[1024] = "";
  if (x->url) ana_component(x->url, strlen(x->url), comp, sizeof comp);
  cJSON_AddStringToObject(o, "file", comp);
  if (x->line > 0)
    cJSON_AddNumberToObject(o, "line", x->line);
  else
    cJSON_AddNullToObject(o, "line");
  cJSON *pa = cJSON_AddArrayToObject(o, "path");
  for (uint32_t i = 0; i < x->npath; i++)
    cJSON_AddItemToArray(pa, cJSON_CreateString(x->path[i]));
  cJSON *via = cJSON_AddArrayToObject(o, "via");
  for (uint32_t i = 0; i < x->nvia; i++)
    cJSON_AddItemToArray(via, cJSON_CreateString(x->via[i]));
  cJSON_AddStringToObject(o, "measure", d->name);
  cJSON_AddStringToObject(
      o, "unit",
      d->unit == ANA_UNIT_COUNT ? (d->storage ? "writes" : "requests") : "KB");
  cJSON_AddStringToObject(o, "status", x->isnew ? "new" : "more");
  cJSON_AddStringToObject(o, "found",
                          x->node == ANA_NONE ? "spread-out" : "call path");
  cJSON_AddItemToObject(o, "old", io_num(x->old));
  cJSON_AddItemToObject(o, "new", io_num(x->new_));
  cJSON_AddItemToObject(o, "delta", io_num(x->delta));
  if (isnan(x->lo)) {
    cJSON_AddNullToObject(o, "ci95");
  } else {
    cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
    cJSON_AddItemToArray(ci, io_num(x->lo));
    cJSON_AddItemToArray(ci, io_num(x->hi));
  }
  cJSON *pp = cJSON_AddArrayToObject(o, "delta_per_pair");
  for (unsigned p = 0; p < x->npairs; p++)
    cJSON_AddItemToArray(pp, io_num(x->dpair[p]));
  /* SPECTRAPERF's columns */
  cJSON *calls = cJSON_AddObjectToObject(o, "calls");
  cJSON_AddItemToObject(calls, "old", io_num(x->calls_old));
  cJSON_AddItemToObject(calls, "new", io_num(x->calls_new));
  cJSON *pc = cJSON_AddObjectToObject(o, "per_call");
  cJSON_AddItemToObject(pc, "old_kb", io_num(x->per_call_old));
  cJSON_AddItemToObject(pc, "new_kb", io_num(x->per_call_new));
  cJSON_AddItemToObject(o, "total_impact", io_num(x->delta));
  cJSON_AddNumberToObject(o, "runs_seen", x->seen);
  cJSON_AddNumberToObject(o, "runs", x->runs);
  cJSON_AddItemToObject(o, "similarity", io_num(x->similarity));
  cJSON_AddStringToObject(o, "text", words);
  return o;
}

/* The figures of one run: its measures, cached and failed requests, and
 * per step. */
static cJSON *run_json(const struct ana_io_run *r) {
  double v[IO_NMEASURES] = {0}, cached = 0, failed = 0;
  cJSON *o = cJSON_CreateObject();
  cJSON *steps = cJSON_CreateArray();
  for (uint32_t s = 0; s <= r->nsteps; s++) {
    double sv[IO_NMEASURES] = {0};
    uint32_t step = s ? r->steps[s - 1].step : 0;
    for (size_t i = 0; i < r->nitems; i++) {
      const struct io_item *it = &r->items[i];
      if (s && it->step != step) continue;
      double w[IO_NMEASURES] = {
          it->storage ? 0 : it->n, it->storage ? 0 : it->received,
          it->storage ? 0 : it->sent, it->storage ? it->n : 0,
          it->storage ? it->sent : 0};
      for (int m = 0; m < IO_NMEASURES; m++)
        (s ? sv : v)[m] += w[m];
      if (!s && !it->storage && it->flags & IO_F_CACHED) cached += it->n;
      if (!s && !it->storage && it->flags & (IO_F_FAILED | IO_F_ERROR))
        failed += it->n;
    }
    if (!s) continue;
    cJSON *so = cJSON_CreateObject();
    cJSON_AddNumberToObject(so, "step", step);
    cJSON_AddStringToObject(so, "type", r->steps[s - 1].type);
    for (int m = 0; m < IO_NMEASURES; m++)
      cJSON_AddItemToObject(so, ana__io_measures[m].name,
                            io_num(ana__io_measures[m].unit == ANA_UNIT_BYTES
                                       ? sv[m] / 1024
                                       : sv[m]));
    cJSON_AddItemToArray(steps, so);
  }
  for (int m = 0; m < IO_NMEASURES; m++)
    cJSON_AddItemToObject(o, ana__io_measures[m].name,
                          io_num(ana__io_measures[m].unit == ANA_UNIT_BYTES
                                     ? v[m] / 1024
                                     : v[m]));
  cJSON_AddNumberToObject(o, "cached_requests", cached);
  cJSON_AddNumberToObject(o, "failed_requests", failed);
  cJSON_AddBoolToObject(o, "stacks", r->sidecar);
  cJSON_AddItemToObject(o, "steps", steps);
  return o;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

void ana__io_runs_doc(struct ana_io *io, cJSON *doc) {
  cJSON *runs = cJSON_GetObjectItem(doc, "runs");
  for (cJSON *r = runs ? runs->child : NULL; r; r = r->next) {
    const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(r, "trace"));
    if (!t) continue;
    for (unsigned p = 0; p < io->n; p++)
      for (int s = 0; s < 2; s++) {
        const struct ana_io_run *x = s ? io->new_runs[p] : io->old_runs[p];
        if (!strcmp(base_name(x->path), base_name(t)))
          cJSON_AddItemToObject(r, "io", run_json(x));
      }
  }
}

/* One row of the table per step: what was asked, summed over a side's
 * runs (means are taken when written). */
struct trow {
  uint32_t step, what;
  uint8_t storage;
  double n[2], kb[2], cached[2], failed[2], ms[2], timed[2];
};

static int trow_cmp(const void *a, const void *b) {
  const struct trow *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->storage != y->storage) return x->storage - y->storage;
  double dx = fabs(x->n[1] - x->n[0]), dy = fabs(y->n[1] - y->n[0]);
  if (dx != dy) return dx < dy ? 1 : -1;
  return (x->n[1] < y->n[1]) - (x->n[1] > y->n[1]);
}

static size_t table_rows(struct ana_io *io, struct trow **out) {
  struct trow *v = NULL;
  size_t n = 0, cap = 0;
  struct zc_htab h;
  zc_htab_init(&h, 64);
  for (unsigned p = 0; p < io->n; p++)
    for (int s = 0; s < 2; s++) {
      const struct ana_io_run *r = s ? io->new_runs[p] : io->old_runs[p];
      for (size_t i = 0; i < r->nitems; i++) {
        const struct io_item *it = &r->items[i];
        uint64_t hv = zc_mix64((uint64_t)it->step << 32 | it->what);
        size_t pos = ZC_HTAB_START;
        uint32_t k;
        struct trow *t = NULL;
        while (!t && zc_htab_next(&h, hv, &pos, &k))
          if (v[k].step == it->step && v[k].what == it->what) t = &v[k];
        if (!t) {
          ZC_GROW(v, cap, n + 1);
          t = &v[n];
          memset(t, 0, sizeof *t);
          t->step = it->step;
          t->what = it->what;
          t->storage = it->storage;
          zc_htab_add(&h, hv, pos, (uint32_t)n++);
        }
        t->n[s] += it->n;
        t->kb[s] += (it->storage ? it->sent : it->received) / 1024;
        t->cached[s] += it->flags & IO_F_CACHED ? it->n : 0;
        t->failed[s] += it->flags & (IO_F_FAILED | IO_F_ERROR) ? it->n : 0;
        if (!isnan(it->ms)) t->ms[s] += it->ms, t->timed[s]++;
      }
    }
  zc_htab_free(&h);
  if (n) qsort(v, n, sizeof *v, trow_cmp);
  *out = v;
  return n;
}

static const char *step_type(struct ana_io *io, uint32_t step) {
  for (unsigned p = 0; p < io->n; p++)
    for (uint32_t s = 0; s < io->old_runs[p]->nsteps; s++)
      if (io->old_runs[p]->steps[s].step == step)
        return io->old_runs[p]->steps[s].type;
  return "";
}

/* io.steps: per step, what was asked old -> new (means a run). */
static cJSON *table_json(struct ana_io *io) {
  struct trow *v;
  size_t n = table_rows(io, &v);
  cJSON *a = cJSON_CreateArray(), *cur = NULL, *rows = NULL;
  uint32_t step = 0;
  unsigned shown = 0, left = 0;
  double k = io->n ? io->n : 1;
  for (size_t i = 0; i < n; i++) {
    const struct trow *t = &v[i];
    if (!cur || t->step != step) {
      if (cur && left) cJSON_AddNumberToObject(cur, "rows_left_out", left);
      cur = cJSON_CreateObject();
      step = t->step;
      cJSON_AddNumberToObject(cur, "step", step);
      cJSON_AddStringToObject(cur, "type", step_type(io, step));
      rows = cJSON_AddArrayToObject(cur, "rows");
      cJSON_AddItemToArray(a, cur);
      shown = left = 0;
    }
    if (shown >= IO_TABLE_ROWS) {
      left++;
      continue;
    }
    shown++;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "what", ana_str(io->rctx, t->what));
    cJSON_AddStringToObject(o, "kind", t->storage ? "storage" : "network");
    cJSON_AddItemToObject(o, "old", io_num(t->n[0] / k));
    cJSON_AddItemToObject(o, "new", io_num(t->n[1] / k));
    cJSON_AddItemToObject(o, "delta", io_num((t->n[1] - t->n[0]) / k));
    cJSON_AddItemToObject(o, "old_kb", io_num(t->kb[0] / k));
    cJSON_AddItemToObject(o, "new_kb", io_num(t->kb[1] / k));
    cJSON_AddItemToObject(o, "old_cached", io_num(t->cached[0] / k));
    cJSON_AddItemToObject(o, "new_cached", io_num(t->cached[1] / k));
    cJSON_AddItemToObject(o, "old_failed", io_num(t->failed[0] / k));
    cJSON_AddItemToObject(o, "new_failed", io_num(t->failed[1] / k));
    cJSON_AddItemToObject(
        o, "old_ms", io_num(t->timed[0] > 0 ? t->ms[0] / t->timed[0] : NAN));
    cJSON_AddItemToObject(
        o, "new_ms", io_num(t->timed[1] > 0 ? t->ms[1] / t->timed[1] : NAN));
    cJSON_AddItemToArray(rows, o);
  }
  if (cur && left) cJSON_AddNumberToObject(cur, "rows_left_out", left);
  free(v);
  return a;
}

/* The flame graph in requests: the requests comparison's merged tree. */
static cJSON *io_flame(struct ana_io *io) {
  struct ana_cmp *m = io->m[IO_REQUESTS];
  cJSON *fl = ana_bu_flame_json(m->bu, m->agg, IO_FLAME_NODES);
  static const char *const side[2] = {"old", "new"};
  for (int s = 0; s < 2; s++) {
    char from[16], to[24];
    snprintf(from, sizeof from, "%s_ms", side[s]);
    snprintf(to, sizeof to, "%s_requests", side[s]);
    cJSON *col = cJSON_DetachItemFromObjectCaseSensitive(fl, from);
    if (col) cJSON_AddItemToObject(fl, to, col);
  }
  cJSON_AddStringToObject(fl, "unit", "requests");
  return fl;
}

/* What passed a cap, summed over the runs, and the wrapper's frames. */
static cJSON *caps_json(struct ana_io *io) {
  double st = 0, rq = 0, wr = 0, tr = 0, ow = 0;
  unsigned wrapped = 0, failed = 0, side = 0;
  for (unsigned p = 0; p < io->n; p++)
    for (int s = 0; s < 2; s++) {
      const struct ana_io_run *r = s ? io->new_runs[p] : io->old_runs[p];
      st += r->cap_stacks, rq += r->cap_requests, wr += r->cap_writes;
      tr += r->cap_trace, ow += r->over_writes;
      wrapped += r->wrapped, failed += r->wrap_failed,
          side += r->sidecar ? 1u : 0u;
    }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "stacks_not_kept", st);
  cJSON_AddNumberToObject(o, "requests_not_kept", rq + tr);
  cJSON_AddNumberToObject(o, "writes_past_the_cap", ow);
  cJSON_AddNumberToObject(o, "write_sums_not_kept", wr);
  cJSON_AddBoolToObject(o, "reached", st + rq + tr + ow + wr > 0);
  cJSON *w = cJSON_AddObjectToObject(o, "wrapper");
  cJSON_AddNumberToObject(w, "runs_with_stacks", side);
  cJSON_AddNumberToObject(w, "frames", wrapped);
  cJSON_AddNumberToObject(w, "frames_with_failures", failed);
  return o;
}

cJSON *ana__io_json(struct ana_io *io) {
  unsigned n, undecided, needed, nc;
  ana__io_outcome(io, &nc, &undecided, &needed);
  struct io_cause *c = ana__io_causes(io, &n);
  cJSON *o = cJSON_CreateObject();
  char head[300];
  io_headline(io, n, undecided, head, sizeof head);
  cJSON_AddNumberToObject(o, "pairs", io->n);
  cJSON_AddNumberToObject(o, "mu_requests", io->mu_requests);
  cJSON_AddNumberToObject(o, "mu_kb", io->mu_kb);
  cJSON_AddStringToObject(o, "headline", head);
  cJSON_AddNumberToObject(o, "causes", n);
  cJSON_AddNumberToObject(o, "undecided", undecided);
  cJSON *pr = cJSON_AddArrayToObject(o, "traces");
  for (unsigned p = 0; p < io->n; p++) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "pair", p + 1);
    cJSON_AddStringToObject(e, "old", io->old_runs[p]->path);
    cJSON_AddStringToObject(e, "new", io->new_runs[p]->path);
    cJSON_AddItemToArray(pr, e);
  }
  cJSON *arr = cJSON_AddArrayToObject(o, "regression_causes");
  for (unsigned k = 0; k < n; k++)
    cJSON_AddItemToArray(arr, cause_json(c, n, k));
  ana__io_causes_free(c, n);
  cJSON_AddItemToObject(o, "rows", ana_vitals_json(ana__io_rows(io)));
  cJSON_AddItemToObject(o, "steps", table_json(io));
  cJSON_AddItemToObject(o, "flame", io_flame(io));
  cJSON_AddItemToObject(o, "caps", caps_json(io));
  return o;
}

/* ---- the terminal and summary.md ---- */

/* The place of a cause's words: what follows the changes. */
static const char *place_of(const char *words) {
  const char *p = strstr(words, ": ");
  return p ? p + 2 : words;
}

/* Whether cause k's place was already shown (by an earlier cause). */
static int shown_before(const struct io_cause *c, unsigned n, unsigned k) {
  char a[1024], b[1024];
  ana__io_cause_words(c, n, k, a, sizeof a);
  for (unsigned j = 0; j < k; j++) {
    ana__io_cause_words(c, n, j, b, sizeof b);
    if (!strcmp(place_of(a), place_of(b))) return 1;
  }
  return 0;
}

/* "47.0 requests a run instead of 1.0, 0.3 KB each (0.3 before), in 3 of
 * 3 runs" */
static void columns_words(const struct io_cause *x, char *out, size_t cap) {
  const struct io_measure *d = &ana__io_measures[x->measure];
  const char *what = d->storage ? "writes" : "requests";
  int w = snprintf(out, cap, "%.1f %s a run instead of %.1f", x->calls_new,
                   what, x->calls_old);
  if (w > 0 && (size_t)w < cap && !isnan(x->per_call_new))
    w += snprintf(out + w, cap - (size_t)w, ", %.1f KB each", x->per_call_new);
  if (w > 0 && (size_t)w < cap && !isnan(x->per_call_old) &&
      !isnan(x->per_call_new))
    w += snprintf(out + w, cap - (size_t)w, " (%.1f before)", x->per_call_old);
  if (w > 0 && (size_t)w < cap)
    snprintf(out + w, cap - (size_t)w, ", in %u of %u new runs", x->seen,
             x->runs);
}

static void rows_text(const struct ana_e2e *e, FILE *f, int md) {
  for (unsigned i = 0; e && i < e->nmetrics; i++) {
    const struct ana_e2e_row *r = &e->rows[i];
    if (!r->delta.n || (r->old.mean == 0 && r->new_.mean == 0)) continue;
    char d[160];
    ana_e2e_delta_text(r, d, sizeof d);
    if (md)
      fprintf(f, "- %s: %.1f → %.1f, %s%s\n", r->label, r->old.mean,
              r->new_.mean, d, r->significant ? "" : ", not significant");
    else
      fprintf(f, "  %-40s %9.1f -> %9.1f  %s%s\n", r->label, r->old.mean,
              r->new_.mean, d, r->significant ? "  *" : "");
  }
}

void ana__io_text(struct ana_io *io, FILE *f) {
  unsigned n, undecided, needed, nc;
  ana__io_outcome(io, &nc, &undecided, &needed);
  struct io_cause *c = ana__io_causes(io, &n);
  char head[300], words[1024], cols[300];
  io_headline(io, n, undecided, head, sizeof head);
  fprintf(f, "I/O: %s%s\n", head, n ? ":" : "");
  unsigned shown = 0, more = 0;
  for (unsigned k = 0; k < n; k++) {
    if (shown_before(c, n, k)) continue;
    if (shown >= IO_SHOWN) {
      more++;
      continue;
    }
    shown++;
    ana__io_cause_words(c, n, k, words, sizeof words);
    columns_words(&c[k], cols, sizeof cols);
    fputs("  ", f);
    zc_term_put(f, words, SIZE_MAX);
    fputs("\n      ", f);
    zc_term_put(f, cols, SIZE_MAX);
    fputc('\n', f);
  }
  if (more) fprintf(f, "  ... and %u more\n", more);
  ana__io_causes_free(c, n);
  fprintf(f, "I/O, old -> new (mean of %u pair%s):\n", io->n,
          io->n == 1 ? "" : "s");
  rows_text(ana__io_rows(io), f, 0);
}

/* KB a call in summary.md: "–" where the path made no call (no mean). */
static void md_kb(FILE *f, double kb) {
  if (isnan(kb))
    fputs("–", f);
  else
    fprintf(f, "%.1f", kb);
}

void ana__io_md(struct ana_io *io, FILE *f) {
  unsigned n, undecided, needed, nc;
  ana__io_outcome(io, &nc, &undecided, &needed);
  struct io_cause *c = ana__io_causes(io, &n);
  char head[300], words[1024];
  io_headline(io, n, undecided, head, sizeof head);
  fputs("\n#### I/O: ", f);
  ana_md_text(f, head);
  fputs("\n", f);
  if (n)
    fputs("\n| change | function | what | calls a run, old → new | KB a "
          "call, old → new | runs |\n|---|---|---|---:|---:|---:|\n",
          f);
  unsigned shown = 0;
  for (unsigned k = 0; k < n && shown < IO_SHOWN; k++) {
    if (shown_before(c, n, k)) continue;
    shown++;
    ana__io_cause_words(c, n, k, words, sizeof words);
    char *colon = strstr(words, ": ");
    if (colon) *colon = '\0';
    fputs("| ", f);
    ana_md_text(f, words);
    fputs(" | ", f);
    ana_md_code(f, c[k].name);
    fputs(" | ", f);
    ana_md_code(f, c[k].what ? c[k].what : "");
    fprintf(f, " | %.1f → %.1f | ", c[k].calls_old, c[k].calls_new);
    md_kb(f, c[k].per_call_old);
    fputs(" → ", f);
    md_kb(f, c[k].per_call_new);
    fprintf(f, " | %u/%u |\n", c[k].seen, c[k].runs);
  }
  ana__io_causes_free(c, n);
  fputs("\nI/O, old → new (mean a run):\n", f);
  rows_text(ana__io_rows(io), f, 1);
}

void ana__io_warn(struct ana_io *io) {
  cJSON *caps = caps_json(io);
  double st =
      cJSON_GetNumberValue(cJSON_GetObjectItem(caps, "stacks_not_kept"));
  double rq =
      cJSON_GetNumberValue(cJSON_GetObjectItem(caps, "requests_not_kept"));
  double ow =
      cJSON_GetNumberValue(cJSON_GetObjectItem(caps, "writes_past_the_cap"));
  double ws =
      cJSON_GetNumberValue(cJSON_GetObjectItem(caps, "write_sums_not_kept"));
  const cJSON *w = cJSON_GetObjectItem(caps, "wrapper");
  double side =
      cJSON_GetNumberValue(cJSON_GetObjectItem(w, "runs_with_stacks"));
  double wf =
      cJSON_GetNumberValue(cJSON_GetObjectItem(w, "frames_with_failures"));
  if (st + rq + ow + ws > 0)
    zc_log(0,
           "warning: I/O: caps reached: %.0f requests not kept one by one, "
           "%.0f stacks not kept, %.0f writes counted past the cap "
           "(report.json's io.caps)",
           rq, st, ow + ws);
  if (side < 2.0 * io->n)
    zc_log(0,
           "warning: I/O: %.0f of %u runs had no .io.json beside their "
           "trace: their requests' stacks are one frame deep, and their "
           "storage writes are not known",
           2.0 * io->n - side, 2 * io->n);
  if (wf > 0)
    zc_log(0,
           "warning: I/O: the storage wrapper could not replace every "
           "function in %.0f frame%s (the page had made them fixed)",
           wf, wf == 1 ? "" : "s");
  cJSON_Delete(caps);
}

size_t ana__io_verdict(struct ana_io *io, int alone, char *out, size_t cap) {
  if (cap) out[0] = '\0';
  if (!io || !cap) return 0;
  unsigned n, undecided, needed, nc;
  ana__io_outcome(io, &nc, &undecided, &needed);
  if (!nc) return 0;
  struct io_cause *c = ana__io_causes(io, &n);
  char words[1024] = "";
  /* the largest: the causes come by measure, requests first */
  if (n) ana__io_cause_words(c, n, 0, words, sizeof words);
  int w = snprintf(out, cap,
                   "%s%u I/O regression-cause%s (%g requests or writes, or "
                   "%g KB, more a run in every pair)%s: %s.",
                   alone ? "" : " Also ", n, n == 1 ? "" : "s", io->mu_requests,
                   io->mu_kb, n > 1 ? "; the first" : "", words);
  ana__io_causes_free(c, n);
  return w < 0 ? 0 : (size_t)w < cap ? (size_t)w : cap - 1;
}
