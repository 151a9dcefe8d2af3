/* zamcap installed as a Unix tool (issue 27): cmake --install into a
 * temporary prefix under DESTDIR, the installed binary's --version, its man
 * page (rendered by man, no groff warning), the bash and zsh completions,
 * the systemd examples, the README and the manual (docs/); and the Debian
 * package, installed with dpkg -i, run from /usr/bin and removed with
 * dpkg -r (root only: skipped otherwise). Every long option of the option
 * table must be in the man page and be offered by the completions of each
 * command that takes it. ZC_BUILD is the build folder the suite runs in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "test.h"

#define PREFIX_NAME "zc-test-prefix"
#define PREFIX      "/" PREFIX_NAME

static const char *build_dir(void) {
  const char *b = getenv("ZC_BUILD");
  return b ? b : "build";
}

/* The build folder's own zamcap --version, which every installed copy
 * must print too. */
static char *built_version(void) {
  char *v = NULL;
  ZT_INT(zt_run_zamcap(&v, "--version"), 0);
  return v;
}

/* Builds what is installed and installs it once, with DESTDIR set, into
 * PREFIX; returns the folder PREFIX landed in, or NULL. */
static const char *installed(void) {
  static char root[4096];
  static int done;
  if (done) return done > 0 ? root : NULL;
  done = -1;
  snprintf(root, sizeof root, "%s", zt_tmp("dest" PREFIX));
  char *out = NULL;
  int rc =
      zt_sh(&out, "cmake --build '%s' --target zamcap zamcap-doc", build_dir());
  if (!ZT_INT(rc, 0)) fprintf(stderr, "%s", out);
  free(out);
  rc = zt_sh(&out, "DESTDIR='%s' cmake --install '%s' --prefix " PREFIX,
             zt_tmp("dest"), build_dir());
  if (!ZT_INT(rc, 0)) fprintf(stderr, "%s", out);
  free(out);
  if (rc == 0) done = 1;
  return done > 0 ? root : NULL;
}

static void test_install(void) {
  const char *p = installed();
  if (!p) return;
  /* DESTDIR honoured: everything is under DESTDIR/PREFIX. */
  char *out = NULL;
  ZT_INT(zt_sh(&out, "ls -A '%s'", zt_tmp("dest")), 0);
  ZT_STR(out, PREFIX_NAME "\n");
  free(out);
  char *want = built_version();
  ZT_HAS(want, "(commit ");
  ZT_INT(zt_sh(&out, "'%s/bin/zamcap' --version", p), 0);
  ZT_STR(out, want);
  free(out);
  free(want);
  static const char *const files[] = {
      "share/man/man1/zamcap.1",
      "share/bash-completion/completions/zamcap",
      "share/zsh/site-functions/_zamcap",
      "share/doc/zamcap/README.md",
      "share/doc/zamcap/docs/README.md",
      "share/doc/zamcap/docs/cmd/zamcap-run.md",
  };
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    ZT_INT(zt_sh(NULL, "test -s '%s/%s'", p, files[i]), 0);
  /* The units of dist/, running the installed binary, not DESTDIR's. */
  char *unit = zt_read(zt_tmp("dest" PREFIX "/share/doc/zamcap/examples/"
                              "zamcap-nightly.service"));
  ZT_HAS(unit, "[Service]");
  ZT_HAS(unit, "\nExecStart=" PREFIX "/bin/zamcap ");
  free(unit);
  unit = zt_read(
      zt_tmp("dest" PREFIX "/share/doc/zamcap/examples/zamcap-nightly.timer"));
  ZT_HAS(unit, "[Timer]");
  free(unit);
}

/* The installed man page renders, with no warning from groff -ww or man,
 * and holds every section and every long option. */
