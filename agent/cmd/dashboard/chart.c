/* The dashboard's charts (dashboard.h): hand-written SVG, written into the
 * page as it is made, so that a chart is there with no script at all and
 * a test can count its marks. A series chart has a fixed viewBox that CSS
 * scales to the page's width; over AGENT_DASH_SAMPLE points it is drawn
 * through each slice's extremes, so that its size stays bounded whatever
 * the history holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dashboard-int.h"

/* The series chart's box: the viewBox, and the plot inside it. */
enum { CW = 720, CH = 210, PL = 62, PR = 710, PT = 12, PB = 182 };

struct scale {
  double t0, t1, y0, y1;
};

static double sx(const struct scale *s, double t) {
  if (!(s->t1 > s->t0)) return (PL + PR) / 2.0;
  return PL + (t - s->t0) / (s->t1 - s->t0) * (PR - PL);
}

static double sy(const struct scale *s, double v) {
  return PB - (v - s->y0) / (s->y1 - s->y0) * (PB - PT);
}

/* The base the interval of the change sits on: the old build's mean, else
 * the new one's less the change. */
static double base_of(const struct agent_dash_pt *p) {
  if (isfinite(p->old)) return p->old;
  if (isfinite(p->new_) && isfinite(p->delta)) return p->new_ - p->delta;
  return NAN;
}

static void widen(double *lo, double *hi, double v) {
  if (!isfinite(v)) return;
  if (v < *lo) *lo = v;
  if (v > *hi) *hi = v;
}

/* 1, 2 or 5 times a power of ten, near span / 4. */
static double nice_step(double span) {
  double raw = span / 4, p = pow(10, floor(log10(raw))), m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The y range over every value drawn, rounded out to the ticks' step;
 * 0 when there is no value. */
static int y_range(const struct agent_dash_chart *c, struct scale *s,
                   double *step) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < c->n; i++) {
    const struct agent_dash_pt *p = &c->p[i];
    double b = base_of(p);
    widen(&lo, &hi, p->new_);
    widen(&lo, &hi, p->old);
    if (isfinite(b) && isfinite(p->lo) && isfinite(p->hi)) {
      widen(&lo, &hi, b + p->lo);
      widen(&lo, &hi, b + p->hi);
    }
  }
  if (!isfinite(lo)) return 0;
  if (hi - lo < 1e-9 * (fabs(hi) + 1)) {
    double pad = fabs(hi) > 0 ? fabs(hi) * 0.05 : 1;
    lo -= pad;
    hi += pad;
  }
  *step = nice_step(hi - lo);
  s->y0 = floor(lo / *step) * *step;
  s->y1 = ceil(hi / *step) * *step;
  if (s->y1 <= s->y0) s->y1 = s->y0 + *step;
  return 1;
}

/* The grid, the y axis' values and the x axis' dates. */
static void axes(FILE *f, const struct scale *s, double step,
                 const char *unit) {
  fputs("<g class=\"axes\">", f);
  for (double v = s->y0; v <= s->y1 + step / 2; v += step) {
    char lab[64];
    agent_dash_fmt(lab, sizeof lab, fabs(v) < step / 1e6 ? 0 : v, unit, 0);
    double y = sy(s, v);
    fprintf(f,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text "
            "class=\"yl\" x=\"%d\" y=\"%.1f\">",
            PL, PR, y, y, PL - 5, y + 4);
    agent_dash_html(f, lab);
    fputs("</text>", f);
  }
  /* dates: five across, with the year past a year's span, with the time
   * under five days' (a label like the one before it is left out) */
  int n = s->t1 > s->t0 ? 5 : 1;
  double span = s->t1 - s->t0;
  int year = span > 300 * 86400.0, hour = span <= 5 * 86400.0;
  char prev[32] = "";
  for (int k = 0; k < n; k++) {
    double t = n == 1 ? s->t0 : s->t0 + span * k / (n - 1);
    time_t tt = (time_t)t;
    struct tm tm;
    char d[32];
    gmtime_r(&tt, &tm);
    if (year)
      strftime(d, sizeof d, "%Y-%m-%d", &tm);
    else if (hour)
      strftime(d, sizeof d, "%m-%d %H:%M", &tm);
    else
      strftime(d, sizeof d, "%m-%d", &tm);
    if (!strcmp(d, prev)) continue;
    snprintf(prev, sizeof prev, "%s", d);
    /* the first and the last dates end inside the box */
    const char *end = n == 1 ? "" : k == 0 ? " s" : k == n - 1 ? " e" : "";
    fprintf(f, "<text class=\"xl%s\" x=\"%.1f\" y=\"%d\">%s</text>", end,
            sx(s, t), CH - 8, d);
  }
  fputs("</g>", f);
}

/* The slices the points are drawn through: all of them up to
 * AGENT_DASH_SAMPLE, else that many of about equal counts. */
static size_t slices(size_t n) {
  return n <= AGENT_DASH_SAMPLE ? n : AGENT_DASH_SAMPLE;
}
static size_t slice_at(size_t k, size_t n, size_t ns) {
  return k * n / ns;
}

