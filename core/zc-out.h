/* The output folder's layout (DESIGN.md, "Output folder"): the one place
 * its names are spelled. The writers (capture, the analysis, the reports)
 * and every reader (compare over a run folder, report.html's links, the
 * upload) use these names, so that a change here moves them all.
 *
 * A run's trace is OUT/traces/<build>-<i><ext>: <build> the build's name
 * ("old", "new", or for a comparison of more builds, "b<k>"), <i> the pair
 * from 1, <ext> ".json.gz" (".json" uncompressed). */
#ifndef ZC_OUT_H
#define ZC_OUT_H

#define ZC_OUT_TRACES     "traces"     /* each run's trace */
#define ZC_OUT_FAILURES   "failures"   /* screenshots of failed steps */
#define ZC_OUT_PAIRS      "pairs"      /* pairs/pair-<i>.dot */
#define ZC_OUT_SOURCEMAPS "sourcemaps" /* the maps used, kept */
#define ZC_OUT_CHROME_LOG "chrome.log"
#define ZC_OUT_GRAPH_DOT  "critical-graph.dot"
#define ZC_OUT_GRAPH_SVG  "critical-graph.svg"
#define ZC_OUT_REPORT     "report.json"
#define ZC_OUT_HTML       "report.html"
#define ZC_OUT_SUMMARY    "summary.md"
/* "pair-<i>.dot" under ZC_OUT_PAIRS */
#define ZC_OUT_PAIR_FMT "pair-%u.dot"
/* The two builds of the main command, as its traces name them (old-1,
 * new-1); a session of more builds names them as it likes. */
#define ZC_OUT_OLD "old"
#define ZC_OUT_NEW "new"
/* "<build>-<i>" under ZC_OUT_TRACES, before the extension */
#define ZC_OUT_TRACE_FMT "%s-%u"
/* a memory pair's "<build>-mem-<i>" under ZC_OUT_TRACES, before the
 * extension ".heapprofile" */
#define ZC_OUT_MEM_FMT "%s-mem-%u"
/* a count pair's "<build>-calls-<i>" under ZC_OUT_TRACES, before the
 * extension ".calls.json" */
#define ZC_OUT_CALLS_FMT "%s-calls-%u"
/* record's "run-<i>" under ZC_OUT_TRACES, before the extension */
#define ZC_OUT_RUN_FMT "run-%u"

#endif
