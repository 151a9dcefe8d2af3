/* cmd: zamcap's commands, one file each (cmd-run.c, cmd-compare.c, ...,
 * as tmux's cmd-*.c), and the table that lists them (cmd.c). This is the only
 * room of agent/ that knows every other: cli/ (the options), session/ (builds,
 * Chrome, pairs), history/ (the database), outbox/ (attach, trackers). Nothing
 * below uses it.
 *
 * To add a command (git's builtin.h says the same of its own):
 *  1. Write cmd/cmd-NAME.c with a static NAME_exec(const struct agent_args *)
 *     that returns the exit code, and a const struct agent_cmd
 *     agent_cmd_NAME with its name, its bit, usage, about and after texts.
 *  2. Give it a bit in cli.h's AGENT_* list (and in AGENT_ALL), in
 *     cli/opts.c mark the option rows it takes with that bit (new options:
 *     new rows there), and in cli/exits.c the exit codes it gives, with
 *     its own words for them where the table's do not fit.
 *  3. Declare agent_cmd_NAME below and add it to agent_cmds[] in cmd.c,
 *     in the place --help should list it; add cmd-NAME.c to zc_cmd in
 *     CMakeLists.txt.
 *  4. Write docs/cmd/zamcap-NAME.md with the sections of the other pages
 *     and their generated parts (<!-- gendoc synopsis|options|exits NAME
 *     -->), run build/zamcap-gendoc md docs to fill them, link the page
 *     from the READMEs, and write a test. test_docs checks the page
 *     against the command's --help.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_CMD_H
#define AGENT_CMD_H

#include "cli.h"

struct agent_session;

extern const struct agent_cmd agent_cmd_run, agent_cmd_compare,
    agent_cmd_record, agent_cmd_tree, agent_cmd_html, agent_cmd_check,
    agent_cmd_bisect, agent_cmd_history, agent_cmd_run_all, agent_cmd_dashboard;
/* Every command, in the order --help lists them; NULL at the end. */
extern const struct agent_cmd *const agent_cmds[];

/* Registers every secret the options give (cli's URLs, the outbox's),
 * before anything is printed. */
void agent_args_secrets(const struct agent_args *a);

/* --history as zamcap takes it (a postgresql:// URI or a SQLite file),
 * and, with --tracker, a default history it may use; checked for every
 * command before anything starts. Returns 0, or 2 after the usage
 * error. */
int agent_history_check(const char *cmd, const struct agent_args *a);

/* The main command's options that need each other (both builds, a
 * --quorum within the pairs, the outbox's), checked before anything
 * starts, for run and run-all (cmd: "run-all", NULL for the main
 * command). Returns 0, or 2 after the usage error. */
int agent_run_check(const char *cmd, const struct agent_args *a);

/* What happens to a comparison's reports once they are in out (publish.c),
 * for run, run-all, compare and bisect alike: */
/* records out/report.json in the history the options name (--history,
 * else the default; nothing with --no-history); from: a run folder whose
 * report.json gives the inputs, or NULL. Returns the run's id, 0 when not
 * recorded. */
long long agent_record(const struct agent_args *a, const char *out,
                       const char *from, const char *command);
/* records zamcap bisect's report (doc, its reports in out) in the
 * history the options name, as agent_record does a comparison; returns
 * the bisection's id, 0 when not recorded. */
struct cJSON;
long long agent_record_bisect(const struct agent_args *a, const char *out,
                              const struct cJSON *doc);
/* --attach: uploads the reports in out; returns rc as the upload changes
 * it. */
int agent_upload(const struct agent_args *a, const char *out, int rc);
/* All three for a session's folder: recorded in the history, filed in
 * the tracker (--tracker), uploaded (--attach). Returns rc as they change
 * it. */
int agent_publish(struct agent_session *s, const struct agent_args *a, int rc);

#endif