/* "x,y", a decimal each (agent_dash_num: a chart writes thousands). */
static void put_xy(FILE *f, double x, double y) {
  char a[32], b[32];
  agent_dash_num(a, x, 1);
  agent_dash_num(b, y, 1);
  fputs(a, f);
  fputc(',', f);
  fputs(b, f);
}

/* A vertex of a path: M after a gap, L after a vertex. */
static void vertex(FILE *f, int *open, double x, double y) {
  fputc(*open ? 'L' : 'M', f);
  put_xy(f, x, y);
  *open = 1;
}

/* A line through the value val gives each point: each slice's lowest
 * and highest, in their order; broken where a slice has none. */
static void line(FILE *f, const struct agent_dash_chart *c,
                 const struct scale *s, const char *cls,
                 double (*val)(const struct agent_dash_pt *)) {
  size_t ns = slices(c->n);
  int open = 0, any = 0;
  fprintf(f, "<path class=\"%s\" d=\"", cls);
  for (size_t k = 0; k < ns; k++) {
    size_t a = slice_at(k, c->n, ns), b = slice_at(k + 1, c->n, ns), lo = b,
           hi = b;
    for (size_t i = a; i < b; i++) {
      double v = val(&c->p[i]);
      if (!isfinite(v)) continue;
      if (lo == b || v < val(&c->p[lo])) lo = i;
      if (hi == b || v > val(&c->p[hi])) hi = i;
    }
    if (lo == b) {
      open = 0;
      continue;
    }
    size_t first = lo < hi ? lo : hi, second = lo < hi ? hi : lo;
    vertex(f, &open, sx(s, c->p[first].t), sy(s, val(&c->p[first])));
    if (second != first)
      vertex(f, &open, sx(s, c->p[second].t), sy(s, val(&c->p[second])));
    any = 1;
  }
  fputs(any ? "\"/>" : "M0,0\"/>", f);
}

static double v_new(const struct agent_dash_pt *p) {
  return p->new_;
}
static double v_old(const struct agent_dash_pt *p) {
  return p->old;
}
static double v_top(const struct agent_dash_pt *p) {
  double b = base_of(p);
  return isfinite(p->hi) && isfinite(p->lo) ? b + p->hi : NAN;
}
static double v_bottom(const struct agent_dash_pt *p) {
  double b = base_of(p);
  return isfinite(p->hi) && isfinite(p->lo) ? b + p->lo : NAN;
}

/* The slice k's band: its highest top and lowest bottom, at its middle
 * time; 0 when no point of it has an interval. */
static int band_at(const struct agent_dash_chart *c, size_t k, size_t ns,
                   double *t, double *top, double *bot) {
  size_t a = slice_at(k, c->n, ns), b = slice_at(k + 1, c->n, ns);
  *top = -INFINITY;
  *bot = INFINITY;
  for (size_t i = a; i < b; i++) {
    widen(bot, top, v_top(&c->p[i]));
    widen(bot, top, v_bottom(&c->p[i]));
  }
  *t = (c->p[a].t + c->p[b - 1].t) / 2;
  return isfinite(*top);
}

/* The band of the interval: one polygon per run of slices that have one,
 * along the tops and back along the bottoms. */
static void band(FILE *f, const struct agent_dash_chart *c,
                 const struct scale *s) {
  size_t ns = slices(c->n);
  fputs("<path class=\"band\" d=\"", f);
  int any = 0;
  for (size_t k = 0; k < ns;) {
    double t, top, bot;
    if (!band_at(c, k, ns, &t, &top, &bot)) {
      k++;
      continue;
    }
    size_t j = k;
    int open = 0;
    for (; j < ns && band_at(c, j, ns, &t, &top, &bot); j++)
      vertex(f, &open, sx(s, t), sy(s, top));
    for (size_t i = j; i-- > k;) {
      band_at(c, i, ns, &t, &top, &bot);
      vertex(f, &open, sx(s, t), sy(s, bot));
    }
    fputc('Z', f);
    any = 1;
    k = j;
  }
  fputs(any ? "\"/>" : "M0,0\"/>", f);
}

/* A regression's mark: a triangle pointing down at (x, y). */
static void reg_mark(FILE *f, int run, double x, double y) {
  fprintf(f, "<path class=\"reg\" data-i=\"%d\" d=\"M", run);
  put_xy(f, x, y - 4);
  fputs("l-5,-9h10z\"/>", f);
}

/* The points' circles (few enough), and a mark per regression run: per
 * run while the points are drawn, else one per slice that has one. */
