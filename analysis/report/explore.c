/* An input search's reports (zamcap explore), from the document the
 * command made: explore.json as it is, summary.md for a bug comment, and
 * report.html for a browser: the verdict, the worst input with its
 * interval, a plot of Δ against each numeric parameter (an inline SVG
 * drawn here, as report.html's flame graph is drawn by hand: no library,
 * no script, no request), every candidate ranked, those that failed with
 * their reason, and a link to the full comparison at the worst input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "zc-out.h"

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *js(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A value as text: a string as it is, a number as an integer. */
static void value_text(const cJSON *v, char *out, size_t cap) {
  if (cJSON_IsString(v))
    snprintf(out, cap, "%s", v->valuestring);
  else if (cJSON_IsNumber(v))
    snprintf(out, cap, "%.0f", v->valuedouble);
  else
    snprintf(out, cap, "?");
}

/* "+120.1 ms (95 % CI +101.3 to +138.9, 3 pairs)" or "+130.2 ms (one
 * pair)"; "failed: why". */
static void delta_text(const cJSON *c, char *out, size_t cap) {
  const cJSON *ci = jget(c, "ci95");
  double d = jnum(c, "delta_ms");
  int pairs = (int)jnum(c, "pairs");
  if (!strcmp(js(c, "status"), "failed"))
    snprintf(out, cap, "failed");
  else if (cJSON_GetArraySize(ci) == 2)
    snprintf(out, cap, "%+.1f ms (95 %% CI %+.1f to %+.1f, %d pairs)", d,
             cJSON_GetArrayItem(ci, 0)->valuedouble,
             cJSON_GetArrayItem(ci, 1)->valuedouble, pairs);
  else
    snprintf(out, cap, "%+.1f ms (one pair)", d);
}

/* ---- summary.md ---- */

static void md_values(FILE *f, const cJSON *values) {
  const cJSON *v;
  int k = 0;
  cJSON_ArrayForEach(v, values) {
    char t[512];
    value_text(v, t, sizeof t);
    fputs(k++ ? ", " : "", f);
    ana_md_code(f, v->string);
    fputs(" = ", f);
    ana_md_code(f, t);
  }
}

static void md_table(FILE *f, const cJSON *doc) {
  const cJSON *p, *c;
  fputs("\n| # |", f);
  cJSON_ArrayForEach(p, jget(doc, "parameters")) {
    fputc(' ', f);
    ana_md_text(f, js(p, "name"));
    fputs(" |", f);
  }
  fputs(" Δ |\n|---|", f);
  cJSON_ArrayForEach(p, jget(doc, "parameters")) fputs("---|", f);
  fputs("---|\n", f);
  int i = 0;
  cJSON_ArrayForEach(c, jget(doc, "candidates")) {
    if (++i > 10) break;
    char d[160];
    delta_text(c, d, sizeof d);
    fprintf(f, "| %d |", i);
    cJSON_ArrayForEach(p, jget(doc, "parameters")) {
      char t[512];
      value_text(jget(jget(c, "values"), js(p, "name")), t, sizeof t);
      fputc(' ', f);
      ana_md_code(f, t);
      fputs(" |", f);
    }
    fprintf(f, " %s |\n", d);
  }
}

static enum zc_err md_fn(void *arg, FILE *f) {
  const cJSON *doc = arg, *w = jget(doc, "worst");
  fputs("## zamcap explore: ", f);
  ana_md_text(f, js(doc, "title")[0] ? js(doc, "title") : js(doc, "flow"));
  fputs("\n\n", f);
  ana_md_text(f, js(jget(doc, "verdict"), "text"));
  fputs("\n", f);
  if (cJSON_IsObject(w)) {
    char d[160];
    delta_text(w, d, sizeof d);
    fputs("\nThe worst input: ", f);
    md_values(f, jget(w, "values"));
    fprintf(f, ": %s, ", d);
    ana_md_text(f, js(jget(doc, "objective"), "label"));
    fputs("; its comparison: `" ZC_OUT_WORST "/" ZC_OUT_SUMMARY "`.\n", f);
  }
  md_table(f, doc);
  fprintf(f,
          "\n%d candidates tried (%d failed), %d traced runs; search %s, "
          "seed %.0f.\n",
          (int)jnum(doc, "tried"), (int)jnum(doc, "failed"),
          (int)jnum(doc, "runs"), js(doc, "search"), jnum(doc, "seed"));
  return ZC_OK;
}

