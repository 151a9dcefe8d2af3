/* zamcap check: a scenario validated as the main command would, and what
 * it will run, without a browser: for CI pipelines, before the night. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "scn.h"
#include "session.h"

/* Text from the file, shown escaped and cut to a line. */
static void check_show(const char *s) {
  size_t n = strlen(s);
  zc_term_put(stdout, s, n > 100 ? 100 : n);
  if (n > 100) fputs("...", stdout);
}

static void step_line(const struct scn_step *st) {
  if (st->implicit) {
    printf("    -  %-24s the build's URL  (added: the flow never "
           "navigates)\n",
           "navigate");
    return;
  }
  printf("  %3u  %-24s ", st->index + 1, scn_type_name(st->type));
  switch (st->type) {
  case SCN_NAVIGATE:
    check_show(st->url);
    if (st->start_page) fputs("  (a new tab's page: skipped)", stdout);
    break;
  case SCN_SET_VIEWPORT:
    printf("%u x %u%s", st->width, st->height, st->mobile ? ", mobile" : "");
    break;
  case SCN_KEY_DOWN:
  case SCN_KEY_UP: check_show(st->key); break;
  case SCN_WAIT_EXPRESSION: check_show(st->expression); break;
  case SCN_EMULATE_NETWORK:
    printf("download %.0f B/s, upload %.0f B/s, latency %.0f ms", st->download,
           st->upload, st->latency);
    break;
  default:
    for (size_t k = 0; k < st->nsel && k < 1; k++)
      for (size_t j = 0; j < st->sel[k].n; j++) {
        if (j) fputs(" >> ", stdout);
        check_show(st->sel[k].part[j]);
      }
    if (st->nsel > 1) printf("  (+%zu alternatives)", st->nsel - 1);
    if (st->type == SCN_CHANGE && st->value) {
      fputs("  = ", stdout);
      check_show(st->value);
    }
  }
  fputc('\n', stdout);
}

/* Where the app's origins go on one build. */
static void build_line(const char *name, const char *arg,
                       const struct scn_scenario *s) {
  if (!arg) return;
  struct stat st;
  int dir = stat(arg, &st) == 0 && S_ISDIR(st.st_mode);
  for (size_t i = 0; i < (s->norigins ? s->norigins : 1); i++) {
    printf("  %s: ", name);
    check_show(s->norigins ? s->origins[i] : "(relative URLs)");
    fputs(" -> ", stdout);
    check_show(arg);
    fputs(dir ? " (served by zamcap on 127.0.0.1)\n" : "\n", stdout);
  }
}

static int app_origin(const struct scn_scenario *s, const char *url) {
  for (size_t i = 0; i < s->norigins; i++)
    if (!strncmp(url, s->origins[i], strlen(s->origins[i])) &&
        strchr("/?#", url[strlen(s->origins[i])]))
      return 1;
  return 0;
}

static int check_exec(const struct agent_args *a) {
  if (a->noperands != 1)
    return agent_usage_error("check", "check wants one SCENARIO");
  struct scn_scenario *s = NULL;
  enum zc_err e = agent_load_scenario(a, a->operands[0], &s);
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  fputs("scenario ", stdout);
  check_show(s->title[0] ? s->title : a->operands[0]);
  size_t n = s->n, added = 0;
  for (size_t i = 0; i < s->n; i++)
    added += s->steps[i].implicit != 0;
  n -= added;
  printf(": %zu step%s, traced from step %u\n", n, n == 1 ? "" : "s",
         s->record_from < s->n ? s->steps[s->record_from].index + 1 : 1);
  for (size_t i = 0; i < s->n; i++)
    step_line(&s->steps[i]);
  /* The origins it navigates to: the first is the app's, mapped onto each
   * build; others stay as they are. */
  fputs("origins:\n", stdout);
  build_line("old", a->old, s);
  build_line("new", a->new_, s);
  if (!a->old && !a->new_)
    for (size_t i = 0; i < (s->norigins ? s->norigins : 1); i++) {
      fputs("  ", stdout);
      check_show(s->norigins ? s->origins[i] : "(relative URLs)");
      fputs(" -> the build given as --old/--new (or record's --url)\n", stdout);
    }
  for (size_t i = 0; i < s->n; i++) {
    const struct scn_step *st = &s->steps[i];
    if (st->type != SCN_NAVIGATE || st->start_page || st->implicit ||
        !strstr(st->url, "://") || app_origin(s, st->url))
      continue;
    printf("  step %u goes to ", st->index + 1);
    check_show(st->url);
    fputs(", another origin: left as it is on both builds (--origin maps "
          "it)\n",
          stdout);
  }
  scn_free(s);
  return ZC_EXIT_NONE;
}

const struct agent_cmd agent_cmd_check = {
    .name = "check",
    .bit = AGENT_CHECK,
    .usage = "usage: zamcap check SCENARIO [--old URL|DIR] [--new URL|DIR]",
    .about = "Checks a DevTools Recorder scenario as the main command would, "
             "without a\nbrowser, and prints what it will run: each step, "
             "and the origins it\nnavigates to with where each build "
             "takes them.\n",
    .after = NULL,
    .exec = check_exec,
};
