/* Source maps for the analysis (issue 14): where they come from.
 *
 * A script's map is found, in this order, in the store of an earlier run
 * (RUN_DIR/sourcemaps/index.json), in a build folder (a root: the URL
 * prefix it is served at, and the folder), or over the network from a URL
 * build's own origins. The script's last sourceMappingURL comment names
 * the map (a file, a relative URL or a data: URL); without one,
 * SCRIPT.map beside it is tried.
 *
 * What is read from a folder follows the built-in server's rule
 * (agent_build_open): no dotfile, nothing out of the folder, regular
 * files only. Only an http(s) URL of an origin given to
 * agent_maps_fetch_from is fetched: a folder build fetches nothing,
 * whatever its scripts' comments say; a redirect out of those origins is
 * not followed; an address on loopback, link-local or a private network
 * is refused unless the build's host is on one; all fetches of a run
 * share one time budget (60 s) and stop at SIGINT or SIGTERM.
 *
 * Maps that parse within the run's budget (ana_smap_budget) are kept
 * (when the store is writable) by agent_maps_save, which the caller calls
 * after the reports: by content hash, with index.json by script URL, up
 * to 256 MB and never the last half of the disk's free space, so that
 * `zamcap compare RUN_DIR` later names the same functions offline. */
#ifndef AGENT_MAPS_H
#define AGENT_MAPS_H

#include "ana.h"

struct agent_maps;
/* store: the sourcemaps folder, or NULL; writable: found maps go there.
 * Nothing is fetched until agent_maps_fetch_from. */
struct agent_maps *agent_maps_new(const char *store, int writable);
/* Maps may be fetched from url's origin (a URL build's); 0 when url is no
 * http(s) URL or 16 origins are given. */
int agent_maps_fetch_from(struct agent_maps *m, const char *url);
/* The time all fetches of the run may take (60 s unless set). */
void agent_maps_fetch_budget(struct agent_maps *m, double ms);
unsigned agent_maps_fetches(const struct agent_maps *m); /* requests made */
void agent_maps_free(struct agent_maps *m);
/* Maps of scripts under URL prefix are read from dir (prefix NULL: any
 * script, by its file name); 0 when full. */
int agent_maps_root(struct agent_maps *m, const char *prefix, const char *dir);
/* Reads the store's index.json, if there is one. */
enum zc_err agent_maps_open_store(struct agent_maps *m);
struct ana_maps *agent_maps_ana(struct agent_maps *m);
/* Writes the maps found, and the store's index.json, when something was
 * found. Call it after the reports. A full disk is a warning. */
enum zc_err agent_maps_save(struct agent_maps *m);

#endif
