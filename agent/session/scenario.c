/* Loading the scenario a command names, with the command line's
 * --origin added (session.h). */
#include "scn.h"
#include "session.h"

enum zc_err agent_load_scenario(const struct agent_args *a, const char *path,
                                struct scn_scenario **out) {
  enum zc_err e = scn_load(path, out);
  if (e) return e;
  for (unsigned i = 0; i < a->norigins; i++)
    scn_add_origin(*out, a->origins[i]);
  return ZC_OK;
}
