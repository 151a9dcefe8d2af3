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
};

/* Reads and validates a Recorder JSON file. On error returns ZC_E_USAGE
 * and zc_errmsg() is one line: "FILE: step N (TYPE): what is wrong". */
enum zc_err scn_load(const char *path, struct scn_scenario **out);
void scn_free(struct scn_scenario *s);

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