static void test_man(void) {
  const char *p = installed();
  if (!p) return;
  const char *page = zt_tmp("dest" PREFIX "/share/man/man1/zamcap.1");
  char *out = NULL;
  ZT_INT(zt_sh(&out, "groff -ww -man -Tutf8 '%s' >/dev/null", page), 0);
  ZT_STR(out, "");
  free(out);
  ZT_INT(zt_sh(&out, "man --warnings -l '%s' >/dev/null", page), 0);
  ZT_STR(out, "");
  free(out);
  ZT_INT(zt_sh(&out, "MANWIDTH=80 man -l '%s'", page), 0);
  static const char *const sections[] = {
      "NAME",        "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS",
      "ENVIRONMENT", "FILES",    "EXAMPLES",    "SEE ALSO"};
  for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
    char line[64];
    snprintf(line, sizeof line, "\n%s\n", sections[i]);
    ZT_HAS(out, line);
  }
  for (size_t i = 0; agent_cmds[i]; i++) {
    char head[64];
    snprintf(head, sizeof head, "\n   zamcap %s\n", agent_cmds[i]->name);
    ZT_HAS(out, head);
  }
  struct agent_optdoc o;
  for (size_t i = 0; agent_option_doc(i, &o); i++) {
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", o.name);
    ZT_HAS(out, opt);
  }
  free(out);
}

/* bash offers each command's options, exactly those of the table. */
static void test_bash(void) {
  const char *p = installed();
  if (!p) return;
  for (size_t c = 0; agent_cmds[c]; c++) {
    char *out = NULL;
    ZT_INT(zt_sh(&out,
                 "bash -c 'source \"$0\"; COMP_WORDS=(zamcap %s --); "
                 "COMP_CWORD=2; _zamcap; printf \"%%s\\n\" "
                 "\"${COMPREPLY[@]}\"' "
                 "'%s/share/bash-completion/completions/zamcap'",
                 agent_cmds[c]->name, p),
           0);
    /* one offer a line; a newline first, so that each is "\n--name\n" */
    char all[8192];
    snprintf(all, sizeof all, "\n%s", out ? out : "");
    struct agent_optdoc o;
    size_t n = 0;
    for (size_t i = 0; agent_option_doc(i, &o); i++) {
      if (!(o.cmds & agent_cmds[c]->bit)) continue;
      char line[64];
      snprintf(line, sizeof line, "\n--%s\n", o.name);
      if (!strstr(all, line))
        zt_fail_at(__FILE__, __LINE__, "zamcap %s --<TAB> offers no --%s",
                   agent_cmds[c]->name, o.name);
      n++;
    }
    /* and nothing else: one line per long option */
    size_t lines = 0;
    for (const char *s = all; (s = strstr(s, "\n--")); s += 3)
      lines++;
    ZT_INT(lines, n);
    free(out);
  }
}

/* zsh reads the completion, which names every long option. */
static void test_zsh(void) {
  if (zt_sh(NULL, "command -v zsh") != 0) {
    zt_skip("zsh is not installed (tests/setup.sh --test installs it)");
    return;
  }
  const char *p = installed();
  if (!p) return;
  char *out = NULL;
  ZT_INT(zt_sh(&out, "zsh -n '%s/share/zsh/site-functions/_zamcap'", p), 0);
  ZT_STR(out, "");
  free(out);
  char *z = zt_read(zt_tmp("dest" PREFIX "/share/zsh/site-functions/_zamcap"));
  ZT_HAS(z, "#compdef zamcap\n");
  struct agent_optdoc o;
  for (size_t i = 0; agent_option_doc(i, &o); i++) {
    char opt[64];
    snprintf(opt, sizeof opt, "--%s%s[", o.name, o.arg ? "=" : "");
    ZT_HAS(z, opt);
  }
  free(z);
}

/* dpkg-query's Status of a package, "" when dpkg knows none. */
static char *pkg_status(const char *pkg) {
  char *out = NULL;
  zt_sh(&out, "dpkg-query -W -f='${Status}' %s 2>/dev/null", pkg);
  return out;
}

