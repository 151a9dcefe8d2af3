/* --changes GOOD..BAD (seed 003's second half): the changes between two
 * releases, read from git, each hunk mapped to the function of BAD's
 * version of its file that holds it (analysis' ana_js_functions), with
 * the commits of the range that touched its lines; the session's
 * comparison then ranks them by their impact sets (ana_cmp_set_changes).
 *
 * git runs with flags that keep a user's config from changing what is
 * read (no external diff or textconv, fixed prefixes, paths unquoted,
 * no colour, no blame ignore-revs file). */
#define _GNU_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "session.h"

enum { MAX_FILE = 16 << 20, MAX_COMMITS = 64, MAX_HOLDERS = 64 };

/* A hunk of the diff: its file (pointing into the diff's text), its new
 * side's lines, a deletion when it added none. */
struct dhunk {
  const char *file;
  int32_t first, last;
  int deletion;
};

/* A change being made: the function (an index into its file's functions,
 * -1 outside them), its hunks and commits. */
struct pending {
  const char *file;
  long fn;
  struct ana_hunk *h;
  unsigned nh;
  char **commits;
  unsigned ncommits;
};

/* A script of the diff and its functions in BAD. */
struct sfile {
  const char *path;
  struct ana_js_fn *fn;
  unsigned n;
};

struct agent_changes {
  char *range, *strip, *diff;
  struct sfile *f;
  unsigned nf;
  struct pending *p;
  unsigned np;
  struct ana_change *v; /* what the comparisons are given */
};

void agent_changes_free(struct agent_changes *ch) {
  if (!ch) return;
  for (unsigned i = 0; i < ch->np; i++) {
    free(ch->p[i].h);
    for (unsigned k = 0; k < ch->p[i].ncommits; k++)
      free(ch->p[i].commits[k]);
    free(ch->p[i].commits);
  }
  free(ch->p);
  for (unsigned i = 0; i < ch->nf; i++)
    ana_js_functions_free(ch->f[i].fn, ch->f[i].n);
  free(ch->f);
  free(ch->v);
  free(ch->range);
  free(ch->strip);
  free(ch->diff);
  free(ch);
}

/* git -C repo ARGS... (NULL-terminated), its output in *out (caller
 * frees); the exit code, -1 when it could not run. */
static int git_out(const char *repo, char **out, const char *const *args) {
  char *argv[24] = {"git", "-C", (char *)repo, "-c", "core.quotePath=false"};
  size_t n = 5;
  for (; *args && n < ZC_ARRAY_LEN(argv) - 1; args++)
    argv[n++] = (char *)*args;
  argv[n] = NULL;
  int st = -1;
  *out = NULL;
  if (agent_exec(argv, NULL, NULL, NULL, out, MAX_FILE, &st)) {
    free(*out);
    *out = zc_xstrdup("");
    return -1;
  }
  return st;
}

/* The hunks of git diff -U0 (new side); files point into text. */
static unsigned parse_hunks(char *text, struct dhunk **out) {
  struct dhunk *h = NULL;
  size_t n = 0, cap = 0;
  const char *file = NULL;
  for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
    if (!strncmp(l, "+++ ", 4)) {
      file = !strncmp(l + 4, "b/", 2) ? l + 6 : NULL; /* /dev/null: gone */
      continue;
    }
    char *p = strstr(l, " +");
    if (strncmp(l, "@@ ", 3) || !file || !p) continue;
    long first = strtol(p + 2, &p, 10), count = 1;
    if (*p == ',') count = strtol(p + 1, NULL, 10);
    ZC_GROW(h, cap, n + 1);
    h[n++] = (struct dhunk){.file = file,
                            .first = (int32_t)first,
                            .last = (int32_t)(first + (count ? count : 1) - 1),
                            .deletion = count == 0};
  }
  *out = h;
  return (unsigned)n;
}

static int is_script(const char *f) {
  static const char *const ext[] = {".js", ".mjs", ".cjs", ".jsx",
                                    ".ts", ".mts", ".cts", ".tsx"};
  size_t n = strlen(f);
  for (size_t k = 0; k < ZC_ARRAY_LEN(ext); k++) {
    size_t e = strlen(ext[k]);
    if (n > e && !strcmp(f + n - e, ext[k])) return 1;
  }
  return 0;
}

/* The change of (file, fn), made when there is none yet. */
static struct pending *pending_of(struct agent_changes *ch, const char *file,
                                  long fn) {
  for (unsigned i = 0; i < ch->np; i++)
    if (ch->p[i].fn == fn && !strcmp(ch->p[i].file, file)) return &ch->p[i];
  ch->p = zc_xreallocarray(ch->p, ch->np + 1, sizeof *ch->p);
  ch->p[ch->np] = (struct pending){.file = file, .fn = fn};
  return &ch->p[ch->np++];
}

