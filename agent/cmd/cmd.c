/* The subcommands, for main.c to dispatch and for gendoc.c to document. */
#include <stddef.h>

#include "cmd.h"

const struct agent_cmd *const agent_cmds[] = {
    &agent_cmd_run,
    &agent_cmd_run_all,
    &agent_cmd_compare,
    &agent_cmd_record,
    &agent_cmd_tree,
    &agent_cmd_html,
    &agent_cmd_check,
    &agent_cmd_bisect,
    &agent_cmd_history,
    &agent_cmd_dashboard,
    NULL,
};
