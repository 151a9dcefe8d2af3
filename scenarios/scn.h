/* scenarios: the user flows zamcap replays on both builds, in the Chrome
 * DevTools Recorder's JSON format (what the Recorder panel exports and
 * @puppeteer/replay reads): loading and validating them, mapping their
 * URLs onto a build, and replaying them through cdp/ with real input.
 *
 * Ownership: scn_load's scenario is the caller's, freed with scn_free
 * (NULL is a no-op); strings from scn_map_url are the caller's. Other
 * arguments are borrowed. */
#ifndef SCN_H
#define SCN_H

#include <stddef.h>
#include <stdint.h>

#include "cdp.h"
#include "zc.h"

enum scn_type {
  SCN_SET_VIEWPORT,
  SCN_NAVIGATE,
  SCN_CLICK,
  SCN_DOUBLE_CLICK,
  SCN_HOVER,
  SCN_CHANGE,
  SCN_KEY_DOWN,
  SCN_KEY_UP,
  SCN_SCROLL,
  SCN_WAIT_ELEMENT,
  SCN_WAIT_EXPRESSION,
  SCN_CLOSE,           /* the end of the flow: nothing to do */
  SCN_EMULATE_NETWORK, /* DevTools' throttling, as the Recorder saw it */
};
const char *scn_type_name(enum scn_type t);

/* One alternative selector: a chain, each part looked up inside the
 * previous match (its shadow root, or its document for a frame). */
struct scn_selector {
  char **part;
  size_t n;
};

struct scn_step { /* read-only for users */
  enum scn_type type;
  unsigned index; /* in the file's "steps", from 0 */
  struct scn_selector *sel;
  size_t nsel;
  unsigned *frame; /* frame path: child indices from the main frame */
  size_t nframe;
  char *url, *value, *key, *expression;
  int button; /* 0 primary, 1 auxiliary, 2 secondary, 3 back, 4 forward */
  int has_offset;
  double offset_x, offset_y;
  double x, y; /* scroll */
  unsigned width, height;
  double scale;
  int mobile, touch;
  unsigned count;
  char op[3]; /* ">=", "==", "<=" */
  int visible;
  double timeout_ms; /* 0: the default */
  int wait_load;     /* assertedEvents has a navigation: wait for load */
  int start_page;    /* navigate: a new tab's own page (chrome://newtab),
                        the recording's start, not the app: skipped */
  int implicit;      /* navigate: added by zamcap to a flow that never
                        navigates; loads the build's URL, no step mark */
  double download, upload, latency; /* emulateNetworkConditions: bytes/s
                                       (-1: no limit), ms */
  double duration_ms; /* click: how long the button is held (a long press) */
  char *match;        /* waitForElement: {"attributes": {...}, "properties":
                         {...}} as JSON, every counted element must match; NULL */
};

/* A flow's parameter ("zamcap": {"parameters": {...}}; params.c): a
 * choice among values, an integer range (its scale log or linear), or a
 * string of a length range over an alphabet. Read-only for users. */
enum scn_param_kind { SCN_PARAM_CHOICE, SCN_PARAM_INT, SCN_PARAM_STRING };
struct scn_param {
  char *name;
  enum scn_param_kind kind;
  char **choice; /* choice: the values, in the file's order */
  size_t nchoice;
  long long lo, hi;        /* int: both ends in */
  int log;                 /* int: "scale": "log" */
  unsigned minlen, maxlen; /* string: its length in characters */
  char **alpha;            /* string: the alphabet, a character each */
  size_t nalpha;
  char *alphabet; /* string: as the file gives it */
};

struct scn_scenario {
  char *path, *title;
  struct scn_step *steps;
  size_t n;
  char *origin;   /* the first navigate's origin, "" if none */
  char **origins; /* the app's origins, mapped onto the build: the
                     first, other development hosts, --origin's */
  size_t norigins;
  size_t record_from; /* zamcap.recordFrom: first step traced */
  double settle_ms;   /* zamcap.settleMs; < 0 when not given */
  double timeout_ms;  /* the file's "timeout"; 0 when not given */
  /* Parameters (none: nparams 0) and the value of each this expansion's
   * {{name}}s were replaced with; the file's text, for scn_expand. */
  struct scn_param *params;
  size_t nparams;
  char **values;
  char *src;
  size_t srclen;
};

/* Reads and validates a Recorder JSON file. On error returns ZC_E_USAGE
 * and zc_errmsg() is one line: "FILE: step N (TYPE): what is wrong". */
enum zc_err scn_load(const char *path, struct scn_scenario **out);
void scn_free(struct scn_scenario *s);

/* ---- parameters (params.c) ---- */

/* As scn_load, with assign's "name=value"s (--param; n of them) in place
 * of the parameters' first values (a choice's first, a range's low end,
 * a string of the shortest length in the alphabet's first character).
 * {{name}} in a step's "value", "url" (percent-encoded there, as
 * encodeURIComponent does), "expression" and "selectors" is replaced
 * with the parameter's value; a {{name}} that names no parameter, a bad
 * parameter and a bad assignment are errors (ZC_E_USAGE, one line). */