/* ---- report.html ---- */

static void h(FILE *f, const char *s) {
  ana_html_text(f, s ? s : "");
}

/* A parameter's axis: its range, on a log scale or not. */
struct axis {
  double lo, hi;
  int log;
};

static double axis_pos(const struct axis *a, double v, double x0, double x1) {
  double t;
  if (a->log)
    t = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo) + 1e-12);
  else
    t = (v - a->lo) / (a->hi - a->lo + 1e-12);
  return x0 + t * (x1 - x0);
}

/* Ticks at 1, 2, 5 times a power of ten, about n of them over [lo, hi]. */
static double tick_step(double lo, double hi, int n) {
  double raw = (hi - lo) / n, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
  double m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

enum { W = 640, H = 260, L = 64, R = 16, T = 16, B = 40 };

static void svg_axes(FILE *f, const struct axis *ax, double ylo, double yhi,
                     const char *xlabel, const char *unit) {
  double st = tick_step(ylo, yhi, 5);
  for (double y = ceil(ylo / st) * st; y <= yhi + 1e-9; y += st) {
    double py = T + (yhi - y) / (yhi - ylo) * (H - T - B);
    fprintf(f,
            "<line x1=%d x2=%d y1=%.1f y2=%.1f stroke=%s />"
            "<text x=%d y=%.1f text-anchor=end font-size=11>%g</text>\n",
            L, W - R, py, py, fabs(y) < st / 2 ? "#888" : "#eee", L - 4, py + 4,
            fabs(y) < st / 2 ? 0 : y);
  }
  if (ax->log) {
    for (double d = pow(10, floor(log10(ax->lo))); d <= ax->hi; d *= 10)
      for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
        double v = d * m;
        if (v < ax->lo || v > ax->hi) continue;
        double px = axis_pos(ax, v, L, W - R);
        fprintf(f,
                "<line x1=%.1f x2=%.1f y1=%d y2=%d stroke=#888 />"
                "<text x=%.1f y=%d text-anchor=middle font-size=11>%g</text>\n",
                px, px, H - B, H - B + 4, px, H - B + 16, v);
      }
  } else {
    double xs = tick_step(ax->lo, ax->hi, 6);
    for (double v = ceil(ax->lo / xs) * xs; v <= ax->hi + 1e-9; v += xs) {
      double px = axis_pos(ax, v, L, W - R);
      fprintf(f,
              "<line x1=%.1f x2=%.1f y1=%d y2=%d stroke=#888 />"
              "<text x=%.1f y=%d text-anchor=middle font-size=11>%g</text>\n",
              px, px, H - B, H - B + 4, px, H - B + 16, v);
    }
  }
  fprintf(f,
          "<line x1=%d x2=%d y1=%d y2=%d stroke=#888 />"
          "<text x=%d y=%d text-anchor=middle font-size=12>",
          L, W - R, H - B, H - B, (L + W - R) / 2, H - 6);
  h(f, xlabel);
  fprintf(f,
          "%s</text><text x=12 y=%d font-size=12 "
          "transform=\"rotate(-90 12 %d)\" text-anchor=middle>Δ %s"
          "</text>\n",
          ax->log ? " (log scale)" : "", (T + H - B) / 2, (T + H - B) / 2,
          unit);
}

/* One candidate's point: grey measured once, dark blue with its interval
 * measured again, red the worst; its values in a tooltip. */
