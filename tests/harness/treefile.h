/* Call trees written as indented text, for tests and golden cases:
 *
 *   # comment
 *   thread NAME               (switches thread; default CrRendererMain)
 *   name[@file[:line]] MS     (two spaces of indent per level)
 *
 * A node's self time is its total less its children's; lines give the
 * order of first samples. (idle), (program) and (garbage collector) get
 * their kinds. And graphs print back as indented text. */
#ifndef ZT_TREEFILE_H
#define ZT_TREEFILE_H

#include "zam/zam.h"

/* Parses text into a finished timeline; NULL with a message on stderr. */
struct ana_timeline *zt_tree_parse(struct ana_ctx *c, const char *name,
                                   const char *text);
struct ana_timeline *zt_tree_load(struct ana_ctx *c, const char *path);
/* One line a node: name, "old -> new" or "new X" in ms, "*" for a cause,
 * "[k/n]" where a node is in only k of n pairs. Caller frees. */
char *zt_graph_text(const struct ana_graph *g);

#endif