/* Why the .deb cannot be tried on this machine, or NULL. */
static const char *deb_blocked(void) {
  if (geteuid() != 0)
    return "not root: dpkg -i needs root (CI runs the suite as root)";
  if (zt_sh(NULL, "command -v dpkg-shlibdeps") != 0)
    return "dpkg-shlibdeps is not installed (tests/setup.sh --test installs "
           "dpkg-dev)";
  char *s = pkg_status("chromium");
  int chromium = s && strstr(s, "install ok installed");
  free(s);
  if (!chromium) return "chromium is not installed: the package depends on it";
  s = pkg_status("zamcap");
  int mine = s && *s && !strstr(s, "not-installed");
  free(s);
  if (mine || access("/usr/bin/zamcap", F_OK) == 0)
    return "zamcap is installed on this machine: the test would replace it "
           "and remove it";
  return NULL;
}

static void test_deb(void) {
  const char *why = deb_blocked();
  if (why) {
    zt_skip(why);
    return;
  }
  char *out = NULL, deb[4096];
  int rc =
      zt_sh(&out, "cmake --build '%s' --target zamcap zamcap-doc", build_dir());
  free(out);
  if (!ZT_INT(rc, 0)) return;
  rc = zt_sh(&out, "cpack -G DEB --config '%s/CPackConfig.cmake' -B '%s'",
             build_dir(), zt_tmp("deb"));
  if (!ZT_INT(rc, 0)) {
    fprintf(stderr, "%s", out);
    free(out);
    return;
  }
  free(out);
  ZT_INT(zt_sh(&out, "ls '%s'/zamcap_*.deb", zt_tmp("deb")), 0);
  snprintf(deb, sizeof deb, "%.*s", (int)strcspn(out ? out : "", "\n"),
           out ? out : "");
  free(out);
  ZT_INT(zt_sh(&out, "dpkg-deb -f '%s' Depends Recommends", deb), 0);
  ZT_HAS(out, "chromium");
  ZT_HAS(out, "libc6 (>=");
  ZT_HAS(out, "libwebsockets");
  ZT_HAS(out, "libcjson");
  ZT_HAS(out, "Recommends: graphviz");
  free(out);
  rc = zt_sh(&out, "dpkg -i '%s'", deb);
  if (!ZT_INT(rc, 0)) fprintf(stderr, "%s", out);
  free(out);
  char *want = built_version();
  ZT_INT(zt_sh(&out, "/usr/bin/zamcap --version"), 0);
  ZT_STR(out, want);
  free(out);
  free(want);
  ZT_INT(zt_sh(&out, "man -w zamcap"), 0);
  ZT_HAS(out, "/usr/share/man/man1/zamcap.1");
  free(out);
  /* Where Debian's zsh and bash-completion look for a package's. */
  ZT_INT(zt_sh(NULL, "test -s /usr/share/zsh/vendor-completions/_zamcap"), 0);
  ZT_INT(zt_sh(NULL, "test -s /usr/share/bash-completion/completions/zamcap"),
         0);
  char *unit = zt_read("/usr/share/doc/zamcap/examples/zamcap-nightly.service");
  ZT_HAS(unit, "\nExecStart=/usr/bin/zamcap ");
  free(unit);
  /* Removed whatever failed above, and removed cleanly. */
  rc = zt_sh(&out, "dpkg -r zamcap");
  if (!ZT_INT(rc, 0)) fprintf(stderr, "%s", out);
  free(out);
  ZT_TRUE(access("/usr/bin/zamcap", F_OK) != 0);
  ZT_TRUE(access("/usr/share/man/man1/zamcap.1", F_OK) != 0);
  char *s = pkg_status("zamcap");
  ZT_TRUE(!s || !*s || strstr(s, "not-installed"));
  free(s);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"install", test_install}, {"man", test_man}, {"bash", test_bash},
      {"zsh", test_zsh},         {"deb", test_deb},
  };
  return ZT_RUN(cases, argc, argv);
}