static void add_hunk(struct pending *p, const struct dhunk *d) {
  p->h = zc_xreallocarray(p->h, p->nh + 1, sizeof *p->h);
  p->h[p->nh++] =
      (struct ana_hunk){.file = p->file, .first = d->first, .last = d->last};
}

static void add_commit(struct pending *p, const char *sha, size_t n) {
  for (unsigned k = 0; k < p->ncommits; k++)
    if (strlen(p->commits[k]) == n && !strncmp(p->commits[k], sha, n)) return;
  if (p->ncommits >= MAX_COMMITS) return;
  p->commits =
      zc_xreallocarray(p->commits, p->ncommits + 1, sizeof *p->commits);
  p->commits[p->ncommits++] = zc_xstrndup(sha, n);
}

static int in_list(char *const *v, unsigned n, const char *sha) {
  for (unsigned k = 0; k < n; k++)
    if (!strncmp(v[k], sha, 40)) return 1;
  return 0;
}

/* The commits of good..bad that last touched the hunk's lines (git
 * blame; a line from before good is the boundary's, not the range's), or
 * for a deletion, those that touched its file. */
static void hunk_commits(const char *repo, const char *good, const char *bad,
                         const struct dhunk *d, struct pending *p) {
  char lines[64], range[600], *out;
  snprintf(lines, sizeof lines, "%d,%d", d->first, d->last);
  snprintf(range, sizeof range, "%s..%s", good, bad);
  const char *blame[] = {"blame",
                         "--porcelain",
                         "--no-textconv",
                         "--ignore-revs-file",
                         "",
                         "-L",
                         lines,
                         range,
                         "--",
                         d->file,
                         NULL};
  const char *log[] = {"log", "--no-merges", "--no-color", "--format=%H",
                       range, "--",          d->file,      NULL};
  int st = git_out(repo, &out, d->deletion ? log : blame);
  /* porcelain: a line "SHA ORIG FINAL [N]" per group of lines, and the
   * first time a commit comes, its fields ("boundary" among them) */
  char *seen[256], *bound[64], *last = NULL;
  unsigned ns = 0, nb = 0;
  for (char *l = st == 0 ? strtok(out, "\n") : NULL; l;
       l = strtok(NULL, "\n")) {
    size_t n = strspn(l, "0123456789abcdef");
    if (n == 40 && (l[40] == ' ' || l[40] == '\0')) {
      last = l;
      if (ns < ZC_ARRAY_LEN(seen) && !in_list(seen, ns, l)) seen[ns++] = l;
    } else if (!strcmp(l, "boundary") && last && nb < ZC_ARRAY_LEN(bound)) {
      bound[nb++] = last;
    }
  }
  for (unsigned k = 0; k < ns; k++)
    if (!in_list(bound, nb, seen[k])) add_commit(p, seen[k], 40);
  free(out);
}

/* BAD's version of a script of the diff and its functions (none when it
 * cannot be read: its hunks are then outside functions). */
static const struct sfile *script_of(struct agent_changes *ch, const char *repo,
                                     const char *bad, const char *path) {
  for (unsigned i = 0; i < ch->nf; i++)
    if (!strcmp(ch->f[i].path, path)) return &ch->f[i];
  ch->f = zc_xreallocarray(ch->f, ch->nf + 1, sizeof *ch->f);
  struct sfile *f = &ch->f[ch->nf++];
  *f = (struct sfile){.path = path};
  char spec[4200], *text;
  snprintf(spec, sizeof spec, "%s:%s", bad, path);
  const char *show[] = {"show", "--no-textconv", "--no-color", spec, NULL};
  if (git_out(repo, &text, show) == 0)
    f->n = ana_js_functions(text, strlen(text), &f->fn);
  else
    zc_log(1,
           "warning: --changes: %s cannot be read at %s; its hunks are "
           "counted outside functions",
           path, bad);
  free(text);
  return f;
}

/* Each hunk to the changes of the functions holding it; the lines in
 * none to the file's change outside functions. */
static void map_hunk(struct agent_changes *ch, const char *repo,
                     const char *good, const char *bad, const struct dhunk *d) {
  long at[MAX_HOLDERS];
  unsigned n = 0;
  int outside = 1;
  if (is_script(d->file)) {
    const struct sfile *f = script_of(ch, repo, bad, d->file);
    n = ana_js_holders(f->fn, f->n, d->first, d->last, d->deletion, at,
                       MAX_HOLDERS, &outside);
  }
  for (unsigned k = 0; k <= n; k++) {
    if (k == n && !outside) break;
    struct pending *p = pending_of(ch, d->file, k < n ? at[k] : -1);
    add_hunk(p, d);
    hunk_commits(repo, good, bad, d, p);
  }
}

