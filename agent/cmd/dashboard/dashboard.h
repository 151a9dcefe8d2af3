/* The dashboard's site writer (zamcap dashboard, cmd-dashboard.c): from
 * the documents the history gives (history.h: agent_history_series,
 * agent_history_query's regressions, agent_history_bisects), a static
 * site: index.html, one page per scenario beside it. The charts are SVG
 * drawn here (chart.c); dashboard.js, embedded at build time as
 * dashboard.css is, only adds the cards that hovering a point shows.
 *
 * Every string of the documents is data (function names and flow titles
 * come from pages): it is cleaned (esc.c: control and bidirectional
 * characters made visible, cut to a length) and escaped for where it
 * goes, HTML text and attributes, SVG text, or JSON in a <script> data
 * block. Each page's Content-Security-Policy allows no request, and its
 * one script by a nonce. Links to run folders are relative paths.
 *
 * Ownership: arguments are borrowed; strings returned belong to the
 * caller. */
#ifndef AGENT_DASHBOARD_H
#define AGENT_DASHBOARD_H

#include <stddef.h>
#include <stdio.h>

#include "zc.h"

struct cJSON;
struct agent_dash;

/* What the site says of how it was made. */
struct agent_dash_opts {
  const char *out;        /* the site's folder (made if absent) */
  double since_days;      /* --since (0: all time), for the headings */
  unsigned recover_after; /* --recover-after, for the headings */
};

/* Starts a site in o->out. */
enum zc_err agent_dash_new(const struct agent_dash_opts *o,
                           struct agent_dash **out);
/* Writes a scenario's page: series as agent_history_series gives it,
 * regs its regressions (agent_history_query's, this scenario's only),
 * bisects as agent_history_bisects gives them; keeps its row for the
 * index. */
enum zc_err agent_dash_scenario(struct agent_dash *d,
                                const struct cJSON *series,
                                const struct cJSON *regs,
                                const struct cJSON *bisects);
/* Writes index.html (every scenario given so far; none: a page that says
 * the history holds no run). *path (may be NULL) gets its path, which the
 * caller frees. */
enum zc_err agent_dash_finish(struct agent_dash *d, char **path);
void agent_dash_free(struct agent_dash *d); /* NULL: nothing */

#endif