static void svg_point(FILE *f, const cJSON *c, double px, double ylo,
                      double yhi, int worst) {
  double d = jnum(c, "delta_ms");
  const cJSON *ci = jget(c, "ci95"), *v;
  double py = T + (yhi - d) / (yhi - ylo) * (H - T - B);
  if (cJSON_GetArraySize(ci) == 2) {
    double a = cJSON_GetArrayItem(ci, 0)->valuedouble;
    double b = cJSON_GetArrayItem(ci, 1)->valuedouble;
    fprintf(f, "<line x1=%.1f x2=%.1f y1=%.1f y2=%.1f stroke=%s />", px, px,
            T + (yhi - a) / (yhi - ylo) * (H - T - B),
            T + (yhi - b) / (yhi - ylo) * (H - T - B), worst ? "#c33" : "#236");
  }
  fprintf(f, "<circle cx=%.1f cy=%.1f r=%d fill=%s><title>", px, py,
          worst ? 5 : 4,
          worst                         ? "#c33"
          : cJSON_GetArraySize(ci) == 2 ? "#236"
                                        : "#9aa");
  cJSON_ArrayForEach(v, jget(c, "values")) {
    char t[512];
    value_text(v, t, sizeof t);
    h(f, v->string);
    fputs(" = ", f);
    h(f, t);
    fputs("; ", f);
  }
  fprintf(f, "Δ %.1f ms</title></circle>\n", d);
}

/* The plot of Δ against parameter p, from every candidate measured. */
static void svg_plot(FILE *f, const cJSON *doc, const cJSON *p) {
  const cJSON *c, *w = jget(doc, "worst");
  struct axis ax = {jnum(p, "low"), jnum(p, "high"),
                    cJSON_IsTrue(jget(p, "log"))};
  if (!(ax.hi > ax.lo)) ax.hi = ax.lo + 1;
  if (ax.log && ax.lo <= 0) ax.log = 0;
  double ylo = 0, yhi = 0;
  cJSON_ArrayForEach(c, jget(doc, "candidates")) {
    const cJSON *ci = jget(c, "ci95");
    double d = jnum(c, "delta_ms");
    if (isnan(d)) continue;
    double a = cJSON_GetArraySize(ci) == 2
                   ? cJSON_GetArrayItem(ci, 0)->valuedouble
                   : d;
    double b = cJSON_GetArraySize(ci) == 2
                   ? cJSON_GetArrayItem(ci, 1)->valuedouble
                   : d;
    ylo = fmin(ylo, fmin(a, d));
    yhi = fmax(yhi, fmax(b, d));
  }
  double pad = (yhi - ylo) * 0.08 + 1;
  ylo -= pad;
  yhi += pad;
  fprintf(f,
          "<figure><svg class=plot viewBox=\"0 0 %d %d\" width=%d "
          "height=%d role=img>\n",
          W, H, W, H);
  svg_axes(f, &ax, ylo, yhi, js(p, "axis"), "ms");
  const char *name = js(p, "name");
  cJSON_ArrayForEach(c, jget(doc, "candidates")) {
    double d = jnum(c, "delta_ms"), x = jnum(jget(c, "numbers"), name);
    if (isnan(d) || isnan(x)) continue;
    int worst = cJSON_IsObject(w) && jnum(c, "order") == jnum(w, "order");
    svg_point(f, c, axis_pos(&ax, ax.log ? fmax(x, ax.lo) : x, L, W - R), ylo,
              yhi, worst);
  }
  fputs("</svg><figcaption>Δ against ", f);
  h(f, js(p, "axis"));
  fputs(": grey, measured in one pair; blue, measured again (95 % "
        "interval); red, the worst input.</figcaption></figure>\n",
        f);
}