static void marks(FILE *f, const struct agent_dash_chart *c, double *xy) {
  int circles = c->n <= AGENT_DASH_MARKS_MAX;
  fputs("<g class=\"pts\">", f);
  for (size_t i = 0; circles && i < c->n; i++) {
    if (!isfinite(c->p[i].new_)) continue;
    char cx[32], cy[32];
    agent_dash_num(cx, xy[2 * i], 1);
    agent_dash_num(cy, xy[2 * i + 1], 1);
    fprintf(f,
            "<circle class=\"pt%s\" cx=\"%s\" cy=\"%s\" r=\"3\" "
            "data-i=\"%d\"/>",
            c->p[i].sig ? " sig" : "", cx, cy, c->p[i].run);
  }
  fputs("</g><g class=\"regs\">", f);
  size_t ns = circles ? c->n : slices(c->n);
  for (size_t k = 0; k < ns; k++) {
    size_t a = circles ? k : slice_at(k, c->n, ns),
           b = circles ? k + 1 : slice_at(k + 1, c->n, ns);
    for (size_t i = a; i < b; i++) {
      if (!c->p[i].regr) continue;
      reg_mark(f, c->p[i].run, xy[2 * i],
               isfinite(xy[2 * i + 1]) ? xy[2 * i + 1] : PB);
      break;
    }
  }
  fputs("</g>", f);
}

void agent_dash_chart(FILE *f, const struct agent_dash_chart *c, double **xy) {
  struct scale s = {.t0 = c->t0, .t1 = c->t1};
  double step = 1;
  int has = y_range(c, &s, &step);
  *xy = zc_xcalloc(2 * c->n + 1, sizeof **xy);
  for (size_t i = 0; i < c->n; i++) {
    (*xy)[2 * i] = sx(&s, c->p[i].t);
    (*xy)[2 * i + 1] =
        has && isfinite(c->p[i].new_) ? sy(&s, c->p[i].new_) : NAN;
  }
  fprintf(f,
          "<svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "tabindex=\"0\" aria-label=\"",
          c->id, CW, CH);
  agent_dash_text(f, c->title, AGENT_DASH_NAME_MAX);
  fputs("\"><title>", f);
  agent_dash_text(f, c->title, AGENT_DASH_NAME_MAX);
  fputs("</title>", f);
  if (!has) {
    fprintf(f,
            "<text class=\"none\" x=\"%d\" y=\"%d\">no value recorded</text>"
            "</svg>\n",
            CW / 2, CH / 2);
    return;
  }
  axes(f, &s, step, c->unit);
  band(f, c, &s);
  line(f, c, &s, "old", v_old);
  line(f, c, &s, "line", v_new);
  marks(f, c, *xy);
  fprintf(f,
          "<rect class=\"hit\" x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\"/>"
          "</svg>\n",
          PL - 8, PR - PL + 16, CH);
}

/* ---- small charts ---- */

void agent_dash_spark(FILE *f, const double *v, const int *regr, size_t n,
                      const char *label) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    widen(&lo, &hi, v[i]);
  fputs("<svg class=\"spark\" viewBox=\"0 0 120 28\" role=\"img\" "
        "aria-label=\"",
        f);
  agent_dash_text(f, label, AGENT_DASH_NAME_MAX);
  fputs("\">", f);
  if (!isfinite(lo)) {
    fputs("</svg>", f);
    return;
  }
  if (hi - lo < 1e-9) hi = lo + 1;
  double step = n > 1 ? 114.0 / (double)(n - 1) : 0;
#define SX(i) (3 + (n > 1 ? step * (double)(i) : 57))
#define SY(x) (25 - ((x)-lo) / (hi - lo) * 22)
  fputs("<path class=\"sl\" d=\"", f);
  int open = 0;
  size_t last = n;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      open = 0;
      continue;
    }
    vertex(f, &open, SX(i), SY(v[i]));
    last = i;
  }
  fputs("\"/>", f);
  for (size_t i = 0; i < n; i++)
    if (regr[i] && isfinite(v[i]))
      fprintf(f, "<circle class=\"sr\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>",
              SX(i), SY(v[i]));
  if (last < n)
    fprintf(f, "<circle class=\"se\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>",
            SX(last), SY(v[last]));
#undef SX
#undef SY
  fputs("</svg>", f);
}

void agent_dash_bars(FILE *f, const double *v, size_t n, const char *label) {
  double hi = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite(v[i]) && fabs(v[i]) > hi) hi = fabs(v[i]);
  fputs("<svg class=\"bars\" viewBox=\"0 0 120 22\" role=\"img\" "
        "aria-label=\"",
        f);
  agent_dash_text(f, label, AGENT_DASH_NAME_MAX);
  fputs("\"><line class=\"base\" x1=\"0\" x2=\"120\" y1=\"21.5\" "
        "y2=\"21.5\"/>",
        f);
  double w = n ? 120.0 / (double)n : 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) continue;
    double h = hi > 0 ? fabs(v[i]) / hi * 20 : 0;
    if (h < 1) h = 1;
    fprintf(f,
            "<rect class=\"bar%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
            "height=\"%.2f\"/>",
            v[i] < 0 ? " neg" : "", w * (double)i + w * 0.1, 21 - h, w * 0.8,
            h);
  }
  fputs("</svg>", f);
}
