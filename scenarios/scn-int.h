/* Private to scenarios/: what load.c asks of params.c while it reads a
 * flow. A flow's parameters are read before its steps, so that each
 * step's {{name}}s are replaced in the JSON before the step is checked
 * (a URL with a value in it is checked as the URL it becomes).
 *
 * Ownership: the arrays made are the caller's, freed with
 * scn__params_free and scn__values_free; arguments are borrowed. */
#ifndef SCN_INT_H
#define SCN_INT_H

#include <cjson/cJSON.h>

#include "scn.h"

/* zamcap.parameters of the flow at path (z: the "zamcap" member, or
 * NULL); none when it has no such member. On error, ZC_E_USAGE and one
 * line naming the parameter. */
enum zc_err scn__params_read(const char *path, const cJSON *z,
                             struct scn_param **out, size_t *n);
void scn__params_free(struct scn_param *p, size_t n);
/* One value per parameter: given's (checked) when given is not NULL,
 * else the first values with assign's n "name=value"s put in. */
enum zc_err scn__values(const char *path, const struct scn_param *p, size_t np,
                        const char *const *given, const char *const *assign,
                        size_t n, char ***out);
void scn__values_free(char **v, size_t n);
/* Replaces the {{name}}s of every step of steps (a JSON array) with
 * values (np parameters; none: nothing is replaced). */
enum zc_err scn__params_subst(const char *path, cJSON *steps,
                              const struct scn_param *p, size_t np,
                              char *const *values);

#endif
