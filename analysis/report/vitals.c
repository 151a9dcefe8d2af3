/* Web vitals in the reports: report.json's vitals rows, its warnings and
 * each run's whole-run values; the terminal's and summary.md's lines. The
 * rows are the comparison's ana_vitals_new table (zam/figures.c), built
 * with its end-to-end rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"

static cJSON *vit_num(double v) {
  return isnan(v) || isinf(v) ? cJSON_CreateNull()
                              : cJSON_CreateNumber(round(v * 1e6) / 1e6);
}

/* One run's whole-run values, null where missing. */
static cJSON *vit_run(const struct ana_figures *f) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "lcp_ms", vit_num(f->vit.lcp_ms));
  cJSON_AddItemToObject(o, "cls", vit_num(f->vit.cls));
  cJSON_AddItemToObject(o, "inp_ms", vit_num(f->vit.inp_ms));
  cJSON_AddItemToObject(o, "tbt_ms", vit_num(f->vit.tbt_ms));
  return o;
}

static const char *vit_base(const char *p) {
  const char *s = p ? strrchr(p, '/') : NULL;
  return s ? s + 1 : p;
}

/* The figures of the trace a run recorded, found by the file's name. */
static const struct ana_figures *vit_of_trace(const struct ana_cmp *c,
                                              const char *trace) {
  const char *b = vit_base(trace);
  for (unsigned p = 0; b && p < c->n; p++) {
    if (!strcmp(vit_base(c->old_files[p]), b)) return &c->ofig[p];
    if (!strcmp(vit_base(c->new_files[p]), b)) return &c->nfig[p];
  }
  return NULL;
}

void ana__vitals_doc(struct ana_cmp *c, cJSON *doc) {
  cJSON_AddItemToObject(doc, "vitals", ana_vitals_json(c->vit));
  cJSON *w = cJSON_AddArrayToObject(doc, "vitals_warnings");
  for (unsigned i = 0; i < c->nvwarn; i++)
    cJSON_AddItemToArray(w, cJSON_CreateString(c->vwarn[i]));
  cJSON *pairs = cJSON_GetObjectItem(doc, "pairs");
  unsigned p = 0;
  for (cJSON *x = pairs ? pairs->child : NULL; x && p < c->n; x = x->next) {
    cJSON_AddItemToObject(x, "old_vitals", vit_run(&c->ofig[p]));
    cJSON_AddItemToObject(x, "new_vitals", vit_run(&c->nfig[p++]));
  }
  cJSON *runs = cJSON_GetObjectItem(doc, "runs");
  for (cJSON *r = runs ? runs->child : NULL; r; r = r->next) {
    const struct ana_figures *f =
        vit_of_trace(c, cJSON_GetStringValue(cJSON_GetObjectItem(r, "trace")));
    if (f) cJSON_AddItemToObject(r, "vitals", vit_run(f));
  }
}

void ana__vitals_warn(const struct ana_cmp *c) {
  for (unsigned i = 0; i < c->nvwarn; i++)
    zc_log(0, "warning: web vitals: %s", c->vwarn[i]);
}

/* A value as the reports show it: CLS with 4 places, times with 1. */
static void vit_val(char *out, size_t cap, const struct ana_e2e_row *r,
                    double v, int sign) {
  if (isnan(v)) {
    snprintf(out, cap, "missing");
    return;
  }
  int places = *r->unit ? 1 : 4;
  snprintf(out, cap, sign ? "%+.*f%s%s" : "%.*f%s%s", places, v,
           *r->unit ? " " : "", r->unit);
}

/* "+403.3 ms (95 % CI +380.1 to +426.5)" */
static void vit_delta(char *out, size_t cap, const struct ana_e2e_row *r) {
  char d[32], lo[32], hi[32];
  if (!r->delta.n) {
    snprintf(out, cap, "no pair with both");
    return;
  }
  vit_val(d, sizeof d, r, r->delta.mean, 1);
  if (isnan(r->delta.lo)) {
    snprintf(out, cap, "%s (one pair, no interval)", d);
    return;
  }
  int places = *r->unit ? 1 : 4;
  snprintf(lo, sizeof lo, "%+.*f", places, r->delta.lo);
  snprintf(hi, sizeof hi, "%+.*f", places, r->delta.hi);
  snprintf(out, cap, "%s (95 %% CI %s to %s)", d, lo, hi);
}

/* The step's type as the trace's mark gave it, letters only: the mark is
 * page data. */
static void vit_type(char *out, size_t cap, const char *t) {
  size_t k = 0;
  for (; *t && k + 1 < cap; t++)
    out[k++] = (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ? *t : '?';
  out[k] = '\0';
}

void ana__vitals_text(const struct ana_cmp *c, FILE *f) {
  const struct ana_e2e *v = c->vit;
  if (!v || !v->n) return;
  fprintf(f, "web vitals, old -> new (mean of %u pair%s):\n", v->npairs,
          v->npairs == 1 ? "" : "s");
  for (unsigned i = 0; i < v->n; i++) {
    const struct ana_e2e_row *r = &v->rows[i];
    char where[64], t[32], o[64], n[64], d[160];
    vit_type(t, sizeof t, r->type);
    if (r->step)
      snprintf(where, sizeof where, "%s, step %u %s", r->name, r->step, t);
    else
      snprintf(where, sizeof where, "%s, whole run", r->name);
    vit_val(o, sizeof o, r, r->old.mean, 0);
    vit_val(n, sizeof n, r, r->new_.mean, 0);
    vit_delta(d, sizeof d, r);
    fprintf(f, "  %-32s %12s -> %-12s %s%s\n", where, o, n, d,
            r->significant ? "  *" : "");
  }
}

void ana__vitals_md(const struct ana_cmp *c, FILE *f) {
  const struct ana_e2e *v = c->vit;
  if (!v || !v->n) return;
  fprintf(f, "\nWeb vitals, old → new (mean of %u pair%s):\n\n", v->npairs,
          v->npairs == 1 ? "" : "s");
  fputs("| vital | step | old | new | Δ (95 % CI) | significant |\n"
        "|---|---|---|---|---|---|\n",
        f);
  for (unsigned i = 0; i < v->n; i++) {
    const struct ana_e2e_row *r = &v->rows[i];
    char o[64], n[64], d[160];
    vit_val(o, sizeof o, r, r->old.mean, 0);
    vit_val(n, sizeof n, r, r->new_.mean, 0);
    vit_delta(d, sizeof d, r);
    fprintf(f, "| %s | ", r->name);
    if (r->step) {
      fprintf(f, "%u ", r->step);
      ana_md_text(f, r->type);
    } else {
      fputs("whole run", f);
    }
    fprintf(f, " | %s | %s | %s | %s |\n", o, n, d,
            r->significant ? "**yes**" : "no");
  }
  for (unsigned i = 0; i < c->nvwarn; i++) {
    fputs(i ? "" : "\n", f);
    fputs("- ", f);
    ana_md_text(f, c->vwarn[i]);
    fputs("\n", f);
  }
}