static void html_row(FILE *f, const cJSON *doc, const cJSON *c, int i) {
  const cJSON *p;
  char d[160];
  delta_text(c, d, sizeof d);
  fprintf(f, "<tr><td>%d</td>", i);
  cJSON_ArrayForEach(p, jget(doc, "parameters")) {
    char t[512];
    value_text(jget(jget(c, "values"), js(p, "name")), t, sizeof t);
    fputs("<td><code>", f);
    h(f, t);
    fputs("</code></td>", f);
  }
  fputs("<td>", f);
  h(f, d);
  fputs("</td><td>", f);
  h(f, !strcmp(js(c, "status"), "failed") ? js(c, "reason") : "");
  fputs("</td></tr>\n", f);
}

static void html_table(FILE *f, const cJSON *doc) {
  const cJSON *p, *c;
  fputs("<h2>Candidates</h2>\n<table><tr><th>#</th>", f);
  cJSON_ArrayForEach(p, jget(doc, "parameters")) {
    fputs("<th>", f);
    h(f, js(p, "name"));
    fputs("</th>", f);
  }
  fputs("<th>Δ</th><th>failed because</th></tr>\n", f);
  int i = 0;
  cJSON_ArrayForEach(c, jget(doc, "candidates")) html_row(f, doc, c, ++i);
  fputs("</table>\n", f);
}

static enum zc_err html_fn(void *arg, FILE *f) {
  const cJSON *doc = arg, *p, *w = jget(doc, "worst");
  fputs("<!DOCTYPE html>\n<html><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src "
        "'none'; style-src 'unsafe-inline'\">"
        "<title>zamcap explore</title><style>body{font:14px sans-serif;"
        "margin:2em}code{font-family:monospace}table{border-collapse:"
        "collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
        "svg text{font-family:sans-serif}figure{margin:1em 0}"
        ".worst{border-left:4px solid #c33;padding-left:1em}</style>"
        "</head><body>\n<h1>zamcap explore: ",
        f);
  h(f, js(doc, "title")[0] ? js(doc, "title") : js(doc, "flow"));
  fputs("</h1>\n<p>", f);
  h(f, js(jget(doc, "verdict"), "text"));
  fputs("</p>\n", f);
  if (cJSON_IsObject(w)) {
    char d[160];
    delta_text(w, d, sizeof d);
    fputs("<section class=worst><h2>The worst input</h2><p>", f);
    const cJSON *v;
    cJSON_ArrayForEach(v, jget(w, "values")) {
      char t[512];
      value_text(v, t, sizeof t);
      fputs("<code>", f);
      h(f, v->string);
      fputs("</code> = <code>", f);
      h(f, t);
      fputs("</code>; ", f);
    }
    h(f, d);
    fputs(", ", f);
    h(f, js(jget(doc, "objective"), "label"));
    fputs(". Its full comparison: <a href=\"" ZC_OUT_WORST "/" ZC_OUT_HTML
          "\">" ZC_OUT_WORST "/" ZC_OUT_HTML "</a>.</p></section>\n",
          f);
  }
  cJSON_ArrayForEach(
      p, jget(doc, "parameters")) if (cJSON_IsTrue(jget(p, "numeric")))
      svg_plot(f, doc, p);
  html_table(f, doc);
  fprintf(f,
          "<p>%d candidates tried (%d failed), %d traced runs; search %s, "
          "seed %.0f, stopped: ",
          (int)jnum(doc, "tried"), (int)jnum(doc, "failed"),
          (int)jnum(doc, "runs"), js(doc, "search"), jnum(doc, "seed"));
  h(f, js(doc, "stopped"));
  fputs(".</p>\n</body></html>\n", f);
  return ZC_OK;
}

enum zc_err ana_write_explore(const struct cJSON *doc, const char *out) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" ZC_OUT_EXPLORE, out);
  enum zc_err e = ana_write_json(doc, path);
  if (!e) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_SUMMARY, out);
    e = zc_write_atomic(path, md_fn, (void *)doc);
  }
  if (!e) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_HTML, out);
    e = zc_write_atomic(path, html_fn, (void *)doc);
  }
  return e;
}
