/* Source maps for the analysis (issue 14): where they come from.
 *
 * A script's map is found, in this order, in the store of an earlier run
 * (RUN_DIR/sourcemaps/index.json), in a build folder (a root: the URL
 * prefix it is served at, and the folder), or, for http(s) URLs when
 * fetching is allowed, over the network. The script's last
 * sourceMappingURL comment names the map (a file, a relative URL or a
 * data: URL); without one, SCRIPT.map beside it is tried. What is found is
 * kept in the store (when writable) by content hash, with index.json by
 * script URL, so that `zamcap compare RUN_DIR` later names the same
 * functions offline. */
#ifndef AGENT_MAPS_H
#define AGENT_MAPS_H

#include "ana.h"

struct agent_maps;
/* store: the sourcemaps folder, or NULL; writable: found maps go there;
 * fetch: http(s) scripts and maps may be fetched with libcurl. */
struct agent_maps *agent_maps_new(const char *store, int writable, int fetch);
void agent_maps_free(struct agent_maps *m);
/* Maps of scripts under URL prefix are read from dir (prefix NULL: any
 * script, by its file name); 0 when full. */
int agent_maps_root(struct agent_maps *m, const char *prefix, const char *dir);
/* Reads the store's index.json, if there is one. */
enum zc_err agent_maps_open_store(struct agent_maps *m);
struct ana_maps *agent_maps_ana(struct agent_maps *m);
/* Writes the store's index.json, when something was found. */
enum zc_err agent_maps_save(struct agent_maps *m);

#endif