enum zc_err scn_load_with(const char *path, const char *const *assign, size_t n,
                          struct scn_scenario **out);
/* The same flow with other values, one per parameter in s->params'
 * order (checked: a value outside its parameter is ZC_E_USAGE). */
enum zc_err scn_expand(const struct scn_scenario *s, const char *const *values,
                       struct scn_scenario **out);
/* Whether v is a value of p; 0 with why (cap bytes) saying why not. */
int scn_param_valid(const struct scn_param *p, const char *v, char *why,
                    size_t cap);
/* p's first value (caller frees). */
char *scn_param_first(const struct scn_param *p);
/* p in words: "one of 3 (shoes, red shoes, a)", "an integer from 10 to
 * 2000, log scale", "a string of 1 to 40 characters from \"ab -\"". */
void scn_param_text(const struct scn_param *p, char *out, size_t cap);
/* v as a number for plots: an integer's value, a string's length in
 * characters; NAN for a choice. */
double scn_param_number(const struct scn_param *p, const char *v);

/* ---- searching a flow's inputs (search.c) ---- */

/* How the next candidate is chosen (docs/cmd/zamcap-explore.md measures
 * them against each other):
 *  - cover: a pairwise covering design first, over a few levels of each
 *    parameter (every choice; a range's two ends and two points between;
 *    a string's shortest and longest, the longest holding every character
 *    of the alphabet), so that every combination of two levels is tried
 *    once; then an evolution of the fittest (tournament, uniform
 *    crossover, small mutations);
 *  - ga: PERFImpACT's genetic algorithm (seed 003 §4.3): 30 individuals,
 *    one-point crossover at 0.3, mutation at 0.1 a gene, the fittest 30
 *    of parents and offspring kept;
 *  - random: each parameter drawn uniformly (a log scale's in its log). */
enum scn_strategy { SCN_SEARCH_COVER, SCN_SEARCH_GA, SCN_SEARCH_RANDOM };
const char *scn_strategy_name(enum scn_strategy k);
/* 0 when s names no strategy. */
int scn_strategy_parse(const char *s, enum scn_strategy *out);

struct scn_search;
/* A search over p's n parameters (borrowed for its life), reproducible
 * for a seed; expect: about how many candidates the budget allows (the
 * covering design takes at most half of them; 0: no bound known). */
struct scn_search *scn_search_new(const struct scn_param *p, size_t n,
                                  enum scn_strategy k, uint64_t seed,
                                  unsigned expect);
void scn_search_free(struct scn_search *s);
/* The next candidate, never one tried before: *values gets one value per
 * parameter (the search's, valid until it is freed). Returns its number,
 * from 0, or -1 when every combination has been tried. */
long scn_search_next(struct scn_search *s, const char *const **values);
/* What candidate id measured: its fitness, larger worse (the new build's
 * time minus the old's); NAN when it could not be measured (it failed):
 * such a candidate is never a parent. */
void scn_search_tell(struct scn_search *s, long id, double fitness);

/* Adds the origin of url (http or https) to the app's; 0 if url has
 * none. */
int scn_add_origin(struct scn_scenario *s, const char *url);

/* A navigate URL mapped onto a build's base URL: a relative URL resolves
 * against base; an absolute one on one of the app's origins gets base's
 * origin (path and query kept); other origins stay. The result is at
 * most strlen(url) + strlen(base) + 1 bytes; NULL is returned only if
 * memory for that could not be had. */
char *scn_map_url(const struct scn_scenario *s, const char *url,
                  const char *base);

struct scn_replay_opts {
  const char *base_url;   /* the build */
  double step_timeout_ms; /* for steps without their own; default 30000 */
  const char *fail_dir;   /* where a failing step's screenshot goes */
  const char *fail_name;  /* file name prefix there, e.g. "run-2" */
  char *shot;             /* where the screenshot's path is written (shot_cap
                             bytes, "" when none was kept), or NULL */
  size_t shot_cap;
  /* Called once each step's mark is in the page, with the step's number
   * (from 1), before the step runs; NULL: nothing. What the page sent
   * zamcap before the mark's answer came before the mark (an I/O run,
   * agent/capture/io.c, tells its writes apart by step so). */
  void (*on_step)(void *arg, unsigned step);
  void *step_arg;
};

/* Gets a page ready for the scenario before tracing starts: the first
 * aria/ lookup switches on Chrome's accessibility tree for good, a
 * one-time cost that must not land in the trace. */
enum zc_err scn_prepare(struct cdp_page *p, const struct scn_scenario *s);

/* Replays steps [from, to) on a page. Each step starts with a user-timing
 * mark "zamcap:step:<index>:<type>" in the page (the last one ends with
 * "zamcap:end"). A failing step is an error naming its index, type and
 * selectors; a screenshot and the page's URL are kept in fail_dir. */
enum zc_err scn_replay(struct cdp_page *p, const struct scn_scenario *s,
                       size_t from, size_t to, const struct scn_replay_opts *o);

#endif
