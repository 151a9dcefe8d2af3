/* html: report.html, the one self-contained page a bug tracker can hold,
 * written from the report.json document. No script, no request: the
 * styles are inline, the critical graph is an embedded image (the SVG as a
 * data: URL) or, without one, a collapsible tree; links point only at the
 * files zamcap wrote beside it (traces/, failures/, pairs/). Every string
 * from the page or the trace is HTML-escaped.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_HTML_H
#define AGENT_HTML_H

#include <cjson/cJSON.h>

#include "zc.h"

/* Writes report.html to path (under path + ".part", renamed when whole)
 * from report, the parsed report.json. svg_path is critical-graph.svg, or
 * NULL when there is none; one that cannot be read or is too large is
 * left out (the graph is then drawn as a tree). Fields that are missing,
 * null or of the wrong type are left out; a report that is not a JSON
 * object is ZC_E_PARSE. On error the message names the file. */
enum zc_err agent_write_html(const cJSON *report, const char *svg_path,
                             const char *path);

/* outdir/report.json (and outdir/critical-graph.svg if there is one) to
 * outdir/report.html. */
enum zc_err agent_write_html_from(const char *outdir);

#endif