/* The comparisons' changes, from the pending ones. */
static void make_changes(struct agent_changes *ch) {
  ch->v = zc_xcalloc(ch->np + 1, sizeof *ch->v);
  for (unsigned i = 0; i < ch->np; i++) {
    const struct pending *p = &ch->p[i];
    const struct ana_js_fn *fn = NULL;
    for (unsigned k = 0; p->fn >= 0 && k < ch->nf; k++)
      if (!strcmp(ch->f[k].path, p->file)) fn = &ch->f[k].fn[p->fn];
    ch->v[i] = (struct ana_change){.file = p->file,
                                   .function = fn ? fn->name : NULL,
                                   .line = fn ? fn->line : 0,
                                   .end = fn ? fn->end : 0,
                                   .hunks = p->h,
                                   .nhunks = p->nh,
                                   .commits = (const char *const *)p->commits,
                                   .ncommits = p->ncommits};
  }
}

/* The new build's folder inside the repository, as a path there: the
 * leading folder its served paths lack ("dist"); NULL when it is not
 * one (a URL, a folder elsewhere, the repository itself). */
static char *strip_of(const char *repo, const struct agent_build *b) {
  char r[PATH_MAX], d[PATH_MAX];
  struct stat st;
  if (!b || stat(b->arg, &st) || !S_ISDIR(st.st_mode) || !realpath(repo, r) ||
      !realpath(b->arg, d))
    return NULL;
  size_t n = strlen(r);
  if (strncmp(d, r, n) || d[n] != '/') return NULL;
  return zc_xstrdup(d + n + 1);
}

static void set_on(void *arg, struct ana_cmp *c) {
  const struct agent_changes *ch = arg;
  ana_cmp_set_changes(c, ch->v, ch->np, ch->range, ch->strip);
}

/* GOOD and BAD as commits of the repository; 0 or the exit code. */
static int check_range(const char *repo, const char *good, const char *bad) {
  const char *ends[2] = {good, bad};
  for (int k = 0; k < 2; k++) {
    char spec[600], *out;
    snprintf(spec, sizeof spec, "%s^{commit}", ends[k]);
    const char *rp[] = {"rev-parse", "--verify", "--quiet", spec, NULL};
    int st = git_out(repo, &out, rp);
    free(out);
    if (st != 0)
      return agent_usage_error(NULL, "--changes: %s is no commit of %s%s",
                               ends[k], repo,
                               st < 0 ? " (is git installed?)" : "");
  }
  return 0;
}

int agent_changes_read(const struct agent_args *a,
                       const struct agent_build *newb,
                       struct agent_changes **out) {
  *out = NULL;
  if (!a->changes) return 0;
  const char *dots = strstr(a->changes, "..");
  if (!dots || dots == a->changes || !dots[2] || dots[2] == '.' ||
      dots - a->changes >= 256 || strlen(dots + 2) >= 256)
    return agent_usage_error(NULL, "--changes wants GOOD..BAD, not '%s'",
                             a->changes);
  char good[256], bad[256];
  snprintf(good, sizeof good, "%.*s", (int)(dots - a->changes), a->changes);
  snprintf(bad, sizeof bad, "%s", dots + 2);
  const char *repo = a->repo ? a->repo : ".";
  int rc = check_range(repo, good, bad);
  if (rc) return rc;
  struct agent_changes *ch = zc_xcalloc(1, sizeof *ch);
  ch->range = zc_xstrdup(a->changes);
  if (agent_git_diff(repo, good, bad, &ch->diff)) {
    zc_error("--changes: %s", zc_errmsg());
    agent_changes_free(ch);
    return ZC_EXIT_USAGE;
  }
  struct dhunk *h = NULL;
  unsigned nh = parse_hunks(ch->diff, &h);
  for (unsigned i = 0; i < nh; i++)
    map_hunk(ch, repo, good, bad, &h[i]);
  free(h);
  make_changes(ch);
  ch->strip = strip_of(repo, newb);
  unsigned fns = 0;
  for (unsigned i = 0; i < ch->np; i++)
    fns += ch->v[i].function != NULL;
  zc_log(1,
         "--changes %s: %u hunk%s in %u changed function%s and %u part%s "
         "outside functions",
         a->changes, nh, nh == 1 ? "" : "s", fns, fns == 1 ? "" : "s",
         ch->np - fns, ch->np - fns == 1 ? "" : "s");
  *out = ch;
  return 0;
}

void agent_changes_attach(struct agent_changes *ch, struct agent_session *s) {
  if (ch && s) agent_session_on_cmp(s, set_on, ch);
}
